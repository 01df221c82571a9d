/**
 * `ctx.db`: statements prepared once per connection and cached, integers read exactly, savepoints for nesting. A call's
 * transaction begins at its first write, so a call that only reads pays for no BEGIN or COMMIT: with one connection
 * per instance and nothing else writing, its reads see the same state either way.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { CtxDb, RunResult, SqlParam } from './ctx.ts';
import { rowToJson, sqlValueToJson, type JsonValue, type Row } from './values.ts';
import { RefusedStatement, refusalOf } from './sql-guard.ts';

type Db = InstanceType<typeof Database>;

/**
 * A prepared statement and, for statements that return rows, its column names. Rows are read as arrays (`raw` mode)
 * and built here: one object literal per row with the same hidden class every time, integers and BLOBs already in
 * their JSON forms. That costs about a quarter less than better-sqlite3 building objects key by key.
 */
export interface Prepared {
  stmt: Statement;
  /** Column names in result order, or `null` when rows come back as objects (statements that write and return rows). */
  cols: string[] | null;
}

function toRow(cols: string[], values: unknown[]): Row {
  const row: Record<string, JsonValue> = {};
  for (let i = 0; i < cols.length; i++) {
    const v = values[i];
    const json = typeof v === 'bigint' || (typeof v === 'object' && v !== null) ? sqlValueToJson(v) : (v as JsonValue);
    // Assigning to "__proto__" would set the prototype instead of a key.
    if (cols[i] === '__proto__') Object.defineProperty(row, '__proto__', { value: json, enumerable: true, writable: true, configurable: true });
    else row[cols[i]] = json;
  }
  return row;
}

/** A connection with its statement cache. */
export class Store {
  readonly db: Db;
  // Rows come back with safe integers and are converted to their JSON forms before anyone sees them.
  private readonly cache = new Map<string, Prepared>();
  private savepoints = 0;
  private inCall = false;
  /** The first statement refused during the current call: the call fails even if world code caught the error. */
  private refused: RefusedStatement | null = null;
  private beginStatement: Statement | null = null;
  private commitStatement: Statement | null = null;
  /**
   * An episode transaction is open: the store started from a fixture image, and everything since is one transaction
   * in which each call is a savepoint. `restart()` rolls it back to the fixture (prepared statements and the page
   * cache stay warm); anything that needs the bytes or the raw connection commits it first (`settle()`).
   */
  private episode = false;
  /** The current call opened its savepoint (episode mode). */
  private callOpen = false;
  private savepointStatement: Statement | null = null;
  private rollbackStatement: Statement | null = null;
  /** Statements that put `last_insert_rowid()` and `changes()` back to 0, once their temp table exists. */
  private zeroCounters: [Statement, Statement] | null = null;
  private releaseStatement: Statement | null = null;
  /** `total_changes()` when the current episode began: what the episode wrote is the difference. */
  private changesBase = 0;
  /** Whoever the connection's SQL functions currently work for (a recycled store changes hands). */
  owner: unknown = null;
  /** A reader of current rows by key, kept with the connection so its statements are prepared once. */
  liveReader: unknown = null;

  constructor(db: Db) {
    this.db = db;
  }

  /** The statement for `sql`, prepared on first use and cached for the connection's life. */
  prepared(sql: string): Prepared {
    let p = this.cache.get(sql);
    if (p === undefined) {
      const why = refusalOf(sql);
      if (why !== null) {
        const e = new RefusedStatement(sql, why);
        if (this.inCall) this.refused ??= e;
        throw e;
      }
      const stmt = this.db.prepare(sql);
      let cols: string[] | null = null;
      if (stmt.reader) {
        stmt.safeIntegers(true);
        if (stmt.readonly) {
          stmt.raw(true);
          cols = stmt.columns().map((c) => c.name);
        }
      }
      p = { stmt, cols };
      this.cache.set(sql, p);
    }
    return p;
  }

  /** Every row of a prepared statement, in JSON forms. */
  rows(p: Prepared, params: readonly unknown[]): Row[] {
    const out = p.stmt.all(...(params as SqlParam[])) as unknown[];
    const cols = p.cols;
    if (cols === null) {
      for (const r of out) rowToJson(r as Record<string, unknown>);
      return out as Row[];
    }
    for (let i = 0; i < out.length; i++) out[i] = toRow(cols, out[i] as unknown[]);
    return out as Row[];
  }

  /** Start an episode transaction (a store just opened on a fixture image). */
  beginEpisode(): void {
    if (this.db.inTransaction) throw new Error('beginEpisode: a transaction is already open');
    (this.beginStatement ??= this.db.prepare('BEGIN')).run();
    this.episode = true;
    this.changesBase = this.totalChanges();
  }

  /** Whether `restart()` can roll this store back to where its episode began. */
  get inEpisode(): boolean {
    return this.episode;
  }

