/**
 * Compiles the copy-on-write VFS (cowvfs.c) into a loadable SQLite extension with the system's C compiler, against
 * the `sqlite3ext.h` of the SQLite that better-sqlite3 compiled into its addon (the extension calls that SQLite through
 * the routines it is handed when it loads, so the two cannot disagree). The library goes to `bench/cow/build/`
 * (ignored) and is rebuilt when the source is newer.
 *
 * Run: `npx tsx bench/cow/build.ts` (the glue, cow.ts, also builds on first use).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, 'cowvfs.c');

/** Where the compiled extension lives. */
export const extensionPath = join(here, 'build', 'cowvfs.so');

/** The folder of better-sqlite3's SQLite amalgamation, which holds the `sqlite3ext.h` the extension is built against. */
function sqliteHeaders(): string {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const dir = join(dirname(pkg), 'deps', 'sqlite3');
  if (!existsSync(join(dir, 'sqlite3ext.h')))
    throw new Error(
      `better-sqlite3 has no deps/sqlite3/sqlite3ext.h in ${dirname(pkg)}; reinstall it with \`npm ci\``,
    );
  return dir;
}

/** Build the extension unless it is newer than its source; returns its path. */
export function buildCowVfs(): string {
  if (existsSync(extensionPath) && statSync(extensionPath).mtimeMs >= statSync(source).mtimeMs)
    return extensionPath;
  mkdirSync(dirname(extensionPath), { recursive: true });
  const cc = process.env.CC ?? 'cc';
  try {
    execFileSync(
      cc,
      ['-O2', '-fPIC', '-shared', '-Wall', '-I', sqliteHeaders(), source, '-o', extensionPath],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  } catch (e) {
    throw new Error(
      `could not compile ${source} with \`${cc}\` (${(e as Error).message}); install a C compiler (\`apt-get install -y gcc\`) or set CC`,
    );
  }
  return extensionPath;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(buildCowVfs());
