/**
 * Copy-on-write fixtures: episodes that share one read-only base image and each hold only the pages they changed
 * (cowvfs.c describes the layer). A base is a fixture's reset image (the frozen image with its capture triggers),
 * written once per content hash into the kit's cache folder and mapped read-only once per process, so worker processes
 * share it through the kernel's page cache. An episode's database is a store, opened by name (`<base file>.cow-<n>`)
 * through better-sqlite3's ordinary constructor: the extension is the process's default VFS and hands every name it
 * does not own to the one before it.
 *
 * A store is either live (one connection has it open, and closing the connection drops it) or frozen (a `PageImage`:
 * what a sleeping store or a fork's snapshot keeps, never opened itself; opening one copies its changed pages to a new
 * live store, as opening a serialized image copies its bytes). A frozen store is dropped when its `PageImage` is
 * collected.
 *
 * Where the extension cannot be built or loaded (no C compiler, Windows), or `SEAHAVEN_COPY_ON_WRITE=off`, fixtures
 * are deserialized whole as before, with the same guarantees and the memory of a full copy per episode; the process
 * says so once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from './sqlite.ts';
import { buildCowVfs, cacheDir } from './cow-build.ts';

/**
 * Fixture images at least this large go copy-on-write by default: smaller ones deserialize in well under a
 * millisecond, and the idle connections (idle-connections.ts) keep them warm, so a copy costs little.
 */
export const COW_MIN_BYTES = 64 * 1024 * 1024;

/** The page cache an episode's connection may fill (better-sqlite3 builds SQLite with 16 MB), counted per open. */
export const PAGE_CACHE_BYTES = 16 * 1024 * 1024;

let control: Db | null | undefined;
let episodes = 0;

/** The connection that loaded the extension and runs its functions; null when it cannot be loaded (said once). */
function cow(): Db | null {
  if (control !== undefined) return control;
  control = null;
  try {
    const db = new Database(':memory:');
    try {
      // The entry point by name: SQLite would derive it from the file name, which carries the build's hash.
      (db.loadExtension as (file: string, entry: string) => void)(
        buildCowVfs(),
        'sqlite3_cowvfs_init',
      );
    } catch (e) {
      db.close();
      throw e;
    }
    control = db;
  } catch (e) {
    console.error(
      `seahaven: big fixtures are copied whole into each episode (their copy-on-write pages are off: ${(e as Error).message})`,
    );
  }
  return control;
}

/** Whether the extension is loaded (building it on first use): false where it cannot be built or loaded. */
export function pagesAvailable(): boolean {
  return cow() !== null;
}

type Mode = 'off' | 'all' | 'auto';
const modes = new WeakMap<object, Mode>();

/** Load `world`'s fixtures copy-on-write (`all`), as copies (`off`) or by size, whatever the environment says (tests). */
export function copyOnWriteFor(world: object, mode: Mode): void {
  modes.set(world, mode);
}

/** `SEAHAVEN_COPY_ON_WRITE`: `off` (deserialize every fixture), `all` (every fixture copy-on-write), else by size. */
function modeOf(world: object | undefined): Mode {
  const set = world && modes.get(world);
  if (set) return set;
  const v = process.env.SEAHAVEN_COPY_ON_WRITE;
  return v === 'off' || v === '0' ? 'off' : v === 'all' ? 'all' : 'auto';
}

/** Whether a fixture image of `bytes` bytes of `world` goes copy-on-write here (building the extension if so). */
export function pagesFor(bytes: number, world?: object): boolean {
  const m = modeOf(world);
  if (m === 'off' || (m === 'auto' && bytes < COW_MIN_BYTES)) return false;
  return cow() !== null;
}

function run(sql: string, ...params: unknown[]): unknown {
  return cow()!
    .prepare(sql)
    .pluck()
    .get(...params);
}

const frozen = new FinalizationRegistry<string>((name) => {
  // Frozen stores are never open (opening one copies it), so dropping one cannot fail but for a closed process.
  try {
    if (control?.open) run('SELECT cow_drop(?)', name);
  } catch {
    // Nothing to free.
  }
});

/** A base image that copy-on-write episodes start from: a file mapped read-only. */
export class PageBase {
  readonly file: string;
  /** The image's size in bytes. */
  readonly bytes: number;

  constructor(file: string) {
    this.file = file;
    this.bytes = Number(run('SELECT cow_base(?, ?)', file, file));
  }

  /** A new store name on this base. */
  storeName(): string {
    return `${this.file}.cow-${++episodes}`;
  }
}

const bases = new Map<string, PageBase>();

/**
 * The base for a reset image: its file in the cache folder, named by its sha256, written (aside and renamed, so a
 * process starting meanwhile never maps half an image) unless a file of that name and size is there.
 */
