/** How long calls take: the last call's duration for the caller, and one log line for each call slower than a threshold. */
import { InstanceError } from './errors.ts';

/** The slow-call threshold of an instance started without `slowCallMs`. */
export const DEFAULT_SLOW_CALL_MS = 1000;

/** `ms` when it is a valid slow-call threshold; else an `invalid_slow_call_ms` error naming `where`. */
export function checkSlowCallMs(ms: unknown, where: string): number {
  if (typeof ms !== 'number' || !(ms >= 0))
    throw new InstanceError(
      'invalid_slow_call_ms',
      `${where} must be a number of milliseconds >= 0 (Infinity: never log); got ${JSON.stringify(ms)}`,
    );
  return ms;
}

export class CallTimer {
  /** Milliseconds the last call that reached a tool took (the tool, its commit or rollback, and change capture). */
  lastMs = 0;
  readonly slowMs: number;
  private started = 0;
  /** Milliseconds spent in the slices of a call run in slices before the current one, and how many there were. */
  private spent = 0;
  private slices = 1;
  private readonly logger: (line: string) => void;

  constructor(slowMs: number | undefined, logger: (line: string) => void) {
    this.slowMs =
      slowMs === undefined ? DEFAULT_SLOW_CALL_MS : checkSlowCallMs(slowMs, 'slowCallMs');
    this.logger = logger;
  }

  start(): void {
    this.started = performance.now();
    this.spent = 0;
    this.slices = 1;
  }

  /** A call run in slices stops between two: the time until `resume()` is other sessions', not the call's. */
  pause(): void {
    this.spent += performance.now() - this.started;
  }

  resume(): void {
    this.started = performance.now();
    this.slices++;
  }

  stop(world: string, tool: string, instance: string, index: number): void {
    const ms = this.spent + performance.now() - this.started;
    this.lastMs = ms;
    if (ms >= this.slowMs) {
      const where =
        this.slices === 1
          ? 'nothing else ran on this thread meanwhile'
          : `in ${this.slices} slices, between which other sessions ran`;
      this.logger(
        `[seahaven] slow call: ${world}/${tool} took ${Math.round(ms)} ms (instance ${instance}, call ${index}); ${where}`,
      );
    }
  }
}
