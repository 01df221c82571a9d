/**
 * Scaffold a world project (`seahaven new`): a world with a schema, two tools, one frozen fixture and one graded task,
 * its tests, AGENTS.md, an ESLint config and npm scripts. Once its dependencies are installed, the project passes
 * `seahaven check`, `seahaven lint`, `tsc` and its own tests. The files come from `template/`, with `{{name}}`
 * filled in; the fixture images are built here, in process, by importing the new world.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildFixture, imageFileName } from '../../core/fixtures.ts';
import { bundledPath } from '../bundled.ts';
import { worldPackageRoot } from '../cli/load-world.ts';
import { kitOrigin, packKit } from './kit-source.ts';
import { fillMounts, MOUNTS } from './mounts.ts';
import type { World } from '../../core/world.ts';

/** What a project (and world) name must match: it becomes the folder, the npm package and the world name. */
export const PROJECT_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

const TEMPLATE = new URL('./template/', import.meta.url);
const PACKAGE_ROOT = new URL('../../', import.meta.url);

// Template file → project file. Templates are not named `.ts` so that this repository does not compile or test them.
const FILES: readonly [string, string][] = [
  ['world.ts.tmpl', 'world.ts'],
  ['schema.sql.tmpl', 'schema.sql'],
  ['tools.ts.tmpl', 'tools.ts'],
  ['tasks.ts.tmpl', 'tasks.ts'],
  ['world.test.ts.tmpl', 'world.test.ts'],
  ['tsconfig.json.tmpl', 'tsconfig.json'],
  ['eslint.config.mjs.tmpl', 'eslint.config.mjs'],
  ['gitignore.tmpl', '.gitignore'],
];

/** A name or folder `seahaven new` cannot use; the message names the fix. */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

export interface ScaffoldOptions {
  /** The project and world name, `^[a-z][a-z0-9_-]{0,63}$`. */
  name: string;
  /** Where to write the project. Default: `./<name>`. It must not exist or be empty. */
  dir?: string;
  /**
   * The project's `seahaven` dependency, as npm takes it: a version range, a path or a tarball. Default: the version
   * of this kit when it came from the npm registry; otherwise a tarball of this kit packed into the project.
   */
  kit?: string;
  /**
   * Worlds to mount in the new world, by name (`['stripe']`: Stripe World at `stripe`), each optionally with its
   * package's dependency as npm takes it (`'stripe=^0.1.0'`, `'stripe=file:/tmp/seahaven-stripe-0.1.0.tgz'`). Default
   * none. Without a dependency: the installed world package's version when it came from the npm registry, otherwise a
   * tarball of it packed into the project.
   */
  mount?: readonly string[];
  /** Told about slow steps (packing the kit), one line each. */
  onProgress?: (line: string) => void;
}

export interface ScaffoldResult {
  /** The project folder, absolute. */
  dir: string;
  /** Files written, relative to `dir`. */
  files: string[];
}

interface KitManifest {
  version: string;
  engines?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The project's package.json: npm scripts for every check, and dev dependencies on the versions this kit is tested with. */
function projectManifest(
  name: string,
  seahaven: string,
  mounted: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const kit = JSON.parse(
    readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8'),
  ) as KitManifest;
  const pinned = (dep: string): string => {
    const version = kit.dependencies?.[dep] ?? kit.devDependencies?.[dep];
    if (version === undefined)
      throw new Error(`seahaven's package.json lists no version of ${dep}`);
    return version.replace(/^[\^~]/, '');
  };
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: kit.engines?.node ?? '>=20.19' },
    scripts: {
      test: 'vitest run',
      check: 'seahaven check .',
      lint: 'seahaven lint',
      typecheck: 'tsc --noEmit',
      fixtures: 'seahaven fixtures build',
    },
    devDependencies: {
      '@types/node': `^${pinned('@types/node')}`,
      eslint: `^${pinned('eslint')}`,
      seahaven,
      ...mounted,
      tsx: `^${pinned('tsx')}`,
      typescript: `~${pinned('typescript')}`,
      // vitest 4 needs a vite 8; later 8.x releases break `npm ci` here, so vite stays exact.
      vite: pinned('vite'),
      vitest: `^${pinned('vitest')}`,
    },
    // Newer npm runs install scripts only for packages listed here; better-sqlite3 compiles in its own.
    ...(kit.allowScripts ? { allowScripts: kit.allowScripts } : {}),
  };
}

function fill(template: string, name: string, mounts: readonly string[] = []): string {
  return fillMounts(template, mounts).replaceAll('{{name}}', name);
}

/** A `--mount` value: the world's name, and its package's dependency when given (`stripe=^0.1.0`). */
function parseMount(value: string): { name: string; spec?: string } {
  const at = value.indexOf('=');
  return at < 0 ? { name: value } : { name: value.slice(0, at), spec: value.slice(at + 1) };
}

/** The project's dependency on a mounted world's package; packs the installed copy unless it came from the registry. */
async function mountDependency(
  dir: string,
  mount: { name: string; spec?: string },
  options: ScaffoldOptions,
  files: string[],
): Promise<string> {
  if (mount.spec !== undefined && mount.spec !== '') return mount.spec;
  const pkg = MOUNTS[mount.name].package;
  const root = worldPackageRoot(mount.name);
  if (root === undefined)
    throw new ScaffoldError(
      `--mount ${mount.name}: the package ${pkg} is not installed beside seahaven; install it (npm install ${pkg}) or give its dependency, like --mount ${mount.name}=^0.1.0`,
    );
  const origin = kitOrigin(root);
  if (origin.from === 'registry') return `^${origin.version}`;
  options.onProgress?.(`Packing ${pkg} into the project…`);
  const tarball = await packKit(dir, root);
  files.push(tarball);
  return `file:${tarball}`;
}

