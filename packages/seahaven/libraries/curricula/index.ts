/**
 * Curricula: serve a world's tasks from easy to hard and move a training run on once it has mastered a stage.
 * Difficulty is declared on tasks and fixtures and measured by replaying gold solutions (`measureDifficulty`);
 * `defineCurriculum` orders tasks into stages (by hand or with `autoStages`) with a promotion rule, a review share and
 * a seed; `openCurriculumRuns` keeps runs in a SQLite file and hands out the next task of a run, deterministically
 * given the seed and the outcomes, so a restarted server continues every run where it stopped. `curriculumHooks` is
 * what a server wires into reset, submit and `GET /curricula/<name>/runs/<run_id>`.
 *
 * @example
 * import { defineCurriculum, openCurriculumRuns } from 'seahaven/curricula';
 * const basics = defineCurriculum({
 *   name: 'basics',
 *   stages: [{ name: 'easy', tasks: ['add_note'] }, { name: 'hard', tasks: ['finalize_drafts'] }],
 *   promote: { successRate: 0.8, window: 20 },
 *   review: 0.2,
 *   seed: 7,
 * });
 * // defineWorld({ …, tasks, curricula: [basics] })
 * const runs = openCurriculumRuns({ world, path: '.data/curricula.sqlite' });
 * const ep = runs.next('basics', 'run-1');            // { task, fixture, stage, episode, ticket }
 * runs.record(ep.ticket, { reward: 1, passed: true }); // the grade of the episode
 * runs.progress('basics', 'run-1');                    // stage, per-stage success rates, history
 *
 * @module seahaven/curricula
 */
export {
  defineCurriculum,
  autoStages,
  type Curriculum,
  type CurriculumSpec,
  type StageSpec,
  type PromoteRule,
  type DemoteRule,
  type AutoStages,
  type AutoStagesOptions,
  type ResolvedCurriculum,
  type ResolvedStage,
  type WorldTasks,
} from './define.ts';
export {
  measureDifficulty,
  type TaskDifficulty,
  type DifficultyWeights,
  type MeasureOptions,
} from './difficulty.ts';
export {
  openCurriculumRuns,
  type CurriculumRuns,
  type CurriculumRunsOptions,
  type IssuedEpisode,
  type Outcome,
  type RecordedOutcome,
  type RunRef,
} from './runs.ts';
export type {
  RunProgress,
  StageProgress,
  StageRef,
  TransitionRecord,
  HistoryEntry,
  RunSummary,
  ProgressOptions,
} from './progress.ts';
export {
  curriculumHooks,
  type CurriculumHooks,
  type CurriculumHooksOptions,
  type CurriculumResetData,
  type ProgressAnswer,
} from './serve-hooks.ts';
export { CurriculumError, type CurriculumErrorCode } from './errors.ts';
