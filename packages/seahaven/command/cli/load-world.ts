/** Find the world a command is about: an example world by name, a module path, or `./world.ts` in the current folder. */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from './errors.ts';
import type { World } from '../../core/world.ts';

const EXAMPLES = new URL('../../../../worlds/', import.meta.url);

/** Whether a module export is a world (from `defineWorld`). */
export function isWorld(value: unknown): value is World {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as World).instance === 'function' &&
    typeof (value as World).name === 'string'
  );
}

/** The module file a world reference names: an example name (`crm`), a module or folder path, or `./world.ts` / `./src/world.ts`, else crm. */
export function resolveWorldModule(ref?: string): string {
  if (ref === undefined) {
    const local = ['world.ts', 'src/world.ts'].map((f) => resolve(f)).find((f) => existsSync(f));
    return local ?? new URL('crm/index.ts', EXAMPLES).pathname;
  }
  if (/^[a-z][a-z0-9_-]*$/.test(ref) && existsSync(new URL(`${ref}/index.ts`, EXAMPLES)))
    return new URL(`${ref}/index.ts`, EXAMPLES).pathname;
  const file = resolve(ref);
  if (!existsSync(file))
    throw new CliError(
      `no world "${ref}": give an example world name (crm) or the path of a module that exports a world`,
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

/** Load a world from `ref`: an example name (`crm`), or a path to a module whose default (or only world) export is a world. */
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
