/**
 * The rows a running call has written, as the capture triggers report them (capture.ts): each row once, by table
 * number and primary key, in the order first written.
 */
import type { TableInfo } from './schema.ts';

/** What the rows of a call are reported to: the tracked tables, and the first touch of each row (`ChangeTracker`). */
export interface RowTracker {
  readonly tables: readonly { info: TableInfo }[];
  firstTouch(tableNo: number, k: string, inserted: boolean, strict: boolean): void;
}

function keyString(tableNo: number, key: readonly unknown[]): string {
  let s = String(tableNo);
  for (const v of key) {
    s += '\u0000';
    s += typeof v === 'bigint' || typeof v === 'number' ? 'n' + v : v instanceof Uint8Array ? 'b' + Buffer.from(v).toString('hex') : v === null ? 'z' : 's' + v;
  }
  return s;
}

/**
 * The rows a call has written so far, each once, in the order first written: what the capture triggers reported,
 * as (table number in the tracker, primary key). The call's transaction keeps it and hands it to the tracker at commit.
 */
export class TouchedRows {
  /** Table number, primary key and key string of each row. */
  rows: [number, unknown[], string][] = [];
  private readonly keys = new Set<string>();

  /**
   * A trigger fired for the store whose first table has number `offset`: `args` are `(table, ...key[, ...newKey])`, the
   * table as `-1 - table` for a delete. `strict`: a call is running, so a live row about to change throws `NeedsOld`.
   */
  add(tracker: RowTracker, offset: number, args: unknown[], strict: boolean): void {
    let local = Number(args[0]);
    const deleted = local < 0;
    if (deleted) local = -1 - local;
    const tableNo = offset + local;
    const n = tracker.tables[tableNo].info.pk.length;
    // An update passes the old key then the new one; a changed primary key touches both rows.
    const update = args.length > 1 + n;
    this.touch(tracker, tableNo, args.slice(1, 1 + n), !update && !deleted, strict);
    if (update) this.touch(tracker, tableNo, args.slice(1 + n), true, strict);
  }

  private touch(tracker: RowTracker, tableNo: number, key: unknown[], inserted: boolean, strict: boolean): void {
    const k = keyString(tableNo, key);
    if (this.keys.has(k)) return;
    tracker.firstTouch(tableNo, k, inserted, strict);
    this.keys.add(k);
    this.rows.push([tableNo, key, k]);
  }

  /** Forget every row (the call ended). */
  clear(): void {
    if (this.rows.length === 0) return;
    this.rows = [];
    this.keys.clear();
  }
}
