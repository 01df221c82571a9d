/**
 * Change capture. Each tracked table gets three AFTER triggers whose short bodies hand only the written row's primary
 * key to a JS function (`__seahaven_capture`); short bodies keep the schema cheap to parse, which is most of a reset.
 * At the end of each call the kit reads the touched rows' current values, and takes their values at the start of the
 * call from its own history or, for a first touch, from the fixture image (immutable, shared per process). So a call's
 * record is the net change of each row it touched, and the episode's net diff follows without replaying anything.
 */
import type { Statement } from 'better-sqlite3';
import { compareSqlValues, sqlValueToJson, type Row } from './values.ts';
import { quoteIdent, type TableInfo } from './schema.ts';
import type { Db } from './sqlite.ts';

export const CAPTURE_FN = '__seahaven_capture';
export const TRIGGER_PREFIX = '__seahaven_t';

/** A change record, as `changes()` and `changeLog()` return it. */
export interface Change {
  table: string;
  op: 'insert' | 'update' | 'delete';
  key: Row;
  before?: Row;
  after?: Row;
}

/** One record of `changeLog()`: a row's net change within one call. */
export interface ChangeLogEntry extends Change {
  call: number;
  tool: string;
}

/** The DDL that arms capture on `tables`; table numbers are positions in that array. */
export function captureTriggersSql(tables: readonly TableInfo[]): string {
  let sql = '';
  tables.forEach((t, i) => {
    const q = quoteIdent(t.name);
    const key = (row: string) => t.pk.map((c) => `${row}.${quoteIdent(c)}`).join(', ');
    const name = (op: string) => quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`);
    sql += `CREATE TRIGGER ${name('i')} AFTER INSERT ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${key('NEW')}); END;\n`;
    sql += `CREATE TRIGGER ${name('u')} AFTER UPDATE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${key('OLD')}, ${key('NEW')}); END;\n`;
    sql += `CREATE TRIGGER ${name('d')} AFTER DELETE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${key('OLD')}); END;\n`;
  });
  return sql;
}

/** DDL that removes the capture triggers (used before a fixture image is frozen). */
export function dropCaptureTriggersSql(tables: readonly TableInfo[]): string {
  return tables
    .flatMap((t) => ['i', 'u', 'd'].map((op) => `DROP TRIGGER IF EXISTS ${quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`)};`))
    .join('\n');
}

/** Reads whole rows by primary key from one connection, with statements prepared on first use. */
export class RowReader {
  private readonly db: Db;
  private readonly statements: (Statement | undefined)[] = [];
  private readonly tables: readonly TableInfo[];
  constructor(db: Db, tables: readonly TableInfo[]) {
    this.db = db;
    this.tables = tables;
  }
  /** The row's values in column order, or null when no row has that key. */
  read(tableNo: number, key: readonly unknown[]): unknown[] | null {
    let stmt = this.statements[tableNo];
    if (stmt === undefined) {
      const t = this.tables[tableNo];
      const where = t.pk.map((c) => `${quoteIdent(c)} IS ?`).join(' AND ');
      stmt = this.db.prepare(`SELECT ${t.columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(t.name)} WHERE ${where}`).raw(true).safeIntegers(true);
      this.statements[tableNo] = stmt;
    }
    return (stmt.get(...(key as never[])) as unknown[] | undefined) ?? null;
  }
}

/** A table as the tracker sees it: where its rows live now and where they started. */
export interface TrackedTable {
  info: TableInfo;
  /** Display name: `table`, or `mount.table` for a composed sub-world's store. */
  name: string;
  /** Table number within its own store (the number its triggers pass). */
  local: number;
  /** The store the table lives in; its current rows are read from whichever connection it has open. */
  store: { currentRows(): RowReader };
  /** The starting state; null when the store started empty. */
  base: RowReader | null;
}

interface RowHistory {
  table: number;
  key: unknown[];
  original: unknown[] | null;
  current: unknown[] | null;
}

interface CallChanges {
  call: number;
  tool: string;
  /** [table, key, before, after] per touched row whose values differ. */
  rows: [number, unknown[], unknown[] | null, unknown[] | null][];
}

function keyString(tableNo: number, key: readonly unknown[]): string {
  let s = String(tableNo);
  for (const v of key) {
    s += '\u0000';
    s += typeof v === 'bigint' || typeof v === 'number' ? 'n' + v : v instanceof Uint8Array ? 'b' + Buffer.from(v).toString('hex') : v === null ? 'z' : 's' + v;
  }
  return s;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b;
}

function sameRow(a: readonly unknown[] | null, b: readonly unknown[] | null): boolean {
  if (a === null || b === null) return a === b;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
  return true;
}

/**
 * The rows a call has written so far, each once, in the order first written: what the capture triggers reported,
 * as (table number in the tracker, primary key). The call's transaction keeps it and hands it to the tracker at commit.
 */
