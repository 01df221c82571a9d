/** What a check is: a name, a description, and a function from the loaded world to findings. */
import type { Finding } from './codes.ts';
import type { CheckTarget } from './load.ts';

/** Options every check sees. */
export interface CheckOptions {
  /** Checks to run after the built-in ones; give their findings codes of their own (SH590–SH599 are kept free). */
  extraChecks?: readonly Check[];
  /** Names of checks to leave out, e.g. `['lint']`. */
  skip?: readonly string[];
  /** Calls per play in the determinism smoke. Default 40. */
  smokeCalls?: number;
  /** The world's folder, when a world object (not a module reference) is checked; lint runs there. */
  folder?: string;
}

/**
 * One check: a name, and a function from the loaded target to findings. `target.world` is null when the world did
 * not load; a check that needs it returns no findings then (the load finding already explains).
 */
export interface Check {
  name: string;
  description: string;
  run(target: CheckTarget, options: CheckOptions): Finding[] | Promise<Finding[]>;
}
