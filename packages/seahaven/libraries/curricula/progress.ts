/**
 * Progress reports of curriculum runs, read from the runs database alone (each run stores the definition it follows),
 * so `seahaven curriculum status` and `GET /curricula/<name>/runs/<run_id>` need no world loaded.
 */
import { CurriculumError } from './errors.ts';
import type { PromoteRule, ResolvedCurriculum } from './define.ts';
import { rollingRate } from './scheduler.ts';
import type { Db, EpisodeRow, RunRow, TransitionRow } from './store.ts';

/** A stage, by index and name. */
export interface StageRef {
  index: number;
  name: string;
}

/** One stage of a progress report. */
export interface StageProgress extends StageRef {
  tasks: string[];
  promote: Required<PromoteRule>;
  /** `done` = before the current stage; `locked` = after it. */
  status: 'done' | 'current' | 'locked';
  /** Recorded outcomes of this stage's tasks (review episodes included). */
  episodes: number;
  passed: number;
  success_rate: number | null;
  mean_reward: number | null;
  /** The gating window of the current stage: its newest outcomes since the stage was entered. */
  rolling: { window: number; outcomes: number; success_rate: number | null } | null;
}

/** A stage change. `master` = the last stage met its promotion rule. */
export interface TransitionRecord {
  kind: 'promote' | 'demote' | 'master';
  from: StageRef;
  to: StageRef;
  /** Episodes issued when it happened. */
  episode: number;
  /** The outcome (1-based, in recording order) that caused it. */
  outcome: number;
}

/** One episode of a run. */
export interface HistoryEntry {
  episode: number;
  task: string;
  /** The stage the task belongs to. */
  stage: number;
  /** The run's stage when the episode was issued. */
  at_stage: number;
  kind: 'current' | 'review';
  status: 'pending' | 'recorded' | 'abandoned';
  reward: number | null;
  passed: boolean | null;
  /** Recording order (1-based) of its outcome. */
  outcome: number | null;
}

/** A run's progress: the JSON of `GET /curricula/<name>/runs/<run_id>`. */
export interface RunProgress {
  format: 'seahaven.curriculum-run/1';
  world: string;
  curriculum: string;
  run_id: string;
  seed: number;
  review: number;
  stage: StageRef;
  stage_count: number;
  mastered: boolean;
  episodes: { issued: number; recorded: number; pending: number; abandoned: number };
  success_rate: number | null;
  stages: StageProgress[];
  transitions: TransitionRecord[];
  /** Episodes in issue order; the newest `history` of them when a limit was given. */
  history: HistoryEntry[];
  /** Older episodes left out of `history`. */
  history_omitted: number;
}

/** A run found in the database. */
export interface RunSummary {
  world: string;
  curriculum: string;
  run_id: string;
  stage: StageRef;
  episodes: number;
  outcomes: number;
}

export interface ProgressOptions {
  /** Keep only the newest N episodes in `history` (default: all). */
  history?: number;
}

const KEY = 'world = ? AND curriculum = ? AND run_id = ?';

/**
 * Every run in the database, optionally of one world, curriculum and/or run id, in name order.
 * @example
 * listRuns(openRunsDbReadonly('.data/curricula.sqlite'), { world: 'crm' }).map((r) => r.run_id);
 */
export function listRuns(
  db: Db,
  filter: { world?: string; curriculum?: string; runId?: string } = {},
): RunSummary[] {
  const rows = db
    .prepare(
      'SELECT world, curriculum, run_id, definition, stage, episodes, outcomes FROM curriculum_runs ORDER BY world, curriculum, run_id',
    )
    .all() as RunRow[];
  return rows
    .filter(
      (r) =>
        (filter.world === undefined || r.world === filter.world) &&
        (filter.curriculum === undefined || r.curriculum === filter.curriculum) &&
        (filter.runId === undefined || r.run_id === filter.runId),
    )
    .map((r) => {
      const def = JSON.parse(r.definition) as ResolvedCurriculum;
      return {
        world: r.world,
        curriculum: r.curriculum,
        run_id: r.run_id,
        stage: { index: r.stage, name: def.stages[r.stage].name },
        episodes: r.episodes,
        outcomes: r.outcomes,
      };
    });
}

/**
 * Read a run's progress report.
 * @example
 * const report = readProgress(db, 'demo', 'basics', 'run-1', { history: 100 });
 */
