/**
 * The copy-on-write page layer (cowvfs.c) as a loadable SQLite extension, compiled on first use with the system's C
 * compiler (`$CC`, else `cc`) against the `sqlite3ext.h` of the SQLite that better-sqlite3 compiled into its addon: the
 * extension calls that SQLite through the routines it is handed when it loads, so the two cannot disagree. Nothing is
 * built at install time, so `npm ci` never needs more than better-sqlite3 does.
 *
 * The library goes to the kit's cache folder (`cacheDir()`), named by the hash of its source and the SQLite version, so
 * a changed source or an upgraded better-sqlite3 builds a new one. It is compiled to a name of its own and renamed into
 * place, so processes compiling at the same time never load half a library.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/** cowvfs.c, beside this module in the sources (and in the published package, which ships the kit's sources). */
function sourcePath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const own = join(here, 'cowvfs.c');
  // Compiled to dist/core/, the source stays in core/.
  return existsSync(own) ? own : join(here, '..', '..', 'core', 'cowvfs.c');
}

/**
 * Where the kit keeps what it builds for this machine (the extension, fixtures' reset images): `$SEAHAVEN_CACHE_DIR`,
 * else `node_modules/.cache/seahaven` of the working folder when it has a writable `node_modules`, else a folder of the
 * user's in the system's temporary folder.
 */
export function cacheDir(): string {
  const env = process.env.SEAHAVEN_CACHE_DIR;
  if (env) return env;
  const modules = join(process.cwd(), 'node_modules');
  if (
    writable(join(modules, '.cache')) ||
    (!existsSync(join(modules, '.cache')) && writable(modules))
  )
    return join(modules, '.cache', 'seahaven');
  let user = 'user';
  try {
    user = String(userInfo().uid);
  } catch {
    // No user entry (a container's arbitrary uid): one folder for all.
  }
  return join(tmpdir(), `seahaven-cache-${user}`);
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder of better-sqlite3's SQLite amalgamation, which holds `sqlite3ext.h`. */
function sqliteHeaders(): string {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const dir = join(dirname(pkg), 'deps', 'sqlite3');
  if (!existsSync(join(dir, 'sqlite3ext.h')))
    throw new Error(`better-sqlite3 has no deps/sqlite3/sqlite3ext.h in ${dirname(pkg)}`);
  return dir;
}

function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return String(db.prepare('SELECT sqlite_version()').pluck().get());
  } finally {
    db.close();
  }
}

/**
 * The compiled extension's path, built now unless the cache holds it. Throws an error naming the fix when it cannot
 * be built (no C compiler, no headers).
 */
export function buildCowVfs(): string {
  if (process.platform === 'win32')
    throw new Error('the copy-on-write page layer is built for Linux and macOS only');
  const source = sourcePath();
  const text = readFileSync(source);
  const key = createHash('sha256').update(text).update(sqliteVersion()).digest('hex').slice(0, 16);
  const dir = cacheDir();
  const lib = join(dir, `cowvfs-${key}.so`);
  if (existsSync(lib)) return lib;
  mkdirSync(dir, { recursive: true });
  const partial = `${lib}.${process.pid}.partial`;
  const cc = process.env.CC || 'cc';
  const flags = ['-O2', '-fPIC', '-shared', '-Wall', '-I', sqliteHeaders()];
  if (process.platform === 'darwin') flags.push('-undefined', 'dynamic_lookup');
  try {
    execFileSync(cc, [...flags, source, '-o', partial], { stdio: ['ignore', 'ignore', 'pipe'] });
    renameSync(partial, lib);
  } catch (e) {
    rmSync(partial, { force: true });
    const why = (e as { stderr?: Buffer }).stderr?.toString().trim().split('\n')[0];
    throw new Error(
      `could not compile ${source} with \`${cc}\` (${why || (e as Error).message}); install a C compiler (\`apt-get install -y gcc\`) or set CC`,
    );
  }
  return lib;
}
