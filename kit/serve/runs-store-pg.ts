/**
 * The curriculum runs of servers on several machines, in one PostgreSQL database (`--runs-db postgres://…`). The same
 * tables as the SQLite runs file, created on first use; every step is one transaction that first locks the run's row
 * (`SELECT … FOR UPDATE`), so the steps of one run are serialized across every server and none is lost or counted
 * twice. Each pending episode names the server that issued it (`owner`), so a server that is gone has its episodes given
 * up by the others. Progress reports are read in one snapshot and computed as the SQLite store computes them.
 */
import type { World } from '../world.ts';
import type { ResolvedCurriculum } from '../../curricula/define.ts';
import { CurriculumError } from '../../curricula/errors.ts';
import { readProgress } from '../../curricula/progress.ts';
import { issuedEpisode, WorldCurricula, type IssuedEpisode, type Outcome, type RecordedOutcome } from '../../curricula/runs.ts';
import { afterDecision, afterPick, decide, lookback, pickNext, type SchedulerState } from '../../curricula/scheduler.ts';
import type { ProgressAnswer } from '../../curricula/serve-hooks.ts';
import { openRunsDb, type EpisodeRow, type RunRow } from '../../curricula/store.ts';
import type { Pool, PoolClient } from 'pg';
import { checkOutcome, historyOf, InFlight, isGone, newIdentity, parseTicket, resetTarget, stderrLogger, type RunsStore, type RunsStoreOptions, type WorldRuns } from './runs-store.ts';

const FORMAT = '1';
// Any constant: serializes the schema set-up of servers starting together.
const SCHEMA_LOCK = 0x5ea4a7e;

const DDL = `
CREATE TABLE IF NOT EXISTS curriculum_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS curriculum_runs (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, definition TEXT NOT NULL, fingerprint TEXT NOT NULL,
  stage INTEGER NOT NULL, entries INTEGER NOT NULL, stage_picks INTEGER NOT NULL, gate_outcomes INTEGER NOT NULL,
  episodes INTEGER NOT NULL, outcomes INTEGER NOT NULL, mastered INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id)
);
CREATE TABLE IF NOT EXISTS curriculum_episodes (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, episode INTEGER NOT NULL, task TEXT NOT NULL,
  stage INTEGER NOT NULL, at_stage INTEGER NOT NULL, entry INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
  reward DOUBLE PRECISION, passed INTEGER, outcome INTEGER, owner TEXT,
  PRIMARY KEY (world, curriculum, run_id, episode)
);
CREATE INDEX IF NOT EXISTS curriculum_episodes_gate ON curriculum_episodes (world, curriculum, run_id, entry, kind, outcome);
CREATE INDEX IF NOT EXISTS curriculum_episodes_pending ON curriculum_episodes (owner) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS curriculum_transitions (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  from_stage INTEGER NOT NULL, to_stage INTEGER NOT NULL, episode INTEGER NOT NULL, outcome INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id, seq)
);
CREATE TABLE IF NOT EXISTS curriculum_servers (
  server TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(), seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
`;

const KEY = 'world = $1 AND curriculum = $2 AND run_id = $3';

export class PostgresRunsStore implements RunsStore {
  readonly kind = 'postgres';
  readonly location: string;
  readonly ready: Promise<void>;
  recovered = 0;
  private readonly url: string;
  private pool: Pool | null = null;
  private readonly me = newIdentity();
  private readonly byWorld = new Map<string, WorldRuns>();
  private readonly inFlight = new InFlight();
  private readonly logger: (line: string) => void;
  private readonly staleMs: number;
  private timer: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;

  constructor(url: string, masked: string, options: RunsStoreOptions) {
    this.url = url;
    this.location = masked;
    this.logger = options.logger ?? stderrLogger;
    this.staleMs = options.staleMs ?? 30_000;
    for (const world of options.worlds) {
      if (world.curricula.length === 0) continue;
      this.byWorld.set(world.name, new PgWorldRuns(this, world, options));
    }
    this.ready = this.open(options.heartbeatMs ?? 5000);
    // A failed start is reported by whoever awaits `ready`; steps awaiting it see the same error.
    this.ready.catch(() => {});
  }

  world(name: string): WorldRuns | undefined {
    return this.byWorld.get(name);
  }

