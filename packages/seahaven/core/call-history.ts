/**
 * The call log of an instance: per call its number, tool name, arguments as JSON text and outcome (result or error)
 * as JSON text. Records are never changed once written, and never alias objects the caller may change later; they
 * are parsed afresh on every read.
 *
 * The texts are kept as UTF-8 outside the JavaScript heap (byte-chunks.ts), in chunks that go back to a process-wide
 * pool when the episode ends. Arguments and outcomes are kept in chunks of their own: the outcomes an episode keeps
 * are bounded (`maxOutcomeBytes`, give or take the chunk being written), and past the bound the oldest are dropped, chunk by chunk, while every call's
 * arguments stay, since they are what a replay needs. 2,000 reads of a 71 KB list kept 155 MiB before the bound.
 */
import { ByteChunks, NO_NUMBERS, withRoom } from './byte-chunks.ts';
import type { ToolFailure } from './call-failure.ts';

/**
 * One record of `callLog()`. `index` is absent for calls refused before they reached a tool. Arguments and results are
 * recorded in their JSON form, as an agent sees them on the wire, so later changes to the objects passed in or handed
 * back do not rewrite history. A call whose outcome the log no longer keeps (past the instance's `maxCallLogBytes`)
 * has `result_dropped: true` and the size of its outcome's JSON in `result_bytes` instead of `result` or `error`.
 */
export interface CallLogEntry {
  index?: number;
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ToolFailure;
  result_dropped?: true;
  result_bytes?: number;
}

/** The outcome bytes an instance's call log keeps by default: 8 MiB. */
export const DEFAULT_CALL_LOG_BYTES = 8 * 1024 * 1024;

/** Numbers kept per call: mark, then chunk, start and end of the arguments, then chunk, start and end of the outcome. */
const META = 7;

/** Write `text` at the end of `into` (in a new chunk when the last has no room); returns [chunk, start, end]. */
function append(into: ByteChunks, text: string): [number, number, number] {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8; the exact length is measured only when that bound does not fit.
  const c = into.fits(3 * text.length)
    ? into.chunks.length - 1
    : into.room(Buffer.byteLength(text));
  const start = into.used;
  into.used += into.chunks[c].write(text, start);
  return [c, start, into.used];
}

export class CallHistory {
  /** Per call: the mark (its number, 0 when refused before a tool ran; a failure is stored as -number - 1), then where its texts are. */
  private meta: Int32Array<ArrayBuffer> = NO_NUMBERS;
  /** Per call: the tool's name (the world's own strings, shared by every record). */
  private tools: string[] = [];
  private args: ByteChunks;
  private outcomes: ByteChunks;
  /** Most bytes of outcome chunks kept; older chunks are dropped past it. */
  private readonly maxOutcomeBytes: number;
  /** Bytes the kept outcome chunks hold, and the first chunk not dropped yet. */
  private heldOutcomeBytes = 0;
  private firstKept = 0;

  /** An empty log keeping at most `maxOutcomeBytes` of outcomes, or a copy of `from` (a fork's, with its bound), with chunks of its own. */
  constructor(from?: CallHistory, maxOutcomeBytes = DEFAULT_CALL_LOG_BYTES) {
    this.args = new ByteChunks(from?.args);
    this.outcomes = new ByteChunks(from?.outcomes);
    this.maxOutcomeBytes = from?.maxOutcomeBytes ?? maxOutcomeBytes;
    if (!from) return;
    this.meta = from.meta.slice(0, from.tools.length * META);
    this.tools = from.tools.slice();
    this.heldOutcomeBytes = from.heldOutcomeBytes;
    this.firstKept = from.firstKept;
  }

  /** Calls recorded. */
  get length(): number {
    return this.tools.length;
  }

  /** Record one call: `outcome` is the JSON text of its result, or of its error when `ok` is false. */
  push(index: number, ok: boolean, tool: string, args: string, outcome: string): void {
    const n = this.tools.length;
    this.meta = withRoom(this.meta, (n + 1) * META);
    const m = n * META;
    const meta = this.meta;
    meta[m] = ok ? index : -index - 1;
    const [ac, as, ae] = append(this.args, args);
    meta[m + 1] = ac;
    meta[m + 2] = as;
    meta[m + 3] = ae;
    const chunks = this.outcomes.chunks.length;
    const [oc, os, oe] = append(this.outcomes, outcome);
    if (this.outcomes.chunks.length > chunks)
      this.heldOutcomeBytes += this.outcomes.chunks[oc].length;
    meta[m + 4] = oc;
    meta[m + 5] = os;
    meta[m + 6] = oe;
    this.tools.push(tool);
    // The chunk being written is kept (so the log may hold one chunk, 16 KiB, past its bound), unless this outcome alone is over it.
    while (
      this.heldOutcomeBytes > this.maxOutcomeBytes &&
      (this.firstKept < oc || (this.firstKept === oc && oe - os > this.maxOutcomeBytes))
    ) {
      this.heldOutcomeBytes -= this.outcomes.drop(this.firstKept++);
    }
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
      const args: unknown = JSON.parse(
        this.args.chunks[m[at + 1]].toString('utf8', m[at + 2], m[at + 3]),
      );
      const entry: CallLogEntry = index === 0 ? { tool, args, ok } : { index, tool, args, ok };
      if (this.outcomes.dropped(m[at + 4])) {
        entry.result_dropped = true;
        entry.result_bytes = m[at + 6] - m[at + 5];
      } else {
        const outcome: unknown = JSON.parse(
          this.outcomes.chunks[m[at + 4]].toString('utf8', m[at + 5], m[at + 6]),
        );
        if (ok) entry.result = outcome;
        else entry.error = outcome as ToolFailure;
      }
      out.push(entry);
    }
    return out;
  }

  /** Give the chunks back to the pool for later episodes; the log is empty afterwards. */
  release(): void {
    this.args.release();
    this.outcomes.release();
    this.meta = NO_NUMBERS;
    this.tools = [];
    this.heldOutcomeBytes = 0;
    this.firstKept = 0;
  }
}
