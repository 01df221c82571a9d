/**
 * Change capture. Each tracked table gets three AFTER triggers (capture-sql.ts) that hand only the written row's
 * primary key to a JS function, which reports it to the running call (`TouchedRows`, touched-rows.ts). A call's
 * record is the net change of each row it touched, and the episode's net diff follows without replaying anything. A
 * row's value at the start of the episode comes from the fixture image (immutable, shared per process), read only
 * when the history is asked for.
 *
 * A row's value after a call is read when something needs it, not when the call ends ("live"): until a later call
 * writes the row again, that value is simply the row as it is in the store. Most rows a call writes are never written
 * again (events, charges, log lines), and reading them all back at commit was a quarter of a bulk call's cost. When a
 * later call's first write to a live row fires its trigger, the row already holds the new value, so the capture
 * function throws `NeedsOld`; SQLite undoes the statement, `ctx.db` reads the live rows of that table into the
 * history (row-values.ts, outside the JavaScript heap) and runs the statement again. The table is then read at the end
 * of each call, as tables that are written again and again are best served. A REPLACE can remove a row without a
 * trigger, so a statement that may replace settles every live row first, and a schema that replaces by itself (`ON
 * CONFLICT REPLACE`, a trigger with `OR REPLACE`) is read at the end of each call from the start.
 */
import { compareSqlValues, sqlValueToJson, type Row } from './values.ts';
import type { TableInfo } from './schema.ts';
import type { RowReader } from './capture-sql.ts';
import { NO_NUMBERS, withRoom } from './byte-chunks.ts';
import { NO_ROW, RowValues } from './row-values.ts';
import type { TouchedRows } from './touched-rows.ts';

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
  /** Whether the schema may replace rows without a trigger, so rows are read at the end of each call (module header). */
  eager: boolean;
}

/**
 * Thrown by the capture function when a statement is about to change a live row (module header): the statement is
 * undone, `settle()` the table, and run it again. It never reaches world code.
 */
export class NeedsOld extends Error {
  readonly tableNo: number;
  constructor(tableNo: number) {
    super('seahaven: a live row must be read before it is written (the kit retries the statement)');
    this.tableNo = tableNo;
  }
}

/** A row's value not read yet: its value at the start of the episode, in the table's starting state. */
const UNREAD = -2;
/** A row's value not read yet: its value now, in the store (module header). */
const LIVE = -3;

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
 * The episode's history of changed rows: each call's record, and each row's value at the start and now. Rows are
 * numbered in the order first touched (a slot each); their values live in `values` and are known by number there.
 */
export class ChangeTracker {
  readonly tables: TrackedTable[] = [];
  private values = new RowValues();
  /** Slot of each touched row, by its key string. */
  private slots = new Map<string, number>();
  /** Per slot: table number, primary key (kept as a row of the key's values), value at the start (`UNREAD` until read, or `NO_ROW`), value now. */
  private slotTable = NO_NUMBERS;
  private slotKey = NO_NUMBERS;
  private slotOriginal = NO_NUMBERS;
  private slotCurrent = NO_NUMBERS;
  /** Per slot whose value now is `LIVE`: the record whose value after is too. */
  private slotLive = NO_NUMBERS;
  /** Per table: slots made `LIVE` (some may have been read since), to read when the table is settled. */
  private liveSlots: number[][] = [];
  /** Tables read at the end of each call since a later call wrote one of their live rows. */
  private settled = new Set<number>();
  /** Per call with a record: its number, tool, and where its rows end in `records`. */
  private callNumbers: number[] = [];
  private callTools: string[] = [];
  private callEnds: number[] = [];
  /** Per row of a call's record: slot, value before the call (which may be `UNREAD`), value after. */
  private records = NO_NUMBERS;
  private recordCount = 0;

  /**
   * Record what a call that just committed changed: the `touched` rows. Rows of tables that are written again and again
   * (and of schemas that replace) are read now; the others stay `LIVE` until something needs their value.
   */
  recordCall(call: number, tool: string, touched: TouchedRows): void {
    const before = this.recordCount;
    this.recordRows(touched, 0, touched.size);
    this.endRecord(call, tool, before);
  }

  /**
   * `recordCall` pausing (`yield`) after every `chunk` rows: a clock advance run in slices records its hundreds of
   * thousands of rows over several slices. Nothing else may use the tracker until it is done.
   */
  *recordCallSteps(
    call: number,
    tool: string,
    touched: TouchedRows,
    chunk: number,
  ): Generator<void, void> {
    const before = this.recordCount;
    for (let from = 0; from < touched.size; from += chunk) {
      if (from > 0) yield;
      this.recordRows(touched, from, Math.min(touched.size, from + chunk));
    }
    this.endRecord(call, tool, before);
  }

