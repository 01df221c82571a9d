/**
 * `ctx.db`: world code's SQL on one store, inside the running call's transaction. Statements come prepared from the
 * store's connection; one that writes first lets the call's transaction begin there, and one world code may not run is
 * reported to the transaction, which fails the call even if world code catches the error.
 */
import type { CallTransaction } from './call-transaction.ts';
import { NeedsOld } from './capture.ts';
import type { Connection, Prepared } from './connection.ts';
import type { CtxDb, RunResult, SqlParam } from './ctx.ts';
import { RefusedStatement } from './sql-guard.ts';
import type { Stream } from './random.ts';
import { sqlValueToJson, type Row } from './values.ts';

/** The store a `ctx.db` works on: its connection, opened from its image if the store sleeps. */
export interface LiveStore {
  live(): Connection;
  /** The stream behind SQL `random()`: a statement that is run again starts from where it was the first time. */
  readonly sqlStream: Stream;
}

/**
 * Run a statement that writes, its call begun on `connection` first. When it is about to change a row whose value after
 * an earlier call has not been read yet, the capture function throws `NeedsOld` and SQLite undoes the statement; the
 * call's transaction reads what is needed and the statement runs again, from the same position of the SQL random
 * stream (capture.ts).
 */
function write<T>(
  connection: Connection,
  store: LiveStore,
  p: Prepared,
  tx: CallTransaction,
  run: () => T,
): T {
  tx.beforeWrite(connection);
  if (p.replaces) tx.beforeReplace();
  store.sqlStream.saveInto(streamMark, 0);
  for (;;) {
    try {
      return run();
    } catch (e) {
      if (!(e instanceof NeedsOld)) throw e;
      store.sqlStream.restoreFrom(streamMark, 0);
      tx.settle(e);
    }
  }
}

/** Where `write` keeps the SQL stream's position while its statement runs (statements never nest). */
const streamMark = new Int32Array(4);

/** World code's statement `sql` on `connection`; one it may not run is reported to the call's transaction first. */
function statement(connection: Connection, sql: string, tx: CallTransaction): Prepared {
  try {
    return connection.prepared(sql);
  } catch (e) {
    if (e instanceof RefusedStatement) tx.refuse(e);
    throw e;
  }
}

/**
 * The `ctx.db` of a store. Its methods are plain functions (world code may pass `ctx.db.one` around), each reaching the
 * store's connection as it is when called: a store that slept opens again.
 */
export function storeDb(store: LiveStore, tx: CallTransaction): CtxDb {
  return {
    one<T = Row>(sql: string, ...params: SqlParam[]): T | undefined {
      const connection = store.live();
      const p = statement(connection, sql, tx);
      if (!p.stmt.reader)
        throw new TypeError(
          `ctx.db.one() needs a statement that returns rows; use ctx.db.run() for: ${sql}`,
        );
      if (p.stmt.readonly) return connection.row(p, params) as T | undefined;
      return write(connection, store, p, tx, () => connection.row(p, params) as T | undefined);
    },
    all<T = Row>(sql: string, ...params: SqlParam[]): T[] {
      const connection = store.live();
      const p = statement(connection, sql, tx);
      if (!p.stmt.reader)
        throw new TypeError(
          `ctx.db.all() needs a statement that returns rows; use ctx.db.run() for: ${sql}`,
        );
      if (p.stmt.readonly) return connection.rows(p, params) as T[];
      return write(connection, store, p, tx, () => connection.rows(p, params) as T[]);
    },
    run(sql: string, ...params: SqlParam[]): RunResult {
      const connection = store.live();
      const p = statement(connection, sql, tx);
      const stmt = p.stmt;
      if (stmt.reader) {
        // INSERT … RETURNING and friends: run to completion so every row is written.
        if (stmt.readonly) stmt.all(...params);
        else write(connection, store, p, tx, () => stmt.all(...params));
        return { changes: connection.lastChanges(), lastInsertRowid: 0 };
      }
      const r = stmt.readonly
        ? stmt.run(...params)
        : write(connection, store, p, tx, () => stmt.run(...params));
      return {
        changes: r.changes,
        lastInsertRowid: sqlValueToJson(r.lastInsertRowid) as number | string,
      };
    },
    transaction<T>(fn: () => T): T {
      return tx.savepoint(store.live(), fn);
    },
  };
}
