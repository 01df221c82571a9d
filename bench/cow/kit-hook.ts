/**
 * Runs the kit, unchanged, on copy-on-write databases for the benchmark: every connection the kit opens on a
 * registered fixture image (`new Database(resetImage)`, what a reset or a first use does) gets a copy-on-write episode
 * on that image's base file instead of a deserialized copy. Everything else opens as before: blank stores, and the
 * images a fork or hibernation serializes (those stay full copies here; the design note says what adoption changes).
 *
 * The hook replaces the constructor of better-sqlite3's native addon object, which better-sqlite3's `Database` calls
 * with `new`: a constructor that returns an object makes `new` yield it, so the kit's `Database` wraps the native
 * connection opened on the episode's name. Closing that connection drops the episode's store.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CowBase, dropStore } from './cow.ts';

interface NativeDb {
  exec(sql: string): void;
  close(): void;
}
type NativeCtor = new (...args: unknown[]) => NativeDb;

const bases = new Map<Buffer, CowBase>();
let enabled = true;
let opened = 0;

/** How many copy-on-write episodes the kit has opened in this process (tests check that the hook was taken). */
export function cowOpens(): number {
  return opened;
}

/** Whether the kit's opens of registered images go copy-on-write (tests turn it off to open the same images as today). */
export function useCopyOnWrite(on: boolean): void {
  enabled = on;
}

function installHook(): void {
  const req = createRequire(import.meta.url);
  const pkg = dirname(req.resolve('better-sqlite3/package.json'));
  // The object better-sqlite3's `bindings` call loads, cached by `require`: patching it patches what Database uses.
  const addon = req(join(pkg, 'build', 'Release', 'better_sqlite3.node')) as {
    Database: NativeCtor;
  };
  if ((addon as { cowHook?: boolean }).cowHook) return;
  const Native = addon.Database;
  function Hooked(...args: unknown[]): NativeDb {
    // (filename, filenameGiven, anonymous, readonly, fileMustExist, timeout, verbose, buffer)
    const image = args[7];
    const base = enabled && Buffer.isBuffer(image) && !args[3] ? bases.get(image) : undefined;
    if (base === undefined) return new Native(...args);
    const name = base.episodeName();
    opened++;
    const db = new Native(name, name, false, false, false, args[5], args[6], null);
    db.exec('PRAGMA journal_mode = MEMORY');
    const close = db.close;
    db.close = function closeEpisode(this: NativeDb) {
      close.call(this);
      dropStore(name);
    };
    return db;
  }
  Hooked.prototype = Native.prototype;
  addon.Database = Hooked as unknown as NativeCtor;
  (addon as { cowHook?: boolean }).cowHook = true;
}

const cacheDir = join(dirname(fileURLToPath(import.meta.url)), 'build');

/**
 * Make the kit open `image` (a fixture's reset image, `loadFixture(world, id).resetImages`) copy-on-write: its bytes
 * are written once to a file named by their sha256 under `bench/cow/build/`, which becomes the shared base.
 */
export function openCopyOnWrite(image: Buffer): CowBase {
  installHook();
  const known = bases.get(image);
  if (known) return known;
  const file = join(
    cacheDir,
    `${createHash('sha256').update(image).digest('hex').slice(0, 16)}.sqlite`,
  );
  if (!existsSync(file) || statSync(file).size !== image.length) {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, image);
    // Renamed into place, so a process starting meanwhile never maps half an image.
    renameSync(partial, file);
  }
  const base = new CowBase(file);
  bases.set(image, base);
  return base;
}