  private async open(heartbeatMs: number): Promise<void> {
    if (this.byWorld.size === 0) return; // no served world declares curricula: nothing to keep
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: this.url, connectionTimeoutMillis: 10_000, max: 10 });
    // An idle connection that breaks (the database restarted) is replaced on next use; say so, never crash.
    pool.on('error', (e) => this.logger(`[seahaven] curriculum runs database ${this.location}: ${e.message}`));
    this.pool = pool;
    try {
      await pool.query('SELECT 1');
    } catch (e) {
      await pool.end().catch(() => {});
      this.pool = null;
      throw new CurriculumError('runs_db_unreachable', `cannot reach the PostgreSQL runs database at ${this.location} (${oneLine(e)}); start it, or fix the host, port, user, password or database in --runs-db postgres://user:password@host:5432/dbname`);
    }
    try {
      await this.transaction(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        await c.query(DDL);
        const format = (await c.query('SELECT value FROM curriculum_meta WHERE key = $1', ['format'])).rows[0]?.value as string | undefined;
        if (format === undefined) await c.query('INSERT INTO curriculum_meta (key, value) VALUES ($1, $2)', ['format', FORMAT]);
        else if (format !== FORMAT) throw new CurriculumError('unsupported_format', `${this.location} holds curriculum runs in format ${format}, which this version (format ${FORMAT}) cannot read; point the server at another database`);
        await c.query('INSERT INTO curriculum_servers (server, host, pid) VALUES ($1, $2, $3)', [this.me.server, this.me.host, this.me.pid]);
      }, false);
      this.recovered = await this.sweep(true);
    } catch (e) {
      await pool.end().catch(() => {});
      this.pool = null;
      if (e instanceof CurriculumError) throw e;
      throw new CurriculumError('runs_db_unusable', `cannot set up the curriculum tables in ${this.location} (${oneLine(e)}); the user in --runs-db needs CREATE on the database's public schema`);
    }
    this.timer = setInterval(() => void this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  /** Run `step` in one transaction on one pooled connection. */
  async transaction<T>(step: (c: PoolClient) => Promise<T>, waitReady = true): Promise<T> {
    if (waitReady) await this.ready;
    if (this.pool === null) throw new CurriculumError('runs_db_closed', `the runs database ${this.location} is closed`);
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await step(c);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  /** A step nobody awaits still finishes before `close`. */
  track<T>(p: Promise<T>): Promise<T> {
    return this.inFlight.track(p);
  }

  get owner(): string {
    return this.me.server;
  }

  /** Give up the pending episodes of servers that are gone; at start, alone, also unowned ones of the served worlds. */
  private async sweep(starting: boolean): Promise<number> {
    return this.transaction(async (c) => {
      const rows = (await c.query('SELECT server, host, pid, (extract(epoch FROM now() - seen_at) * 1000)::float8 AS age_ms FROM curriculum_servers FOR UPDATE')).rows as { server: string; host: string; pid: number; age_ms: number }[];
      const gone = rows.filter((r) => isGone(this.me, r, this.staleMs)).map((r) => r.server);
      let n = 0;
      if (gone.length > 0) {
        n += (await c.query("UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE status = 'pending' AND owner = ANY($1)", [gone])).rowCount ?? 0;
        await c.query('DELETE FROM curriculum_servers WHERE server = ANY($1)', [gone]);
      }
      if (starting && rows.length === gone.length + 1) {
        n += (await c.query("UPDATE curriculum_episodes SET status = 'abandoned' WHERE status = 'pending' AND owner IS NULL AND world = ANY($1)", [[...this.byWorld.keys()]])).rowCount ?? 0;
      }
      return n;
    }, false);
  }

  private async heartbeat(): Promise<void> {
    if (this.closing || this.pool === null) return;
    try {
      await this.track(
        (async () => {
          const seen = await this.pool!.query('UPDATE curriculum_servers SET seen_at = now() WHERE server = $1', [this.me.server]);
          if (seen.rowCount === 0) await this.pool!.query('INSERT INTO curriculum_servers (server, host, pid) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [this.me.server, this.me.host, this.me.pid]);
          await this.sweep(false);
        })(),
      );
    } catch (e) {
      this.logger(`[seahaven] curriculum runs database ${this.location}: heartbeat failed (${oneLine(e)}); retrying`);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.timer) clearInterval(this.timer);
      await this.ready.catch(() => {});
      await this.inFlight.drain();
      const pool = this.pool;
      if (pool === null) return;
      try {
        await this.transaction(async (c) => {
          // Sessions have ended and given their episodes up; anything still owned can no longer be graded.
          await c.query("UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE status = 'pending' AND owner = $1", [this.me.server]);
          await c.query('DELETE FROM curriculum_servers WHERE server = $1', [this.me.server]);
        }, false);
      } catch (e) {
        this.logger(`[seahaven] curriculum runs database ${this.location}: could not sign off (${oneLine(e)}); other servers give up this server's episodes once its row is stale`);
      } finally {
        this.pool = null;
        await pool.end();
      }
    })();
    return this.closing;
  }
}

