/**
 * The call log of an instance: per call its number, tool name, arguments as JSON text and outcome (result or error)
 * as JSON text. Kept as flat strings rather than the argument and result objects, a log of thousands of calls costs
 * the garbage collector one string to move per field instead of a graph of objects per call, and records never alias
 * objects that the caller may change later.
 */
import type { CallLogEntry, ToolFailure } from './instance.ts';

export class CallHistory {
  /** Per call: the mark (its number, 0 when refused before a tool ran; a failure is stored as -number - 1), tool, arguments, outcome. */
  private readonly data: (number | string)[];

  constructor(from?: CallHistory) {
    this.data = from ? from.data.slice() : [];
  }

  /** Calls recorded. */
  get length(): number {
    return this.data.length / 4;
  }

  /** Record one call: `outcome` is the JSON text of its result, or of its error when `ok` is false. */
  push(index: number, ok: boolean, tool: string, args: string, outcome: string): void {
    this.data.push(ok ? index : -index - 1, tool, args, outcome);
  }

  /** Every record, parsed afresh. */
  entries(): CallLogEntry[] {
    const d = this.data;
    const out: CallLogEntry[] = [];
    for (let i = 0; i < d.length; i += 4) {
      const mark = d[i] as number;
      const ok = mark >= 0;
      const index = ok ? mark : -mark - 1;
      const tool = d[i + 1] as string;
      const args: unknown = JSON.parse(d[i + 2] as string);
      const outcome: unknown = JSON.parse(d[i + 3] as string);
      const entry: CallLogEntry = index === 0 ? { tool, args, ok } : { index, tool, args, ok };
      if (ok) entry.result = outcome;
      else entry.error = outcome as ToolFailure;
      out.push(entry);
    }
    return out;
  }
}