  /** Rows `from` to `to` of the call's `touched` rows, each a record (`recordCall`). */
  private recordRows(touched: TouchedRows, from: number, to: number): void {
    const values = this.values;
    for (let i = from; i < to; i++) {
      const tableNo = touched.tables[i];
      const k = touched.keyStrings[i];
      const t = this.tables[tableNo];
      let slot = this.slots.get(k);
      let key: unknown[] | null = null;
      if (slot === undefined) {
        slot = this.slots.size;
        this.slots.set(k, slot);
        this.growSlots();
        this.slotTable[slot] = tableNo;
        this.slotKey[slot] = values.add((key = touched.key(this, i)));
        this.slotOriginal[slot] = UNREAD;
        this.slotCurrent[slot] = UNREAD;
      }
      const was = this.slotCurrent[slot];
      if (t.eager || this.settled.has(tableNo)) {
        const now = values.add(t.store.currentRows().read(t.local, key ?? touched.key(this, i)));
        // A value not read yet is compared when the history is read; a write that changed nothing leaves no record.
        if (was !== UNREAD && was !== LIVE && values.same(was, now)) {
          values.dropLast(now);
          continue;
        }
        this.addRecord(slot, was, now);
        this.slotCurrent[slot] = now;
      } else {
        // Records whose value before and after are the same are left out when the history is read.
        this.addRecord(slot, was, LIVE);
        this.slotCurrent[slot] = LIVE;
        this.slotLive[slot] = this.recordCount - 1;
        (this.liveSlots[tableNo] ??= []).push(slot);
      }
    }
  }

  /** The call's records are all in (from `before` on): it gets an entry when it has any. */
  private endRecord(call: number, tool: string, before: number): void {
    if (this.recordCount > before) {
      this.callNumbers.push(call);
      this.callTools.push(tool);
      this.callEnds.push(this.recordCount);
    }
  }

  /**
   * The running call writes the row with key string `k` for the first time. A live row that is `inserted` had no row
   * (a plain insert found none; a REPLACE settled everything first). One about to change in place or be deleted must be
   * read first: `strict` throws `NeedsOld` (the statement is undone and retried); otherwise (a write outside any call,
   * on a raw database handle) its value after the last call is lost and reads as the row now.
   */
  firstTouch(tableNo: number, k: string, inserted: boolean, strict: boolean): void {
    const slot = this.slots.get(k);
    if (slot === undefined || this.slotCurrent[slot] !== LIVE) return;
    if (inserted) this.settle(slot, NO_ROW);
    else if (strict) throw new NeedsOld(tableNo);
  }

  /** Read every live row of table `tableNo` into the history, and read that table at the end of each call from now on. */
  settleTable(tableNo: number): void {
    this.settled.add(tableNo);
    this.settleLive(tableNo);
  }

  /** Read every live row into the history (before a statement that may replace rows without a trigger). */
  settleAll(): void {
    for (let tableNo = 0; tableNo < this.liveSlots.length; tableNo++) this.settleLive(tableNo);
  }

  private settleLive(tableNo: number): void {
    const slots = this.liveSlots[tableNo];
    if (slots === undefined || slots.length === 0) return;
    const t = this.tables[tableNo];
    const rows = t.store.currentRows();
    for (const slot of slots) {
      if (this.slotCurrent[slot] !== LIVE) continue;
      this.settle(slot, this.values.add(rows.read(t.local, this.values.get(this.slotKey[slot])!)));
    }
    slots.length = 0;
  }

  /** A live slot's value is now known as `n`: in its last record and as its value now. */
  private settle(slot: number, n: number): void {
    this.records[3 * this.slotLive[slot] + 2] = n;
    this.slotCurrent[slot] = n;
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
        const after = this.value(slot, r[3 * i + 2]);
        if (!sameRow(before, after)) rows.push([slot, before, after]);
      }
      from = this.callEnds[c];
      for (const row of this.sorted(rows))
        out.push({ call: this.callNumbers[c], tool: this.callTools[c], ...this.record(row) });
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
    other.slotLive = this.slotLive.slice();
    other.liveSlots = this.liveSlots.map((slots) => slots.slice());
    other.settled = new Set(this.settled);
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
      n = this.values.add(
        t.base === null ? null : t.base.read(t.local, this.values.get(this.slotKey[slot])!),
      );
      this.slotOriginal[slot] = n;
    }
    return n;
  }

  /** The values of `n` in `slot`'s history: `UNREAD` is the slot's value at the start, `LIVE` its row now. */
  private value(slot: number, n: number): unknown[] | null {
    if (n === LIVE) {
      const t = this.tables[this.slotTable[slot]];
      return t.store.currentRows().read(t.local, this.values.get(this.slotKey[slot])!);
    }
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
    this.slotLive = withRoom(this.slotLive, n);
  }

  /** Rows sorted by table name, then key. */
  private sorted(rows: ChangedRow[]): ChangedRow[] {
    const keyed = rows.map((r) => ({
      row: r,
      name: this.tables[this.slotTable[r[0]]].name,
      key: this.values.get(this.slotKey[r[0]])!,
    }));
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
    if (before === null)
      return { table: t.name, op: 'insert', key: keyRow, after: toRow(info, after!, null) };
    if (after === null)
      return { table: t.name, op: 'delete', key: keyRow, before: toRow(info, before, null) };
    const changed: number[] = [];
    for (let i = 0; i < info.columns.length; i++)
      if (!info.pkIndex.includes(i) && !sameValue(before[i], after[i])) changed.push(i);
    const cols = [...info.pkIndex, ...changed];
    return {
      table: t.name,
      op: 'update',
      key: keyRow,
      before: toRow(info, before, cols),
      after: toRow(info, after, cols),
    };
  }
}

/** A changed row: its slot, values before and after (null: no row). */
type ChangedRow = [number, unknown[] | null, unknown[] | null];

function toRow(t: TableInfo, values: readonly unknown[], cols: number[] | null): Row {
  const row: Row = {};
  if (cols === null)
    for (let i = 0; i < t.columns.length; i++) row[t.columns[i]] = sqlValueToJson(values[i]);
  else for (const i of cols) row[t.columns[i]] = sqlValueToJson(values[i]);
  return row;
}
