/** How long calls take: the last call's duration for the caller, and one log line for each call slower than a threshold. */
import { InstanceError } from './errors.ts';

let defaultSlowCallMs = 1000;

function checkMs(ms: unknown, where: string): number {
  if (typeof ms !== 'number' || !(ms >= 0)) throw new InstanceError('invalid_slow_call_ms', `${where} must be a number of milliseconds >= 0 (Infinity: never log); got ${JSON.stringify(ms)}`);
  return ms;
}

/**
 * The slow-call threshold of instances started without `slowCallMs`, for this process (`seahaven serve --slow-call-ms`
 * sets it). Default 1000.
 * @example
 * setDefaultSlowCallMs(250); // calls of 250 ms and more are logged
 */
export function setDefaultSlowCallMs(ms: number): void {
  defaultSlowCallMs = checkMs(ms, 'the default slow-call threshold');
}

/** The threshold instances get unless told otherwise. */
export function getDefaultSlowCallMs(): number {
  return defaultSlowCallMs;
}

export class CallTimer {
  /** Milliseconds the last call that reached a tool took (the tool, its commit or rollback, and change capture). */
  lastMs = 0;
  readonly slowMs: number;
  private started = 0;
  private readonly logger: (line: string) => void;

  constructor(slowMs: number | undefined, logger: (line: string) => void) {
    this.slowMs = slowMs === undefined ? defaultSlowCallMs : checkMs(slowMs, 'slowCallMs');
    this.logger = logger;
  }

  start(): void {
    this.started = performance.now();
  }

  stop(world: string, tool: string, instance: string, index: number): void {
    const ms = performance.now() - this.started;
    this.lastMs = ms;
    if (ms >= this.slowMs) {
      this.logger(`[seahaven] slow call: ${world}/${tool} took ${Math.round(ms)} ms (instance ${instance}, call ${index}); nothing else ran on this thread meanwhile`);
    }
  }
}
