/**
 * The steps of a curriculum run that do not depend on where runs are kept: the run's scheduler state, whether a
 * definition still matches a run, what recording an outcome decides and answers, and the checks of run ids and
 * outcomes. The SQLite store (`runs.ts`) and the PostgreSQL store (`seahaven/serve`) read and write rows their own way
 * around these, so both move a run between stages the same way.
 */
import { DefinitionError } from '../../core/errors.ts';
import type { World } from '../../core/world.ts';
import { resolveCurriculum, type Curriculum, type ResolvedCurriculum } from './define.ts';
import { CurriculumError } from './errors.ts';
import type { StageRef } from './progress.ts';
import {
  afterDecision,
  decide,
  lookback,
  type Decision,
  type Pick,
  type SchedulerState,
} from './scheduler.ts';
import type { EpisodeRow, RunRow } from './store.ts';

/** An issued episode: play `task` (from `fixture`) and record its outcome with `ticket`. */
export interface IssuedEpisode {
  /** `<curriculum>/<run_id>/<episode>`. */
  ticket: string;
  curriculum: string;
  runId: string;
  /** 0-based, in issue order. */
  episode: number;
  task: string;
  fixture: string;
  /** The stage the task belongs to. */
  stage: StageRef;
  /** `review` = drawn from an earlier stage. */
  kind: 'current' | 'review';
}

/** An outcome: a `Grade` from `task.grade()` / `inst.submit()` will do. */
export interface Outcome {
  reward: number;
  passed: boolean;
}

/** What recording an outcome did. */
export interface RecordedOutcome {
  ticket: string;
  episode: number;
  task: string;
  /** Recording order, 1-based. */
  outcome: number;
  /** The run's stage afterwards. */
  stage: StageRef;
  transition: { kind: 'promote' | 'demote' | 'master'; from: StageRef; to: StageRef } | null;
  mastered: boolean;
}

/** Names a run; `record` with it settles the run's oldest pending episode. */
export interface RunRef {
  curriculum: string;
  runId: string;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/**
 * Refuse a run started under another definition of its curriculum (stages, rules or seed changed since); `remedy`
 * says how the store at hand deletes a run.
 */
export function checkFingerprint(
  run: RunRow,
  cur: ResolvedCurriculum,
  runId: string,
  remedy: string,
): void {
  if (run.fingerprint !== cur.fingerprint)
    throw new CurriculumError(
      'definition_changed',
      `run "${runId}" of curriculum "${cur.name}" started under a different definition (stages, rules or seed changed since); use a new run_id, or ${remedy}`,
    );
}

/**
 * How many recent outcomes of its stage an outcome of `ep` is judged with, or null when it gates nothing: only
 * current-stage episodes issued since the run entered its stage gate promotion.
 */
export function gateWindow(cur: ResolvedCurriculum, run: RunRow, ep: EpisodeRow): number | null {
  return ep.entry === run.entries && ep.kind === 'current' ? lookback(cur, run.stage) : null;
}

/** What recording an outcome does to a run: its row's new values, the transition to insert, and the answer. */
export interface Settlement {
  state: SchedulerState;
  gate: number;
  mastered: boolean;
  decision: Decision;
  recorded: RecordedOutcome;
}

/**
 * Settle episode `ep` of `run` as outcome number `outcome`. `recent` holds the passes of the stage's latest recorded
 * outcomes, newest first and this one included, as many as `gateWindow` said; null when it said null.
 */
export function settle(
  cur: ResolvedCurriculum,
  run: RunRow,
  ep: EpisodeRow,
  outcome: number,
  recent: readonly boolean[] | null,
): Settlement {
  let state = stateOf(run);
  let decision: Decision = null;
  let gate = run.gate_outcomes;
  if (recent !== null) {
    gate = run.gate_outcomes + 1;
    decision = decide(cur, run.stage, recent, gate, run.mastered === 1);
    state = afterDecision(state, decision);
    if (state.entries !== run.entries) gate = 0;
  }
  const mastered = run.mastered === 1 || decision?.kind === 'master';
  const ref = (i: number): StageRef => ({ index: i, name: cur.stages[i].name });
  return {
    state,
    gate,
    mastered,
    decision,
    recorded: {
      ticket: `${ep.curriculum}/${ep.run_id}/${ep.episode}`,
      episode: ep.episode,
      task: ep.task,
      outcome,
      stage: ref(state.stage),
      transition: decision && {
        kind: decision.kind,
        from: ref(decision.from),
        to: ref(decision.to),
      },
      mastered,
    },
  };
}

/** The scheduler's state of a run, read off its row. */
export function stateOf(run: RunRow): SchedulerState {
  return {
    stage: run.stage,
    entries: run.entries,
    stagePicks: run.stage_picks,
    episodes: run.episodes,
  };
}

/** A world's curricula by name, checked once and resolved on first use: what every run store serves. */
export class WorldCurricula {
  private readonly world: World;
  private readonly defined = new Map<string, Curriculum>();
  private readonly resolved = new Map<string, ResolvedCurriculum>();

