/**
 * A chaos agent: seeded random tool calls whose arguments are generated from each tool's JSON Schema, with ids taken
 * from earlier results so that some calls really change rows. A grader that gives it full marks is not grading.
 */
import type { CallResult, ToolListing } from '../../core/index.ts';
import { Rng, Stream } from '../../core/random.ts';
import { randomArgs, rememberValues, type SeenValues } from '../../core/random-args.ts';

/** What the chaos agent plays against: an instance, or anything with its tool list and `call`. */
export interface ChaosTarget {
  tools(): ToolListing[];
  call(tool: string, args?: Record<string, unknown>): CallResult;
}

export interface ChaosOptions {
  /** Seed of the agent's choices. Default 1. */
  seed?: number;
  /** Number of tool calls. Default 30. */
  calls?: number;
}

export interface ChaosRun {
  seed: number;
  calls: number;
  /** Calls the world accepted. */
  succeeded: number;
}

/**
 * Play `calls` random tool calls against `target`.
 * @example
 * runChaos(world.instance({ fixture: 'small_startup' }), { seed: 2, calls: 30 })
 */
export function runChaos(target: ChaosTarget, options: ChaosOptions = {}): ChaosRun {
  const seed = options.seed ?? 1;
  const calls = options.calls ?? 30;
  const rng = new Rng(new Stream(`seahaven-chaos:${seed}`));
  const tools = target.tools();
  if (tools.length === 0) return { seed, calls: 0, succeeded: 0 };
  const seen: SeenValues = { strings: [], integers: [] };
  let succeeded = 0;
  for (let i = 0; i < calls; i++) {
    const tool = rng.pick(tools);
    const args = randomArgs(tool.inputSchema, rng, seen);
    const result = target.call(tool.name, (args ?? {}) as Record<string, unknown>);
    if (result.ok) {
      succeeded++;
      rememberValues(result.result, seen);
    }
  }
  return { seed, calls, succeeded };
}
