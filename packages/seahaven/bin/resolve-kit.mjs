// Module resolve hook for the `seahaven` command. A world the command loads (`seahaven check`, `fixtures build`,
// `new`, …) imports `seahaven`, `seahaven/rewards`, …; those resolve here to this package's TypeScript sources, the
// same copy of the kit the command runs on. Without it they would resolve to the built dist/ (or to nothing before a
// build), and the world would run on a second copy of the kit with its own fixture caches.
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { exports } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const sources = new Map();
for (const [subpath, target] of Object.entries(exports)) {
  const built = typeof target === 'string' ? target : target.default;
  if (!built.startsWith('./dist/') || !built.endsWith('.js')) continue;
  const source = new URL(built.slice('./dist/'.length).replace(/\.js$/, '.ts'), root);
  // Entry points not written yet fall through to ordinary resolution.
  if (existsSync(source))
    sources.set(subpath === '.' ? 'seahaven' : `seahaven/${subpath.slice(2)}`, source.href);
}

export async function resolve(specifier, context, nextResolve) {
  const source = sources.get(specifier);
  // Passed on down the chain, so tsx resolves the .ts file as it would a relative import.
  return nextResolve(source ?? specifier, context);
}