export class TouchedRows {
  rows: [number, unknown[]][] = [];
  private readonly keys = new Set<string>();

  /** A trigger fired for the store whose first table has number `offset`: `args` are `(table, ...key[, ...newKey])`. */
  add(tables: readonly TrackedTable[], offset: number, args: unknown[]): void {
    const tableNo = offset + Number(args[0]);
    const n = tables[tableNo].info.pk.length;
    this.touch(tableNo, args.slice(1, 1 + n));
    // An update passes the old key then the new one; a changed primary key touches both rows.
    if (args.length > 1 + n) this.touch(tableNo, args.slice(1 + n));
  }

  private touch(tableNo: number, key: unknown[]): void {
    const k = keyString(tableNo, key);
    if (this.keys.has(k)) return;
    this.keys.add(k);
    this.rows.push([tableNo, key]);
  }

  /** Forget every row (the call ended). */
  clear(): void {
    if (this.rows.length === 0) return;
    this.rows = [];
    this.keys.clear();
  }
}

/** The episode's history of changed rows: each call's record, and each row's value at the start and now. */
export class ChangeTracker {
  readonly tables: TrackedTable[] = [];
  private history = new Map<string, RowHistory>();
  private calls: CallChanges[] = [];

  /** Record what a call that just committed changed: the `touched` rows, read once now. */
  recordCall(call: number, tool: string, touched: TouchedRows): void {
    if (touched.rows.length === 0) return;
    const rows: CallChanges['rows'] = [];
    for (const [tableNo, key] of touched.rows) {
      const t = this.tables[tableNo];
      const k = keyString(tableNo, key);
      let h = this.history.get(k);
      if (h === undefined) {
        const original = t.base === null ? null : t.base.read(t.local, key);
        h = { table: tableNo, key, original, current: original };
        this.history.set(k, h);
      }
      const after = t.store.currentRows().read(t.local, key);
      if (!sameRow(h.current, after)) rows.push([tableNo, key, h.current, after]);
      h.current = after;
    }
    if (rows.length > 0) this.calls.push({ call, tool, rows: sortRows(this.tables, rows) });
  }

  /** Net diff since the start, one record per changed row, sorted by table then key. */
  changes(): Change[] {
    const rows: CallChanges['rows'] = [];
    for (const h of this.history.values()) if (!sameRow(h.original, h.current)) rows.push([h.table, h.key, h.original, h.current]);
    return sortRows(this.tables, rows).map((r) => this.record(r));
  }

  /** One record per row per call. */
  changeLog(): ChangeLogEntry[] {
    const out: ChangeLogEntry[] = [];
    for (const c of this.calls) for (const r of c.rows) out.push({ call: c.call, tool: c.tool, ...this.record(r) });
    return out;
  }

  /** A copy that continues independently (fork). Row values are never mutated, so they are shared. */
  copyInto(other: ChangeTracker): void {
    for (const [k, h] of this.history) other.history.set(k, { ...h });
    other.calls = this.calls.slice();
  }

  private record([tableNo, key, before, after]: CallChanges['rows'][number]): Change {
    const t = this.tables[tableNo];
    const info = t.info;
    const keyRow: Row = {};
    info.pk.forEach((c, i) => (keyRow[c] = sqlValueToJson(key[i])));
    if (before === null) return { table: t.name, op: 'insert', key: keyRow, after: toRow(info, after!, null) };
    if (after === null) return { table: t.name, op: 'delete', key: keyRow, before: toRow(info, before, null) };
    const changed: number[] = [];
    for (let i = 0; i < info.columns.length; i++) if (!info.pkIndex.includes(i) && !sameValue(before[i], after[i])) changed.push(i);
    const cols = [...info.pkIndex, ...changed];
    return { table: t.name, op: 'update', key: keyRow, before: toRow(info, before, cols), after: toRow(info, after, cols) };
  }
}

function toRow(t: TableInfo, values: readonly unknown[], cols: number[] | null): Row {
  const row: Row = {};
  if (cols === null) for (let i = 0; i < t.columns.length; i++) row[t.columns[i]] = sqlValueToJson(values[i]);
  else for (const i of cols) row[t.columns[i]] = sqlValueToJson(values[i]);
  return row;
}

function sortRows(tables: readonly TrackedTable[], rows: CallChanges['rows']): CallChanges['rows'] {
  return rows.sort((a, b) => {
    const na = tables[a[0]].name;
    const nb = tables[b[0]].name;
    if (na !== nb) return na < nb ? -1 : 1;
    for (let i = 0; i < a[1].length; i++) {
      const c = compareSqlValues(a[1][i], b[1][i]);
      if (c !== 0) return c;
    }
    return 0;
  });
}
