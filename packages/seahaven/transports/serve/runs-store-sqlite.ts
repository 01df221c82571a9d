/** The SQLite runs file as a `RunsStore`: one machine, any number of server processes sharing the file. */
import {
  openCurriculumRuns,
  type CurriculumRuns,
  type IssuedEpisode,
} from '../../libraries/curricula/runs.ts';
import { curriculumHooks, type CurriculumHooks } from '../../libraries/curricula/serve-hooks.ts';
import { CurriculumError } from '../../libraries/curricula/errors.ts';
import { readProgress } from '../../libraries/curricula/progress.ts';
import { openRunsDb, type Db } from '../../libraries/curricula/store.ts';
import {
  historyOf,
  isGone,
  newIdentity,
  type RunsStore,
  type RunsStoreOptions,
  type WorldRuns,
  RUNS_TIMING,
} from './runs-store.ts';

const SQLITE_DDL = `
CREATE TABLE IF NOT EXISTS curriculum_servers (server TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL, seen_at INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS curriculum_claims (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, episode INTEGER NOT NULL, server TEXT NOT NULL,
  PRIMARY KEY (world, curriculum, run_id, episode)
) STRICT;
CREATE INDEX IF NOT EXISTS curriculum_claims_server ON curriculum_claims (server);
`;

/**
 * The SQLite runs file: each world's `CurriculumRuns` (WAL, busy timeout, `BEGIN IMMEDIATE` per step) does the steps, so
 * processes sharing the file never lose an update; this store adds the server row and the claims beside them.
 */
export class SqliteRunsStore implements RunsStore {
  readonly kind = 'sqlite';
  readonly location: string;
  readonly ready: Promise<void>;
  recovered = 0;
  private readonly byWorld = new Map<string, WorldRuns>();
  private readonly runs: CurriculumRuns[] = [];
  private readonly db: Db | null = null;
  private readonly me = newIdentity();
  private readonly staleMs: number;
  private readonly historyLimit: number;
  private readonly timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(path: string, options: RunsStoreOptions) {
    this.staleMs = options.staleMs ?? RUNS_TIMING.staleMs;
    this.historyLimit = options.historyLimit ?? 1000;
    try {
      for (const world of options.worlds) {
        if (world.curricula.length === 0) continue;
        const runs = openCurriculumRuns({ world, path });
        this.runs.push(runs);
        // Handed the runs, the hooks leave pending episodes alone: which are orphans is this store's decision.
        const hooks = curriculumHooks({
          world,
          runs,
          defaultRunId: options.defaultRunId,
          historyLimit: options.historyLimit,
        });
        this.byWorld.set(world.name, this.wrap(world.name, hooks));
      }
      this.location = this.runs[0]?.path ?? path;
      if (this.location === ':memory:') {
        // Nobody else can open it: every pending episode (none yet) is this process's.
      } else if (this.runs.length > 0) {
        this.db = openRunsDb(this.location);
        this.db.exec(SQLITE_DDL);
        this.recovered = this.db
          .transaction(() => {
            const now = Date.now();
            this.db!.prepare(
              'INSERT INTO curriculum_servers (server, host, pid, started_at, seen_at) VALUES (?, ?, ?, ?, ?)',
            ).run(this.me.server, this.me.host, this.me.pid, now, now);
            return this.sweep(true);
          })
          .immediate();
        this.timer = setInterval(
          () => this.heartbeat(),
          options.heartbeatMs ?? RUNS_TIMING.heartbeatMs,
        );
        this.timer.unref();
      }
    } catch (e) {
      this.closeNow();
      throw e;
    }
    this.ready = Promise.resolve();
  }

  world(name: string): WorldRuns | undefined {
    return this.byWorld.get(name);
  }

