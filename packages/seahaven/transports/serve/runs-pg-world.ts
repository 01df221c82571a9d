/**
 * One world's runs in the PostgreSQL runs database (`runs-store-pg.ts`): reset, repeat, submit and abandon, each one
 * transaction that first locks the run's row, and progress reports read in one snapshot.
 */
import type { World } from '../../core/world.ts';
import type { ResolvedCurriculum } from '../../libraries/curricula/define.ts';
import { CurriculumError } from '../../libraries/curricula/errors.ts';
import { readProgress } from '../../libraries/curricula/progress.ts';
import {
  checkFingerprint,
  checkOutcome,
  gateWindow,
  issuedEpisode,
  settle,
  stateOf,
  WorldCurricula,
  type IssuedEpisode,
  type Outcome,
  type RecordedOutcome,
} from '../../libraries/curricula/run-steps.ts';
import { afterPick, pickNext } from '../../libraries/curricula/scheduler.ts';
import type { ProgressAnswer } from '../../libraries/curricula/serve-hooks.ts';
import { openRunsDb, type EpisodeRow, type RunRow } from '../../libraries/curricula/store.ts';
import type { PoolClient } from 'pg';
import {
  historyOf,
  parseTicket,
  resetTarget,
  type RunsStoreOptions,
  type WorldRuns,
} from './runs-store.ts';
import { INSERT_EPISODE, KEY, lockRun, readRunSnapshot } from './runs-pg-schema.ts';

/** What a world's runs need of the store: its transactions, the tracking of steps in flight, and the server's name. */
export interface PgTransactions {
  /** Run `step` in one transaction on one pooled connection. */
  transaction<T>(step: (c: PoolClient) => Promise<T>): Promise<T>;
  /** A step nobody awaits still finishes before the store closes. */
  track<T>(p: Promise<T>): Promise<T>;
  /** The server that owns the episodes issued here. */
  readonly owner: string;
}

/** One world's runs in the PostgreSQL store: the steps of `CurriculumRuns`, in PostgreSQL transactions. */
export class PgWorldRuns implements WorldRuns {
  private readonly store: PgTransactions;
  private readonly world: World;
  private readonly curricula: WorldCurricula;
  private readonly defaultRunId: string;
  private readonly historyLimit: number;

  constructor(store: PgTransactions, world: World, options: RunsStoreOptions) {
    this.store = store;
    this.world = world;
    this.defaultRunId = options.defaultRunId ?? 'default';
    this.historyLimit = options.historyLimit ?? 1000;
    this.curricula = new WorldCurricula(world, world.curricula, 'serveCurricula');
  }

  curriculumNames(): string[] {
    return this.curricula.names();
  }

  private curriculum(name: string): ResolvedCurriculum {
    return this.curricula.get(name);
  }

  reset(data: Parameters<WorldRuns['reset']>[0]): Promise<IssuedEpisode> | null {
    const target = resetTarget(data, this.defaultRunId);
    if (target === null) return null;
    const { curriculum, runId } = target;
    const cur = this.curriculum(curriculum);
    const w = this.world.name;
    return this.store.track(
      this.store.transaction(async (c) => {
        let run = await lockRun(c, w, curriculum, runId);
        if (!run) {
          await c.query(
            'INSERT INTO curriculum_runs (world, curriculum, run_id, definition, fingerprint, stage, entries, stage_picks, gate_outcomes, episodes, outcomes, mastered) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, 0, 0, 0) ON CONFLICT DO NOTHING',
            [w, curriculum, runId, JSON.stringify(cur), cur.fingerprint],
          );
          run = (await lockRun(c, w, curriculum, runId))!;
        }
        checkFingerprint(run, cur, runId, 'delete the old run from the runs database');
        const state = stateOf(run);
        const pick = pickNext(cur, state);
        const after = afterPick(state, pick);
        await c.query(INSERT_EPISODE, [
          w,
          curriculum,
          runId,
          pick.episode,
          pick.task,
          pick.stage,
          pick.atStage,
          pick.entry,
          pick.kind,
          'pending',
          this.store.owner,
        ]);
        await c.query(`UPDATE curriculum_runs SET episodes = $4, stage_picks = $5 WHERE ${KEY}`, [
          w,
          curriculum,
          runId,
          after.episodes,
          after.stagePicks,
        ]);
        return issuedEpisode(this.world, cur, runId, pick);
      }),
    );
  }

  repeat(ticket: string): Promise<IssuedEpisode> {
    const w = this.world.name;
    return this.store.track(
      this.store.transaction(async (c) => {
        const { curriculum, runId, episode: of } = parseTicket(ticket);
        const unknown = () =>
          new CurriculumError(
            'unknown_ticket',
            `no episode has ticket "${ticket}" in world "${w}"; pass the ticket that a reset issued`,
          );
        const run = await lockRun(c, w, curriculum, runId);
        if (!run) throw unknown();
        const ep = (
          await c.query(`SELECT * FROM curriculum_episodes WHERE ${KEY} AND episode = $4`, [
            w,
            curriculum,
            runId,
            of,
          ])
        ).rows[0] as EpisodeRow | undefined;
        if (!ep) throw unknown();
        const cur = this.curriculum(curriculum);
        const episode = Number(run.episodes);
        await c.query(INSERT_EPISODE, [
          w,
          curriculum,
          runId,
          episode,
          ep.task,
          ep.stage,
          ep.at_stage,
          ep.entry,
          ep.kind,
          'pending',
          this.store.owner,
        ]);
        await c.query(`UPDATE curriculum_runs SET episodes = $4 WHERE ${KEY}`, [
          w,
          curriculum,
          runId,
          episode + 1,
        ]);
        return issuedEpisode(this.world, cur, runId, {
          episode,
          task: ep.task,
          stage: Number(ep.stage),
          kind: ep.kind,
          atStage: Number(ep.at_stage),
          entry: Number(ep.entry),
        });
      }),
    );
  }

