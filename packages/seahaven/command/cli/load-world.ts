/**
 * Find the world a command is about: a world package by name (`crm` is `@seahaven/crm`), a `worlds/<name>/` folder
 * of the current one, a module path, or `./world.ts` in the current folder.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CliError } from './errors.ts';
import type { World } from '../../core/world.ts';

/** A world name as commands take it (`crm`, `stripe`), which names the package `@seahaven/<name>`. */
const WORLD_NAME = /^[a-z][a-z0-9_-]*$/;
/** The world commands use when given none and the current folder has no world.ts. */
const DEFAULT_WORLD = 'crm';
/** Export conditions tried for a world package's entry, in order: its sources first, which the command runs on. */
const CONDITIONS = ['@seahaven/source', 'import', 'default'];

/** Whether a module export is a world (from `defineWorld`). */
export function isWorld(value: unknown): value is World {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as World).instance === 'function' &&
    typeof (value as World).name === 'string'
  );
}

type ExportTarget = string | null | { [condition: string]: ExportTarget };

function entryFile(pkgDir: string, target: ExportTarget): string | undefined {
  if (typeof target === 'string') {
    const file = join(pkgDir, target);
    return existsSync(file) ? file : undefined;
  }
  if (target === null) return undefined;
  for (const c of CONDITIONS)
    if (c in target) {
      const file = entryFile(pkgDir, target[c]);
      if (file !== undefined) return file;
    }
  return undefined;
}

/** The main module of the installed package `name`, looked up from `from` the way Node looks up packages. */
function installedEntry(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', ...name.split('/'));
    const manifest = join(pkgDir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
        exports?: ExportTarget | Record<string, ExportTarget>;
        main?: string;
      };
      const exp = pkg.exports;
      const dot =
        exp !== undefined && exp !== null && typeof exp === 'object' && '.' in exp
          ? (exp as Record<string, ExportTarget>)['.']
          : exp;
      const file = entryFile(pkgDir, dot ?? pkg.main ?? 'index.js');
      return file === undefined ? undefined : realpathSync(file);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The world named `name`: the package `@seahaven/<name>` installed where the current folder or this copy of the kit
 * can see it, else the folder `worlds/<name>/` of the current folder. `via` says which.
 */
export function namedWorld(
  name: string,
  cwd = process.cwd(),
): { file: string; via: 'folder' | 'package' } | undefined {
  if (!WORLD_NAME.test(name)) return undefined;
  const here = dirname(fileURLToPath(import.meta.url));
  const file =
    installedEntry(`@seahaven/${name}`, cwd) ?? installedEntry(`@seahaven/${name}`, here);
  if (file !== undefined) return { file, via: 'package' };
  const folder = join(cwd, 'worlds', name, 'index.ts');
  return existsSync(folder) ? { file: realpathSync(folder), via: 'folder' } : undefined;
}

/** The folder of the installed world package `@seahaven/<name>`, when there is one. */
export function worldPackageRoot(name: string): string | undefined {
  const found = namedWorld(name);
  if (found?.via !== 'package') return undefined;
  for (let dir = dirname(found.file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name ===
        `@seahaven/${name}`
        ? dir
        : undefined;
  }
  return undefined;
}

/** The module file a world reference names: a world name (`crm`), a module or folder path, or `./world.ts` / `./src/world.ts`, else crm. */
export function resolveWorldModule(ref?: string): string {
  if (ref === undefined) {
    const local = ['world.ts', 'src/world.ts'].map((f) => resolve(f)).find((f) => existsSync(f));
    if (local !== undefined) return local;
    const found = namedWorld(DEFAULT_WORLD);
    if (found === undefined)
      throw new CliError(
        `no world here: there is no world.ts in this folder and the default world, @seahaven/${DEFAULT_WORLD}, is not installed; give a world's path or name, or install it (npm install @seahaven/${DEFAULT_WORLD})`,
        2,
      );
    return found.file;
  }
  const named = namedWorld(ref);
  if (named !== undefined) return named.file;
  const file = resolve(ref);
  if (!existsSync(file))
    throw new CliError(
      WORLD_NAME.test(ref)
        ? `no world "${ref}": neither ./worlds/${ref}/ nor the package @seahaven/${ref} is here; install it (npm install @seahaven/${ref}) or give the path of a module that exports a world`
        : `no world "${ref}": give a world's name (crm) or the path of a module that exports a world`,
      2,
    );
  if (!statSync(file).isDirectory()) return file;
  const inner = ['index.ts', 'world.ts', 'src/world.ts']
    .map((f) => join(file, f))
    .find((f) => existsSync(f));
  if (inner === undefined)
    throw new CliError(
      `${ref} is a folder without index.ts or world.ts; give the path of the module that exports the world`,
      2,
    );
  return inner;
}

/** Load a world from `ref`: a world name (`crm`), or a path to a module whose default (or only world) export is a world. */
export async function loadWorld(ref?: string): Promise<World> {
  const file = resolveWorldModule(ref);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (isWorld(mod.default)) return mod.default;
  const worlds = Object.values(mod).filter(isWorld);
  if (worlds.length === 1) return worlds[0];
  throw new CliError(
    `${file} exports ${worlds.length === 0 ? 'no world' : 'several worlds'}; export the world as the default export: export default defineWorld({ … })`,
  );
}