  private wrap(world: string, hooks: CurriculumHooks): WorldRuns {
    const claim = (ep: IssuedEpisode) =>
      this.db
        ?.prepare(
          'INSERT OR REPLACE INTO curriculum_claims (world, curriculum, run_id, episode, server) VALUES (?, ?, ?, ?, ?)',
        )
        .run(world, ep.curriculum, ep.runId, ep.episode, this.me.server);
    const unclaim = (ticket: string) => {
      const [curriculum, runId, episode] = ticket.split('/');
      this.db
        ?.prepare(
          'DELETE FROM curriculum_claims WHERE world = ? AND curriculum = ? AND run_id = ? AND episode = ?',
        )
        .run(world, curriculum, runId, Number(episode));
    };
    return {
      hooks,
      curriculumNames: () => hooks.runs.curriculumNames(),
      reset(data) {
        const ep = hooks.reset(data);
        if (!ep) return ep;
        try {
          claim(ep);
        } catch (e) {
          // Unclaimed, the episode could outlive this server as pending: give it up now, the reset fails.
          hooks.abandon(ep.ticket);
          throw e;
        }
        return ep;
      },
      repeat(ticket) {
        const ep = hooks.repeat(ticket);
        try {
          claim(ep);
        } catch (e) {
          hooks.abandon(ep.ticket);
          throw e;
        }
        return ep;
      },
      submit(ticket, grade) {
        try {
          return hooks.submit(ticket, grade);
        } finally {
          unclaim(ticket);
        }
      },
      abandon(ticket) {
        try {
          hooks.abandon(ticket);
        } finally {
          unclaim(ticket);
        }
      },
      progress: (curriculum, runId, query) => {
        const db = this.db;
        if (db === null) return hooks.progress(curriculum, runId, query);
        // Other processes write to the file meanwhile: read the report in one snapshot (a read transaction).
        try {
          hooks.runs.curriculum(curriculum);
          const history = historyOf(query, this.historyLimit);
          return {
            status: 200,
            body: db.transaction(() => readProgress(db, world, curriculum, runId, { history }))(),
          };
        } catch (e) {
          if (!(e instanceof CurriculumError)) throw e;
          const status = e.code === 'unknown_run' || e.code === 'unknown_curriculum' ? 404 : 400;
          return { status, body: { error: { code: e.code, message: e.message } } };
        }
      },
    };
  }

  /**
   * Give up the pending episodes of servers that are gone, and forget those servers; at start, alone on the file, also
   * the pending episodes of this store's worlds that nobody claims. Runs inside an IMMEDIATE transaction.
   */
  private sweep(starting: boolean): number {
    const db = this.db!;
    const rows = db
      .prepare('SELECT server, host, pid, ? - seen_at AS age_ms FROM curriculum_servers')
      .all(Date.now()) as { server: string; host: string; pid: number; age_ms: number }[];
    const gone = rows.filter((r) => isGone(this.me, r, this.staleMs)).map((r) => r.server);
    let n = 0;
    const claimed = `SELECT 1 FROM curriculum_claims c WHERE c.world = e.world AND c.curriculum = e.curriculum AND c.run_id = e.run_id AND c.episode = e.episode`;
    for (const server of gone) {
      n += db
        .prepare(
          `UPDATE curriculum_episodes AS e SET status = 'abandoned' WHERE status = 'pending' AND EXISTS (${claimed} AND c.server = ?)`,
        )
        .run(server).changes;
      db.prepare('DELETE FROM curriculum_claims WHERE server = ?').run(server);
      db.prepare('DELETE FROM curriculum_servers WHERE server = ?').run(server);
    }
    // Alone: no server but this one (registered just before) is alive. An episode issued by a server killed before it
    // claimed it is pending without a claim, and nobody else can still submit it.
    if (starting && rows.every((r) => r.server === this.me.server || gone.includes(r.server))) {
      const worlds = this.runs.map((r) => r.world.name);
      const marks = worlds.map(() => '?').join(', ');
      n += db
        .prepare(
          `UPDATE curriculum_episodes AS e SET status = 'abandoned' WHERE status = 'pending' AND world IN (${marks}) AND NOT EXISTS (${claimed})`,
        )
        .run(...worlds).changes;
    }
    return n;
  }

  private heartbeat(): void {
    if (this.closed || !this.db) return;
    try {
      this.db
        .transaction(() => {
          const seen = this.db!.prepare(
            'UPDATE curriculum_servers SET seen_at = ? WHERE server = ?',
          ).run(Date.now(), this.me.server);
          // Swept by another server after a long stall: register again (its claims are gone; the episodes were given up).
          if (seen.changes === 0)
            this.db!.prepare(
              'INSERT INTO curriculum_servers (server, host, pid, started_at, seen_at) VALUES (?, ?, ?, ?, ?)',
            ).run(this.me.server, this.me.host, this.me.pid, Date.now(), Date.now());
          this.sweep(false);
        })
        .immediate();
    } catch {
      // Busy past the timeout: the next beat tries again.
    }
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  private closeNow(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.db?.open) {
      try {
        this.db
          .transaction(() => {
            // Sessions have ended and given their episodes up; anything still claimed can no longer be graded.
            const claimed = `SELECT 1 FROM curriculum_claims c WHERE c.world = e.world AND c.curriculum = e.curriculum AND c.run_id = e.run_id AND c.episode = e.episode AND c.server = ?`;
            this.db!.prepare(
              `UPDATE curriculum_episodes AS e SET status = 'abandoned' WHERE status = 'pending' AND EXISTS (${claimed})`,
            ).run(this.me.server);
            this.db!.prepare('DELETE FROM curriculum_claims WHERE server = ?').run(this.me.server);
            this.db!.prepare('DELETE FROM curriculum_servers WHERE server = ?').run(this.me.server);
          })
          .immediate();
      } finally {
        this.db.close();
      }
    }
    for (const r of this.runs) r.close();
  }
}