  /** `where` names the caller in definition errors. */
  constructor(world: World, curricula: readonly Curriculum[], where: string) {
    this.world = world;
    for (const c of curricula) {
      if (typeof c?.check !== 'function')
        throw new DefinitionError(
          `${where}: every curriculum must come from defineCurriculum(...).`,
        );
      if (this.defined.has(c.name))
        throw new DefinitionError(
          `${where}: two curricula are named "${c.name}" in world "${world.name}"; rename one.`,
        );
      c.check(world);
      this.defined.set(c.name, c);
    }
  }

  names(): string[] {
    return [...this.defined.keys()];
  }

  /** A curriculum bound to the world (automatic stages are measured on first use, once), or `unknown_curriculum`. */
  get(name: string): ResolvedCurriculum {
    const hit = this.resolved.get(name);
    if (hit) return hit;
    const c = this.defined.get(name);
    if (!c)
      throw new CurriculumError(
        'unknown_curriculum',
        `world "${this.world.name}" has no curriculum "${name}"; its curricula are ${this.names().join(', ') || '(none: add curricula: [defineCurriculum(...)] to defineWorld)'}`,
      );
    const r = resolveCurriculum(this.world, c);
    this.resolved.set(name, r);
    return r;
  }
}

/** What a run store hands out for a pick of run `runId`: the ticket, the task and its fixture, the stage. */
export function issuedEpisode(
  world: World,
  cur: ResolvedCurriculum,
  runId: string,
  pick: Pick,
): IssuedEpisode {
  return {
    ticket: `${cur.name}/${runId}/${pick.episode}`,
    curriculum: cur.name,
    runId,
    episode: pick.episode,
    task: pick.task,
    fixture: world.task(pick.task)!.fixture,
    stage: { index: pick.stage, name: cur.stages[pick.stage].name },
    kind: pick.kind,
  };
}

/** A run id as every curriculum run store takes it, or `invalid_run_id`. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== 'string' || !RUN_ID.test(runId))
    throw new CurriculumError(
      'invalid_run_id',
      `run_id must match ${RUN_ID}, like "run-1"; got ${JSON.stringify(runId)}`,
    );
}

/** An outcome as every curriculum run store takes it, or `invalid_outcome`. */
export function checkOutcome(outcome: Outcome): void {
  const ok =
    typeof outcome === 'object' &&
    outcome !== null &&
    typeof outcome.passed === 'boolean' &&
    typeof outcome.reward === 'number' &&
    Number.isFinite(outcome.reward) &&
    outcome.reward >= 0 &&
    outcome.reward <= 1;
  if (!ok)
    throw new CurriculumError(
      'invalid_outcome',
      `an outcome is { reward: number in [0, 1], passed: boolean } (a Grade will do); got ${JSON.stringify(outcome)}`,
    );
}
