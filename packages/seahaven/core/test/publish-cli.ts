/**
 * Test helpers for `seahaven publish`: running the command from this checkout, a stand-in kit tarball, and readers of
 * the Space's README.md front matter and Dockerfile.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
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
 * `seahaven publish crm --space test-user/crm_world --dry-run --out <space> --kit <tarball>` run in `cwd`, checked to
 * have written the Space's files (the world's own folder in `world/`, the kit's tarball as given) and a Dockerfile
 * that serves the world on the README's port for the Space's host name. Answers the files it listed.
 */
export async function dryRunCrmSpace(
  cwd: string,
  space: string,
  tarball: string,
): Promise<string[]> {
  const r = await publish(cwd, [
    'crm',
    '--space',
    'test-user/crm_world',
    '--dry-run',
    '--out',
    space,
    '--kit',
    tarball,
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('Not uploaded (--dry-run)');
  const files = r.stdout
    .split('\n')[0]
    .replace(/^Wrote the Space for crm 1\.0\.0 in \S+: /, '')
    .split(', ');
  // The world's package is copied into world/, as any world project is (the kit carries no example worlds).
  expect(files).toEqual(expect.arrayContaining(['world/index.ts', 'world/package.json']));
  expect(files.filter((f) => !f.startsWith('world/'))).toEqual([
    '.dockerignore',
    'Dockerfile',
    'README.md',
    'openenv.yaml',
    'package.json',
    'seahaven-0.1.0.tgz',
  ]);
  expect(readFileSync(join(space, 'seahaven-0.1.0.tgz')).equals(readFileSync(tarball))).toBe(true);
  // The Dockerfile serves on the declared port, on every interface, answering the Space's host name.
  const front = frontMatter(readFileSync(join(space, 'README.md'), 'utf8'));
  const docker = readDockerfile(readFileSync(join(space, 'Dockerfile'), 'utf8'));
  expect(docker.expose).toEqual([front.app_port]);
  expect(docker.env).toMatchObject({ PORT: front.app_port, TZ: 'UTC' });
  expect(docker.user).toBe('node');
  expect(docker.runs.at(-1)).toBe('npm install --omit=dev --no-audit --no-fund');
  expect(docker.cmd).toEqual([
    'sh',
    '-c',
    'exec node_modules/.bin/seahaven serve world/index.ts --host 0.0.0.0 --port "$PORT" --allow-host test-user-crm-world.hf.space',
  ]);
  return files;
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
