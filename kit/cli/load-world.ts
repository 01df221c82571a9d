/** Find the world a command is about: an example world by name, a module path, or `./world.ts` in the current folder. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from './errors.ts';
import type { World } from '../world.ts';

const EXAMPLES = new URL('../../worlds/', import.meta.url);

function isWorld(value: unknown): value is World {
  return typeof value === 'object' && value !== null && typeof (value as World).instance === 'function' && typeof (value as World).name === 'string';
}

/** Load a world from `ref`: an example name (`crm`), or a path to a module whose default (or only world) export is a world. */
export async function loadWorld(ref?: string): Promise<World> {
  let file: string;
  if (ref === undefined) {
    const local = ['world.ts', 'src/world.ts'].map((f) => resolve(f)).find((f) => existsSync(f));
    file = local ?? new URL('crm/index.ts', EXAMPLES).pathname;
  } else if (/^[a-z][a-z0-9_-]*$/.test(ref) && existsSync(new URL(`${ref}/index.ts`, EXAMPLES))) {
    file = new URL(`${ref}/index.ts`, EXAMPLES).pathname;
  } else {
    file = resolve(ref);
    if (!existsSync(file)) throw new CliError(`no world "${ref}": give an example world name (crm) or the path of a module that exports a world`, 2);
  }
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (isWorld(mod.default)) return mod.default;
  const worlds = Object.values(mod).filter(isWorld);
  if (worlds.length === 1) return worlds[0];
  throw new CliError(`${file} exports ${worlds.length === 0 ? 'no world' : 'several worlds'}; export the world as the default export: export default defineWorld({ … })`);
}
