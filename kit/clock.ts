/** The virtual clock: `fixed` stays at its start unless advanced; `tick` adds one second per numbered call. */

export type ClockMode = 'fixed' | 'tick';

/** Parse an ISO-8601 instant to whole epoch milliseconds, or throw naming the expected form. */
export function parseInstant(text: string, what: string): number {
  const ms = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    throw new RangeError(`${what} must be an ISO-8601 instant with a time zone, like 2026-06-01T09:00:00.000Z; got ${JSON.stringify(text)}`);
  }
  return ms;
}

/** ISO-8601 text with milliseconds and `Z`. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The clock an instance runs on; the instance tells it how many calls have been numbered. */
export class VirtualClock {
  readonly mode: ClockMode;
  /** @internal The start reading plus everything advanced. */
  base: number;
  /** @internal Numbered calls so far (tick mode adds one second each); the instance counts them. */
  calls = 0;
  /** The last instant `iso()` formatted, and its text. */
  #isoMs = NaN;
  #isoText = '';
  /** @internal Use `inst.clock` or `ctx.clock`. */
  constructor(mode: ClockMode, startMs: number) {
    this.mode = mode;
    this.base = startMs;
  }
  /** Epoch milliseconds, whole. */
  now(): number {
    return this.mode === 'tick' ? this.base + this.calls * 1000 : this.base;
  }
  /** ISO-8601 text with milliseconds and `Z`. */
  iso(): string {
    const ms = this.now();
    // Tools and SQL defaults ask for the same instant many times; it is formatted once.
    if (ms !== this.#isoMs) {
      this.#isoMs = ms;
      this.#isoText = isoOf(ms);
    }
    return this.#isoText;
  }
  /** @internal What moves the clock when the world has something to do while time passes (the instance sets it). */
  advancer: ((ms: number) => void) | null = null;
  /** Move the clock forward (harness side). In a world with `onClockAdvance`, that runs as a recorded call. */
  advance(ms: number): void {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`clock.advance(ms) takes a whole, non-negative number of milliseconds; got ${ms}`);
    if (this.advancer !== null) this.advancer(ms);
    else this.base += ms;
  }
}
