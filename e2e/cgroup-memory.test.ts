import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireProbe, callFrame, wsUrlOf } from 'seahaven/internal/transports/serve/wire-probe';

// `seahaven serve stripe` in a memory-limited cgroup (1.5 GiB): a fork storm and a big_co reset storm get
// RESOURCE_EXHAUSTED refusals from the memory budget (which the server reads from the cgroup) instead of an OOM kill.
// It needs root and a writable cgroup hierarchy (v2, or v1's memory controller), so it runs only when asked:
//   SEAHAVEN_CGROUP_TEST=1 npx vitest run e2e/cgroup-memory.test.ts
// and never in CI.

const LIMIT = 1536 * 1024 * 1024;
const BIN = fileURLToPath(new URL('../packages/seahaven/bin/seahaven.mjs', import.meta.url));

/** A fresh cgroup limited to `LIMIT`, as [its directory, the file its processes are written to]; or why there is none. */
function makeCgroup(): { dir: string; procs: string } | string {
  if (process.env.CI) return 'CI is set';
  if (process.env.SEAHAVEN_CGROUP_TEST !== '1') return 'SEAHAVEN_CGROUP_TEST=1 is not set';
  if (process.getuid?.() !== 0) return 'not root';
  const name = `seahaven-test-${process.pid}`;
  try {
    const v2 =
      existsSync('/sys/fs/cgroup/cgroup.controllers') &&
      readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('memory');
    const dir = v2 ? `/sys/fs/cgroup/${name}` : `/sys/fs/cgroup/memory/${name}`;
    if (!v2 && !existsSync('/sys/fs/cgroup/memory'))
      return 'no cgroup memory controller (v2 or v1) here';
    mkdirSync(dir);
    writeFileSync(`${dir}/${v2 ? 'memory.max' : 'memory.limit_in_bytes'}`, String(LIMIT));
    return { dir, procs: `${dir}/cgroup.procs` };
  } catch (e) {
    return `cannot make a cgroup (${(e as Error).message})`;
  }
}

const cgroup = makeCgroup();
if (typeof cgroup === 'string') console.log(`skipping the cgroup memory test: ${cgroup}`);

let child: ChildProcess;
let url: string;
let stderr = '';
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

beforeAll(async () => {
  if (typeof cgroup === 'string') return;
  // The shell joins the cgroup, then becomes the server: it starts inside it, and reads its limit from there.
  child = spawn(
    'sh',
    [
      '-c',
      `echo $$ > ${cgroup.procs} && exec "${process.execPath}" "${BIN}" serve stripe --port 0 --session-timeout 0`,
    ],
    {
      env: { ...process.env, NO_COLOR: '1', SEAHAVEN_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stderr!.on('data', (d) => (stderr += d));
  let out = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner; stderr: ${stderr}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^seahaven serve: .* at (http:\/\/\S+)$/m.exec(out);
      if (m && out.includes('Ctrl+C')) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
}, 90_000);

afterAll(async () => {
  if (typeof cgroup === 'string') return;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exit;
  rmdirSync(cgroup.dir);
});

const alive = () => child.exitCode === null && child.signalCode === null;

describe.skipIf(typeof cgroup === 'string')('seahaven serve stripe in a 1.5 GiB cgroup', () => {
  it('refuses a big_co reset storm with RESOURCE_EXHAUSTED, and serves on', async () => {
    const probes = await Promise.all(Array.from({ length: 8 }, () => WireProbe.open(wsUrlOf(url))));
    const replies = await Promise.all(
      probes.map((p) => p.ask({ type: 'reset', data: { fixture: 'big_co' } })),
    );
    const refused = replies.filter(
      (r) => r.type === 'error' && r.data.code === 'RESOURCE_EXHAUSTED',
    );
    console.log(
      `big_co resets: ${replies.length - refused.length} admitted, ${refused.length} refused; first refusal: ${refused[0]?.data.message}`,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].data).toMatchObject({
      option: '--max-memory',
      needed_mb: expect.any(Number),
      available_mb: expect.any(Number),
    });
    // Every admitted big_co session writes; the refused ones keep their small episodes.
    await Promise.all(probes.map((p) => p.ask(callFrame('create_customer', { name: 'Storm' }))));
    expect(alive()).toBe(true);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    await Promise.all(probes.map((p) => p.close()));
  });

  it('refuses a fork storm of a written small_startup episode once the budget is spent, and serves on', async () => {
    const p = await WireProbe.open(wsUrlOf(url));
    await p.ask({ type: 'reset', data: { fixture: 'small_startup' } });
    for (let i = 0; i < 50; i++)
      await p.ask(
        callFrame('create_customer', { name: `Customer ${i}`, email: `c${i}@example.com` }),
      );
    let held = 0;
    let refusal: { data: Record<string, unknown> } | null = null;
    for (let i = 0; i < 2000 && refusal === null; i++) {
      const r = await p.ask({ type: 'step', data: { type: 'fork' } });
      if (r.type === 'error') refusal = r;
      else held++;
    }
    console.log(
      `forks held before the first refusal: ${held}; refusal: ${JSON.stringify(refusal?.data)}`,
    );
    expect(refusal?.data).toMatchObject({ code: 'RESOURCE_EXHAUSTED', option: '--max-memory' });
    expect(alive()).toBe(true);
    expect((await p.ask({ type: 'state' })).data.call_count).toBe(50);
    // With the budget nearly spent on held forks, a new connection is served if its small episode fits, else told why.
    const other = await WireProbe.open(wsUrlOf(url));
    other.send(callFrame('list_customers', { limit: 1 }));
    const first = (await other.next()).json;
    expect(first.type === 'observation' || first.data.code === 'RESOURCE_EXHAUSTED').toBe(true);
    await other.close();
    expect((await p.ask(callFrame('list_customers', { limit: 1 }))).type).toBe('observation');
    await p.close();
    expect(stderr).not.toMatch(/server error|world bug/);
  });
});