  submit(ticket: string, outcome: Outcome): Promise<RecordedOutcome> {
    checkOutcome(outcome);
    return this.store.track(
      this.store.transaction(async (c) => {
        const { ep, run } = await this.pending(c, ticket);
        const cur = this.curriculum(ep.curriculum);
        const key = [this.world.name, ep.curriculum, ep.run_id];
        const number = run.outcomes + 1;
        await c.query(
          `UPDATE curriculum_episodes SET status = 'recorded', reward = $4, passed = $5, outcome = $6, owner = NULL WHERE ${KEY} AND episode = $7`,
          [...key, outcome.reward, outcome.passed ? 1 : 0, number, ep.episode],
        );
        const window = gateWindow(cur, run, ep);
        const recent =
          window === null
            ? null
            : (
                await c.query(
                  `SELECT passed FROM curriculum_episodes WHERE ${KEY} AND entry = $4 AND kind = 'current' AND outcome IS NOT NULL ORDER BY outcome DESC LIMIT $5`,
                  [...key, run.entries, window],
                )
              ).rows.map((r) => r.passed === 1);
        const { state, gate, mastered, decision, recorded } = settle(cur, run, ep, number, recent);
        await c.query(
          `UPDATE curriculum_runs SET outcomes = $4, stage = $5, entries = $6, stage_picks = $7, gate_outcomes = $8, mastered = $9 WHERE ${KEY}`,
          [...key, number, state.stage, state.entries, state.stagePicks, gate, mastered ? 1 : 0],
        );
        if (decision) {
          const seq = (
            await c.query(`SELECT count(*)::int AS n FROM curriculum_transitions WHERE ${KEY}`, key)
          ).rows[0].n as number;
          await c.query(
            'INSERT INTO curriculum_transitions (world, curriculum, run_id, seq, kind, from_stage, to_stage, episode, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
            [...key, seq, decision.kind, decision.from, decision.to, run.episodes, number],
          );
        }
        return recorded;
      }),
    );
  }

  abandon(ticket: string): Promise<void> {
    return this.store.track(
      this.store.transaction(async (c) => {
        const { ep } = await this.pending(c, ticket);
        await c.query(
          `UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE ${KEY} AND episode = $4`,
          [this.world.name, ep.curriculum, ep.run_id, ep.episode],
        );
      }),
    );
  }

  /** The pending episode of a ticket and its run, the run's row locked. */
  private async pending(c: PoolClient, ticket: string): Promise<{ ep: EpisodeRow; run: RunRow }> {
    const { curriculum, runId, episode } = parseTicket(ticket);
    const unknown = () =>
      new CurriculumError(
        'unknown_ticket',
        `no episode has ticket "${ticket}" in world "${this.world.name}"; pass the ticket that next() returned`,
      );
    const run = await lockRun(c, this.world.name, curriculum, runId);
    if (!run) throw unknown();
    const ep = (
      await c.query(`SELECT * FROM curriculum_episodes WHERE ${KEY} AND episode = $4`, [
        this.world.name,
        curriculum,
        runId,
        episode,
      ])
    ).rows[0] as EpisodeRow | undefined;
    if (!ep) throw unknown();
    if (ep.status !== 'pending')
      throw new CurriculumError(
        'ticket_settled',
        `episode "${ticket}" was already ${ep.status}; each episode takes one outcome`,
      );
    return { ep, run };
  }

  async progress(
    curriculum: string,
    runId: string,
    query?: { history?: string | number | null },
  ): Promise<ProgressAnswer> {
    const history = historyOf(query, this.historyLimit);
    const w = this.world.name;
    try {
      this.curriculum(curriculum);
      // One snapshot of the run, copied into an in-memory runs database and reported from there as the SQLite store does.
      const rows = await this.store.transaction((c) => readRunSnapshot(c, w, curriculum, runId));
      const db = openRunsDb(':memory:');
      try {
        const copy = (table: string, list: Record<string, unknown>[]) => {
          if (list.length === 0) return;
          const cols = Object.keys(list[0]);
          const insert = db.prepare(
            `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
          );
          for (const r of list) insert.run(...cols.map((k) => r[k]));
        };
        db.transaction(() => {
          copy('curriculum_runs', rows.runs);
          copy('curriculum_episodes', rows.episodes);
          copy('curriculum_transitions', rows.transitions);
        })();
        return { status: 200, body: readProgress(db, w, curriculum, runId, { history }) };
      } finally {
        db.close();
      }
    } catch (e) {
      if (!(e instanceof CurriculumError)) throw e;
      const status = e.code === 'unknown_run' || e.code === 'unknown_curriculum' ? 404 : 400;
      return { status, body: { error: { code: e.code, message: e.message } } };
    }
  }
}
