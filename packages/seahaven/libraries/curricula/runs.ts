/**
 * Curriculum runs: the server-agnostic API a trainer or a server drives. `next` issues an episode (a task and a
 * ticket), `record` feeds its outcome back and moves the run between stages, `progress` reports. Every step is one
 * SQLite transaction, so a restarted server continues each run at the same stage, position and next task.
 */
import { resolve } from 'node:path';
import { DefinitionError } from '../../core/errors.ts';
import type { World } from '../../core/world.ts';
import type { Curriculum, ResolvedCurriculum } from './define.ts';
import { CurriculumError } from './errors.ts';
import {
  listRuns,
  readProgress,
  type ProgressOptions,
  type RunProgress,
  type RunSummary,
} from './progress.ts';
import {
  checkFingerprint,
  checkOutcome,
  checkRunId,
  gateWindow,
  issuedEpisode,
  settle,
  stateOf,
  WorldCurricula,
  type IssuedEpisode,
  type Outcome,
  type RecordedOutcome,
  type RunRef,
} from './run-steps.ts';
import { afterPick, pickNext } from './scheduler.ts';
import { DEFAULT_RUNS_PATH, openRunsDb, type Db, type EpisodeRow, type RunRow } from './store.ts';

export type { IssuedEpisode, Outcome, RecordedOutcome, RunRef };

export interface CurriculumRunsOptions {
  world: World;
  /** The runs database. Default `.data/curricula.sqlite` relative to the working directory; `:memory:` keeps nothing. */
  path?: string;
  /** Curricula beyond the world's own `curricula`. */
  curricula?: Curriculum[];
}

const KEY = 'world = ? AND curriculum = ? AND run_id = ?';

/** The runs of one world's curricula in one database. Create with `openCurriculumRuns`. */
export class CurriculumRuns {
  readonly world: World;
  /** The database file (absolute), or `:memory:`. */
  readonly path: string;
  private readonly db: Db;
  private readonly sql: ReturnType<typeof prepare>;
  private readonly tx: ReturnType<Db['transaction']>;
  private readonly curricula: WorldCurricula;

  /** @internal Use `openCurriculumRuns`. */
  constructor(options: CurriculumRunsOptions) {
    if (typeof options?.world?.instance !== 'function')
      throw new DefinitionError(
        'openCurriculumRuns: pass { world } with a world from defineWorld(...).',
      );
    this.world = options.world;
    this.curricula = new WorldCurricula(
      options.world,
      [...(options.world.curricula ?? []), ...(options.curricula ?? [])],
      'openCurriculumRuns',
    );
    this.path =
      options.path === ':memory:' ? ':memory:' : resolve(options.path ?? DEFAULT_RUNS_PATH);
    this.db = openRunsDb(this.path);
    this.sql = prepare(this.db);
    // One transaction wrapper for every step (IMMEDIATE: take the write lock up front, as another server may share the file).
    this.tx = this.db.transaction((step: () => unknown) => step());
  }

  /** Names of the curricula this store serves. */
  curriculumNames(): string[] {
    return this.curricula.names();
  }

  /** A curriculum bound to the world (automatic stages are measured on first use, once). */
  curriculum(name: string): ResolvedCurriculum {
    return this.curricula.get(name);
  }

  /**
   * Issue the run's next episode, starting the run if it is new. Each call is a new episode with its own ticket, even
   * while earlier ones are pending: parallel rollouts of one run are the normal case. An episode that is never
   * recorded stays pending and never counts; `abandon` it to say so.
   * @example
   * const ep = runs.next('basics', 'run-1'); // { ticket: 'basics/run-1/0', task: 'add_note', stage: { index: 0, name: 'easy' }, … }
   */
  next(curriculum: string, runId: string): IssuedEpisode {
    const cur = this.curriculum(curriculum);
    checkRunId(runId);
    return this.atomically(() => {
      const run = this.loadOrStart(cur, runId);
      const state = stateOf(run);
      const pick = pickNext(cur, state);
      const after = afterPick(state, pick);
      this.sql.insertEpisode.run(
        this.world.name,
        curriculum,
        runId,
        pick.episode,
        pick.task,
        pick.stage,
        pick.atStage,
        pick.entry,
        pick.kind,
        'pending',
      );
      this.sql.afterPick.run(after.episodes, after.stagePicks, this.world.name, curriculum, runId);
      return issuedEpisode(this.world, cur, runId, pick);
    });
  }

