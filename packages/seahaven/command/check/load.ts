/**
 * Load the world a check is about. Author mistakes that `defineWorld` or `defineTool` refuse at import time
 * (`DefinitionError`) become findings with the code of the check they belong to, so `seahaven check` reports them
 * like any other finding instead of crashing.
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isWorld, resolveWorldModule } from '../cli/load-world.ts';
import type { World } from '../../core/world.ts';
import { finding, type CheckCode, type Finding } from './codes.ts';
import { escapeRegExp, locateInFiles, locateInStack } from './locate.ts';

/** A world (or the reason there is none) with where it lives. */
export interface CheckTarget {
  /** What was asked for: an example name, a module path, or the world's name. */
  ref: string;
  world: World | null;
  /** The world module, when known. */
  file: string | null;
  /** The folder lint runs on, when known. */
  folder: string | null;
}

// Which check a refusal belongs to, by what `defineWorld` / `defineTool` say.
const DEFINITION_CODES: [RegExp, CheckCode][] = [
  [/: task "/, 'SH003'],
  [/non-deterministic .*generated column/i, 'SH103'],
  [/non-deterministic .*(?:index|partial index)/i, 'SH104'],
  [/non-deterministic .*CHECK constraint/i, 'SH105'],
  [/the schema does not execute/, 'SH100'],
  [/is not STRICT/, 'SH101'],
  [/no explicit PRIMARY KEY/, 'SH102'],
  [/creates no tables/, 'SH107'],
  [/^defineTool\(.*the name must match/, 'SH201'],
  [/reserved/, 'SH202'],
  [/the description is empty/, 'SH203'],
  [/input must be a zod object/, 'SH205'],
  [/two tools are named|clashes with another tool/, 'SH208'],
  [/must come from defineTool|run\(ctx, input\) must be a function/, 'SH209'],
  [/fixtures?\b/, 'SH310'],
];

/** The finding for a `DefinitionError`: its check's code, its message, the fix it names, and where it was thrown. */
export function definitionFinding(error: Error, folder: string | null): Finding {
  const code = DEFINITION_CODES.find(([pattern]) => pattern.test(error.message))?.[1] ?? 'SH003';
  // `defineTool("x"): the name must …` reads as `Tool "x": the name must …`.
  const message = error.message.replace(
    /^define(World|Tool)\(("[^"]*"|undefined)\): /,
    (_, kind: string, name: string) => `${kind} ${name}: `,
  );
  // The generic codes take their fix from the message, which names it after the last "; ".
  const tail = message.includes('; ') ? message.slice(message.lastIndexOf('; ') + 2) : '';
  const fix =
    (code === 'SH003' || code === 'SH310') && tail !== '' && !/^got\b/.test(tail)
      ? tail.charAt(0).toUpperCase() + tail.slice(1)
      : undefined;
  // A schema refusal is best shown at the table in the .sql file; anything else where the definition was called.
  const table = /table "([^"]+)"/.exec(message)?.[1];
  const location =
    (table && code.startsWith('SH1')
      ? locateInFiles(
          folder,
          ['.sql'],
          new RegExp(
            `CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?["\`[]?${escapeRegExp(table)}\\b`,
            'i',
          ),
        )
      : undefined) ?? (folder ? locateInStack(error, folder) : undefined);
  return finding(code, message, { fix, location });
}

/** Resolve and import the world module named by `ref`; import-time failures become findings. */
export async function loadTarget(
  ref?: string,
): Promise<{ target: CheckTarget; findings: Finding[] }> {
  const file = resolveWorldModule(ref);
  const folder = dirname(file);
  const target: CheckTarget = { ref: ref ?? file, world: null, file, folder };
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    // Compared by name: a world may use another copy of the kit (the published package) than this checker.
    if (error.name === 'DefinitionError')
      return { target, findings: [definitionFinding(error, folder)] };
    const first = error.message.split('\n')[0];
    return {
      target,
      findings: [
        finding('SH001', `The world module ${file} fails to load: ${first}`, {
          fix: `Run it on its own (\`npx tsx ${file}\`) to see the stack, and fix the error.`,
          location: locateInStack(error, folder) ?? { file },
        }),
      ],
    };
  }
  const worlds = isWorld(mod.default) ? [mod.default] : Object.values(mod).filter(isWorld);
  if (worlds.length !== 1) {
    const what = worlds.length === 0 ? 'no world' : `${worlds.length} worlds and no default export`;
    return {
      target,
      findings: [finding('SH002', `The module ${file} exports ${what}.`, { location: { file } })],
    };
  }
  target.world = worlds[0];
  return { target, findings: [] };
}
