/**
 * `ctx.db`: statements prepared once per connection and cached, integers read exactly, savepoints for nesting. A call's
 * transaction begins at its first write, so a call that only reads pays for no BEGIN or COMMIT: with one connection
 * per instance and nothing else writing, its reads see the same state either way.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { CtxDb, RunResult, SqlParam } from './ctx.ts';
import { rowToJson, sqlValueToJson, type Row } from './values.ts';

type Db = InstanceType<typeof Database>;

/** A connection with its statement cache. */
export class Store {
  readonly db: Db;
  // Rows come back with safe integers and are converted to their JSON forms before anyone sees them.
  private readonly cache = new Map<string, Statement>();
  private savepoints = 0;
  private inCall = false;
  private beginStatement: Statement | null = null;
  private commitStatement: Statement | null = null;

  constructor(db: Db) {
    this.db = db;
  }

  statement(sql: string): Statement {
    let stmt = this.cache.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      if (stmt.reader) stmt.safeIntegers(true);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }

  /** A call starts: its transaction begins before its first write. */
  startCall(): void {
    this.inCall = true;
  }

  /** A call ends: commit (or roll back) whatever it wrote. */
  endCall(commit: boolean): void {
    this.inCall = false;
    if (!this.db.inTransaction) return;
    if (commit) (this.commitStatement ??= this.db.prepare('COMMIT')).run();
    else this.db.exec('ROLLBACK');
  }

  private beforeWrite(): void {
    if (this.inCall && !this.db.inTransaction) (this.beginStatement ??= this.db.prepare('BEGIN')).run();
  }

  one<T = Row>(sql: string, params: SqlParam[]): T | undefined {
    const stmt = this.statement(sql);
    if (!stmt.readonly) this.beforeWrite();
    if (!stmt.reader) throw new TypeError(`ctx.db.one() needs a statement that returns rows; use ctx.db.run() for: ${sql}`);
    const row = stmt.get(...params) as Record<string, unknown> | undefined;
    return row === undefined ? undefined : (rowToJson(row) as T);
  }

  all<T = Row>(sql: string, params: SqlParam[]): T[] {
    const stmt = this.statement(sql);
    if (!stmt.readonly) this.beforeWrite();
    if (!stmt.reader) throw new TypeError(`ctx.db.all() needs a statement that returns rows; use ctx.db.run() for: ${sql}`);
    const rows = stmt.all(...params) as Record<string, unknown>[];
    for (const r of rows) rowToJson(r);
    return rows as T[];
  }

  run(sql: string, params: SqlParam[]): RunResult {
    const stmt = this.statement(sql);
    if (!stmt.readonly) this.beforeWrite();
    if (stmt.reader) {
      // INSERT … RETURNING and friends: run to completion so every row is written.
      stmt.all(...params);
      return { changes: Number((this.statement('SELECT changes() AS n').get() as { n: bigint }).n), lastInsertRowid: 0 };
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
