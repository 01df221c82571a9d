// One curriculum run served by two `seahaven serve` processes at once on one PostgreSQL database, a real server from
// Debian's packages started here; skipped (with one line saying how to install it) only where none can be started,
// and never in CI. packages/seahaven/transports/serve/runs-shared.test.ts runs the same scenarios on a SQLite runs file.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type {
  EpisodeRow,
  RunRow,
  TransitionRow,
} from 'seahaven/internal/libraries/curricula/store';
import {
  startPostgres,
  INSTALL,
  type TestPostgres,
} from 'seahaven/internal/transports/serve/test-fixtures/postgres';
import {
  spawnServe,
  type ServeProcess,
} from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import {
  sharedRunScenarios,
  WORLD,
} from 'seahaven/internal/transports/serve/test-fixtures/shared-run';

describe('a PostgreSQL runs database shared by two seahaven serve processes', () => {
  let postgres: TestPostgres | undefined;
  let url = '';
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
    if ('skip' in postgres) {
      if (process.env.CI)
        throw new Error(
          `PostgreSQL is required in CI: ${postgres.skip}; install it with: ${INSTALL}`,
        );
      console.log(
        `skipping the PostgreSQL runs tests: ${postgres.skip}; install it with: ${INSTALL}`,
      );
      return;
    }
    url = postgres.url;
    // Two servers starting at once on a loaded machine can take most of a minute to print their banners.
    const started = { timeoutMs: 50_000 };
    servers = await Promise.all([
      spawnServe([WORLD, '--runs-db', url], started),
      spawnServe([WORLD, '--runs-db', url], started),
    ]);
    for (const s of servers) expect(s.stdout()).toContain(`runs database:    ${url}`);
  }, 60_000);
  afterAll(async () => {
    if (!postgres || !('url' in postgres)) return;
    try {
      for (const s of servers) expect(await s.stop('SIGTERM')).toBe(0);
      const c = new pg.Client(url);
      await c.connect();
      try {
        // Both servers signed off and left nothing pending.
        expect((await c.query('SELECT count(*)::int AS n FROM curriculum_servers')).rows[0].n).toBe(
          0,
        );
        expect(
          (
            await c.query(
              "SELECT count(*)::int AS n FROM curriculum_episodes WHERE status = 'pending'",
            )
          ).rows[0].n,
        ).toBe(0);
      } finally {
        await c.end();
      }
    } finally {
      for (const s of servers) await s.stop('SIGKILL');
      postgres.stop();
    }
  }, 60_000);

  sharedRunScenarios(
    () => (url ? servers : null),
    async (runId) => {
      const c = new pg.Client(url);
      await c.connect();
      try {
        const key = ['tally', 'tally', runId];
        const where = 'WHERE world = $1 AND curriculum = $2 AND run_id = $3';
        const episodes = (
          await c.query(
            `SELECT world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, reward, passed, outcome FROM curriculum_episodes ${where} ORDER BY episode`,
            key,
          )
        ).rows as EpisodeRow[];
        return {
          run: (await c.query(`SELECT * FROM curriculum_runs ${where}`, key)).rows[0] as RunRow,
          episodes,
          transitions: (
            await c.query(`SELECT * FROM curriculum_transitions ${where} ORDER BY seq`, key)
          ).rows as TransitionRow[],
        };
      } finally {
        await c.end();
      }
    },
  );
});
