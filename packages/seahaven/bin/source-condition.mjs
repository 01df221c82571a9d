// Module resolve hook for the `seahaven` command. A world the command loads (`seahaven check`, `fixtures build`,
// `new`, …) imports `seahaven`, `seahaven/rewards`, `@seahaven/stripe`, …; those names resolve here with the
// `@seahaven/source` export condition, which leads to the packages' TypeScript sources. `seahaven…` always resolves
// to this copy of the package, so the world runs on the same copy of the kit as the command (not on a second copy,
// with its own fixture caches, that the world's folder may have installed); `@seahaven/<world>` resolves from the
// importing module, else from here, so a world package installed beside the command serves a project that has not
// installed it yet (`seahaven new --mount stripe` freezes the project's fixtures before its `npm install`).
// The repository's vitest.config.ts applies the same rule, through `sourceRoute`, for the in-process tests.
export const CONDITION = '@seahaven/source';
const KIT = /^seahaven(\/|$)/;
const WORLD = /^@seahaven\/[^/]+(\/|$)/;

/**
 * How a specifier resolves: `kit` (always this copy), `world` (from the importer, else from here), or null (as usual).
 * @param {string} specifier
 * @returns {'kit' | 'world' | null}
 */
export function sourceRoute(specifier) {
  return KIT.test(specifier) ? 'kit' : WORLD.test(specifier) ? 'world' : null;
}

export async function resolve(specifier, context, nextResolve) {
  const route = sourceRoute(specifier);
  if (route === null) return nextResolve(specifier, context);
  const kit = route === 'kit';
  const conditions = context.conditions.includes(CONDITION)
    ? context.conditions
    : [CONDITION, ...context.conditions];
  // Passed on down the chain, so tsx resolves the .ts file as it would a relative import.
  if (kit) return nextResolve(specifier, { ...context, conditions, parentURL: import.meta.url });
  try {
    return await nextResolve(specifier, { ...context, conditions });
  } catch (e) {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    return nextResolve(specifier, { ...context, conditions, parentURL: import.meta.url });
  }
}
