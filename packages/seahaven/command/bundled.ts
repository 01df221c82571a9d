/**
 * The repository's documents the command prints or copies: `docs/`, `AGENTS.md` and `README.md`. They live at the root
 * of the repository; a packed (and so an installed) copy of the package carries them at its own root, where `prepack`
 * (bin/bundle-docs.mjs) copies them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root, then the repository root, seen from here (`command/`, or `dist/command/` in a build). */
const ROOTS = ['../', '../../', '../../../'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

/** The absolute path of `name` (`docs/`, `AGENTS.md`) in the package, else in the repository it is part of. */
export function bundledPath(name: string): string {
  const found = ROOTS.map((root) => root + name).find((path) => existsSync(path));
  if (found === undefined)
    throw new Error(
      `${name} is missing from this copy of seahaven (looked in ${ROOTS.join(', ')}); reinstall seahaven, or pack it with npm pack, which bundles it`,
    );
  return found;
}
