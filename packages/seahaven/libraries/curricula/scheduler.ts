/**
 * The scheduler: which task a run plays next, and when it moves between stages. Pure functions of the resolved
 * curriculum and a small state, so a run stored in SQLite resumes exactly: every random draw is derived from
 * (seed, episode number) or (seed, stage entry, bag cycle), never from a generator position that would need saving.
 */
import { Rng, Stream } from '../../core/random.ts';
import type { PromoteRule, ResolvedCurriculum } from './define.ts';

/** Where a run stands. */
export interface SchedulerState {
  /** Index of the current stage. */
  stage: number;
  /** Stage changes so far; numbers the current stay in a stage, so a re-entered stage starts a fresh window and bag. */
  entries: number;
  /** Current-stage picks since the stage was entered (the position in its shuffled bags). */
  stagePicks: number;
  /** Episodes issued so far; the next episode's number. */
  episodes: number;
}

/** One scheduled episode. */
export interface Pick {
  episode: number;
  task: string;
  /** The stage the task belongs to. */
  stage: number;
  /** `current` = from the run's current stage; `review` = from an earlier one. */
  kind: 'current' | 'review';
  /** The run's stage when the episode was issued. */
  atStage: number;
  /** The run's `entries` when the episode was issued. */
  entry: number;
}

/** A stage change decided by an outcome. `master` = the last stage met its rule (the run stays there). */
export type Decision =
  | { kind: 'promote' | 'demote'; from: number; to: number }
  | { kind: 'master'; from: number; to: number }
  | null;

export const INITIAL_STATE: Readonly<SchedulerState> = Object.freeze({
  stage: 0,
  entries: 0,
  stagePicks: 0,
  episodes: 0,
});

/**
 * The next episode of a run. With probability `review` (once past the first stage) a task drawn uniformly from the
 * earlier stages; otherwise the next task of the current stage, dealt from shuffled bags so every task of the stage
 * comes up once per round.
 * @example
 * const pick = pickNext(resolved, INITIAL_STATE); // { episode: 0, task: 'add_note', stage: 0, kind: 'current', … }
 */
export function pickNext(cur: ResolvedCurriculum, state: SchedulerState): Pick {
  const episode = state.episodes;
  const rng = new Rng(
    new Stream(`seahaven.curriculum\u0000${cur.seed}\u0000episode\u0000${episode}`),
  );
  const base = { episode, atStage: state.stage, entry: state.entries };
  if (state.stage > 0 && rng.next() < cur.review) {
    const pool = cur.stages
      .slice(0, state.stage)
      .flatMap((s) => s.tasks.map((task) => ({ task, stage: s.index })));
    const chosen = rng.pick(pool);
    return { ...base, task: chosen.task, stage: chosen.stage, kind: 'review' };
  }
  const tasks = cur.stages[state.stage].tasks;
  const cycle = Math.floor(state.stagePicks / tasks.length);
  const bag = new Rng(
    new Stream(`seahaven.curriculum\u0000${cur.seed}\u0000bag\u0000${state.entries}\u0000${cycle}`),
  ).shuffle(tasks);
  return {
    ...base,
    task: bag[state.stagePicks % tasks.length],
    stage: state.stage,
    kind: 'current',
  };
}

/** The state after issuing `pick`. */
export function afterPick(state: SchedulerState, pick: Pick): SchedulerState {
  return {
    ...state,
    episodes: state.episodes + 1,
    stagePicks: state.stagePicks + (pick.kind === 'current' ? 1 : 0),
  };
}

/** The state after a decision. */
export function afterDecision(state: SchedulerState, decision: Decision): SchedulerState {
  if (decision === null || decision.kind === 'master') return state;
  return { ...state, stage: decision.to, entries: state.entries + 1, stagePicks: 0 };
}

/**
 * Success rate of the newest `window` outcomes (newest first), or `null` without any.
 * @example
 * rollingRate([true, false, true, true], 2); // 0.5
 */
export function rollingRate(recent: readonly boolean[], window: number): number | null {
  const slice = recent.slice(0, window);
  if (slice.length === 0) return null;
  return slice.filter(Boolean).length / slice.length;
}

/**
 * Decide whether a run moves, given the outcomes that gate its current stage: those of current-stage picks since the
 * stage was entered, newest first (`recent`, at least the largest window of them), and how many there are (`total`).
 * Promotion: `total >= minEpisodes` and the rate over the last `window` reaches `successRate`. Demotion (when
 * configured, past the first stage): a full demotion window whose rate is below its `successRate`.
 * @example
 * decide(resolved, 0, [true, true, true], 3, false); // { kind: 'promote', from: 0, to: 1 } when the rule is met
 */
export function decide(
  cur: ResolvedCurriculum,
  stage: number,
  recent: readonly boolean[],
  total: number,
  mastered: boolean,
): Decision {
  const rule: Required<PromoteRule> = cur.stages[stage].promote;
  const rate = rollingRate(recent, rule.window);
  if (total >= rule.minEpisodes && rate !== null && rate >= rule.successRate) {
    if (stage < cur.stages.length - 1) return { kind: 'promote', from: stage, to: stage + 1 };
    if (!mastered) return { kind: 'master', from: stage, to: stage };
  }
  if (cur.demote && stage > 0 && total >= cur.demote.window) {
    const down = rollingRate(recent, cur.demote.window);
    if (down !== null && down < cur.demote.successRate)
      return { kind: 'demote', from: stage, to: stage - 1 };
  }
  return null;
}

/** How many recent outcomes `decide` needs to see. */
export function lookback(cur: ResolvedCurriculum, stage: number): number {
  return Math.max(cur.stages[stage].promote.window, cur.demote?.window ?? 0);
}
