/**
 * The curriculum runs of servers on several machines, in one PostgreSQL database (`--runs-db postgres://…`). The same
 * tables as the SQLite runs file, created on first use; every step is one transaction that first locks the run's row
 * (`SELECT … FOR UPDATE`), so the steps of one run are serialized across every server and none is lost or counted
 * twice. Each pending episode names the server that issued it (`owner`), so a server that is gone has its episodes given
 * up by the others. Progress reports are read in one snapshot and computed as the SQLite store computes them.
 */
import { CurriculumError } from '../../libraries/curricula/errors.ts';
import type { Pool, PoolClient } from 'pg';
import {
  InFlight,
  isGone,
  newIdentity,
  stderrLogger,
  type RunsStore,
  type RunsStoreOptions,
  type WorldRuns,
  RUNS_TIMING,
} from './runs-store.ts';
import { DDL, FORMAT, SCHEMA_LOCK } from './runs-pg-schema.ts';
import { PgWorldRuns } from './runs-pg-world.ts';

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
    this.staleMs = options.staleMs ?? RUNS_TIMING.staleMs;
    for (const world of options.worlds) {
      if (world.curricula.length === 0) continue;
      this.byWorld.set(world.name, new PgWorldRuns(this, world, options));
    }
    this.ready = this.open(options.heartbeatMs ?? RUNS_TIMING.heartbeatMs);
    // A failed start is reported by whoever awaits `ready`; steps awaiting it see the same error.
    this.ready.catch(() => {});
  }

  world(name: string): WorldRuns | undefined {
    return this.byWorld.get(name);
  }

  private async open(heartbeatMs: number): Promise<void> {
    if (this.byWorld.size === 0) return; // no served world declares curricula: nothing to keep
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: this.url,
      connectionTimeoutMillis: 10_000,
      max: 10,
    });
    // An idle connection that breaks (the database restarted) is replaced on next use; say so, never crash.
    pool.on('error', (e) =>
      this.logger(`[seahaven] curriculum runs database ${this.location}: ${e.message}`),
    );
    this.pool = pool;
    try {
      await pool.query('SELECT 1');
    } catch (e) {
      await pool.end().catch(() => {});
      this.pool = null;
      throw new CurriculumError(
        'runs_db_unreachable',
        `cannot reach the PostgreSQL runs database at ${this.location} (${oneLine(e)}); start it, or fix the host, port, user, password or database in --runs-db postgres://user:password@host:5432/dbname`,
      );
    }
    try {
      await this.transaction(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        await c.query(DDL);
        const format = (
          await c.query('SELECT value FROM curriculum_meta WHERE key = $1', ['format'])
        ).rows[0]?.value as string | undefined;
        if (format === undefined)
          await c.query('INSERT INTO curriculum_meta (key, value) VALUES ($1, $2)', [
            'format',
            FORMAT,
          ]);
        else if (format !== FORMAT)
          throw new CurriculumError(
            'unsupported_format',
            `${this.location} holds curriculum runs in format ${format}, which this version (format ${FORMAT}) cannot read; point the server at another database`,
          );
        await c.query('INSERT INTO curriculum_servers (server, host, pid) VALUES ($1, $2, $3)', [
          this.me.server,
          this.me.host,
          this.me.pid,
        ]);
      }, false);
      this.recovered = await this.sweep(true);
    } catch (e) {
      await pool.end().catch(() => {});
      this.pool = null;
      if (e instanceof CurriculumError) throw e;
      throw new CurriculumError(
        'runs_db_unusable',
        `cannot set up the curriculum tables in ${this.location} (${oneLine(e)}); the user in --runs-db needs CREATE on the database's public schema`,
      );
    }
    this.timer = setInterval(() => void this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  /** Run `step` in one transaction on one pooled connection. */
  async transaction<T>(step: (c: PoolClient) => Promise<T>, waitReady = true): Promise<T> {
    if (waitReady) await this.ready;
    if (this.pool === null)
      throw new CurriculumError('runs_db_closed', `the runs database ${this.location} is closed`);
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
      const rows = (
        await c.query(
          'SELECT server, host, pid, (extract(epoch FROM now() - seen_at) * 1000)::float8 AS age_ms FROM curriculum_servers FOR UPDATE',
        )
      ).rows as { server: string; host: string; pid: number; age_ms: number }[];
      const gone = rows.filter((r) => isGone(this.me, r, this.staleMs)).map((r) => r.server);
      let n = 0;
      if (gone.length > 0) {
        n +=
          (
            await c.query(
              "UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE status = 'pending' AND owner = ANY($1)",
              [gone],
            )
          ).rowCount ?? 0;
        await c.query('DELETE FROM curriculum_servers WHERE server = ANY($1)', [gone]);
      }
      if (starting && rows.length === gone.length + 1) {
        n +=
          (
            await c.query(
              "UPDATE curriculum_episodes SET status = 'abandoned' WHERE status = 'pending' AND owner IS NULL AND world = ANY($1)",
              [[...this.byWorld.keys()]],
            )
          ).rowCount ?? 0;
      }
      return n;
    }, false);
  }

  private async heartbeat(): Promise<void> {
    if (this.closing || this.pool === null) return;
    try {
      await this.track(
        (async () => {
          const seen = await this.pool!.query(
            'UPDATE curriculum_servers SET seen_at = now() WHERE server = $1',
            [this.me.server],
          );
          if (seen.rowCount === 0)
            await this.pool!.query(
              'INSERT INTO curriculum_servers (server, host, pid) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
              [this.me.server, this.me.host, this.me.pid],
            );
          await this.sweep(false);
        })(),
      );
    } catch (e) {
      this.logger(
        `[seahaven] curriculum runs database ${this.location}: heartbeat failed (${oneLine(e)}); retrying`,
      );
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
          await c.query(
            "UPDATE curriculum_episodes SET status = 'abandoned', owner = NULL WHERE status = 'pending' AND owner = $1",
            [this.me.server],
          );
          await c.query('DELETE FROM curriculum_servers WHERE server = $1', [this.me.server]);
        }, false);
      } catch (e) {
        this.logger(
          `[seahaven] curriculum runs database ${this.location}: could not sign off (${oneLine(e)}); other servers give up this server's episodes once its row is stale`,
        );
      } finally {
        this.pool = null;
        await pool.end();
      }
    })();
    return this.closing;
  }
}

function oneLine(e: unknown): string {
  const err = e as { message?: string; code?: string };
  const text = err?.message || err?.code || String(e);
  return text.replace(/\s+/g, ' ').trim();
}
