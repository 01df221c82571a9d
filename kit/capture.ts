/**
 * Change capture. Each tracked table gets three AFTER triggers whose short bodies hand the written row to a JS
 * function (`__seahaven_capture`) registered on the connection; the kit appends a raw record per row written and drops
 * what a failed statement, savepoint or call rolled back. Raw records are converted to JSON only when read.
 */
import { compareSqlValues, sqlValueToJson, type JsonValue, type Row } from './values.ts';
import { quoteIdent, type TableInfo } from './schema.ts';

export const CAPTURE_FN = '__seahaven_capture';
export const TRIGGER_PREFIX = '__seahaven_t';

export const OP_INSERT = 1;
export const OP_UPDATE = 2;
export const OP_DELETE = 3;

/** One row written by one statement, as SQLite handed it over. Update values are the old row then the new row. */
export interface RawRecord {
  call: number;
  table: number;
  op: number;
  values: unknown[];
}

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
export function captureTriggersSql(tables: TableInfo[], schema = 'main'): string {
  let sql = '';
  tables.forEach((t, i) => {
    const q = quoteIdent(t.name);
    const newCols = t.columns.map((c) => 'NEW.' + quoteIdent(c)).join(', ');
    const oldCols = t.columns.map((c) => 'OLD.' + quoteIdent(c)).join(', ');
    const name = (op: string) => `${schema}.${quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`)}`;
    sql += `CREATE TRIGGER ${name('i')} AFTER INSERT ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${OP_INSERT}, ${newCols}); END;\n`;
    sql += `CREATE TRIGGER ${name('u')} AFTER UPDATE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${OP_UPDATE}, ${oldCols}, ${newCols}); END;\n`;
    sql += `CREATE TRIGGER ${name('d')} AFTER DELETE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${OP_DELETE}, ${oldCols}); END;\n`;
  });
  return sql;
}

/** DDL that removes the capture triggers (used before a fixture image is frozen). */
export function dropCaptureTriggersSql(tables: TableInfo[]): string {
  return tables
    .flatMap((t) => ['i', 'u', 'd'].map((op) => `DROP TRIGGER IF EXISTS ${quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`)};`))
    .join('\n');
}

interface RowState {
  table: TableInfo;
  keyValues: unknown[];
  before: unknown[] | null;
  after: unknown[] | null;
  first: number;
}

function keyOf(values: unknown[], t: TableInfo, offset: number): unknown[] {
  return t.pkIndex.map((i) => values[offset + i]);
}

function keyString(tableNo: number, key: unknown[]): string {
  let s = String(tableNo);
  for (const v of key) s += '\u0000' + (typeof v === 'bigint' ? 'n' + v : typeof v === 'number' ? 'n' + v : v instanceof Uint8Array ? 'b' + Buffer.from(v).toString('hex') : 's' + String(v));
  return s;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  // SQLite hands integers over as BigInt and REALs as numbers; 1 and 1.0 are different values to it, and to us.
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

function toRow(t: TableInfo, values: unknown[], cols: number[]): Row {
  const row: Row = {};
  for (const i of cols) row[t.columns[i]] = sqlValueToJson(values[i]);
  return row;
}

/**
 * Fold raw records into net changes, one per row: insert+update → insert; insert+delete → nothing; update+update →
 * one update (dropped when equal); update+delete → delete of the original; delete+insert → update, or nothing when
 * identical. Sorted by table name, then primary key in SQLite's order.
 */
export function foldRecords(records: readonly RawRecord[], tables: readonly TableInfo[], from = 0, to = records.length, tableName?: (t: TableInfo) => string): Change[] {
  const rows = new Map<string, RowState>();
  let seq = 0;
  const touch = (tableNo: number, key: unknown[], before: unknown[] | null) => {
    const k = keyString(tableNo, key);
    let state = rows.get(k);
    if (state === undefined) {
      state = { table: tables[tableNo], keyValues: key, before, after: before, first: seq++ };
      rows.set(k, state);
    }
    return state;
  };
  for (let r = from; r < to; r++) {
    const rec = records[r];
    const t = tables[rec.table];
    const n = t.columns.length;
    if (rec.op === OP_INSERT) {
      touch(rec.table, keyOf(rec.values, t, 0), null).after = rec.values;
    } else if (rec.op === OP_DELETE) {
      touch(rec.table, keyOf(rec.values, t, 0), rec.values).after = null;
    } else {
      const oldRow = rec.values.slice(0, n);
      const newRow = rec.values.slice(n);
      const oldKey = keyOf(oldRow, t, 0);
      const newKey = keyOf(newRow, t, 0);
      if (oldKey.every((v, i) => sameValue(v, newKey[i]))) {
        touch(rec.table, oldKey, oldRow).after = newRow;
      } else {
        // A primary-key change is the old row leaving and a new row arriving.
        touch(rec.table, oldKey, oldRow).after = null;
        touch(rec.table, newKey, null).after = newRow;
      }
    }
  }
  const out: { change: Change; t: TableInfo; key: unknown[] }[] = [];
  for (const s of rows.values()) {
    const t = s.table;
    const name = tableName ? tableName(t) : t.name;
    const allCols = t.columns.map((_, i) => i);
    const key = toRow(t, s.keyValues.length ? rowFromKey(t, s.keyValues) : [], t.pkIndex);
    if (s.before === null && s.after === null) continue;
    if (s.before === null) out.push({ change: { table: name, op: 'insert', key, after: toRow(t, s.after!, allCols) }, t, key: s.keyValues });
    else if (s.after === null) out.push({ change: { table: name, op: 'delete', key, before: toRow(t, s.before, allCols) }, t, key: s.keyValues });
    else {
      const changed: number[] = [];
      for (let i = 0; i < t.columns.length; i++) if (!sameValue(s.before[i], s.after[i])) changed.push(i);
      if (changed.length === 0) continue;
      const cols = [...t.pkIndex, ...changed.filter((i) => !t.pkIndex.includes(i))];
      out.push({ change: { table: name, op: 'update', key, before: toRow(t, s.before, cols), after: toRow(t, s.after, cols) }, t, key: s.keyValues });
    }
  }
  out.sort((a, b) => {
    if (a.change.table !== b.change.table) return a.change.table < b.change.table ? -1 : 1;
    for (let i = 0; i < a.key.length; i++) {
      const c = compareSqlValues(a.key[i], b.key[i]);
      if (c !== 0) return c;
    }
    return 0;
  });
  return out.map((o) => o.change);
}

function rowFromKey(t: TableInfo, key: unknown[]): unknown[] {
  const row: unknown[] = new Array(t.columns.length);
  t.pkIndex.forEach((col, i) => (row[col] = key[i]));
  return row;
}

export type { JsonValue };
