// `prepack` (and, with --clean, `postpack`): the package carries the repository's guides, AGENTS.md and README.md,
// which live at the repository root. They are copied here for `npm pack` / `npm publish` and removed afterwards;
// `seahaven docs` and `seahaven new` read them from the package when they are here, else from the repository.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('../', import.meta.url));
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLED = ['docs', 'AGENTS.md', 'README.md'];

if (process.argv.includes('--clean')) {
  for (const name of BUNDLED) rmSync(pkg + name, { recursive: true, force: true });
} else {
  for (const name of BUNDLED) {
    if (!existsSync(repo + name))
      throw new Error(`${repo}${name} is missing; pack seahaven from a clone of the repository`);
    rmSync(pkg + name, { recursive: true, force: true });
    cpSync(repo + name, pkg + name, {
      recursive: true,
      // The guides, not their tests or the generated API reference (docs/api/, see typedoc.json).
      filter: (src) => !src.endsWith('.ts') && !src.startsWith(repo + 'docs/api'),
    });
  }
}
