/**
 * Every command of docs/eval.md's ```sh blocks, run as written in order in a scratch folder, with the scripted model
 * server standing in for Ollama: the test sets `MODEL_URL` and `MODEL` itself (the blocks' `export` lines name a
 * real server), `npx seahaven` runs this checkout's command, and the ports the docs name are swapped for free ones.
 * A plain `npx seahaven …` runs in process (packages/seahaven/core/test/cli-in-process.ts), its words split and `$VAR`s expanded as the
 * shell would; other lines run in bash. A command ending in `&` and `eval --serve` keep running, as children of
 * packages/seahaven/bin/seahaven.mjs; the test waits until they answer, and stops them at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { seahaven } from '../../core/test/cli-in-process.ts';
import crm from '../../../../worlds/crm/index.ts';
import { startScriptedModel } from './scripted-model.ts';
import { compiledBin } from '../../core/test/compiled-copy.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
// The command line, compiled for the test suite (core/test/compiled-copy.ts).
const bin = compiledBin().join(' ');

function shCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of m[1].split('\n'))
      if (line.trim() !== '' && !line.trim().startsWith('#')) out.push(line.trim());
  }
  return out;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const background: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'seahaven-eval-docs-'));
afterAll(() => {
  for (const p of background) if (p.exitCode === null) process.kill(-p.pid!, 'SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

function run(
  command: string,
  env: Record<string, string>,
  keep: boolean,
): Promise<{ status: number | null; out: string; proc: ChildProcess }> {
  return new Promise((resolve) => {
    const proc = spawn('bash', ['-c', command.replace(/&$/, '')], {
      cwd: scratch,
      env: { ...process.env, ...env },
      detached: true,
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    if (keep) {
      background.push(proc);
      resolve({ status: null, out: '', proc });
    } else proc.on('close', (status) => resolve({ status, out, proc }));
  });
}

/**
 * The arguments of a plain `npx seahaven …` line (words, "double-quoted" and 'single-quoted' ones, `$VAR` and `"$VAR"`
 * expanded from `env`), or undefined for a line that needs a shell (pipes, redirections, `&`, `;`, globs).
 */
function seahavenArgs(line: string, env: Record<string, string>): string[] | undefined {
  if (!line.startsWith('npx seahaven ') || /[|&;<>*?`()]/.test(line)) return undefined;
  const expand = (w: string) =>
    w.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, name: string) => env[name] ?? '');
  const words: string[] = [];
  for (const m of line.slice('npx seahaven '.length).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(m[2] ?? expand(m[1] ?? m[3]));
  return words;
}

async function answers(url: string): Promise<boolean> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(url)).status < 500) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

it('runs every command of docs/eval.md against a local OpenAI-compatible server', async () => {
  const model = await startScriptedModel({
    world: crm,
    good: (task, _s, trial) => task !== 'log_call' || trial % 2 === 0,
  });
  try {
    const commands = shCommands(readFileSync(join(root, 'docs/eval.md'), 'utf8'));
    expect(commands.length).toBeGreaterThanOrEqual(8);
    const env = { MODEL_URL: model.url, MODEL: 'scripted', OPENAI_API_KEY: '', HF_TOKEN: '' };
    const ports = new Map<string, number>();
    for (const written of commands) {
      if (/^export (MODEL_URL|MODEL)=/.test(written)) continue;
      let line = written;
      for (const p of written.match(/--port (\d+)/g) ?? []) {
        const n = p.split(' ')[1];
        if (!ports.has(n)) ports.set(n, await freePort());
        line = line.replaceAll(p, `--port ${ports.get(n)}`);
      }
      for (const [n, free] of ports) line = line.replaceAll(`127.0.0.1:${n}`, `127.0.0.1:${free}`);
      const command = line.replaceAll('npx seahaven', `${process.execPath} ${bin}`);
      const served = /--serve|&$/.test(written);
      const args = served ? undefined : seahavenArgs(line, env);
      if (args) {
        const r = await seahaven(args, { cwd: scratch, env });
        expect(r.status, `${written}\n${r.stdout}${r.stderr}`).toBe(0);
        continue;
      }
      const r = await run(command, env, served);
      if (served) {
        const port = ports.get(/--port (\d+)/.exec(written)![1])!;
        const path = written.includes('--serve') ? '/eval/report.html' : '/health';
        expect(await answers(`http://127.0.0.1:${port}${path}`), `${written} never answered`).toBe(
          true,
        );
        if (written.includes('--serve'))
          expect(await (await fetch(`http://127.0.0.1:${port}/eval/report.html`)).text()).toContain(
            'scripted on crm',
          );
        continue;
      }
      expect(r.status, `${written}\n${r.out}`).toBe(0);
    }
    const summary = JSON.parse(readFileSync(join(scratch, 'runs/first/eval.json'), 'utf8'));
    expect(
      summary.tasks.map((t: { task: string; successes: number }) => [t.task, t.successes]),
    ).toEqual([
      ['add_lead', 4],
      ['log_call', 2],
      ['add_company', 4],
    ]);
    const lines = readFileSync(join(scratch, 'runs/first/results.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(10);
    expect(
      JSON.parse(readFileSync(join(scratch, 'runs/served/eval.json'), 'utf8')).settings.url,
    ).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await model.close();
  }
}, 240_000);
