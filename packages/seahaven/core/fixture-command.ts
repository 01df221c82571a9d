/**
 * The `seahaven fixtures build` command that rebuilds a world's fixtures, as messages print it: `--world <name>` for
 * a world package (`@seahaven/<name>`), else `--world <folder>` naming the folder of the world's module relative to the
 * current folder (`--world .` inside a project made by `seahaven new`), which works wherever the message is read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { World } from './world-types.ts';

/**
 * Whether the world `name` whose fixtures live in `folder` (or whose module is there) is the world package
 * `@seahaven/<name>`, which `--world <name>` finds by name: the nearest package.json up from `folder` (its build's
 * `dist/` included) says so.
 */
function isWorldPackage(folder: string, name: string): boolean {
  for (let dir = folder, up = 0; up < 3; dir = dirname(dir), up++) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      return (
        (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name ===
        `@seahaven/${name}`
      );
    } catch {
      return false;
    }
  }
  return false;
}
/** Whether the world package `@seahaven/<name>` is installed where this copy of the kit finds packages. */
function worldPackageInstalled(name: string): boolean {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@seahaven', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The module names `seahaven` looks for in a folder given as `--world <folder>` (see resolveWorldModule). */
const MODULES = ['index.ts', 'world.ts', 'src/world.ts'];

/**
 * What to pass as `--world` to reach `world`: its name when it is a world package (or one of that name is installed
 * and its folder holds no module), or the folder that holds the module defining it (relative to `cwd` when inside it or
 * beside it, else absolute); else a placeholder for the module's path.
 */
export function worldArgument(world: World, cwd = process.cwd()): string {
  const example = worldPackageInstalled(world.name);
  const dir = world.fixturesDir;
  if (dir === null) return example ? world.name : '<path of the module that exports the world>';
  const folder = dirname(resolve(dir));
  if (isWorldPackage(folder, world.name)) return world.name;
  if (!MODULES.some((m) => existsSync(join(folder, m))))
    return example ? world.name : '<path of the module that exports the world>';
  const rel = relative(cwd, folder).split(sep).join('/');
  if (rel === '') return '.';
  if (rel === '..' || (rel.startsWith('../') && !rel.startsWith('../..'))) return rel;
  return rel.startsWith('..') || isAbsolute(rel) ? folder : `./${rel}`;
}

/** `npx seahaven fixtures build --world <…>` for `world`. */
export function rebuildCommand(world: World, cwd = process.cwd()): string {
  return `npx seahaven fixtures build --world ${worldArgument(world, cwd)}`;
}
