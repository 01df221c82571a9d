/**
 * Change capture. Each tracked table gets three AFTER triggers whose short bodies hand only the written row's primary
 * key to a JS function (`__seahaven_capture`); short bodies keep the schema cheap to parse, which is most of a reset.
 * At the end of each call the kit reads the touched rows' current values once, and keeps them encoded outside the
 * JavaScript heap (row-values.ts). A row's value at the start of the episode comes from the fixture image (immutable,
 * shared per process), read only when the history is asked for: a call's record is the net change of each row it
 * touched, and the episode's net diff follows without replaying anything.
 */
import type { Statement } from 'better-sqlite3';
import { compareSqlValues, sqlValueToJson, type Row } from './values.ts';
import { quoteIdent, type TableInfo } from './schema.ts';
import type { Db } from './sqlite.ts';
import { withRoom } from './byte-chunks.ts';
import { RowValues } from './row-values.ts';

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

/** A row's value not read yet: its value at the start of the episode, in the table's starting state. */
const UNREAD = -2;

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

/**
 * The episode's history of changed rows: each call's record, and each row's value at the start and now. Rows are
 * numbered in the order first touched (a slot each); their values live in `values` and are known by number there.
 */
export class ChangeTracker {
  readonly tables: TrackedTable[] = [];
  private values = new RowValues();
  /** Slot of each touched row, by its key string. */
  private slots = new Map<string, number>();
  /** Per slot: table number, primary key (kept as a row of the key's values), value at the start (`UNREAD` until read, or `NO_ROW`), value now. */
  private slotTable = new Int32Array(256);
  private slotKey = new Int32Array(256);
  private slotOriginal = new Int32Array(256);
  private slotCurrent = new Int32Array(256);
  /** Per call with a record: its number, tool, and where its rows end in `records`. */
  private callNumbers: number[] = [];
  private callTools: string[] = [];
  private callEnds: number[] = [];
  /** Per row of a call's record: slot, value before the call (which may be `UNREAD`), value after. */
  private records = new Int32Array(3 * 256);
  private recordCount = 0;

  /** Record what a call that just committed changed: the `touched` rows, read once now. */
  recordCall(call: number, tool: string, touched: TouchedRows): void {
    if (touched.rows.length === 0) return;
    const values = this.values;
    const before = this.recordCount;
    for (const [tableNo, key] of touched.rows) {
      const t = this.tables[tableNo];
      const k = keyString(tableNo, key);
      let slot = this.slots.get(k);
      if (slot === undefined) {
        slot = this.slots.size;
        this.slots.set(k, slot);
        this.growSlots();
        this.slotTable[slot] = tableNo;
        this.slotKey[slot] = values.add(key);
        this.slotOriginal[slot] = UNREAD;
        this.slotCurrent[slot] = UNREAD;
      }
      const was = this.slotCurrent[slot];
      const now = values.add(t.store.currentRows().read(t.local, key));
      // A value not read yet is compared when the history is read; a write that changed nothing leaves no record.
      if (was !== UNREAD && values.same(was, now)) {
        values.dropLast(now);
        continue;
      }
      this.addRecord(slot, was, now);
      this.slotCurrent[slot] = now;
    }
    if (this.recordCount > before) {
      this.callNumbers.push(call);
      this.callTools.push(tool);
      this.callEnds.push(this.recordCount);
    }
  }

  /** Net diff since the start, one record per changed row, sorted by table then key. */
  changes(): Change[] {
    const rows: ChangedRow[] = [];
    for (let slot = 0; slot < this.slots.size; slot++) {
      const original = this.value(slot, this.original(slot));
      const current = this.value(slot, this.slotCurrent[slot]);
      if (!sameRow(original, current)) rows.push([slot, original, current]);
    }
    return this.sorted(rows).map((r) => this.record(r));
  }

  /** One record per row per call. */
  changeLog(): ChangeLogEntry[] {
    const out: ChangeLogEntry[] = [];
    let from = 0;
    for (let c = 0; c < this.callNumbers.length; c++) {
      const rows: ChangedRow[] = [];
      const r = this.records;
      for (let i = from; i < this.callEnds[c]; i++) {
        const slot = r[3 * i];
        const before = this.value(slot, r[3 * i + 1]);
        const after = this.values.get(r[3 * i + 2]);
        if (!sameRow(before, after)) rows.push([slot, before, after]);
      }
      from = this.callEnds[c];
      for (const row of this.sorted(rows)) out.push({ call: this.callNumbers[c], tool: this.callTools[c], ...this.record(row) });
    }
    return out;
  }