/** One world's runs in the PostgreSQL store: the steps of `CurriculumRuns`, in PostgreSQL transactions. */
class PgWorldRuns implements WorldRuns {
  private readonly store: PostgresRunsStore;
  private readonly world: World;
  private readonly curricula: WorldCurricula;
  private readonly defaultRunId: string;
  private readonly historyLimit: number;

  constructor(store: PostgresRunsStore, world: World, options: RunsStoreOptions) {
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
    return this.store.track(this.store.transaction(async (c) => {
      let run = await lockRun(c, w, curriculum, runId);
      if (!run) {
        await c.query('INSERT INTO curriculum_runs (world, curriculum, run_id, definition, fingerprint, stage, entries, stage_picks, gate_outcomes, episodes, outcomes, mastered) VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, 0, 0, 0) ON CONFLICT DO NOTHING', [w, curriculum, runId, JSON.stringify(cur), cur.fingerprint]);
        run = (await lockRun(c, w, curriculum, runId))!;
      }
      if (run.fingerprint !== cur.fingerprint) {
        throw new CurriculumError('definition_changed', `run "${runId}" of curriculum "${curriculum}" started under a different definition (stages, rules or seed changed since); use a new run_id, or delete the old run from the runs database`);
      }
      const state = stateOf(run);
      const pick = pickNext(cur, state);
      const after = afterPick(state, pick);
      await c.query('INSERT INTO curriculum_episodes (world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)', [w, curriculum, runId, pick.episode, pick.task, pick.stage, pick.atStage, pick.entry, pick.kind, 'pending', this.store.owner]);
      await c.query(`UPDATE curriculum_runs SET episodes = $4, stage_picks = $5 WHERE ${KEY}`, [w, curriculum, runId, after.episodes, after.stagePicks]);
      return issuedEpisode(this.world, cur, runId, pick);
    }));
  }

  repeat(ticket: string): Promise<IssuedEpisode> {
    const w = this.world.name;
    return this.store.track(this.store.transaction(async (c) => {
      const { curriculum, runId, episode: of } = parseTicket(ticket);
      const unknown = () => new CurriculumError('unknown_ticket', `no episode has ticket "${ticket}" in world "${w}"; pass the ticket that a reset issued`);
      const run = await lockRun(c, w, curriculum, runId);
      if (!run) throw unknown();
      const ep = (await c.query(`SELECT * FROM curriculum_episodes WHERE ${KEY} AND episode = $4`, [w, curriculum, runId, of])).rows[0] as EpisodeRow | undefined;
      if (!ep) throw unknown();
      const cur = this.curriculum(curriculum);
      const episode = Number(run.episodes);
      await c.query('INSERT INTO curriculum_episodes (world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)', [w, curriculum, runId, episode, ep.task, ep.stage, ep.at_stage, ep.entry, ep.kind, 'pending', this.store.owner]);
      await c.query(`UPDATE curriculum_runs SET episodes = $4 WHERE ${KEY}`, [w, curriculum, runId, episode + 1]);
      return issuedEpisode(this.world, cur, runId, { episode, task: ep.task, stage: Number(ep.stage), kind: ep.kind, atStage: Number(ep.at_stage), entry: Number(ep.entry) });
    }));
  }

