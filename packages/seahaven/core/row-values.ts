/**
 * Row values kept by the change tracker, encoded into byte chunks outside the JavaScript heap (byte-chunks.ts). A row
 * is its values in column order, as SQLite gives them with safe integers (bigint, number, string, Uint8Array or
 * null), each a tag byte and its bytes: integers as 64-bit two's complement, reals as IEEE doubles, text as UTF-8 and
 * BLOBs as they are, both after a 32-bit length. Decoding gives back the same values, so two rows encode to the same
 * bytes exactly when they hold the same values.
 */
import { ByteChunks, NO_NUMBERS, withRoom } from './byte-chunks.ts';

const NULL = 0;
const INTEGER = 1;
const REAL = 2;
const TEXT = 3;
const BLOB = 4;

/** No row: the key had none (before an insert, after a delete). */
export const NO_ROW = -1;

/** The rows written so far; a row is known by the number `add` gave it. */
export class RowValues {
  private readonly bytes: ByteChunks;
  /** Per row: chunk, start and end of its bytes. */
  private where: Int32Array<ArrayBuffer>;
  private count = 0;

  /** Empty, or a copy of `from` (a fork's) with chunks of its own. */
  constructor(from?: RowValues) {
    this.bytes = new ByteChunks(from?.bytes);
    this.where = from ? from.where.slice() : NO_NUMBERS;
    this.count = from ? from.count : 0;
  }

  /** Encode `values` (or `null`: no row) and return its number. */
  add(values: readonly unknown[] | null): number {
    if (values === null) return NO_ROW;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8; the exact size is measured only when that bound does not fit
    // in the chunk being written, so that a large row does not take a chunk (or a buffer of its own) it will not fill.
    let bound = 0;
    for (const v of values)
      bound +=
        typeof v === 'string' ? 5 + 3 * v.length : v instanceof Uint8Array ? 5 + v.length : 9;
    const bytes = this.bytes;
    if (!bytes.fits(bound)) {
      bound = 0;
      for (const v of values)
        bound +=
          typeof v === 'string'
            ? 5 + Buffer.byteLength(v)
            : v instanceof Uint8Array
              ? 5 + v.length
              : 9;
    }
    const c = bytes.room(bound);
    const chunk = bytes.chunks[c];
    const start = bytes.used;
    let at = start;
    for (const v of values) {
      if (v === null || v === undefined) chunk[at++] = NULL;
      else if (typeof v === 'bigint') {
        chunk[at] = INTEGER;
        chunk.writeBigInt64LE(v, at + 1);
        at += 9;
      } else if (typeof v === 'number') {
        chunk[at] = REAL;
        chunk.writeDoubleLE(v, at + 1);
        at += 9;
      } else if (typeof v === 'string') {
        chunk[at] = TEXT;
        const n = chunk.write(v, at + 5);
        chunk.writeUInt32LE(n, at + 1);
        at += 5 + n;
      } else if (v instanceof Uint8Array) {
        chunk[at] = BLOB;
        chunk.writeUInt32LE(v.length, at + 1);
        chunk.set(v, at + 5);
        at += 5 + v.length;
      } else throw new TypeError(`row-values: cannot keep a ${typeof v} read from SQLite`);
    }
    bytes.used = at;
    const n = this.count++;
    this.where = withRoom(this.where, 3 * this.count);
    this.where[3 * n] = c;
    this.where[3 * n + 1] = start;
    this.where[3 * n + 2] = at;
    return n;
  }

  /** Whether rows `a` and `b` hold the same values (either may be `NO_ROW`). */
  same(a: number, b: number): boolean {
    if (a === NO_ROW || b === NO_ROW) return a === b;
    const w = this.where;
    const chunks = this.bytes.chunks;
    return (
      chunks[w[3 * a]].compare(
        chunks[w[3 * b]],
        w[3 * b + 1],
        w[3 * b + 2],
        w[3 * a + 1],
        w[3 * a + 2],
      ) === 0
    );
  }

  /**
   * Forget row `n`, which must be the last added (a write that changed nothing), so its bytes are written over by
   * the next row.
   */
  dropLast(n: number): void {
    if (n === NO_ROW) return;
    if (n !== this.count - 1) throw new Error('row-values: only the last row can be dropped');
    this.count--;
    const c = this.where[3 * n];
    if (c === this.bytes.chunks.length - 1) this.bytes.used = this.where[3 * n + 1];
  }

  /** The values of row `n`, as SQLite gave them; null for `NO_ROW`. */
  get(n: number): unknown[] | null {
    if (n === NO_ROW) return null;
    const chunk = this.bytes.chunks[this.where[3 * n]];
    let at = this.where[3 * n + 1];
    const end = this.where[3 * n + 2];
    const out: unknown[] = [];
    while (at < end) {
      const tag = chunk[at];
      if (tag === NULL) {
        out.push(null);
        at += 1;
      } else if (tag === INTEGER) {
        out.push(chunk.readBigInt64LE(at + 1));
        at += 9;
      } else if (tag === REAL) {
        out.push(chunk.readDoubleLE(at + 1));
        at += 9;
      } else {
        const len = chunk.readUInt32LE(at + 1);
        const from = at + 5;
        out.push(
          tag === TEXT
            ? chunk.toString('utf8', from, from + len)
            : Buffer.from(chunk.subarray(from, from + len)),
        );
        at = from + len;
      }
    }
    return out;
  }

  /** Give the bytes back to the pool. */
  release(): void {
    this.bytes.release();
    this.count = 0;
  }
}