function refuseUnusable(name: string, dir: string, mounts: readonly string[]): void {
  for (const m of mounts) {
    if (!Object.hasOwn(MOUNTS, m))
      throw new ScaffoldError(
        `--mount ${m}: no such world to mount; the worlds seahaven new can mount are ${Object.keys(MOUNTS).join(', ')}`,
      );
  }
  if (mounts.includes(name))
    throw new ScaffoldError(
      `"${name}" is also the name of the world it mounts; give the project another name, like ${name}-app`,
    );
  if (typeof name !== 'string' || !PROJECT_NAME.test(name)) {
    throw new ScaffoldError(
      `"${name}" is not a valid world name; use lower case letters, digits, - and _, starting with a letter (${PROJECT_NAME}), like my-world`,
    );
  }
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory())
    throw new ScaffoldError(`${dir} is a file; give another folder with --dir <folder>`);
  if (readdirSync(dir).length > 0) {
    throw new ScaffoldError(
      `${dir} is not empty and will not be overwritten; choose another name, give an empty or new folder with --dir <folder>, or remove ${dir} first`,
    );
  }
}

/** Import the new world (its `seahaven` imports resolve to this kit under the CLI) and freeze each fixture. */
async function freezeFixtures(dir: string): Promise<string[]> {
  const mod = (await import(pathToFileURL(join(dir, 'world.ts')).href)) as { default?: World };
  const world = mod.default;
  if (typeof world?.instance !== 'function' || world.fixturesDir === null)
    throw new Error(`${join(dir, 'world.ts')} did not export a world with a fixturesDir`);
  mkdirSync(world.fixturesDir, { recursive: true });
  const written: string[] = [];
  for (const id of Object.keys(world.fixtures)) {
    const built = buildFixture(world, id);
    for (const [mount, bytes] of built.images) {
      writeFileSync(join(world.fixturesDir, imageFileName(id, mount)), bytes);
      written.push(`fixtures/${imageFileName(id, mount)}`);
    }
    writeFileSync(
      join(world.fixturesDir, `${id}.json`),
      JSON.stringify(built.meta, null, 2) + '\n',
    );
    written.push(`fixtures/${id}.json`);
  }
  return written;
}

/** The project's dependencies on the packages of the worlds it mounts, by package name. */
async function mountedDependencies(
  dir: string,
  mounts: readonly { name: string; spec?: string }[],
  options: ScaffoldOptions,
  files: string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const m of mounts)
    out[MOUNTS[m.name].package] = await mountDependency(dir, m, options, files);
  return out;
}

/** The project's `seahaven` dependency; packs this kit into the project unless it came from the registry. */
async function kitDependency(
  dir: string,
  options: ScaffoldOptions,
  files: string[],
): Promise<string> {
  if (options.kit !== undefined) return options.kit;
  const origin = kitOrigin();
  if (origin.from === 'registry') return `^${origin.version}`;
  options.onProgress?.(
    `Packing this kit into the project, so it installs without a registry copy of seahaven${origin.installed ? '' : ' (builds it first: about 30 s)'}…`,
  );
  const tarball = await packKit(dir);
  files.push(tarball);
  return `file:${tarball}`;
}

/**
 * Write a new world project into `dir` (default `./<name>`) and freeze its fixture. Refuses a bad name or a non-empty
 * folder with a `ScaffoldError`; on any other failure, removes what it wrote.
 * @example
 * const { dir, files } = await scaffoldWorld({ name: 'my-world' });
 */
export async function scaffoldWorld(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const dir = resolve(options.dir ?? String(options.name));
  const mountSpecs = (options.mount ?? []).map(parseMount);
  const mounts = [...new Set(mountSpecs.map((m) => m.name))];
  refuseUnusable(options.name, dir, mounts);
  const createdDir = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  try {
    const files: string[] = [];
    const write = (file: string, text: string) => {
      writeFileSync(join(dir, file), text);
      files.push(file);
    };
    write(
      'package.json',
      JSON.stringify(
        projectManifest(
          options.name,
          await kitDependency(dir, options, files),
          await mountedDependencies(dir, mountSpecs, options, files),
        ),
        null,
        2,
      ) + '\n',
    );
    for (const [template, file] of FILES)
      write(file, fill(readFileSync(new URL(template, TEMPLATE), 'utf8'), options.name, mounts));
    // The project's AGENTS.md is the kit's, under a short header about this project's layout and scripts.
    write(
      'AGENTS.md',
      fill(readFileSync(new URL('AGENTS.md.tmpl', TEMPLATE), 'utf8'), options.name) +
        readFileSync(bundledPath('AGENTS.md'), 'utf8'),
    );
    files.push(...(await freezeFixtures(dir)));
    return { dir, files };
  } catch (e) {
    // Leave nothing half-written: the folder was absent or empty before.
    if (createdDir) rmSync(dir, { recursive: true, force: true });
    else
      for (const entry of readdirSync(dir))
        rmSync(join(dir, entry), { recursive: true, force: true });
    throw e;
  }
}
