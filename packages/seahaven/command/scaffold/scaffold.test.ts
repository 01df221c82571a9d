/**
 * `seahaven new`: the names and folders it takes and refuses, the files it writes (their fixture rebuilt as frozen),
 * and where a project gets the kit. e2e/scaffold-packed.test.ts installs such a project from the packed kit and runs its
 * checks and tests. The commands run in process (packages/seahaven/core/test/cli-in-process.ts); under load a `seahaven new` with its
 * fixture build and check still takes seconds, so the tests that run it have 120 s.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seahaven as run, type CliResult } from '../../core/test/cli-in-process.ts';
import { packageRoot, repoRoot } from '../../core/test/packed-install.ts';
import { PROJECT_NAME, scaffoldWorld, ScaffoldError } from './index.ts';
import { kitOrigin } from './kit-source.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-new-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const seahaven = (cwd: string, ...args: string[]) => run(args, { cwd });
const output = (r: CliResult) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;

const PROJECT_FILES = [
  '.gitignore',
  'AGENTS.md',
  'eslint.config.mjs',
  'fixtures',
  'package.json',
  'schema.sql',
  'tasks.ts',
  'tools.ts',
  'tsconfig.json',
  'world.test.ts',
  'world.ts',
];

describe('seahaven new: names and folders', () => {
  it('refuses a name the world and npm cannot use, with exit 2 and the rule', async () => {
    for (const bad of ['My-World', '1world', 'world!', 'a'.repeat(65)]) {
      const r = await seahaven(tmp, 'new', bad);
      expect(r.status, output(r)).toBe(2);
      expect(r.stderr).toBe(
        `seahaven: "${bad}" is not a valid world name; use lower case letters, digits, - and _, starting with a letter (${PROJECT_NAME}), like my-world\n`,
      );
    }
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('refuses to write into a folder that is not empty, and names the fix', async () => {
    const taken = join(tmp, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'notes.txt'), 'mine');
    const r = await seahaven(tmp, 'new', 'taken');
    expect(r.status, output(r)).toBe(2);
    expect(r.stderr).toMatch(
      /^seahaven: \S+taken is not empty and will not be overwritten; choose another name, give an empty or new folder with --dir <folder>, or remove \S+ first\n$/,
    );
    expect(readdirSync(taken)).toEqual(['notes.txt']);
    const file = await seahaven(tmp, 'new', 'other', '--dir', 'taken/notes.txt');
    expect(file.status, output(file)).toBe(2);
    expect(file.stderr).toMatch(/notes\.txt is a file; give another folder with --dir <folder>/);
  });

  it('throws a ScaffoldError in process too', async () => {
    await expect(scaffoldWorld({ name: 'Bad Name', dir: join(tmp, 'never') })).rejects.toThrow(
      ScaffoldError,
    );
    expect(existsSync(join(tmp, 'never'))).toBe(false);
  });

  it('writes the project into --dir (an empty folder) and prints the next steps', async () => {
    const dir = join(tmp, 'empty');
    mkdirSync(dir);
    // --kit names the seahaven dependency; without it a clone packs itself into the project (the README test does that).
    const r = await seahaven(tmp, 'new', 'todo_world', '--dir', 'empty', '--kit', '^0.1.0');
    expect(r.status, output(r)).toBe(0);
    expect(r.stdout).toMatch(
      /^Created world "todo_world" in empty: package\.json, world\.ts, .*fixtures\/starter\.sqlite, fixtures\/starter\.json\n/,
    );
    expect(r.stdout).toContain(
      '  cd empty\n  npm install\n  npm test && npm run check && npm run lint',
    );
    expect(readdirSync(dir).sort()).toEqual(PROJECT_FILES);
    expect(readdirSync(join(dir, 'fixtures')).sort()).toEqual(['starter.json', 'starter.sqlite']);

    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const kit = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: 'todo_world',
      type: 'module',
      scripts: {
        test: 'vitest run',
        check: 'seahaven check .',
        lint: 'seahaven lint',
        fixtures: 'seahaven fixtures build',
      },
    });
    expect(pkg.devDependencies).toMatchObject({ seahaven: '^0.1.0', vite: '8.3.4' });
    expect(kit.version).toBe('0.1.0');
    expect(pkg.devDependencies.vitest).toMatch(/^\^4\./);
    expect(pkg.devDependencies.eslint).toMatch(/^\^10\./);
    expect(pkg.devDependencies.typescript).toMatch(/^~6\.0\./);
    expect(readFileSync(join(dir, 'world.ts'), 'utf8')).toContain("name: 'todo_world'");
    expect(readFileSync(join(dir, 'eslint.config.mjs'), 'utf8')).toBe(
      "import seahaven from 'seahaven/lint';\n\nexport default [seahaven.configs.recommended];\n",
    );
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toMatch(/^# todo_world: a Seahaven world\n/);
    expect(agents.endsWith(readFileSync(join(repoRoot, 'AGENTS.md'), 'utf8'))).toBe(true);
    // World code imports the published names only.
    for (const file of ['world.ts', 'tools.ts', 'tasks.ts', 'world.test.ts']) {
      const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map(
        (m) => m[1],
      );
      expect(
        imports.every((i) => /^(seahaven(\/rewards|\/testing)?|vitest|\.\/[a-z]+\.ts)$/.test(i)),
        `${file}: ${imports}`,
      ).toBe(true);
    }

    // The frozen fixture is exactly what a rebuild gives.
    const rebuilt = await seahaven(dir, 'fixtures', 'build', '--check');
    expect(rebuilt.status, output(rebuilt)).toBe(0);
    expect(rebuilt.stdout).toMatch(/^ok {4}todo_world\/starter/);

    // Files of a fixture the world no longer declares: --check reports them, a build removes them.
    writeFileSync(join(dir, 'fixtures', 'retired.sqlite'), 'old image');
    const stale = await seahaven(dir, 'fixtures', 'build', '--check');
    expect(stale.status, output(stale)).toBe(1);
    expect(stale.stdout).toContain(
      `STALE ${join(dir, 'fixtures', 'retired.sqlite')}  no fixture declares it\n`,
    );
    const cleaned = await seahaven(dir, 'fixtures', 'build');
    expect(cleaned.status, output(cleaned)).toBe(0);
    expect(cleaned.stdout).toContain(
      `removed ${join(dir, 'fixtures', 'retired.sqlite')}  no fixture declares it\n`,
    );
    expect(readdirSync(join(dir, 'fixtures')).sort()).toEqual(['starter.json', 'starter.sqlite']);
  }, 120_000);

  it('--mount stripe writes a world that mounts Stripe World by its package name and passes seahaven check', async () => {
    const r = await seahaven(tmp, 'new', 'boxcraft', '--mount', 'stripe=^0.1.0', '--kit', '^0.1.0');
    expect(r.status, output(r)).toBe(0);
    const dir = join(tmp, 'boxcraft');
    expect(readdirSync(join(dir, 'fixtures')).sort()).toEqual([
      'starter.json',
      'starter.sqlite',
      'starter.stripe.sqlite',
    ]);
    const world = readFileSync(join(dir, 'world.ts'), 'utf8');
    expect(world).toContain("import { stripe } from '@seahaven/stripe';");
    expect(world).toContain(
      "worlds: { stripe: { world: stripe, prefix: 'stripe_', http: true } },",
    );
    expect(readFileSync(join(dir, 'tasks.ts'), 'utf8')).toContain(
      'export const tasks = [completePayRent, addStripeCustomer];',
    );
    expect(readFileSync(join(dir, 'world.test.ts'), 'utf8')).toContain(
      "Stripe failure reaches the agent with Stripe\\'s own error code",
    );
    expect(readFileSync(join(dir, 'world.ts'), 'utf8')).not.toContain('{{');
    const check = await seahaven(dir, 'check', '.');
    expect(check.status, output(check)).toBe(0);
    expect(check.stdout).toContain(
      'OK boxcraft 0.1.0: no findings (load, schema, tools, fixtures, lint, determinism, graders).',
    );
  }, 120_000);

  it('refuses a world it cannot mount, naming those it can', async () => {
    const r = await seahaven(tmp, 'new', 'shop', '--mount', 'paypal', '--kit', '^0.1.0');
    expect(r.status, output(r)).toBe(2);
    expect(r.stderr).toBe(
      'seahaven: --mount paypal: no such world to mount; the worlds seahaven new can mount are stripe\n',
    );
    expect(existsSync(join(tmp, 'shop'))).toBe(false);
  });

  it('takes a path as the name, naming the world after its last part', async () => {
    const r = await seahaven(tmp, 'new', 'nested/path_world', '--kit', '^0.1.0');
    expect(r.status, output(r)).toBe(0);
    expect(readFileSync(join(tmp, 'nested', 'path_world', 'world.ts'), 'utf8')).toContain(
      "name: 'path_world'",
    );
    const both = await seahaven(tmp, 'new', 'nested/other', '--dir', 'elsewhere');
    expect(both.status, output(both)).toBe(2);
    expect(both.stderr).toBe(
      'seahaven: give the folder once: either a path as <name> (nested/other) or --dir elsewhere\n',
    );
  }, 120_000);
});

describe('where a scaffolded project gets the kit', () => {
  const fakeKit = (lockEntry: Record<string, unknown> | null) => {
    const project = mkdtempSync(join(tmpdir(), 'seahaven-origin-'));
    const root = join(project, 'node_modules', 'seahaven');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'seahaven', version: '0.3.1' }),
    );
    if (lockEntry)
      writeFileSync(
        join(project, 'node_modules', '.package-lock.json'),
        JSON.stringify({ packages: { 'node_modules/seahaven': lockEntry } }),
      );
    return { root: `${root}/`, done: () => rmSync(project, { recursive: true, force: true }) };
  };

  it('depends on the registry version only when npm installed the kit from the registry', async () => {
    const cases: [Record<string, unknown> | null, ReturnType<typeof kitOrigin>][] = [
      [
        { version: '0.3.1', resolved: 'https://registry.npmjs.org/seahaven/-/seahaven-0.3.1.tgz' },
        { from: 'registry', version: '0.3.1' },
      ],
      // npm set to omit-lockfile-registry-resolved records no URL for registry packages.
      [
        { version: '0.3.1', integrity: 'sha512-x' },
        { from: 'registry', version: '0.3.1' },
      ],
      [
        { version: '0.3.1', resolved: 'file:seahaven-0.3.1.tgz' },
        { from: 'local', installed: true },
      ],
      [
        { resolved: '../seahaven', link: true },
        { from: 'local', installed: true },
      ],
      [null, { from: 'local', installed: true }],
    ];
    for (const [entry, origin] of cases) {
      const kit = fakeKit(entry);
      expect(kitOrigin(kit.root), JSON.stringify(entry)).toEqual(origin);
      kit.done();
    }
    expect(kitOrigin(packageRoot)).toEqual({ from: 'local', installed: false });
  });
});
