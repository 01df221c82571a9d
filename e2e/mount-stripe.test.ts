/**
 * A world of your own that mounts Stripe World, outside this repository: `seahaven new boxcraft --mount stripe` from
 * the installed package, committed to git, cloned afresh and installed from the packed kit, passes `npm test`,
 * `npm run check`, `npm run lint` and `npm run typecheck`. Its tests import Stripe World from the package by name
 * (`@seahaven/stripe`, its compiled world, which reads its schema from its dist/), and one of them checks that a Stripe failure reaches the
 * agent with Stripe's error code. Nothing is fetched from a registry (see packages/seahaven/core/test/packed-install.ts).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  installPacked,
  packedTarball,
  runtimeDependencies,
  stripeRoot,
} from 'seahaven/internal/core/test/packed-install';

const tmp = mkdtempSync(join(tmpdir(), 'seahaven-mount-stripe-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  NO_COLOR: '1',
};
const run = (cwd: string, command: string, ...args: string[]) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
const output = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;
const git = (cwd: string, ...args: string[]) => {
  const r = run(
    cwd,
    'git',
    '-c',
    'user.name=Seahaven Test',
    '-c',
    'user.email=test@example.com',
    '-c',
    'init.defaultBranch=main',
    ...args,
  );
  expect(r.status, output(r)).toBe(0);
  return r.stdout;
};

describe('a project that mounts Stripe World', () => {
  it("passes npm test, check, lint and typecheck from a fresh clone, and its agents see Stripe's error codes", async () => {
    const tarball = await packedTarball();
    const stripeTarball = await packedTarball(stripeRoot);

    // Scaffold with the installed packages' command, as `npx seahaven new` does in a project that installed
    // seahaven and @seahaven/stripe.
    const cli = join(tmp, 'cli');
    mkdirSync(cli);
    installPacked(tarball, cli, runtimeDependencies);
    installPacked(stripeTarball, cli, []);
    const created = run(
      tmp,
      process.execPath,
      join(cli, 'node_modules', 'seahaven', 'bin', 'seahaven.mjs'),
      'new',
      'boxcraft',
      '--mount',
      `stripe=file:${stripeTarball}`,
      '--kit',
      `file:${tarball}`,
    );
    expect(created.status, output(created)).toBe(0);

    // Commit it as its author would (.gitignore decides what stays out), then clone it afresh.
    const project = join(tmp, 'boxcraft');
    git(project, 'init', '-q');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'boxcraft');
    const committed = git(project, 'ls-files').trim().split('\n');
    expect(committed).toEqual(
      expect.arrayContaining([
        'world.ts',
        'fixtures/starter.json',
        'fixtures/starter.sqlite',
        'fixtures/starter.stripe.sqlite',
      ]),
    );
    const clone = join(tmp, 'clone');
    git(tmp, 'clone', '-q', project, clone);
    expect(readdirSync(join(clone, 'fixtures')).sort()).toEqual([
      'starter.json',
      'starter.sqlite',
      'starter.stripe.sqlite',
    ]);

    const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies).toMatchObject({ '@seahaven/stripe': `file:${stripeTarball}` });
    installPacked(tarball, clone, [
      ...runtimeDependencies,
      ...Object.keys(pkg.devDependencies).filter((d) => !/^(seahaven|@seahaven\/)/.test(d)),
    ]);
    installPacked(stripeTarball, clone, []);

    const test = run(clone, 'npm', 'test');
    expect(test.status, output(test)).toBe(0);
    expect(test.stdout).toMatch(/Tests\s+11 passed \(11\)/);
    expect(test.stdout).not.toContain('internal');

    const check = run(clone, 'npm', 'run', 'check');
    expect(check.status, output(check)).toBe(0);
    expect(check.stdout).toContain(
      'OK boxcraft 0.1.0: no findings (load, schema, tools, fixtures, lint, determinism, graders).',
    );

    const lint = run(clone, 'npm', 'run', 'lint');
    expect(lint.status, output(lint)).toBe(0);
    expect(lint.stdout).toContain('no findings');

    const typecheck = run(clone, 'npm', 'run', 'typecheck');
    expect(typecheck.status, output(typecheck)).toBe(0);

    // Stripe World, imported by name, is the package's compiled world on the same copy of the kit as the project.
    const probe = run(
      clone,
      process.execPath,
      '--input-type=module',
      '-e',
      [
        "import { ToolError } from 'seahaven';",
        "import { stripe } from '@seahaven/stripe';",
        "const world = (await import('./node_modules/seahaven/dist/core/index.js'));",
        "const inst = stripe.instance({ fixture: 'empty' });",
        "const r = inst.call('fetch_stripe_resources', { id: 'cus_missing' });",
        'console.log(JSON.stringify({ same: world.ToolError === ToolError, code: r.ok ? null : r.error.code, stripe: r.ok ? null : r.error.details.error.code }));',
      ].join('\n'),
    );
    expect(probe.status, output(probe)).toBe(0);
    expect(JSON.parse(probe.stdout)).toEqual({
      same: true,
      code: 'stripe_api_error',
      stripe: 'resource_missing',
    });
  }, 900_000);
});