  /** A copy that continues independently (fork), with row values of its own. */
  copyInto(other: ChangeTracker): void {
    other.values.release();
    other.values = new RowValues(this.values);
    other.slots = new Map(this.slots);
    other.slotTable = this.slotTable.slice();
    other.slotKey = this.slotKey.slice();
    other.slotOriginal = this.slotOriginal.slice();
    other.slotCurrent = this.slotCurrent.slice();
    other.callNumbers = this.callNumbers.slice();
    other.callTools = this.callTools.slice();
    other.callEnds = this.callEnds.slice();
    other.records = this.records.slice();
    other.recordCount = this.recordCount;
  }

  /** Give the row values back to the pool (the instance ends). */
  release(): void {
    this.values.release();
  }

  /** A slot's value at the start of the episode, read from the starting state the first time it is asked for. */
  private original(slot: number): number {
    let n = this.slotOriginal[slot];
    if (n === UNREAD) {
      const t = this.tables[this.slotTable[slot]];
      n = this.values.add(t.base === null ? null : t.base.read(t.local, this.values.get(this.slotKey[slot])!));
      this.slotOriginal[slot] = n;
    }
    return n;
  }

  /** The values of `n` in `slot`'s history: `UNREAD` is the slot's value at the start. */
  private value(slot: number, n: number): unknown[] | null {
    return this.values.get(n === UNREAD ? this.original(slot) : n);
  }

  private addRecord(slot: number, before: number, after: number): void {
    const i = this.recordCount++;
    this.records = withRoom(this.records, 3 * this.recordCount);
    this.records[3 * i] = slot;
    this.records[3 * i + 1] = before;
    this.records[3 * i + 2] = after;
  }

  private growSlots(): void {
    const n = this.slots.size;
    this.slotTable = withRoom(this.slotTable, n);
    this.slotKey = withRoom(this.slotKey, n);
    this.slotOriginal = withRoom(this.slotOriginal, n);
    this.slotCurrent = withRoom(this.slotCurrent, n);
  }

  /** Rows sorted by table name, then key. */
  private sorted(rows: ChangedRow[]): ChangedRow[] {
    const keyed = rows.map((r) => ({ row: r, name: this.tables[this.slotTable[r[0]]].name, key: this.values.get(this.slotKey[r[0]])! }));
    keyed.sort((a, b) => {
      if (a.name !== b.name) return a.name < b.name ? -1 : 1;
      for (let i = 0; i < a.key.length; i++) {
        const c = compareSqlValues(a.key[i], b.key[i]);
        if (c !== 0) return c;
      }
      return 0;
    });
    return keyed.map((k) => k.row);
  }

  private record([slot, before, after]: ChangedRow): Change {
    const t = this.tables[this.slotTable[slot]];
    const info = t.info;
    const keyRow: Row = {};
    const key = this.values.get(this.slotKey[slot])!;
    info.pk.forEach((c, i) => (keyRow[c] = sqlValueToJson(key[i])));
    if (before === null) return { table: t.name, op: 'insert', key: keyRow, after: toRow(info, after!, null) };
    if (after === null) return { table: t.name, op: 'delete', key: keyRow, before: toRow(info, before, null) };
    const changed: number[] = [];
    for (let i = 0; i < info.columns.length; i++) if (!info.pkIndex.includes(i) && !sameValue(before[i], after[i])) changed.push(i);
    const cols = [...info.pkIndex, ...changed];
    return { table: t.name, op: 'update', key: keyRow, before: toRow(info, before, cols), after: toRow(info, after, cols) };
  }
}

/** A changed row: its slot, values before and after (null: no row). */
type ChangedRow = [number, unknown[] | null, unknown[] | null];

function toRow(t: TableInfo, values: readonly unknown[], cols: number[] | null): Row {
  const row: Row = {};
  if (cols === null) for (let i = 0; i < t.columns.length; i++) row[t.columns[i]] = sqlValueToJson(values[i]);
  else for (const i of cols) row[t.columns[i]] = sqlValueToJson(values[i]);
  return row;
}
