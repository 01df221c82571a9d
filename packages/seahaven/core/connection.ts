/**
 * A connection: one store's open SQLite database, with the kit's settings and SQL functions, its statements prepared
 * once and cached by SQL text, rows read in their JSON forms, and the episode transaction.
 *
 * A connection opened on a fixture image runs its whole episode as one transaction, begun when it opens: `restart()`
 * rolls it back, which restores the fixture's pages byte for byte in microseconds and keeps the prepared statements
 * and the page cache warm for the next episode. Anything that needs the database as bytes commits it first
 * (`commitEpisode()`). A connection that cannot roll back to a fixture (a blank store, or an episode that wrote so much
 * that it was committed) still runs its calls in a long transaction, a batch, committed every `EPISODE_ROWS` rows and
 * whenever the bytes are needed: a COMMIT copies every page the transaction changed into the in-memory database, which
 * made committing every call about a fifth of a small write's cost. Each tool call's own transaction inside either (a
 * savepoint, or a transaction of its own for a bulk call or where neither can run) belongs to the call
 * (call-transaction.ts).
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { CAPTURE_FN, RowReader } from './capture-sql.ts';
import { VirtualClock } from './clock.ts';
import { PageImage, type PageStore, type StoreImage } from './cow-pages.ts';
import { Stream } from './random.ts';
import type { TableInfo } from './schema.ts';
import { RefusedStatement, refusalOf } from './sql-guard.ts';
import { installSqlOverrides } from './sql-overrides.ts';
import type { Db } from './sqlite.ts';
import { arrayToRow as toRow, rowToJson, type Row } from './values.ts';

/** Rows an episode transaction may write before it is committed (see `Connection.episodeWrote`). */
const EPISODE_ROWS = 5_000;

/**
 * The page cache (KiB) while a bulk call runs. The usual size (16 MB, as better-sqlite3 builds SQLite) holds a fraction
 * of what a clock advance or a fixture build dirties, so SQLite spilled pages to the database image mid-transaction and
 * read them back: a month of Stripe billing (47 MB of new pages) ran a quarter slower than with a cache that holds them
 * all. A limit, not an allocation: the cache grows only to the pages the call touches, and shrinks back when it ends.
 */
const BULK_CACHE_KIB = 256 * 1024;

/**
 * The largest database a connection is let grow to: an in-memory database ends at 1 GiB (SQLite's default
 * `SQLITE_MEMDB_DEFAULT_MAXSIZE`), and a limit below it means an episode's database fills up at a size the kit chose
 * and names (`limitTo`), with room left for the page cache and journal that SQLite needs to roll the episode back.
 */
export const MAX_DB_BYTES = 1024 * 1024 * 1024 - 64 * 1024 * 1024;

/**
 * A prepared statement and, for statements that return rows, its column names. Rows are read as arrays (`raw` mode)
 * and built here: one object literal per row with the same hidden class every time, integers and BLOBs already in
 * their JSON forms. That costs about a quarter less than better-sqlite3 building objects key by key.
 */
export interface Prepared {
  stmt: Statement;
  /** Column names in result order, or `null` when rows come back as objects (statements that write and return rows). */
  cols: string[] | null;
  /** Whether the SQL may replace rows (`OR REPLACE`, `REPLACE INTO`; or merely mentions replace()): see capture.ts. */
  replaces: boolean;
}

/**
 * Whom a connection's SQL functions work for: the store of the instance that holds the connection now. A connection
 * changes hands when a restart gives it to the next episode, so its functions look their tenant up on every call.
 */
export interface ConnectionTenant {
  /** The virtual clock behind `CURRENT_TIMESTAMP`, `datetime('now')` and friends. */
  readonly clock: VirtualClock;
  /** The stream behind SQL `random()` and `randomblob()`. */
  readonly sqlStream: Stream;
  /** A capture trigger fired: `args` are the table's number within this connection's store and the row's key. */
  capture(args: unknown[]): null;
}

/** Whom the SQL functions of a rolled-back, idle connection work for: nobody, so it holds on to no ended instance. */
const NOBODY: ConnectionTenant = {
  clock: new VirtualClock('fixed', 0),
  sqlStream: new Stream('idle connection'),
  capture: () => {
    throw new Error('seahaven: a capture trigger fired on an idle connection');
  },
};

