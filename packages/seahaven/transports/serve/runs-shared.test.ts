// One curriculum run served by two `seahaven serve` processes at once on one SQLite runs file (WAL), and how the runs
// database is named; e2e/runs-postgres.test.ts runs the same scenarios on a PostgreSQL server it starts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRow, RunRow, TransitionRow } from '../../libraries/curricula/store.ts';
import { maskUrl, openRunsStore, parseRunsTarget, serveCurricula } from './curricula.ts';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { progressOf, sharedRunScenarios, WORLD } from './test-fixtures/shared-run.ts';
import { tally } from './test-fixtures/tally-world.ts';
import { SUBMIT } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

describe('a SQLite runs file shared by two seahaven serve processes', () => {
  let dir: string;
  let file: string;
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seahaven-runs-shared-'));
    file = join(dir, 'runs.sqlite');
    // Two servers starting at once on a loaded machine can take most of a minute to print their banners.
    const started = { timeoutMs: 50_000 };
    servers = await Promise.all([
      spawnServe([WORLD, '--runs-db', file], started),
      spawnServe([WORLD, '--runs-db', file], started),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  sharedRunScenarios(
    () => servers,
    async (runId) => {
      const db = new Database(file, { readonly: true });
      try {
        const key = ['tally', 'tally', runId];
        const where = 'WHERE world = ? AND curriculum = ? AND run_id = ?';
        return {
          run: db.prepare(`SELECT * FROM curriculum_runs ${where}`).get(...key) as RunRow,
          episodes: db
            .prepare(`SELECT * FROM curriculum_episodes ${where} ORDER BY episode`)
            .all(...key) as EpisodeRow[],
          transitions: db
            .prepare(`SELECT * FROM curriculum_transitions ${where} ORDER BY seq`)
            .all(...key) as TransitionRow[],
        };
      } finally {
        db.close();
      }
    },
  );

  it('a server starting alone gives up an episode a killed server issued but never claimed', async () => {
    const own = join(dir, 'unclaimed.sqlite');
    const first = openRunsStore(own, { worlds: [tally] });
    const issued = first.world('tally')!.reset({ curriculum: 'tally', run_id: 'unclaimed-1' });
    expect(issued).toBeTruthy();
    // As if the process died between issuing the episode and claiming it.
    const raw = new Database(own);
    raw.prepare('DELETE FROM curriculum_claims').run();
    raw.close();
    await first.close();
    const status = () => {
      const db = new Database(own, { readonly: true });
      try {
        return db.prepare('SELECT status FROM curriculum_episodes').pluck().all();
      } finally {
        db.close();
      }
    };
    expect(status()).toEqual(['pending']);
    const second = openRunsStore(own, { worlds: [tally] });
    expect(status()).toEqual(['abandoned']);
    await second.close();
  });

  it('a server starting beside a busy one leaves its episodes alone; a killed one has its episodes given up', async () => {
    const [a, b] = servers;
    const held = await WireProbe.open(`${a.url.replace('http', 'ws')}/ws`);
    const start = await held.ask({
      type: 'reset',
      data: { curriculum: 'tally', run_id: 'beside' },
    });
    expect(start.type).toBe('observation');
    // A third server opens the file while the episode is in flight on the first: the episode stays the first's.
    const c = await spawnServe([WORLD, '--runs-db', file], { timeoutMs: 50_000 });
    servers.push(c);
    expect((await progressOf(c.url, 'beside')).episodes).toEqual({
      issued: 1,
      recorded: 0,
      pending: 1,
      abandoned: 0,
    });
    const done = await held.ask(SUBMIT);
    expect(done.data.metadata.curriculum.outcome).toBe(1);
    // Another in-flight episode, then the first server dies without a word: the others give its episode up.
    expect(
      (await held.ask({ type: 'reset', data: { curriculum: 'tally', run_id: 'beside' } })).type,
    ).toBe('observation');
    expect(await a.stop('SIGKILL')).toBeNull();
    held.ws.terminate();
    await expect
      .poll(async () => (await progressOf(b.url, 'beside')).episodes, {
        timeout: 15_000,
        interval: 200,
      })
      .toEqual({ issued: 2, recorded: 1, pending: 0, abandoned: 1 });
    // The servers that stop cleanly sign off: nothing of theirs is left in the file.
    expect(await b.stop('SIGTERM')).toBe(0);
    expect(await c.stop('SIGTERM')).toBe(0);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM curriculum_claims').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM curriculum_servers').pluck().get()).toBe(0);
      expect(
        db
          .prepare("SELECT count(*) FROM curriculum_episodes WHERE status = 'pending'")
          .pluck()
          .get(),
      ).toBe(0);
    } finally {
      db.close();
    }
  }, 60_000);
});

describe('naming the runs database', () => {
  it('tells a SQLite path from a PostgreSQL URL, masks passwords, and refuses other schemes with the accepted forms', () => {
    expect(parseRunsTarget('runs/c.sqlite')).toEqual({ kind: 'sqlite', path: 'runs/c.sqlite' });
    expect(parseRunsTarget('postgresql://u:s3cret@db:5432/runs')).toMatchObject({
      kind: 'postgres',
      masked: 'postgresql://u:***@db:5432/runs',
    });
    expect(maskUrl('postgres://db/runs')).toBe('postgres://db/runs');
    expect(() => parseRunsTarget('mysql://u:s3cret@db/runs')).toThrow(
      /mysql:\/\/u:\*\*\*@db\/runs: the runs database is a SQLite file path .* or a PostgreSQL URL \(postgres:\/\/user:password@host:5432\/dbname or postgresql:\/\/…\)/,
    );
  });

  it('an unreachable PostgreSQL stops seahaven serve with one line naming the URL (password masked) and the fix', async () => {
    const served = serveCurricula({
      worlds: [tally],
      runsDb: 'postgres://u:s3cret@127.0.0.1:1/runs',
    });
    await expect(served.ready).rejects.toThrow(
      /^cannot reach the PostgreSQL runs database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/runs \(.*ECONNREFUSED.*\); start it, or fix .* in --runs-db postgres:\/\/user:password@host:5432\/dbname$/,
    );
    await served.close();
    const failure = await spawnServe([
      WORLD,
      '--runs-db',
      'postgres://u:s3cret@127.0.0.1:1/runs',
    ]).then(
      async (s) => (await s.stop('SIGKILL'), 'started'),
      (e: Error) => e.message,
    );
    const stderr = failure.slice(failure.indexOf('stderr: ') + 8).trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /--runs-db: cannot reach the PostgreSQL runs database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/runs/,
    );
    expect(stderr).not.toContain('s3cret');
  }, 30_000);
});