  /**
   * Issue another episode of the task an issued episode plays, without drawing: same task, stage and kind, a ticket of
   * its own, the run's scheduler untouched. A group of rollouts (GRPO's `num_generations`) shares one draw this way, and
   * each member's outcome is recorded. The episode repeated may be pending or settled.
   * @example
   * const lead = runs.next('basics', 'run-1');
   * const member = runs.repeat(lead.ticket); // { ticket: 'basics/run-1/1', task: lead.task, … }
   */
  repeat(ticket: string): IssuedEpisode {
    return this.atomically(() => {
      const ep = this.episodeOf(ticket);
      const cur = this.curriculum(ep.curriculum);
      const run = this.loadRun(ep.curriculum, ep.run_id)!;
      const episode = run.episodes;
      this.sql.insertEpisode.run(
        this.world.name,
        ep.curriculum,
        ep.run_id,
        episode,
        ep.task,
        ep.stage,
        ep.at_stage,
        ep.entry,
        ep.kind,
        'pending',
      );
      this.sql.afterPick.run(
        episode + 1,
        run.stage_picks,
        this.world.name,
        ep.curriculum,
        ep.run_id,
      );
      return issuedEpisode(this.world, cur, ep.run_id, {
        episode,
        task: ep.task,
        stage: ep.stage,
        kind: ep.kind,
        atStage: ep.at_stage,
        entry: ep.entry,
      });
    });
  }

  /**
   * Record an episode's outcome. By ticket, or by `{ curriculum, runId }` for the run's oldest pending episode. Only
   * current-stage episodes issued since the run entered its stage gate promotion; review outcomes count in the stats.
   * @example
   * runs.record(ep.ticket, { reward: 1, passed: true }); // { stage: …, transition: null | { kind: 'promote', … }, … }
   */
  record(target: string | RunRef, outcome: Outcome): RecordedOutcome {
    checkOutcome(outcome);
    return this.atomically(() => {
      const ep = this.pendingEpisode(target);
      const cur = this.curriculum(ep.curriculum);
      const run = this.loadRun(ep.curriculum, ep.run_id)!;
      const number = run.outcomes + 1;
      const key = [this.world.name, ep.curriculum, ep.run_id] as const;
      this.sql.recordEpisode.run(
        outcome.reward,
        outcome.passed ? 1 : 0,
        number,
        ...key,
        ep.episode,
      );
      const window = gateWindow(cur, run, ep);
      const recent =
        window === null
          ? null
          : (this.sql.gateRecent.all(...key, run.entries, window) as number[]).map((p) => p === 1);
      const { state, gate, mastered, decision, recorded } = settle(cur, run, ep, number, recent);
      this.sql.afterRecord.run(
        number,
        state.stage,
        state.entries,
        state.stagePicks,
        gate,
        mastered ? 1 : 0,
        ...key,
      );
      if (decision) {
        const seq = this.sql.transitionCount.get(...key) as number;
        this.sql.insertTransition.run(
          ...key,
          seq,
          decision.kind,
          decision.from,
          decision.to,
          run.episodes,
          number,
        );
      }
      return recorded;
    });
  }

  /** Give up a pending episode (its session ended without a grade): it never counts. */
  abandon(ticket: string): void {
    this.atomically(() => {
      const ep = this.pendingEpisode(ticket);
      this.sql.abandonEpisode.run(this.world.name, ep.curriculum, ep.run_id, ep.episode);
    });
  }

  /**
   * Give up every pending episode of this world's runs; returns how many. A server does this when it opens the file:
   * its sessions died with the process that issued them (killed or crashed), so those episodes can never be graded.
   * @example
   * runs.abandonPending(); // 3
   */
  abandonPending(): number {
    return this.atomically(() => this.sql.abandonAllPending.run(this.world.name).changes);
  }

  /**
   * A run's progress report (stage, per-stage success rates and episodes, transitions, history).
   * @example
   * runs.progress('basics', 'run-1', { history: 50 }).stage; // { index: 1, name: 'medium' }
   */
  progress(curriculum: string, runId: string, options?: ProgressOptions): RunProgress {
    this.curriculum(curriculum);
    return readProgress(this.db, this.world.name, curriculum, runId, options);
  }

  /** The runs of this world in the database. */
  runs(curriculum?: string): RunSummary[] {
    return listRuns(this.db, { world: this.world.name, curriculum });
  }

  /** Delete a run and its history (to restart it under the same id). Returns whether it existed. */
  deleteRun(curriculum: string, runId: string): boolean {
    return this.atomically(() => {
      const key = [this.world.name, curriculum, runId];
      this.db.prepare(`DELETE FROM curriculum_episodes WHERE ${KEY}`).run(...key);
      this.db.prepare(`DELETE FROM curriculum_transitions WHERE ${KEY}`).run(...key);
      return this.db.prepare(`DELETE FROM curriculum_runs WHERE ${KEY}`).run(...key).changes > 0;
    });
  }

