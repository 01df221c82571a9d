/**
 * The call log of an instance: per call its number, tool name, arguments as JSON text and outcome (result or error)
 * as JSON text. Records are never changed once written, and never alias objects the caller may change later; they
 * are parsed afresh on every read.
 *
 * The texts are kept as UTF-8 in fixed-size chunks outside the JavaScript heap, and the chunks of an ended episode go
 * back to a process-wide pool that the next episodes write into. Kept as strings on the heap, every record was copied
 * twice by the garbage collector (into the survivor space, then into the old generation) and marked at every full
 * collection, and a growing log kept asking the system for fresh memory; in pooled chunks each byte is written once,
 * into memory that served earlier episodes.
 */
import type { ToolFailure } from './call-failure.ts';

/**
 * One record of `callLog()`. `index` is absent for calls refused before they reached a tool. Arguments and results are
 * recorded in their JSON form, as an agent sees them on the wire, so later changes to the objects passed in or handed
 * back do not rewrite history.
 */
export interface CallLogEntry {
  index?: number;
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ToolFailure;
}

/** Numbers kept per call: mark, chunk, start of the arguments, start of the outcome, end. */
const META = 5;
/** Bytes per pooled chunk. A record that does not fit in one gets a buffer of its own, which is not pooled. */
const CHUNK = 16 * 1024;
/** Chunks the pool keeps for later episodes (16 MiB); chunks released beyond that are left to the garbage collector. */
const POOL_MAX = 1024;
const pool: Buffer[] = [];
const EMPTY_META = new Int32Array(0);

function takeChunk(bytes: number): Buffer {
  if (bytes > CHUNK) return Buffer.allocUnsafeSlow(bytes);
  return pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
}

export class CallHistory {
  /** Per call: the mark (its number, 0 when refused before a tool ran; a failure is stored as -number - 1), then where its texts are. */
  private meta: Int32Array = EMPTY_META;
  /** Per call: the tool's name (the world's own strings, shared by every record). */
  private tools: string[] = [];
  private chunks: Buffer[] = [];
  /** Bytes written in the last chunk. */
  private used = 0;

  /** An empty log, or a copy of `from` (a fork's), with chunks of its own. */
  constructor(from?: CallHistory) {
    if (!from) return;
    this.meta = from.meta.slice(0, from.tools.length * META);
    this.tools = from.tools.slice();
    this.chunks = from.chunks.map((c, i) => {
      const copy = takeChunk(c.length);
      c.copy(copy, 0, 0, i === from.chunks.length - 1 ? from.used : c.length);
      return copy;
    });
    this.used = from.used;
  }

  /** Calls recorded. */
  get length(): number {
    return this.tools.length;
  }

  /** Record one call: `outcome` is the JSON text of its result, or of its error when `ok` is false. */
  push(index: number, ok: boolean, tool: string, args: string, outcome: string): void {
    const n = this.tools.length;
    if ((n + 1) * META > this.meta.length) {
      const grown = new Int32Array(Math.max(32 * META, this.meta.length * 2));
      grown.set(this.meta);
      this.meta = grown;
    }
    let c = this.chunks.length - 1;
    let chunk = this.chunks[c];
    // A UTF-16 code unit takes at most 3 bytes of UTF-8; the exact length is measured only when that bound does not fit.
    if (chunk === undefined || this.used + 3 * (args.length + outcome.length) > chunk.length) {
      const bytes = Buffer.byteLength(args) + Buffer.byteLength(outcome);
      if (chunk === undefined || this.used + bytes > chunk.length) {
        chunk = takeChunk(bytes);
        this.chunks.push(chunk);
        c++;
        this.used = 0;
      }
    }
    const m = n * META;
    const meta = this.meta;
    meta[m] = ok ? index : -index - 1;
    meta[m + 1] = c;
    meta[m + 2] = this.used;
    this.used += chunk.write(args, this.used);
    meta[m + 3] = this.used;
    this.used += chunk.write(outcome, this.used);
    meta[m + 4] = this.used;
    this.tools.push(tool);
  }

  /** Every record, parsed afresh. */
  entries(): CallLogEntry[] {
    const out: CallLogEntry[] = [];
    const m = this.meta;
    for (let i = 0; i < this.tools.length; i++) {
      const at = i * META;
      const mark = m[at];
      const ok = mark >= 0;
      const index = ok ? mark : -mark - 1;
      const tool = this.tools[i];
      const chunk = this.chunks[m[at + 1]];
      const args: unknown = JSON.parse(chunk.toString('utf8', m[at + 2], m[at + 3]));
      const outcome: unknown = JSON.parse(chunk.toString('utf8', m[at + 3], m[at + 4]));
      const entry: CallLogEntry = index === 0 ? { tool, args, ok } : { index, tool, args, ok };
      if (ok) entry.result = outcome;
      else entry.error = outcome as ToolFailure;
      out.push(entry);
    }
    return out;
  }

  /** Give the chunks back to the pool for later episodes; the log is empty afterwards. */
  release(): void {
    for (const c of this.chunks) if (c.length === CHUNK && pool.length < POOL_MAX) pool.push(c);
    this.chunks = [];
    this.meta = EMPTY_META;
    this.tools = [];
    this.used = 0;
  }
}
