/**
 * Test helpers for `seahaven publish`: running the command from this checkout, a stand-in kit tarball, and readers of
 * the Space's README.md front matter and Dockerfile.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seahaven } from './cli-in-process.ts';

/**
 * Run `seahaven publish …` from this checkout in `cwd`, in process (packages/seahaven/core/test/cli-in-process.ts), with `HF_TOKEN` and
 * `HF_ENDPOINT` unset unless `env` sets them; never throws, resolves with the exit code and output.
 */
export async function publish(
  cwd: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await seahaven(['publish', ...args], {
    cwd,
    env: { HF_TOKEN: undefined, HF_ENDPOINT: undefined, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A tarball shaped as `npm pack` makes one of this kit (its `package/package.json` names seahaven 0.1.0), for tests of
 * what `seahaven publish` does with a tarball it is given rather than of the kit inside it (e2e/publish.test.ts serves
 * the real one). Written into `dir`; returns its path.
 */
export function standInKit(dir: string): string {
  const root = join(dir, 'stand-in-kit');
  mkdirSync(join(root, 'package'), { recursive: true });
  writeFileSync(
    join(root, 'package', 'package.json'),
    JSON.stringify({ name: 'seahaven', version: '0.1.0' }) + '\n',
  );
  const tarball = join(dir, 'seahaven-0.1.0.tgz');
  execFileSync('tar', ['-czf', tarball, '-C', root, 'package']);
  return tarball;
}

/** README.md's front matter, read as the flat YAML it is (keys, scalars and one list). */
export function frontMatter(readme: string): Record<string, string | string[]> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(readme);
  if (m === null) throw new Error(`README.md has no front matter:\n${readme.slice(0, 200)}`);
  const out: Record<string, string | string[]> = {};
  let list: string[] | null = null;
  for (const line of m[1].split('\n')) {
    const item = /^\s+- (.+)$/.exec(line);
    if (item && list) list.push(item[1]);
    else {
      const [, key, value] = /^([A-Za-z_]+):\s*(.*)$/.exec(line)!;
      if (value === '') out[key] = list = [];
      else {
        out[key] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
        list = null;
      }
    }
  }
  return out;
}

export interface Dockerfile {
  env: Record<string, string>;
  runs: string[];
  expose: string[];
  cmd: string[];
  user: string | undefined;
}

/** The instructions of the Dockerfile that matter for running it: ENV, RUN, EXPOSE, USER, CMD (exec form). */
export function readDockerfile(text: string): Dockerfile {
  const out: Dockerfile = { env: {}, runs: [], expose: [], cmd: [], user: undefined };
  for (const line of text.split('\n')) {
    const [instruction, rest] = [line.split(' ')[0], line.slice(line.indexOf(' ') + 1)];
    if (instruction === 'ENV')
      for (const pair of rest.split(/\s+/)) out.env[pair.split('=')[0]] = pair.split('=')[1];
    if (instruction === 'RUN') out.runs.push(rest);
    if (instruction === 'EXPOSE') out.expose.push(rest);
    if (instruction === 'USER') out.user = rest;
    if (instruction === 'CMD') out.cmd = JSON.parse(rest) as string[];
  }
  return out;
}
