/**
 * The rows a call has touched, as the capture triggers report them (capture.ts): kept by the call's transaction until
 * it commits, then recorded by the change tracker.
 */
/** What the touched rows need of the change tracker (capture.ts): each table's primary key, and a row's first touch. */
export interface TouchTracker {
  readonly tables: readonly { readonly info: { readonly pk: readonly string[] } }[];
  firstTouch(tableNo: number, k: string, inserted: boolean, strict: boolean): void;
}

function keyPart(v: unknown): string {
  return typeof v === 'bigint' || typeof v === 'number'
    ? 'n' + v
    : v instanceof Uint8Array
      ? 'b' + Buffer.from(v).toString('hex')
      : v === null
        ? 'z'
        : 's' + v;
}

/** A row's key string: its table number and each key value, typed. `key` is the value of a one-column key, else an array. */
function keyString(tableNo: number, key: unknown): string {
  if (!Array.isArray(key)) return tableNo + '\u0000' + keyPart(key);
  let s = String(tableNo);
  for (const v of key) s += '\u0000' + keyPart(v);
  return s;
}

/**
 * The rows a call has written so far, each once, in the order first written: what the capture triggers reported,
 * as (table number in the tracker, primary key). The call's transaction keeps it and hands it to the tracker at commit.
 * A clock advance writes hundreds of thousands of rows, all alive until it commits, so they are kept in flat arrays:
 * no object per row besides its key string (and a composite key's array), which keeps the major garbage collections
 * the advance causes short.
 */
export class TouchedRows {
  /** Per row: its table number, its key (the value itself for a one-column primary key, else an array), its key string. */
  readonly tables: number[] = [];
  readonly keys: unknown[] = [];
  readonly keyStrings: string[] = [];
  private readonly seen = new Set<string>();

  /** How many rows were touched. */
  get size(): number {
    return this.tables.length;
  }

  /** Row `i`'s primary key as an array of its values. */
  key(tracker: TouchTracker, i: number): unknown[] {
    const key = this.keys[i];
    return tracker.tables[this.tables[i]].info.pk.length === 1 ? [key] : (key as unknown[]);
  }

  /**
   * A trigger fired for the store whose first table has number `offset`: `args` are `(table, ...key[, ...newKey])`, the
   * table as `-1 - table` for a delete. `strict`: a call is running, so a live row about to change throws `NeedsOld`.
   */
  add(tracker: TouchTracker, offset: number, args: unknown[], strict: boolean): void {
    let local = Number(args[0]);
    const deleted = local < 0;
    if (deleted) local = -1 - local;
    const tableNo = offset + local;
    const n = tracker.tables[tableNo].info.pk.length;
    // An update passes the old key then the new one; a changed primary key touches both rows.
    const update = args.length > 1 + n;
    this.touch(
      tracker,
      tableNo,
      n === 1 ? args[1] : args.slice(1, 1 + n),
      !update && !deleted,
      strict,
    );
    if (update) this.touch(tracker, tableNo, n === 1 ? args[2] : args.slice(1 + n), true, strict);
  }

  private touch(
    tracker: TouchTracker,
    tableNo: number,
    key: unknown,
    inserted: boolean,
    strict: boolean,
  ): void {
    const k = keyString(tableNo, key);
    if (this.seen.has(k)) return;
    tracker.firstTouch(tableNo, k, inserted, strict);
    this.seen.add(k);
    this.tables.push(tableNo);
    this.keys.push(key);
    this.keyStrings.push(k);
  }

  /** Forget every row (the call ended). */
  clear(): void {
    if (this.tables.length === 0) return;
    this.tables.length = 0;
    this.keys.length = 0;
    this.keyStrings.length = 0;
    this.seen.clear();
  }
}