export class Connection {
  readonly db: Db;
  /** Reads the store's current rows by primary key (what a call wrote, for its change record). */
  readonly currentRows: RowReader;
  /** Whom the SQL functions work for now. */
  tenant: ConnectionTenant;
  // Rows come back with safe integers and are converted to their JSON forms before anyone sees them.
  private readonly cache = new Map<string, Prepared>();
  /** The kit's own statements (transaction control, counters), which world code's refusals do not apply to. */
  private readonly own = new Map<string, Statement>();
  /** A long transaction is open, an episode's or a batch's, and calls run as savepoints in it (see the module header). */
  private episode = false;
  /** The open transaction began on the fixture image, so `restart()` can roll back to it. */
  private fromFixture = false;
  /**
   * Whether calls may run in a batch when no episode transaction is open. Not for schemas whose deferred foreign keys
   * or RAISE(ROLLBACK) need each call to be a transaction of its own (world-store.ts).
   */
  batches = false;
  /** The page cache setting to put back when a bulk call ends; null while none runs. */
  private cacheBeforeBulk: number | null = null;
  /** Rows the episode's calls have written so far (see `episodeWrote`). */
  private episodeRows = 0;
  /** `total_changes()` when the current episode began: what the episode wrote is the difference. */
  private changesBase = 0;
  /** Whether the temp table that puts `last_insert_rowid()` and `changes()` back to 0 exists. */
  private counterTable = false;
  /** The limit `limitTo` set, so a connection handed to the next episode of its fixture sets it once. */
  private limitBytes = 0;

  /** The copy-on-write store the database is (cow-pages.ts), or null for an in-memory database. */
  private readonly pages: PageStore | null;

  /**
   * Open `image` (a copy of its bytes, or a store on its copy-on-write base), or an empty database, with the kit's
   * settings and functions, installed before anything is prepared so every statement and trigger sees them.
   */
  constructor(image: StoreImage | null, tables: readonly TableInfo[], tenant: ConnectionTenant) {
    this.pages = image instanceof PageImage ? image.open() : null;
    const db: Db =
      this.pages?.db ?? (image instanceof Buffer ? new Database(image) : new Database(':memory:'));
    db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    this.db = db;
    this.tenant = tenant;
    this.currentRows = new RowReader(db, tables);
    db.function(
      CAPTURE_FN,
      { varargs: true, safeIntegers: true, directOnly: false },
      (...args: unknown[]) => this.tenant.capture(args),
    );
    installSqlOverrides(
      db,
      () => this.tenant.clock.iso(),
      () => this.tenant.sqlStream,
    );
  }

  /**
   * The statement for `sql` from world code, prepared on first use and cached for the connection's life. Throws
   * `RefusedStatement` for SQL world code may not run (sql-guard.ts), before SQLite compiles it.
   */
  prepared(sql: string): Prepared {
    return this.cache.get(sql) ?? this.prepare(sql);
  }

  private prepare(sql: string): Prepared {
    const why = refusalOf(sql);
    if (why !== null) throw new RefusedStatement(sql, why);
    const stmt = this.db.prepare(sql);
    let cols: string[] | null = null;
    if (stmt.reader) {
      stmt.safeIntegers(true);
      if (stmt.readonly) {
        stmt.raw(true);
        cols = stmt.columns().map((c) => c.name);
      }
    }
    const p = { stmt, cols, replaces: /\breplace\b/i.test(sql) };
    this.cache.set(sql, p);
    return p;
  }

