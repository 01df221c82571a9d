/**
 * The kit as a registry release gives it: `npm pack` of packages/seahaven, installed into an empty project beside a
 * world package (the crm world, packed too), serves that world from there and answers a client that imports the
 * published `seahaven/client`; package.json carries what a release needs, every entry point it names is in the
 * tarball, and the tarball carries the repository's guides but no world and no test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crmRoot,
  installPacked,
  packageRoot,
  packedTarball,
  runtimeDependencies,
  startServing,
} from 'seahaven/internal/core/test/packed-install';

interface Manifest {
  name: string;
  version: string;
  license?: string;
  main?: string;
  types?: string;
  files?: string[];
  repository?: { type: string; url: string; directory?: string };
  engines?: Record<string, string>;
  bin?: Record<string, string>;
  scripts: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}

const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as Manifest;

/** Modules only the tests import; nothing the package runs loads them. */
const TEST_HELPERS = [
  'libraries/client/test-rejection.ts',
  'command/publish/hub-recorder.ts',
  'libraries/rewards/test-world.ts',
  'libraries/lint-rules/test-helpers.ts',
];

let tmp: string;
let tarball: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-packed-'));
  tarball = await packedTarball();
}, 600_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the packed kit', () => {
  it('carries what a registry release needs, and the tarball holds every file package.json points at', () => {
    expect(manifest).toMatchObject({
      name: 'seahaven',
      license: 'MIT',
      main: './dist/core/index.js',
      types: './dist/core/index.d.ts',
      engines: { node: '>=20.19' },
    });
    expect(manifest.repository).toEqual({
      type: 'git',
      url: expect.stringMatching(/^git\+https:\/\/.+\.git$/),
      directory: 'packages/seahaven',
    });
    expect(manifest.files).toEqual(
      expect.arrayContaining([
        'bin',
        'dist',
        'core',
        'libraries',
        'transports',
        'command',
        'docs',
        'README.md',
        'AGENTS.md',
      ]),
    );
    // A publish builds and runs the tests first.
    expect(manifest.scripts.prepublishOnly).toMatch(/npm run build\b.*&& .*npm test$/);

    const packed = new Set(
      execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((p) => p.replace(/^package\//, '')),
    );
    const pointedAt = [
      manifest.main!,
      manifest.types!,
      ...Object.values(manifest.bin ?? {}),
      ...Object.values(manifest.exports).flatMap((t) =>
        typeof t === 'string' ? [t] : [t.types, t.default].filter((f) => f !== undefined),
      ),
    ];
    for (const file of pointedAt) expect(packed.has(file.replace(/^\.\//, '')), file).toBe(true);
    for (const subpath of [
      '.',
      './rewards',
      './curricula',
      './lint',
      './client',
      './testing',
      './serve',
    ])
      expect(manifest.exports[subpath], subpath).toBeDefined();
    // The guides come from the repository root (prepack); the worlds are packages of their own.
    for (const file of ['docs/index.md', 'docs/lint-rules/no-io.md', 'AGENTS.md', 'README.md'])
      expect(packed.has(file), file).toBe(true);
    expect([...packed].filter((f) => f.startsWith('worlds/') || f.startsWith('docs/api/'))).toEqual(
      [],
    );
    // `seahaven/internal/…` is for the repository's own packages, under the source condition only.
    for (const [subpath, target] of Object.entries(manifest.exports))
      if (subpath.startsWith('./internal/'))
        expect(Object.keys(target as object), subpath).toEqual(['@seahaven/source']);
  });

  it('leaves the tests, their fixtures and their helpers out, and keeps seahaven/testing', () => {
    const packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^package\//, ''));
    const testOnly = packed.filter(
      (f) =>
        /\.test\.[cm]?[jt]sx?(\.map)?$|\.test\.d\.[cm]?ts$/.test(f) ||
        /(^|\/)(test|test-fixtures)\//.test(f) ||
        TEST_HELPERS.some((h) => f === h || f.startsWith(`dist/${h.replace(/\.ts$/, '.')}`)),
    );
    expect(
      testOnly,
      'test-only files in the package; exclude them in package.json "files"',
    ).toEqual([]);
    for (const file of [
      'libraries/testing/index.ts',
      'dist/libraries/testing/index.js',
      'dist/libraries/testing/index.d.ts',
      'command/scaffold/template/world.test.ts.tmpl',
    ])
      expect(packed, file).toContain(file);
  });

  it('installs into an empty project, serves a world from there, and a client from the package plays an episode', async () => {
    const started = Date.now();
    const project = join(tmp, 'empty-project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify(
        { name: 'empty-project', version: '1.0.0', private: true, type: 'module' },
        null,
        2,
      ) + '\n',
    );
    installPacked(tarball, project, runtimeDependencies);
    // The world it serves is a package of its own, installed beside the kit.
    installPacked(await packedTarball(crmRoot), project, []);

    const served = await startServing(
      project,
      [join(project, 'node_modules', '.bin', 'seahaven'), 'serve', 'crm', '--port', '0'],
      { ...process.env, HOME: tmp },
    );
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(`${served.url}/health`)).json()).toEqual({ status: 'healthy' });
      // The server runs the installed copy, not this checkout.
      expect(served.output()).toContain('seahaven serve: crm 1.0.0 at');

      // A script in the project that imports the published name, resolved from node_modules/seahaven/dist.
      const script = [
        "import { SeahavenClient } from 'seahaven/client';",
        `const env = await SeahavenClient.connect(${JSON.stringify(served.url.replace('http', 'ws') + '/ws')});`,
        "await env.reset({ task: 'add_lead', seed: 1 });",
        "await env.call('create_contact', { name: 'Ada Lovelace', email: 'ada.lovelace@acmerobotics.example', company_id: 'cmp_acme', title: 'Head of Research', stage: 'lead' });",
        'const { reward, done } = await env.submit();',
        'console.log(JSON.stringify({ reward, done, from: import.meta.resolve("seahaven/client") }));',
        'await env.close();',
      ].join('\n');
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, HOME: tmp },
      });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout.trim()) as { reward: number; done: boolean; from: string };
      expect([out.reward, out.done]).toEqual([1, true]);
      expect(out.from).toBe(
        `file://${join(project, 'node_modules', 'seahaven', 'dist', 'libraries', 'client', 'index.js')}`,
      );
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});