  /**
   * Roll the episode back to its start and begin a new one. The connection's counters that SQL can read are put back
   * as a fresh connection has them: `last_insert_rowid()` and `changes()` are 0.
   */
  restart(): void {
    if (!this.episode || this.inCall) throw new Error('restart: no episode to roll back, or a call is running');
    (this.rollbackStatement ??= this.db.prepare('ROLLBACK')).run();
    if (this.zeroCounters === null) {
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS __seahaven_counters (x)');
      this.zeroCounters = [this.db.prepare('INSERT INTO temp.__seahaven_counters (rowid, x) VALUES (0, 0)'), this.db.prepare('UPDATE temp.__seahaven_counters SET x = x WHERE 0')];
    }
    (this.beginStatement ??= this.db.prepare('BEGIN')).run();
    // Inserting rowid 0 sets last_insert_rowid() to 0; an update of no rows then sets changes() to 0. The row goes
    // with the next restart's rollback.
    this.zeroCounters[0].run();
    this.zeroCounters[1].run();
    this.changesBase = this.totalChanges();
  }

  /** Commit an open episode transaction, so the connection holds the episode's state as plain committed data. */
  settle(): void {
    if (!this.episode) return;
    if (this.inCall) throw new Error('settle: a call is running');
    this.episode = false;
    (this.commitStatement ??= this.db.prepare('COMMIT')).run();
  }

  /** Whether anything was written since the store opened (or since its episode began). */
  get changed(): boolean {
    return this.totalChanges() > this.changesBase;
  }

  private totalChanges(): number {
    return Number((this.prepared('SELECT total_changes()').stmt.get() as [bigint])[0]);
  }

  /** A call starts: its transaction (or, in an episode, its savepoint) begins before its first write. */
  startCall(): void {
    this.inCall = true;
    this.refused = null;
  }

  /** Throw what the current call tried to run and was refused, if anything. */
  checkCall(): void {
    if (this.refused !== null) throw this.refused;
  }

  /** A call ends: commit (or roll back) whatever it wrote. */
  endCall(commit: boolean): void {
    this.inCall = false;
    this.refused = null;
    if (this.episode) {
      if (!this.callOpen) return;
      this.callOpen = false;
      if (commit) (this.releaseStatement ??= this.db.prepare('RELEASE __seahaven_call')).run();
      else this.db.exec('ROLLBACK TO __seahaven_call; RELEASE __seahaven_call');
      return;
    }
    if (!this.db.inTransaction) return;
    if (commit) (this.commitStatement ??= this.db.prepare('COMMIT')).run();
    else this.db.exec('ROLLBACK');
  }

  private beforeWrite(): void {
    if (!this.inCall) return;
    if (this.episode) {
      if (!this.callOpen) {
        (this.savepointStatement ??= this.db.prepare('SAVEPOINT __seahaven_call')).run();
        this.callOpen = true;
      }
    } else if (!this.db.inTransaction) (this.beginStatement ??= this.db.prepare('BEGIN')).run();
  }

  one<T = Row>(sql: string, params: SqlParam[]): T | undefined {
    const p = this.prepared(sql);
    const stmt = p.stmt;
    if (!stmt.readonly) this.beforeWrite();
    if (!stmt.reader) throw new TypeError(`ctx.db.one() needs a statement that returns rows; use ctx.db.run() for: ${sql}`);
    const row = stmt.get(...params) as unknown[] | Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    return (p.cols === null ? rowToJson(row as Record<string, unknown>) : toRow(p.cols, row as unknown[])) as T;
  }

  all<T = Row>(sql: string, params: SqlParam[]): T[] {
    const p = this.prepared(sql);
    if (!p.stmt.readonly) this.beforeWrite();
    if (!p.stmt.reader) throw new TypeError(`ctx.db.all() needs a statement that returns rows; use ctx.db.run() for: ${sql}`);
    return this.rows(p, params) as T[];
  }

  run(sql: string, params: SqlParam[]): RunResult {
    const stmt = this.prepared(sql).stmt;
    if (!stmt.readonly) this.beforeWrite();
    if (stmt.reader) {
      // INSERT … RETURNING and friends: run to completion so every row is written.
      stmt.all(...params);
      return { changes: Number((this.prepared('SELECT changes()').stmt.get() as [bigint])[0]), lastInsertRowid: 0 };
    }
    const r = stmt.run(...params);
    return { changes: r.changes, lastInsertRowid: sqlValueToJson(r.lastInsertRowid) as number | string };
  }

  transaction<T>(fn: () => T): T {
    const name = `sh_sp_${++this.savepoints}`;
    this.beforeWrite();
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      this.db.exec(`RELEASE ${name}`);
      return out;
    } catch (e) {
      this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw e;
    } finally {
      this.savepoints--;
    }
  }

  /** The `ctx.db` face of this store. */
  face(): CtxDb {
    return {
      one: (sql, ...params) => this.one(sql, params),
      all: (sql, ...params) => this.all(sql, params),
      run: (sql, ...params) => this.run(sql, params),
      transaction: (fn) => this.transaction(fn),
    };
  }
}
