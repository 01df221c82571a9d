/**
 * The `seahaven fixtures build` command that rebuilds a world's fixtures, as messages print it: `--world <name>` for
 * an example world of this kit, else `--world <folder>` naming the folder of the world's module relative to the
 * current folder (`--world .` inside a project made by `seahaven new`), which works wherever the message is read.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { World } from './world-types.ts';

// The example worlds beside this copy of the kit: `worlds/` for the sources, `dist/worlds/` for the build.
const EXAMPLES = [
  fileURLToPath(new URL('../../../worlds/', import.meta.url)),
  fileURLToPath(new URL('../../worlds/', import.meta.url)),
];
/** The module names `seahaven` looks for in a folder given as `--world <folder>` (see resolveWorldModule). */
const MODULES = ['index.ts', 'world.ts', 'src/world.ts'];

/**
 * What to pass as `--world` to reach `world`: its example name, or the folder that holds the module defining it
 * (relative to `cwd` when inside it or beside it, else absolute). Without a module in that folder, an example world's
 * name, else a placeholder for the module's path.
 */
export function worldArgument(world: World, cwd = process.cwd()): string {
  const example = EXAMPLES.some(
    (e) =>
      existsSync(join(e, world.name, 'index.ts')) || existsSync(join(e, world.name, 'index.js')),
  );
  const dir = world.fixturesDir;
  if (dir === null) return example ? world.name : '<path of the module that exports the world>';
  const folder = dirname(resolve(dir));
  if (EXAMPLES.some((e) => folder === join(e, world.name))) return world.name;
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
