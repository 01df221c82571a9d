/**
 * A project `seahaven new` writes, installed from the kit as `npm pack` makes it: it passes its own check, lint,
 * eslint, tsc, tests and fixtures check, and a wall-clock read in its code fails both lint commands.
 * packages/seahaven/command/scaffold/scaffold.test.ts checks names, folders and the files written.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPacked,
  packedTarball,
  runtimeDependencies,
} from 'seahaven/internal/core/test/packed-install';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-new-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npm = (cwd: string, ...args: string[]) =>
  spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      NO_COLOR: '1',
    },
  });
const output = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;

describe('a scaffolded project installed from the packed package', () => {
  it('passes seahaven check, seahaven lint, eslint, tsc and its own tests; a wall-clock read fails lint', async () => {
    const tarball = await packedTarball();

    // `npx seahaven new` runs the installed package's command, so scaffold with that one.
    const cli = join(tmp, 'cli');
    mkdirSync(cli);
    installPacked(tarball, cli, runtimeDependencies);
    const created = spawnSync(
      process.execPath,
      [
        join(cli, 'node_modules', 'seahaven', 'bin', 'seahaven.mjs'),
        'new',
        'my-world',
        '--kit',
        `file:${tarball}`,
      ],
      { cwd: tmp, encoding: 'utf8' },
    );
    expect(created.status, output(created)).toBe(0);

    // Then install what the project's package.json asks for, as `npm install` would.
    const project = join(tmp, 'my-world');
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    installPacked(tarball, project, [
      ...runtimeDependencies,
      ...Object.keys(pkg.devDependencies).filter((d) => d !== 'seahaven'),
    ]);

    const check = npm(project, 'run', 'check');
    expect(check.status, output(check)).toBe(0);
    expect(check.stdout).toContain(
      'OK my-world 0.1.0: no findings (load, schema, tools, fixtures, lint, determinism, graders).',
    );

    const lint = npm(project, 'run', 'lint');
    expect(lint.status, output(lint)).toBe(0);
    expect(lint.stdout).toContain('seahaven lint: 4 files in ., no findings.');

    const eslint = npm(project, 'exec', '--', 'eslint', '.');
    expect(eslint.status, output(eslint)).toBe(0);

    const typecheck = npm(project, 'run', 'typecheck');
    expect(typecheck.status, output(typecheck)).toBe(0);

    const test = npm(project, 'test');
    expect(test.status, output(test)).toBe(0);
    expect(test.stdout).toMatch(/Tests\s+8 passed \(8\)/);

    const fixtures = npm(project, 'run', 'fixtures', '--', '--check');
    expect(fixtures.status, output(fixtures)).toBe(0);
    expect(fixtures.stdout).toMatch(/ok {4}my-world\/starter/);

    // The checks look at the project's own code: a wall-clock read in a tool fails both lint commands.
    appendFileSync(join(project, 'tools.ts'), '\nexport const startedAt = Date.now();\n');
    const broken = npm(project, 'run', 'lint');
    expect(broken.status, output(broken)).toBe(1);
    expect(broken.stdout).toMatch(/tools\.ts[\s\S]*seahaven\/no-wall-clock/);
    const brokenEslint = npm(project, 'exec', '--', 'eslint', '.');
    expect(brokenEslint.status, output(brokenEslint)).toBe(1);
  }, 600_000);
});
