/**
 * Coalesced writes. A stretch of billing work writes the same objects several times: a renewal writes its invoice when
 * it is finalized and again when it is paid, its payment intent when it is made and again when it is confirmed, the
 * invoice's payment record when it opens and when it is paid. Within such a stretch (`coalescing`), `put` keeps each
 * object's row (the statement and its parameters, made when `put` was called) in memory, and each object's row is
 * written once, with its last value, when the stretch ends.
 *
 * What a stretch reads is what it would read without coalescing:
 *  - `get` answers a pending object from its pending JSON (store.ts), and reads any other by id from the database;
 *  - any other SQL world code runs (a `WHERE` over a table's columns, a count, an update by SQL) first writes the
 *    pending rows of every table its text names, so the statement sees them;
 *  - a savepoint (`ctx.db.transaction`) writes every pending row first and writes through while it is open, so a
 *    throw inside it rolls back exactly what it wrote.
 * Pending rows of a table are written in the order they were first put, so each new row gets the `seq` it would have
 * had, and the change log's net change of every row is the same. A stretch that throws leaves its rows unwritten: the
 * call fails and its transaction is rolled back, as it would be without coalescing.
 */
import type { Ctx, CtxDb, RunResult, SqlParam } from 'seahaven';

interface Pending {
  sql: string;
  params: SqlParam[];
  json: string;
}

class Writes {
  /** Per table, the pending rows by id, in the order of their first put. */
  readonly tables = new Map<string, Map<string, Pending>>();
  /** Open savepoints: while one is, rows are written through. */
  depth = 0;
  readonly db: CtxDb;
  readonly named: (sql: string) => readonly string[];
  constructor(db: CtxDb, named: (sql: string) => readonly string[]) {
    this.db = db;
    this.named = named;
  }
  write(table: string): void {
    const rows = this.tables.get(table);
    if (rows === undefined) return;
    this.tables.delete(table);
    for (const p of rows.values()) this.db.run(p.sql, ...p.params);
  }
  writeAll(): void {
    for (const table of [...this.tables.keys()]) this.write(table);
  }
  before(sql: string): void {
    if (this.tables.size === 0) return;
    for (const table of this.named(sql)) this.write(table);
  }
}

/** The stretches open, by the `ctx.db` their work reaches (a context spread from another keeps its `db`). */
const OPEN = new WeakMap<CtxDb, Writes>();

/**
 * Which of `tables` a statement's text names (as whole words), remembered per text: world code's SQL is fixed text,
 * so there are few distinct ones.
 */
function namer(tables: readonly string[]): (sql: string) => readonly string[] {
  const seen = new Map<string, readonly string[]>();
  const words = tables.map((t) => [t, new RegExp(`\\b${t}\\b`)] as const);
  return (sql) => {
    let found = seen.get(sql);
    if (found === undefined) {
      found = words.filter(([, re]) => re.test(sql)).map(([t]) => t);
      seen.set(sql, found);
    }
    return found;
  };
}

const namers = new WeakMap<readonly string[], (sql: string) => readonly string[]>();

/**
 * Open a stretch of coalesced writes on `ctx` (module comment) over `tables` (every table a put may write): world code
 * in it runs with the context answered, and `end()` writes what is pending. An inner stretch on a context already
 * coalescing is the outer one.
 */
export function coalescing(ctx: Ctx, tables: readonly string[]): { ctx: Ctx; end(): void } {
  if (disabled > 0 || OPEN.has(ctx.db)) return { ctx, end: () => {} };
  let named = namers.get(tables);
  if (named === undefined) namers.set(tables, (named = namer(tables)));
  const inner = ctx.db;
  const writes = new Writes(inner, named);
  const db: CtxDb = {
    one: (sql, ...params) => {
      writes.before(sql);
      return inner.one(sql, ...params);
    },
    all: (sql, ...params) => {
      writes.before(sql);
      return inner.all(sql, ...params);
    },
    run: (sql, ...params): RunResult => {
      writes.before(sql);
      return inner.run(sql, ...params);
    },
    transaction: (fn) => {
      writes.writeAll();
      writes.depth++;
      try {
        return inner.transaction(fn);
      } finally {
        writes.depth--;
      }
    },
  };
  OPEN.set(db, writes);
  return {
    ctx: { ...ctx, db },
    end: () => writes.writeAll(),
  };
}

/**
 * Keep a put's row pending when `ctx` is coalescing (and no savepoint is open): true when kept, false when the caller
 * writes it now.
 */
export function keepPending(
  ctx: Ctx,
  table: string,
  id: string,
  sql: string,
  params: SqlParam[],
  json: string,
): boolean {
  const writes = OPEN.get(ctx.db);
  if (writes === undefined || writes.depth > 0) return false;
  let rows = writes.tables.get(table);
  if (rows === undefined) writes.tables.set(table, (rows = new Map()));
  rows.set(id, { sql, params, json });
  return true;
}

/**
 * Where `get` reads an object by id: its pending JSON, when `ctx` is coalescing and the object is pending; else the
 * database to read its row from (under a coalescing `ctx`, the one beneath it: the row is known not to be pending).
 * One lookup of the stretch answers both.
 */
export function pendingOrDb(ctx: Ctx, table: string, id: string): string | CtxDb {
  const writes = OPEN.get(ctx.db);
  if (writes === undefined) return ctx.db;
  return writes.tables.get(table)?.get(id)?.json ?? writes.db;
}

let disabled = 0;

/** Run `fn` with coalescing off: every put written at once (the equivalence test compares both). */
export function withoutCoalescing<T>(fn: () => T): T {
  disabled++;
  try {
    return fn();
  } finally {
    disabled--;
  }
}