  submit(ticket: string, outcome: Outcome): Promise<RecordedOutcome> {
    checkOutcome(outcome);
    return this.store.track(
      this.store.transaction(async (c) => {
        const { ep, run } = await this.pending(c, ticket);
        const cur = this.curriculum(ep.curriculum);
        const key = [this.world.name, ep.curriculum, ep.run_id];
        const number = run.outcomes + 1;
        await c.query(`UPDATE curriculum_episodes SET status = 'recorded', reward = $4, passed = $5, outcome = $6, owner = NULL WHERE ${KEY} AND episode = $7`, [...key, outcome.reward, outcome.passed ? 1 : 0, number, ep.episode]);
        let state = stateOf(run);
        let decision = null;
        let gate = run.gate_outcomes;
        if (ep.entry === run.entries && ep.kind === 'current') {
          gate = run.gate_outcomes + 1;
          const recent = (await c.query(`SELECT passed FROM curriculum_episodes WHERE ${KEY} AND entry = $4 AND kind = 'current' AND outcome IS NOT NULL ORDER BY outcome DESC LIMIT $5`, [...key, run.entries, lookback(cur, run.stage)])).rows.map((r) => r.passed === 1);
          decision = decide(cur, run.stage, recent, gate, run.mastered === 1);
          state = afterDecision(state, decision);
          if (state.entries !== run.entries) gate = 0;
        }
        const mastered = run.mastered === 1 || decision?.kind === 'master';
        await c.query(`UPDATE curriculum_runs SET outcomes = $4, stage = $5, entries = $6, stage_picks = $7, gate_outcomes = $8, mastered = $9 WHERE ${KEY}`, [...key, number, state.stage, state.entries, state.stagePicks, gate, mastered ? 1 : 0]);
        if (decision) {
          const seq = (await c.query(`SELECT count(*)::int AS n FROM curriculum_transitions WHERE ${KEY}`, key)).rows[0].n as number;
          await c.query('INSERT INTO curriculum_transitions (world, curriculum, run_id, seq, kind, from_stage, to_stage, episode, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', [...key, seq, decision.kind, decision.from, decision.to, run.episodes, number]);
        }
        const ref = (i: number) => ({ index: i, name: cur.stages[i].name });
        return {
          ticket,
          episode: ep.episode,
          task: ep.task,
          outcome: number,
          stage: ref(state.stage),
          transition: decision && { kind: decision.kind, from: ref(decision.from), to: ref(decision.to) },
          mastered,
        };
      }),
    );
  }

  abandon(ticket: string): Promise<void> {
    return this.store.track(
      this.store.transaction(async (c) => {
        const { ep } = await this.pending(c, ticket);
        await c.query(`UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE ${KEY} AND episode = $4`, [this.world.name, ep.curriculum, ep.run_id, ep.episode]);
      }),
    );
  }

  /** The pending episode of a ticket and its run, the run's row locked. */
  private async pending(c: PoolClient, ticket: string): Promise<{ ep: EpisodeRow; run: RunRow }> {
    const { curriculum, runId, episode } = parseTicket(ticket);
    const unknown = () => new CurriculumError('unknown_ticket', `no episode has ticket "${ticket}" in world "${this.world.name}"; pass the ticket that next() returned`);
    const run = await lockRun(c, this.world.name, curriculum, runId);
    if (!run) throw unknown();
    const ep = (await c.query(`SELECT * FROM curriculum_episodes WHERE ${KEY} AND episode = $4`, [this.world.name, curriculum, runId, episode])).rows[0] as EpisodeRow | undefined;
    if (!ep) throw unknown();
    if (ep.status !== 'pending') throw new CurriculumError('ticket_settled', `episode "${ticket}" was already ${ep.status}; each episode takes one outcome`);
    return { ep, run };
  }

  async progress(curriculum: string, runId: string, query?: { history?: string | number | null }): Promise<ProgressAnswer> {
    const history = historyOf(query, this.historyLimit);
    const w = this.world.name;
    try {
      this.curriculum(curriculum);
      // One snapshot of the run, copied into an in-memory runs database and reported from there as the SQLite store does.
      const rows = await this.store.transaction(async (c) => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const runs = (await c.query('SELECT world, curriculum, run_id, definition, fingerprint, stage, entries, stage_picks, gate_outcomes, episodes, outcomes, mastered FROM curriculum_runs WHERE world = $1 AND curriculum = $2', [w, curriculum])).rows;
        const episodes = (await c.query(`SELECT world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, reward, passed, outcome FROM curriculum_episodes WHERE ${KEY}`, [w, curriculum, runId])).rows;
        const transitions = (await c.query(`SELECT world, curriculum, run_id, seq, kind, from_stage, to_stage, episode, outcome FROM curriculum_transitions WHERE ${KEY}`, [w, curriculum, runId])).rows;
        return { runs, episodes, transitions };
      });
      const db = openRunsDb(':memory:');
      try {
        const copy = (table: string, list: Record<string, unknown>[]) => {
          if (list.length === 0) return;
          const cols = Object.keys(list[0]);
          const insert = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
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

async function lockRun(c: PoolClient, world: string, curriculum: string, runId: string): Promise<RunRow | undefined> {
  return (await c.query(`SELECT * FROM curriculum_runs WHERE ${KEY} FOR UPDATE`, [world, curriculum, runId])).rows[0] as RunRow | undefined;
}

function stateOf(run: RunRow): SchedulerState {
  return { stage: run.stage, entries: run.entries, stagePicks: run.stage_picks, episodes: run.episodes };
}

function oneLine(e: unknown): string {
  const err = e as { message?: string; code?: string };
  const text = err?.message || err?.code || String(e);
  return text.replace(/\s+/g, ' ').trim();
}
