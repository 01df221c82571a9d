/**
 * The call log of an instance: per call its number, tool name, arguments as JSON text and outcome (result or error)
 * as JSON text. Records are never changed once written, and never alias objects the caller may change later; they
 * are parsed afresh on every read.
 *
 * The texts are kept as UTF-8 outside the JavaScript heap (byte-chunks.ts), in chunks that go back to a process-wide
 * pool when the episode ends.
 */
import { ByteChunks, NO_NUMBERS, withRoom } from './byte-chunks.ts';
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

export class CallHistory {
  /** Per call: the mark (its number, 0 when refused before a tool ran; a failure is stored as -number - 1), then where its texts are. */
  private meta: Int32Array<ArrayBuffer> = NO_NUMBERS;
  /** Per call: the tool's name (the world's own strings, shared by every record). */
  private tools: string[] = [];
  private texts: ByteChunks;

  /** An empty log, or a copy of `from` (a fork's), with chunks of its own. */
  constructor(from?: CallHistory) {
    this.texts = new ByteChunks(from?.texts);
    if (!from) return;
    this.meta = from.meta.slice(0, from.tools.length * META);
    this.tools = from.tools.slice();
  }

  /** Calls recorded. */
  get length(): number {
    return this.tools.length;
  }

  /** Record one call: `outcome` is the JSON text of its result, or of its error when `ok` is false. */
  push(index: number, ok: boolean, tool: string, args: string, outcome: string): void {
    const n = this.tools.length;
    this.meta = withRoom(this.meta, (n + 1) * META);
    const texts = this.texts;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8; the exact length is measured only when that bound does not fit.
    const c = texts.fits(3 * (args.length + outcome.length)) ? texts.chunks.length - 1 : texts.room(Buffer.byteLength(args) + Buffer.byteLength(outcome));
    const chunk = texts.chunks[c];
    const m = n * META;
    const meta = this.meta;
    meta[m] = ok ? index : -index - 1;
    meta[m + 1] = c;
    meta[m + 2] = texts.used;
    texts.used += chunk.write(args, texts.used);
    meta[m + 3] = texts.used;
    texts.used += chunk.write(outcome, texts.used);
    meta[m + 4] = texts.used;
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
      const chunk = this.texts.chunks[m[at + 1]];
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
    this.texts.release();
    this.meta = NO_NUMBERS;
    this.tools = [];
  }
}