export function pageBaseOf(image: Buffer): PageBase {
  const hash = createHash('sha256').update(image).digest('hex');
  const known = bases.get(hash);
  if (known) return known;
  const dir = join(cacheDir(), 'images');
  const file = join(dir, `${hash.slice(0, 32)}.sqlite`);
  if (!existsSync(file) || statSync(file).size !== image.length) {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    try {
      writeFileSync(partial, image);
      renameSync(partial, file);
    } finally {
      rmSync(partial, { force: true });
    }
  }
  const base = new PageBase(file);
  bases.set(hash, base);
  return base;
}

/**
 * An episode's database as a base and the pages that differ from it: the fixture's own (`store` null: the base as it
 * is) or a frozen store. What a serialized image is on the deserializing path; `length` is the database's size.
 */
export class PageImage {
  readonly base: PageBase;
  readonly store: string | null;
  readonly length: number;
  /** The bytes of the pages the image holds beyond its base. */
  readonly heldBytes: number;

  constructor(base: PageBase, store: string | null = null) {
    this.base = base;
    this.store = store;
    if (store === null) {
      this.length = base.bytes;
      this.heldBytes = 0;
    } else {
      frozen.register(this, store);
      this.length = Number(run('SELECT cow_size(?)', store));
      this.heldBytes = Number(run('SELECT cow_chunks(?) * cow_page(?)', store, store));
    }
  }

  /** Open a live store starting as this image: the base itself, or a copy of the frozen store's pages. */
  open(): PageStore {
    const name = this.base.storeName();
    if (this.store !== null) run('SELECT cow_copy(?, ?)', this.store, name);
    const db = new Database(name);
    // Journals stay in memory, as an in-memory database's do. The locking mode stays NORMAL: in EXCLUSIVE mode SQLite
    // bumps the header's change counter once per lock rather than per transaction, and the bytes would differ.
    db.pragma('journal_mode = MEMORY');
    return new PageStore(this.base, name, db);
  }
}

/** A live store and its connection. */
export class PageStore {
  readonly base: PageBase;
  readonly name: string;
  readonly db: Db;

  constructor(base: PageBase, name: string, db: Db) {
    this.base = base;
    this.name = name;
    this.db = db;
  }

  /** Bytes of the pages the store holds (committed changes, and pages SQLite spilled mid-transaction). */
  get heldBytes(): number {
    return Number(run('SELECT coalesce(cow_chunks(?), 0) * cow_page(?)', this.name, this.name));
  }

  /** A frozen copy of the committed store (commit first: a spilled page of an open transaction would be copied too). */
  freeze(): PageImage {
    const name = this.base.storeName();
    run('SELECT cow_copy(?, ?)', this.name, name);
    return new PageImage(this.base, name);
  }

  /** Close the connection and keep the committed store as a frozen image (what a sleeping store keeps). */
  closeFrozen(): PageImage {
    this.db.close();
    return new PageImage(this.base, this.name);
  }

  /** Close the connection and drop the store. */
  close(): void {
    if (this.db.open) this.db.close();
    run('SELECT cow_drop(?)', this.name);
  }
}

/** What an episode's database starts from: a serialized image to deserialize, or a copy-on-write one. */
export type StoreImage = Buffer | PageImage;

/** What opening an episode from `image` adds to the process: a copy of it, or its held pages and a page cache. */
export function openCost(image: StoreImage): number {
  return image instanceof PageImage ? image.heldBytes + PAGE_CACHE_BYTES : image.length;
}

/** A fixture's reset image as `world`'s episodes open it: on a copy-on-write base when `pagesFor` says so, else as is. */
export function storeImageOf(reset: Buffer, world: object): StoreImage {
  if (!pagesFor(reset.length, world)) return reset;
  try {
    return new PageImage(pageBaseOf(reset));
  } catch (e) {
    // A cache folder that cannot be written (a read-only install): this image is copied into each episode instead.
    if (!warnedBase)
      console.error(
        `seahaven: a big fixture is copied whole into each episode (its copy-on-write base could not be written: ${(e as Error).message}); set SEAHAVEN_CACHE_DIR to a writable folder`,
      );
    warnedBase = true;
    return reset;
  }
}
let warnedBase = false;

/** What opening an episode of a fixture not loaded yet, of `bytes` bytes in `stores` stores, adds (`openCost`). */
export function openEstimate(bytes: number, stores: number, world: object): number {
  return pagesFor(bytes, world) ? stores * PAGE_CACHE_BYTES : bytes;
}

/** Bytes held in changed pages by every store of the process (0 without the extension). */
export function changedPageBytes(): number {
  return control ? Number(run('SELECT cow_total()')) : 0;
}