  /** Run one of the kit's own statements (transaction control), prepared once per connection. */
  runOwn(sql: string): void {
    let stmt = this.own.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      this.own.set(sql, stmt);
    }
    stmt.run();
  }

  /** The first row of a prepared statement, in JSON forms. */
  row(p: Prepared, params: readonly unknown[]): Row | undefined {
    const row = p.stmt.get(...(params as never[])) as
      unknown[] | Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    return p.cols === null
      ? rowToJson(row as Record<string, unknown>)
      : toRow(p.cols, row as unknown[]);
  }

  /** Every row of a prepared statement, in JSON forms. */
  rows(p: Prepared, params: readonly unknown[]): Row[] {
    const out = p.stmt.all(...(params as never[])) as unknown[];
    const cols = p.cols;
    if (cols === null) {
      for (const r of out) rowToJson(r as Record<string, unknown>);
      return out as Row[];
    }
    for (let i = 0; i < out.length; i++) out[i] = toRow(cols, out[i] as unknown[]);
    return out as Row[];
  }

  /** `changes()` of the last statement: what a statement that writes and returns rows wrote. */
  lastChanges(): number {
    return Number((this.prepared('SELECT changes()').stmt.get() as [bigint])[0]);
  }

  /**
   * Let the database grow to at most `bytes` (whole pages): a write past it fails with SQLITE_FULL, and SQLite then
   * rolls back the whole open transaction (`lostEpisode`). Never below the pages the database has already.
   */
  limitTo(bytes: number): void {
    if (bytes === this.limitBytes) return;
    this.limitBytes = bytes;
    const pages = Math.max(
      1,
      Math.floor(
        Math.min(bytes, MAX_DB_BYTES) / Number(this.db.pragma('page_size', { simple: true })),
      ),
    );
    this.db.pragma(`max_page_count = ${pages}`);
  }

  /** What the database holds in memory of its own: its changed pages on a copy-on-write base, else all its pages. */
  get ownBytes(): number {
    return this.pages?.heldBytes ?? this.bytes;
  }

  /** The committed database as an image: its bytes, or a frozen copy of its copy-on-write store. */
  image(): StoreImage {
    return this.pages?.freeze() ?? this.db.serialize();
  }

  /** Close the connection, keeping the committed database as an image (a sleeping store's). */
  closeToImage(): StoreImage {
    if (this.pages) return this.pages.closeFrozen();
    const image = this.db.serialize();
    this.db.close();
    return image;
  }

  /** The database's size now, in bytes (its pages, free ones included). */
  get bytes(): number {
    return (
      Number(this.db.pragma('page_count', { simple: true })) *
      Number(this.db.pragma('page_size', { simple: true }))
    );
  }

  /**
   * Whether the long transaction the connection ran its calls in is gone: SQLite rolls back a whole transaction when
   * the database is full (SQLITE_FULL), the episode's earlier calls with it. The connection forgets it, so nothing
   * tries to release, commit or roll back to it, and it can no longer be restarted.
   */
  lostEpisode(): boolean {
    if (!this.episode || this.db.inTransaction) return false;
    this.episode = false;
    this.fromFixture = false;
    this.episodeRows = 0;
    return true;
  }

  /** Start an episode transaction (a connection just opened on a fixture image, whose `total_changes()` is 0). */
  beginEpisode(): void {
    if (this.db.inTransaction) throw new Error('beginEpisode: a transaction is already open');
    this.runOwn('BEGIN');
    this.episode = true;
    this.fromFixture = true;
    this.episodeRows = 0;
    this.changesBase = 0;
  }

  /** Whether a long transaction (an episode's or a batch's) is open, so that a call is a savepoint in it. */
  get inEpisode(): boolean {
    return this.episode;
  }

  /** Whether the open episode transaction began on the fixture image, so `restart()` can roll back to it. */
  get restartable(): boolean {
    return this.episode && this.fromFixture;
  }

  /**
   * A call is about to write: where there is no long transaction open and batches are allowed, begin one. Returns
   * whether the call is a savepoint (an episode or a batch is open).
   *
   * A bulk call (`alone`: a clock advance, a fixture build) runs as a transaction of its own instead, with a page cache
   * that holds what it writes (`beginBulk`): the batch so far is committed first, and so is the episode when
   * `endEpisode` (a fixture build, whose writes are frozen at once).
   * Inside a transaction that has already written, every write statement of a schema with triggers (the capture
   * triggers are on every table) copies the pages it touches to a statement journal; for a call of thousands of rows,
   * such as a month of billing, that doubled its cost.
   */
  beginCallPart(alone = false, endEpisode = false): boolean {
    if (alone) this.beginBulk();
    if (alone && this.episode && (!this.fromFixture || endEpisode)) this.commitEpisode();
    if (!alone && !this.episode && this.batches && !this.db.inTransaction) {
      this.runOwn('BEGIN');
      this.episode = true;
      this.fromFixture = false;
      this.episodeRows = 0;
    }
    return this.episode;
  }

  /** A bulk call writes here: give it a page cache that holds what it writes (`BULK_CACHE_KIB`) until `endBulk()`. */
  beginBulk(): void {
    if (this.cacheBeforeBulk !== null) return;
    this.cacheBeforeBulk = Number(this.db.pragma('cache_size', { simple: true }));
    this.db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  }

  /** The bulk call ended (committed or rolled back): the page cache goes back to its size before it. */
  endBulk(): void {
    if (this.cacheBeforeBulk === null) return;
    this.db.pragma(`cache_size = ${this.cacheBeforeBulk}`);
    this.cacheBeforeBulk = null;
  }

  /**
   * Roll the episode back to its start and begin a new one. The counters SQL can read are put back as a fresh
   * connection has them: `last_insert_rowid()` and `changes()` are 0.
   */
  restart(): void {
    this.rollBack();
    this.resume();
  }

  /**
   * Roll the episode back to its start and leave the connection idle on the fixture (idle-connections.ts): no
   * transaction is open until `resume()`, which is cheaper than closing it.
   */
  rollBack(): void {
    if (!this.restartable)
      throw new Error('rollBack: no episode transaction to roll back to the fixture');
    this.runOwn('ROLLBACK');
    this.episode = false;
    this.fromFixture = false;
    this.episodeRows = 0;
    this.tenant = NOBODY;
  }

  /** Begin a new episode on a connection `rollBack()` left on its fixture, with the counters of a fresh connection. */
  resume(): void {
    if (this.db.inTransaction) throw new Error('resume: a transaction is already open');
    if (!this.counterTable) {
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS __seahaven_counters (x)');
      this.counterTable = true;
    }
    this.beginEpisode();
    // Inserting rowid 0 sets last_insert_rowid() to 0; an update of no rows then sets changes() to 0. The row goes
    // with the next rollback.
    this.runOwn('INSERT INTO temp.__seahaven_counters (rowid, x) VALUES (0, 0)');
    this.runOwn('UPDATE temp.__seahaven_counters SET x = x WHERE 0');
    this.changesBase = this.totalChanges();
  }

  /**
   * A call of the episode or batch committed after writing `rows` rows. Past `EPISODE_ROWS` rows the transaction is
   * committed (the next call that writes begins a batch): in SQLite every write inside a transaction costs more the
   * more that transaction has already written (an episode 20,000 rows in wrote three to four times slower than a fresh
   * one), and a long or bulk episode (a fixture built through a world's operations, a month of billing) matters more
   * than the cheap `restart()` it gives up, which then reopens from the fixture image instead. Returns whether it must
   * be committed now; the caller does (`commitEpisode()`), when it chooses to pause before a long COMMIT.
   */
  episodeWrote(rows: number): boolean {
    if (!this.episode) return false;
    this.episodeRows += rows;
    return this.episodeRows > EPISODE_ROWS;
  }

  /**
   * A call's savepoint in the episode was rolled back after it wrote `rows` rows (a `bulk` call: a clock advance). A
   * transaction that has had a large savepoint rolled back stays slow to write in: after a year's advance on a big
   * fixture failed at the database's size limit, the next advance in the same transaction wrote about ten times slower
   * than in a fresh one (bench/advance-slices.ts). So after such a rollback the episode commits (the state is the one
   * before the call) and the next call begins a fresh transaction; a reset then reopens the fixture image instead of
   * rolling back to it.
   */
  undidPart(bulk: boolean, rows: number): void {
    if (bulk || rows > EPISODE_ROWS) this.commitEpisode();
  }

  /** Commit an open episode or batch transaction, so the connection holds the episode's state as plain committed data. */
  commitEpisode(): void {
    if (!this.episode || this.lostEpisode()) return;
    this.episode = false;
    this.fromFixture = false;
    this.runOwn('COMMIT');
  }

  /** Whether anything was written since the connection opened (or since its episode began). */
  get changed(): boolean {
    return this.totalChanges() > this.changesBase;
  }

  private totalChanges(): number {
    return Number((this.prepared('SELECT total_changes()').stmt.get() as [bigint])[0]);
  }

  close(): void {
    if (this.pages) this.pages.close();
    else this.db.close();
  }
}
