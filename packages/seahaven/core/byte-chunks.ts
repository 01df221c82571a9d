/**
 * Bytes an episode keeps for its whole life (the call log's texts, the change tracker's row values), held outside the
 * JavaScript heap in fixed-size chunks that go back to a process-wide pool when the episode ends, for the next
 * episodes to write into.
 *
 * Kept as strings and arrays on the heap, every record was copied twice by the garbage collector (into the survivor
 * space, then into the old generation) and marked at every full collection, and a growing history kept asking the
 * system for fresh memory; in pooled chunks each byte is written once, into memory that served earlier episodes.
 */

/** Bytes per pooled chunk. A record that does not fit in one gets a buffer of its own, which is not pooled. */
export const CHUNK = 16 * 1024;
/** Chunks the pool keeps for later episodes (16 MiB); chunks released beyond that are left to the garbage collector. */
const POOL_MAX = 1024;
const pool: Buffer[] = [];

function takeChunk(bytes: number): Buffer {
  if (bytes > CHUNK) return Buffer.allocUnsafeSlow(bytes);
  return pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
}

/** What a dropped chunk is replaced with: it holds nothing, and no record fits in it. */
const DROPPED = Buffer.alloc(0);

/** An append-only run of chunks: records are written at the end of the last chunk, each within one chunk. */
export class ByteChunks {
  readonly chunks: Buffer[] = [];
  /** Bytes written in the last chunk. */
  used = 0;

  /** Empty, or a copy of `from` (a fork's) in chunks of its own. */
  constructor(from?: ByteChunks) {
    if (!from) return;
    const last = from.chunks.length - 1;
    for (let i = 0; i <= last; i++) {
      const c = from.chunks[i];
      if (c === DROPPED) {
        this.chunks.push(DROPPED);
        continue;
      }
      const copy = takeChunk(c.length);
      c.copy(copy, 0, 0, i === last ? from.used : c.length);
      this.chunks.push(copy);
    }
    this.used = from.used;
  }

  /** Whether the last chunk has room for `bytes` more bytes. */
  fits(bytes: number): boolean {
    const last = this.chunks.length - 1;
    return last >= 0 && this.used + bytes <= this.chunks[last].length;
  }

  /**
   * Make sure the last chunk has room for `bytes` more bytes (starting a new chunk when it has not) and return its
   * number; the caller writes at `used` and moves `used` on by what it wrote.
   */
  room(bytes: number): number {
    const last = this.chunks.length - 1;
    if (this.fits(bytes)) return last;
    this.chunks.push(takeChunk(bytes));
    this.used = 0;
    return last + 1;
  }

  /**
   * Give chunk `i` back to the pool, keeping its number (records in it can no longer be read; `dropped(i)` says so).
   * Returns the bytes it held. Writing goes on in a new chunk.
   */
  drop(i: number): number {
    const c = this.chunks[i];
    if (c === DROPPED) return 0;
    if (c.length === CHUNK && pool.length < POOL_MAX) pool.push(c);
    this.chunks[i] = DROPPED;
    return c.length;
  }

  /** Whether chunk `i` was dropped. */
  dropped(i: number): boolean {
    return this.chunks[i] === DROPPED;
  }

  /** Give the chunks back to the pool; nothing is left. */
  release(): void {
    for (const c of this.chunks)
      if (c !== DROPPED && c.length === CHUNK && pool.length < POOL_MAX) pool.push(c);
    this.chunks.length = 0;
    this.used = 0;
  }
}

/** A table of no numbers, shared: `withRoom` replaces it on the first write, so an episode that records nothing allocates nothing. */
export const NO_NUMBERS: Int32Array<ArrayBuffer> = new Int32Array(0);

/** `a`, or a copy of it twice as long (or longer) when it has fewer than `length` entries: a growable table of numbers. */
export function withRoom(a: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  if (length <= a.length) return a;
  const grown = new Int32Array(Math.max(length, a.length * 2, 64));
  grown.set(a);
  return grown;
}
