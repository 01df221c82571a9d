/**
 * What a server needs to serve curricula: turn a reset that names `{curriculum, run_id}` into the task to start, feed
 * the grade at submit back as the outcome, give up an episode whose session ended ungraded, and answer
 * `GET /curricula/<name>/runs/<run_id>`. Plain functions over `CurriculumRuns`; no HTTP framework involved.
 */
import type { World } from '../../core/world.ts';
import { CurriculumError } from './errors.ts';
import type { ProgressOptions, RunProgress } from './progress.ts';
import { checkRunId, type IssuedEpisode, type Outcome, type RecordedOutcome } from './run-steps.ts';
import { openCurriculumRuns, type CurriculumRuns } from './runs.ts';

/** The reset fields the hooks look at (the rest of the reset data is the server's business). */
export interface CurriculumResetData {
  curriculum?: unknown;
  run_id?: unknown;
  task?: unknown;
  fixture?: unknown;
}

/** A progress answer: a status code and a JSON body. */
export type ProgressAnswer =
  | { status: 200; body: RunProgress }
  | { status: 400 | 404; body: { error: { code: string; message: string } } };

export interface CurriculumHooks {
  readonly runs: CurriculumRuns;
  /** Episodes an earlier process left pending, given up when these hooks opened the runs file. */
  readonly recovered: number;
  /**
   * The episode a reset starts, or `null` when the reset names no curriculum (serve it as usual). Start the instance
   * with `{ fixture: episode.fixture, task: episode.task }` and keep `episode.ticket` with the session. Throws a
   * `CurriculumError` (answer it as a validation error) for a reset that names a task or fixture beside a
   * curriculum, a `run_id` without a curriculum, or an unknown curriculum.
   */
  reset(data: CurriculumResetData | undefined): IssuedEpisode | null;
  /** Another episode of the task `ticket` plays, without drawing (a member of a group of rollouts): `runs.repeat`. */
  repeat(ticket: string): IssuedEpisode;
  /** Feed the grade of a curriculum episode back (at submit). */
  submit(ticket: string, grade: Outcome): RecordedOutcome;
  /** The session of a curriculum episode ended, or was reset, before submit: the episode never counts. */
  abandon(ticket: string): void;
  /** The answer to `GET /curricula/<name>/runs/<run_id>[?history=N]`. */
  progress(
    curriculum: string,
    runId: string,
    options?: { history?: string | number | null },
  ): ProgressAnswer;
  close(): void;
}

export interface CurriculumHooksOptions {
  world: World;
  /**
   * Runs to use, as they are; otherwise opened at `path` (giving up the episodes an earlier process left pending, see
   * `recovered`) and closed by `close()`.
   */
  runs?: CurriculumRuns;
  /** The runs database. Default `.data/curricula.sqlite`. */
  path?: string;
  /** The run of a reset that names a curriculum but no `run_id`. Default `default`. */
  defaultRunId?: string;
  /** History entries in a progress answer when the request names none. Default 1000. */
  historyLimit?: number;
}

/** The run a reset names (`curriculum`, and `run_id` or the default), checked; `null` when it names no curriculum. */
export function resetTarget(
  data: CurriculumResetData | undefined,
  defaultRunId: string,
): { curriculum: string; runId: string } | null {
  if (data?.curriculum === undefined || data.curriculum === null) {
    if (data?.run_id !== undefined && data.run_id !== null)
      throw new CurriculumError(
        'invalid_reset',
        'run_id names a curriculum run; give curriculum too, like { curriculum: "basics", run_id: "run-1" }',
      );
    return null;
  }
  if (typeof data.curriculum !== 'string')
    throw new CurriculumError(
      'invalid_reset',
      `curriculum must be a curriculum name; got ${JSON.stringify(data.curriculum)}`,
    );
  for (const key of ['task', 'fixture'] as const) {
    if (data[key] !== undefined && data[key] !== null)
      throw new CurriculumError(
        'invalid_reset',
        `a curriculum picks the ${key} itself; drop ${key} from the reset, or drop curriculum to choose it yourself`,
      );
  }
  const runId = data.run_id === undefined || data.run_id === null ? defaultRunId : data.run_id;
  checkRunId(runId);
  return { curriculum: data.curriculum, runId };
}

/**
 * Hooks for serving a world's curricula.
 * @example
 * const hooks = curriculumHooks({ world, path: '.data/curricula.sqlite' });
 * const ep = hooks.reset({ curriculum: 'basics', run_id: 'run-1' });   // null when no curriculum is named
 * const inst = world.instance({ fixture: ep!.fixture, task: ep!.task });
 * // … the agent plays …
 * hooks.submit(ep!.ticket, inst.submit());
 * hooks.progress('basics', 'run-1').body;                               // the run's progress JSON
 */

export function curriculumHooks(options: CurriculumHooksOptions): CurriculumHooks {
  const runs = options.runs ?? openCurriculumRuns({ world: options.world, path: options.path });
  const owned = options.runs === undefined;
  // Episodes are held by sessions, and sessions do not outlive their process: whatever is still pending in the file
  // was issued by an earlier process that stopped without giving it up (killed, or crashed), and can never be graded.
  const recovered = owned ? runs.abandonPending() : 0;
  const defaultRunId = options.defaultRunId ?? 'default';
  const historyLimit = options.historyLimit ?? 1000;

  return {
    runs,
    recovered,
    reset(data) {
      const target = resetTarget(data, defaultRunId);
      return target === null ? null : runs.next(target.curriculum, target.runId);
    },
    repeat: (ticket) => runs.repeat(ticket),
    submit: (ticket, grade) => runs.record(ticket, grade),
    abandon: (ticket) => runs.abandon(ticket),
    progress(curriculum, runId, query) {
      const raw = query?.history;
      const history = raw === undefined || raw === null || raw === '' ? historyLimit : Number(raw);
      const options: ProgressOptions = { history };
      try {
        return { status: 200, body: runs.progress(curriculum, runId, options) };
      } catch (e) {
        if (!(e instanceof CurriculumError)) throw e;
        const status = e.code === 'unknown_run' || e.code === 'unknown_curriculum' ? 404 : 400;
        return { status, body: { error: { code: e.code, message: e.message } } };
      }
    },
    close() {
      if (owned) runs.close();
    },
  };
}
