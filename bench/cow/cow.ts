/**
 * The copy-on-write VFS from TypeScript: episodes on a big fixture that share one read-only base image and each hold
 * only the pages they changed (cowvfs.c explains the layer). A base is a file holding the image every episode starts
 * from (for the kit, the fixture's reset image: the frozen image with its capture triggers), mapped once per process.
 * An episode's database is opened by name, `<base file>.cow-<n>`, through better-sqlite3's ordinary constructor: the
 * extension is the process's default VFS and hands every name it does not own to the one before it.
 *
 * - reset: roll the episode transaction back (the pages it wrote back are dropped), or close and `drop()` the store;
 * - fork: commit, then `copy()` the store (its changed pages) to a new name and open that;
 * - hibernate: commit and close; the store stays in the process until dropped, and reopening it is a reset's cost.
 */
import Database from 'better-sqlite3';
import { buildCowVfs } from './build.ts';

type Db = InstanceType<typeof Database>;

let control: Db | null = null;
let episodes = 0;

/** The connection that loaded the extension and runs its functions (the VFS is process-wide once loaded). */
function cow(): Db {
  if (control === null) {
    const db = new Database(':memory:');
    db.loadExtension(buildCowVfs());
    control = db;
  }
  return control;
}

/** A base image that copy-on-write episodes start from. */
export class CowBase {
  /** The image file, mapped read-only; also the prefix of its episodes' names. */
  readonly path: string;
  /** The image's size in bytes. */
  readonly bytes: number;

  /** Map the image at `path` (an SQLite database file that nothing rewrites while the process runs). */
  constructor(path: string) {
    this.path = path;
    this.bytes = Number(cow().prepare('SELECT cow_base(?, ?)').pluck().get(path, path));
  }

  /** A fresh store name for an episode on this base. */
  episodeName(): string {
    return `${this.path}.cow-${++episodes}`;
  }

  /**
   * Open an episode's database on store `name` (a fresh name starts from the base). Journals stay in memory, as an
   * in-memory database's do; one connection holds the store, so it locks nothing. The locking mode stays NORMAL: in
   * EXCLUSIVE mode SQLite bumps the header's change counter once per lock instead of once per transaction, and the
   * bytes would differ from a deserialized copy's.
   */
  open(name = this.episodeName()): CowEpisode {
    const db = new Database(name);
    db.pragma('journal_mode = MEMORY');
    return new CowEpisode(this, name, db);
  }
}

/** An open copy-on-write episode: its connection and the name of the store that holds its changed pages. */
export class CowEpisode {
  readonly base: CowBase;
  /** The store's name, which is also the database's file name. */
  readonly name: string;
  readonly db: Db;

  constructor(base: CowBase, name: string, db: Db) {
    this.base = base;
    this.name = name;
    this.db = db;
  }

  /** Pages the store holds (committed changes, and pages SQLite spilled from its cache mid-transaction). */
  get changedPages(): number {
    return Number(cow().prepare('SELECT cow_chunks(?)').pluck().get(this.name) ?? 0);
  }

  /** A new episode with this one's committed state: the store's changed pages copied, the base shared. */
  fork(): CowEpisode {
    const name = this.base.episodeName();
    cow().prepare('SELECT cow_copy(?, ?)').get(this.name, name);
    return this.base.open(name);
  }

  /** Close the connection and keep the store (hibernation); `base.open(name)` opens it again. */
  close(): void {
    this.db.close();
  }

  /** Close the connection and forget the store: the episode is gone. */
  destroy(): void {
    if (this.db.open) this.db.close();
    dropStore(this.name);
  }
}

/** Forget a closed store. */
export function dropStore(name: string): void {
  cow().prepare('SELECT cow_drop(?)').get(name);
}

/** Bytes held in changed pages by every store of the process. */
export function changedBytes(): number {
  return Number(cow().prepare('SELECT cow_total()').pluck().get());
}