export function readProgress(
  db: Db,
  world: string,
  curriculum: string,
  runId: string,
  options: ProgressOptions = {},
): RunProgress {
  const run = db
    .prepare(`SELECT * FROM curriculum_runs WHERE ${KEY}`)
    .get(world, curriculum, runId) as RunRow | undefined;
  if (!run) {
    const known = listRuns(db, { world, curriculum }).map((r) => r.run_id);
    throw new CurriculumError(
      'unknown_run',
      `curriculum "${curriculum}" of world "${world}" has no run "${runId}"; a run starts at its first reset with { curriculum, run_id }${known.length ? `; its runs are ${known.join(', ')}` : ''}`,
    );
  }
  const def = JSON.parse(run.definition) as ResolvedCurriculum;
  const ref = (index: number): StageRef => ({ index, name: def.stages[index].name });
  const key = [world, curriculum, runId];
  const transitions = db
    .prepare(
      `SELECT seq, kind, from_stage, to_stage, episode, outcome FROM curriculum_transitions WHERE ${KEY} ORDER BY seq`,
    )
    .all(...key) as TransitionRow[];
  const byStatus = new Map(
    (
      db
        .prepare(
          `SELECT status, count(*) AS n FROM curriculum_episodes WHERE ${KEY} GROUP BY status`,
        )
        .all(...key) as { status: string; n: number }[]
    ).map((r) => [r.status, r.n]),
  );
  const byStage = new Map(
    (
      db
        .prepare(
          `SELECT stage, count(*) AS n, sum(passed) AS passed, avg(reward) AS mean FROM curriculum_episodes WHERE ${KEY} AND status = 'recorded' GROUP BY stage`,
        )
        .all(...key) as { stage: number; n: number; passed: number; mean: number }[]
    ).map((r) => [r.stage, r]),
  );
  const gateRule = def.stages[run.stage].promote;
  const gateCount = run.gate_outcomes;
  const gateRecent = db
    .prepare(
      `SELECT passed FROM curriculum_episodes WHERE ${KEY} AND entry = ? AND kind = 'current' AND outcome IS NOT NULL ORDER BY outcome DESC LIMIT ?`,
    )
    .pluck()
    .all(...key, run.entries, gateRule.window) as number[];

  const stages: StageProgress[] = def.stages.map((s) => {
    const agg = byStage.get(s.index);
    const current = s.index === run.stage;
    return {
      index: s.index,
      name: s.name,
      tasks: s.tasks,
      promote: s.promote,
      status: current ? 'current' : s.index < run.stage ? 'done' : 'locked',
      episodes: agg?.n ?? 0,
      passed: agg?.passed ?? 0,
      success_rate: agg ? agg.passed / agg.n : null,
      mean_reward: agg ? agg.mean : null,
      rolling: current
        ? {
            window: s.promote.window,
            outcomes: gateCount,
            success_rate: rollingRate(
              gateRecent.map((p) => p === 1),
              s.promote.window,
            ),
          }
        : null,
    };
  });
  const limit = options.history;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0))
    throw new CurriculumError(
      'invalid_history',
      `history must be a whole number >= 0; got ${JSON.stringify(limit)}`,
    );
  const shown = (
    limit === undefined
      ? db.prepare(`SELECT * FROM curriculum_episodes WHERE ${KEY} ORDER BY episode`).all(...key)
      : db
          .prepare(
            `SELECT * FROM (SELECT * FROM curriculum_episodes WHERE ${KEY} ORDER BY episode DESC LIMIT ?) ORDER BY episode`,
          )
          .all(...key, limit)
  ) as EpisodeRow[];
  const recorded = byStatus.get('recorded') ?? 0;
  const passedAll = [...byStage.values()].reduce((sum, r) => sum + r.passed, 0);
  return {
    format: 'seahaven.curriculum-run/1',
    world,
    curriculum,
    run_id: runId,
    seed: def.seed,
    review: def.review,
    stage: ref(run.stage),
    stage_count: def.stages.length,
    mastered: run.mastered === 1,
    episodes: {
      issued: run.episodes,
      recorded,
      pending: byStatus.get('pending') ?? 0,
      abandoned: byStatus.get('abandoned') ?? 0,
    },
    success_rate: recorded ? passedAll / recorded : null,
    stages,
    transitions: transitions.map((t) => ({
      kind: t.kind,
      from: ref(t.from_stage),
      to: ref(t.to_stage),
      episode: t.episode,
      outcome: t.outcome,
    })),
    history: shown.map((e) => ({
      episode: e.episode,
      task: e.task,
      stage: e.stage,
      at_stage: e.at_stage,
      kind: e.kind,
      status: e.status,
      reward: e.reward,
      passed: e.passed === null ? null : e.passed === 1,
      outcome: e.outcome,
    })),
    history_omitted: run.episodes - shown.length,
  };
}
