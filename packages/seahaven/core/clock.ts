/** The virtual clock: `fixed` stays at its start unless advanced; `tick` adds one second per numbered call. */

export type ClockMode = 'fixed' | 'tick';

/** Parse an ISO-8601 instant to whole epoch milliseconds, or throw naming the expected form. */
export function parseInstant(text: string, what: string): number {
  const ms =
    typeof text === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
      ? Date.parse(text)
      : NaN;
  if (!Number.isFinite(ms)) {
    throw new RangeError(
      `${what} must be an ISO-8601 instant with a time zone, like 2026-06-01T09:00:00.000Z; got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

/**
 * The most one advance may move a clock: 366 days. A longer wait is several advances, so a world's `onClockAdvance`
 * never has to do more than a year's work in one call, and no instant leaves the range every date format handles.
 */
export const MAX_ADVANCE_MS = 366 * 86_400_000;

/** The latest instant a clock may be advanced to (9999-01-01), leaving a year for tick mode's seconds. */
export const MAX_INSTANT_MS = Date.UTC(9999, 0, 1);

/**
 * Why advancing a clock that reads `nowMs` by `ms` is refused, in words that name the fix; null when it is fine: a whole
 * number of milliseconds from 0 to `MAX_ADVANCE_MS` that ends no later than `MAX_INSTANT_MS`.
 */
export function advanceProblem(ms: unknown, nowMs: number): string | null {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0)
    return `ms must be a whole number of milliseconds >= 0, like 2592000000 for 30 days; got ${String(ms)}`;
  if (ms > MAX_ADVANCE_MS)
    return `ms must be at most ${MAX_ADVANCE_MS} (366 days) per advance; got ${ms}: advance in steps of at most 366 days`;
  if (nowMs + ms > MAX_INSTANT_MS)
    return `advancing by ${ms} ms would move the clock from ${isoOf(nowMs)} past ${isoOf(MAX_INSTANT_MS)}, the latest instant a clock may read; advance by at most ${Math.max(0, MAX_INSTANT_MS - nowMs)} ms`;
  return null;
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
    const problem = advanceProblem(ms, this.now());
    if (problem !== null) throw new RangeError(`clock.advance(ms): ${problem}`);
    if (this.advancer !== null) this.advancer(ms);
    else this.base += ms;
  }
}