  /** Close the database. Further use throws. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private atomically<T>(step: () => T): T {
    return this.tx.immediate(step) as T;
  }

  private loadRun(curriculum: string, runId: string): RunRow | undefined {
    return this.sql.run.get(this.world.name, curriculum, runId) as RunRow | undefined;
  }

  private loadOrStart(cur: ResolvedCurriculum, runId: string): RunRow {
    const run = this.loadRun(cur.name, runId);
    if (run) {
      checkFingerprint(
        run,
        cur,
        runId,
        `delete the old run with runs.deleteRun('${cur.name}', '${runId}')`,
      );
      return run;
    }
    this.sql.startRun.run(this.world.name, cur.name, runId, JSON.stringify(cur), cur.fingerprint);
    return this.loadRun(cur.name, runId)!;
  }

  /** The episode a ticket names, whatever its status. */
  private episodeOf(target: string): EpisodeRow {
    const parts = target.split('/');
    const episode = Number(parts[2]);
    if (parts.length !== 3 || !Number.isSafeInteger(episode) || episode < 0)
      throw new CurriculumError(
        'invalid_ticket',
        `"${target}" is not a ticket; pass the ticket that next() returned, like "basics/run-1/0"`,
      );
    const ep = this.sql.episode.get(this.world.name, parts[0], parts[1], episode) as
      EpisodeRow | undefined;
    if (!ep)
      throw new CurriculumError(
        'unknown_ticket',
        `no episode has ticket "${target}" in world "${this.world.name}"; pass the ticket that next() returned`,
      );
    return ep;
  }

  private pendingEpisode(target: string | RunRef): EpisodeRow {
    if (typeof target === 'string') {
      const ep = this.episodeOf(target);
      if (ep.status !== 'pending')
        throw new CurriculumError(
          'ticket_settled',
          `episode "${target}" was already ${ep.status}; each episode takes one outcome`,
        );
      return ep;
    }
    const { curriculum, runId } = target ?? ({} as RunRef);
    this.curriculum(curriculum);
    const ep = this.sql.oldestPending.get(this.world.name, curriculum, runId) as
      EpisodeRow | undefined;
    if (!ep)
      throw new CurriculumError(
        'nothing_pending',
        `run "${runId}" of curriculum "${curriculum}" has no pending episode; call next() before recording`,
      );
    return ep;
  }
}

/**
 * Open the runs of a world's curricula in a SQLite file (created if needed). One file per server; several worlds may
 * share it. Close it when done.
 * @example
 * const runs = openCurriculumRuns({ world, path: '.data/curricula.sqlite' });
 * const ep = runs.next('basics', 'run-1');
 * runs.record(ep.ticket, { reward: 1, passed: true });
 * runs.close();
 */
export function openCurriculumRuns(options: CurriculumRunsOptions): CurriculumRuns {
  return new CurriculumRuns(options);
}

/** The statements of the hot paths, prepared once per store. */
function prepare(db: Db) {
  return {
    run: db.prepare(`SELECT * FROM curriculum_runs WHERE ${KEY}`),
    startRun: db.prepare(
      'INSERT INTO curriculum_runs (world, curriculum, run_id, definition, fingerprint, stage, entries, stage_picks, gate_outcomes, episodes, outcomes, mastered) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0)',
    ),
    afterPick: db.prepare(`UPDATE curriculum_runs SET episodes = ?, stage_picks = ? WHERE ${KEY}`),
    afterRecord: db.prepare(
      `UPDATE curriculum_runs SET outcomes = ?, stage = ?, entries = ?, stage_picks = ?, gate_outcomes = ?, mastered = ? WHERE ${KEY}`,
    ),
    insertEpisode: db.prepare(
      'INSERT INTO curriculum_episodes (world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    episode: db.prepare(`SELECT * FROM curriculum_episodes WHERE ${KEY} AND episode = ?`),
    oldestPending: db.prepare(
      `SELECT * FROM curriculum_episodes WHERE ${KEY} AND status = 'pending' ORDER BY episode LIMIT 1`,
    ),
    recordEpisode: db.prepare(
      `UPDATE curriculum_episodes SET status = 'recorded', reward = ?, passed = ?, outcome = ? WHERE ${KEY} AND episode = ?`,
    ),
    abandonEpisode: db.prepare(
      `UPDATE curriculum_episodes SET status = 'abandoned' WHERE ${KEY} AND episode = ?`,
    ),
    abandonAllPending: db.prepare(
      "UPDATE curriculum_episodes SET status = 'abandoned' WHERE world = ? AND status = 'pending'",
    ),
    // `outcome IS NOT NULL` (not `status`) keeps this on the index: an outcome number is set exactly when recorded.
    gateRecent: db
      .prepare(
        `SELECT passed FROM curriculum_episodes WHERE ${KEY} AND entry = ? AND kind = 'current' AND outcome IS NOT NULL ORDER BY outcome DESC LIMIT ?`,
      )
      .pluck(),
    transitionCount: db.prepare(`SELECT count(*) FROM curriculum_transitions WHERE ${KEY}`).pluck(),
    insertTransition: db.prepare(
      'INSERT INTO curriculum_transitions (world, curriculum, run_id, seq, kind, from_stage, to_stage, episode, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  };
}
