/**
 * The shape of a curriculum as a world carries it (`defineWorld({ curricula })`). The kit only stores curricula and
 * calls `check` when the world is defined; `seahaven/curricula` (packages/seahaven/libraries/curricula/) defines, resolves, measures and
 * schedules them, and re-exports these types. They live here so the kit depends on nothing above it.
 */
import type { FixtureSpec } from './fixture-spec.ts';
import type { Task } from './task.ts';

/** When a run moves on from a stage. */
export interface PromoteRule {
  /** Move on when the rolling success rate reaches this, in [0, 1]. */
  successRate: number;
  /** The rolling window: the last `window` outcomes of the stage's own tasks. Whole number ≥ 1. */
  window: number;
  /** Outcomes the stage needs before it can be left. Default: `window`. */
  minEpisodes?: number;
}

/** When a run falls back a stage (optional). */
export interface DemoteRule {
  /** Fall back when the rolling success rate over `window` outcomes drops below this; must be below the promotion rate. */
  successRate: number;
  /** Default: the promotion window. Demotion needs a full window of outcomes in the stage. */
  window?: number;
}

/** One stage: tasks listed by id and/or every task that starts from one of the listed fixtures. */
export interface StageSpec {
  name: string;
  description?: string;
  tasks?: string[];
  fixtures?: string[];
  /** This stage's own promotion rule, instead of the curriculum's. */
  promote?: PromoteRule;
}

/** The weights of `difficultyScore`. */
export interface DifficultyWeights {
  calls: number;
  rowsChanged: number;
  tablesTouched: number;
  distinctTools: number;
  /** Weight of `log2(1 + fixtureBytes / fixtureUnit)`. */
  fixture: number;
  /** Bytes per unit of fixture size. */
  fixtureUnit: number;
}

/** Stages left to be measured when the curriculum is first used with its world: see `autoStages(count)`. */
export interface AutoStages {
  readonly kind: 'auto-stages';
  readonly count: number;
  readonly names?: readonly string[];
  readonly weights?: Partial<DifficultyWeights>;
}

/** A defined curriculum, not yet bound to a world. */
export interface Curriculum {
  readonly name: string;
  readonly description: string;
  readonly stages: readonly StageSpec[] | AutoStages;
  readonly promote: Readonly<Required<PromoteRule>>;
  readonly review: number;
  readonly seed: number;
  readonly demote: Readonly<Required<DemoteRule>> | null;
  /** Check the stages against a world's tasks and fixtures; throws a `DefinitionError` that names the fix. */
  check(world: WorldTasks): void;
}

/** The part of a world a curriculum refers to. */
export interface WorldTasks {
  name: string;
  tasks: readonly Task[];
  fixtures: Readonly<Record<string, FixtureSpec>>;
}
