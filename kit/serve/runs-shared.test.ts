import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCurriculum } from '../../curricula/define.ts';
import { openCurriculumRuns } from '../../curricula/runs.ts';
import { decide, lookback } from '../../curricula/scheduler.ts';
import type { EpisodeRow, RunRow, TransitionRow } from '../../curricula/store.ts';
import { maskUrl, openRunsStore, parseRunsTarget, serveCurricula } from './curricula.ts';
import { startPostgres, INSTALL, type TestPostgres } from './test-fixtures/postgres.ts';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { tally, tallyCurriculum } from './test-fixtures/tally-world.ts';
import { callFrame, SUBMIT } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// One curriculum run served by two `seahaven serve` processes at once, on one SQLite runs file (WAL) and on one
// PostgreSQL database: every episode is issued once, recorded once, and seen once by mastery gating, and played in
// turn across both servers the run goes exactly as it would in one process.

const WORLD = fileURLToPath(new URL('./test-fixtures/tally-world.ts', import.meta.url));
const CUR = resolveCurriculum(tally, tallyCurriculum);
/** Whether the client solves an episode: fixed by its number, so a reference in process can replay it. */
const passes = (episode: number) => (episode * 5) % 11 < 7;

interface Played {
  episode: number;
  task: string;
  passed: boolean;
  outcome: number;
  server: number;
}

/** One episode over a socket: reset on the run, `mark` if it is to pass, submit. */
async function playOne(probe: WireProbe, runId: string, server: number): Promise<Played> {
  const start = await probe.ask({ type: 'reset', data: { curriculum: 'tally', run_id: runId } });
  if (start.type !== 'observation') throw new Error(`reset refused: ${JSON.stringify(start.data)}`);
  const { episode } = start.data.metadata.curriculum;
  const passed = passes(episode);
  if (passed) expect((await probe.ask(callFrame('mark', {}))).type).toBe('observation');
  const done = await probe.ask(SUBMIT);
  if (done.type !== 'observation' || !done.data.metadata?.curriculum) throw new Error(`submit without a curriculum outcome: ${JSON.stringify(done)}`);
  expect(done.data.reward).toBe(passed ? 1 : 0);
  return { episode, task: start.data.observation.task.id, passed, outcome: done.data.metadata.curriculum.outcome, server };
}

interface Stored {
  run: RunRow;
  episodes: EpisodeRow[];
  transitions: TransitionRow[];
}

/** Mastery gating replayed from the stored episodes alone, in recording order: what each outcome should have done. */
function replayGating(episodes: EpisodeRow[]) {
  const recorded = episodes.filter((e) => e.outcome !== null).sort((a, b) => a.outcome! - b.outcome!);
  let stage = 0;
  let entries = 0;
  let gate = 0;
  let mastered = false;
  const transitions: { kind: string; from: number; to: number; outcome: number }[] = [];
  for (const ep of recorded) {
    if (ep.entry !== entries || ep.kind !== 'current') continue;
    gate++;
    const recent = recorded
      .filter((e) => e.entry === entries && e.kind === 'current' && e.outcome! <= ep.outcome!)
      .reverse()
      .slice(0, lookback(CUR, stage))
      .map((e) => e.passed === 1);
    const d = decide(CUR, stage, recent, gate, mastered);
    if (!d) continue;
    transitions.push({ kind: d.kind, from: d.from, to: d.to, outcome: ep.outcome! });
    if (d.kind === 'master') mastered = true;
    else {
      stage = d.to;
      entries++;
      gate = 0;
    }
  }
  return { stage, entries, gate, mastered, transitions, outcomes: recorded.map((e) => e.outcome) };
}

const progressOf = async (url: string, runId: string) => (await fetch(`${url}/curricula/tally/runs/${runId}`)).json();

/**
 * The scenarios both runs databases must pass, against two running servers (`null`: skip) and a reader of the stored rows.
 */
function sharedRunScenarios(servers: () => ServeProcess[] | null, read: (runId: string) => Promise<Stored>) {
  it('played in turn across both servers, a run goes exactly as it does in one process', async (ctx) => {
    const running = servers();
    if (running === null) return ctx.skip();
    const [a, b] = running;
    const probes = [await WireProbe.open(`${a.url.replace('http', 'ws')}/ws`), await WireProbe.open(`${b.url.replace('http', 'ws')}/ws`)];
    const reference = openCurriculumRuns({ world: tally, path: ':memory:' });
    try {
      for (let i = 0; i < 40; i++) {
        const got = await playOne(probes[i % 2], 'alternate', i % 2);
        const want = reference.next('tally', 'alternate');
        expect(got.episode).toBe(i);
        expect(got.task).toBe(want.task);
        expect(got.outcome).toBe(reference.record(want.ticket, { reward: got.passed ? 1 : 0, passed: got.passed }).outcome);
      }
      const expected = reference.progress('tally', 'alternate');
      expect(expected.transitions.length).toBeGreaterThanOrEqual(2); // the run moved: promotions (and maybe a fall back)
      expect(await progressOf(a.url, 'alternate')).toEqual(expected);
      expect(await progressOf(b.url, 'alternate')).toEqual(expected);
    } finally {
      reference.close();
      for (const p of probes) await p.close();
    }
  }, 60_000);

  it('played by eight sockets at once on two servers, every episode is issued, recorded and gated exactly once', async (ctx) => {
    const running = servers();
    if (running === null) return ctx.skip();
    const [a, b] = running;
    const CLIENTS = 8;
    const EACH = 20;
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, k) => {
        const s = k % 2 === 0 ? a : b;
        const p = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
        const out: Played[] = [];
        try {
          for (let i = 0; i < EACH; i++) out.push(await playOne(p, 'together', k % 2));
        } finally {
          await p.close();
        }
        return out;
      }),
    );
    const played = results.flat();
    const n = CLIENTS * EACH;
    const range = (from: number) => Array.from({ length: n }, (_, i) => i + from);
    // Issued once each (no episode number twice), recorded once each (outcome numbers 1..n, none lost or repeated).
    expect(played.map((e) => e.episode).sort((x, y) => x - y)).toEqual(range(0));
    expect(played.map((e) => e.outcome).sort((x, y) => x - y)).toEqual(range(1));
    expect(new Set(played.map((e) => e.server))).toEqual(new Set([0, 1]));

    const stored = await read('together');
    expect(stored.run.episodes).toBe(n);
    expect(stored.run.outcomes).toBe(n);
    expect(stored.episodes.filter((e) => e.status !== 'recorded')).toEqual([]);
    for (const e of played) {
      const row = stored.episodes.find((r) => r.episode === e.episode)!;
      expect([row.task, row.outcome, row.passed]).toEqual([e.task, e.outcome, e.passed ? 1 : 0]);
    }
    // Gating replayed from the rows: every outcome counted once, and the stage changes exactly those it implies.
    const replay = replayGating(stored.episodes);
    expect(replay.outcomes).toEqual(range(1));
    expect(stored.transitions.map((t) => ({ kind: t.kind, from: t.from_stage, to: t.to_stage, outcome: t.outcome }))).toEqual(replay.transitions);
    expect(replay.transitions.length).toBeGreaterThanOrEqual(2);
    expect({ stage: stored.run.stage, entries: stored.run.entries, gate: stored.run.gate_outcomes, mastered: stored.run.mastered === 1 }).toEqual({
      stage: replay.stage,
      entries: replay.entries,
      gate: replay.gate,
      mastered: replay.mastered,
    });
    const progress = await progressOf(b.url, 'together');
    expect(progress.episodes).toEqual({ issued: n, recorded: n, pending: 0, abandoned: 0 });
    expect(await progressOf(a.url, 'together')).toEqual(progress);
  }, 90_000);
}

describe('a SQLite runs file shared by two seahaven serve processes', () => {
  let dir: string;
  let file: string;
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seahaven-runs-shared-'));
    file = join(dir, 'runs.sqlite');
    servers = await Promise.all([spawnServe([WORLD, '--runs-db', file]), spawnServe([WORLD, '--runs-db', file])]);
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
          episodes: db.prepare(`SELECT * FROM curriculum_episodes ${where} ORDER BY episode`).all(...key) as EpisodeRow[],
          transitions: db.prepare(`SELECT * FROM curriculum_transitions ${where} ORDER BY seq`).all(...key) as TransitionRow[],
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
    const start = await held.ask({ type: 'reset', data: { curriculum: 'tally', run_id: 'beside' } });
    expect(start.type).toBe('observation');
    // A third server opens the file while the episode is in flight on the first: the episode stays the first's.
    const c = await spawnServe([WORLD, '--runs-db', file]);
    servers.push(c);
    expect((await progressOf(c.url, 'beside')).episodes).toEqual({ issued: 1, recorded: 0, pending: 1, abandoned: 0 });
    const done = await held.ask(SUBMIT);
    expect(done.data.metadata.curriculum.outcome).toBe(1);
    // Another in-flight episode, then the first server dies without a word: the others give its episode up.
    expect((await held.ask({ type: 'reset', data: { curriculum: 'tally', run_id: 'beside' } })).type).toBe('observation');
    expect(await a.stop('SIGKILL')).toBeNull();
    held.ws.terminate();
    await expect.poll(async () => (await progressOf(b.url, 'beside')).episodes, { timeout: 15_000, interval: 200 }).toEqual({ issued: 2, recorded: 1, pending: 0, abandoned: 1 });
    // The servers that stop cleanly sign off: nothing of theirs is left in the file.
    expect(await b.stop('SIGTERM')).toBe(0);
    expect(await c.stop('SIGTERM')).toBe(0);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM curriculum_claims').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM curriculum_servers').pluck().get()).toBe(0);
      expect(db.prepare("SELECT count(*) FROM curriculum_episodes WHERE status = 'pending'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  }, 60_000);
});

// A real PostgreSQL server from Debian's packages, started here; skipped (with one line saying how to install it) only
// where none can be started, and never in CI.
describe('a PostgreSQL runs database shared by two seahaven serve processes', () => {
  let postgres: TestPostgres | undefined;
  let url = '';
  let servers: ServeProcess[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
    if ('skip' in postgres) {
      if (process.env.CI) throw new Error(`PostgreSQL is required in CI: ${postgres.skip}; install it with: ${INSTALL}`);
      console.log(`skipping the PostgreSQL runs tests: ${postgres.skip}; install it with: ${INSTALL}`);
      return;
    }
    url = postgres.url;
    servers = await Promise.all([spawnServe([WORLD, '--runs-db', url]), spawnServe([WORLD, '--runs-db', url])]);
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
        expect((await c.query('SELECT count(*)::int AS n FROM curriculum_servers')).rows[0].n).toBe(0);
        expect((await c.query("SELECT count(*)::int AS n FROM curriculum_episodes WHERE status = 'pending'")).rows[0].n).toBe(0);
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
        const episodes = (await c.query(`SELECT world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, reward, passed, outcome FROM curriculum_episodes ${where} ORDER BY episode`, key)).rows as EpisodeRow[];
        return {
          run: (await c.query(`SELECT * FROM curriculum_runs ${where}`, key)).rows[0] as RunRow,
          episodes,
          transitions: (await c.query(`SELECT * FROM curriculum_transitions ${where} ORDER BY seq`, key)).rows as TransitionRow[],
        };
      } finally {
        await c.end();
      }
    },
  );
});

describe('naming the runs database', () => {
  it('tells a SQLite path from a PostgreSQL URL, masks passwords, and refuses other schemes with the accepted forms', () => {
    expect(parseRunsTarget('runs/c.sqlite')).toEqual({ kind: 'sqlite', path: 'runs/c.sqlite' });
    expect(parseRunsTarget('postgresql://u:s3cret@db:5432/runs')).toMatchObject({ kind: 'postgres', masked: 'postgresql://u:***@db:5432/runs' });
    expect(maskUrl('postgres://db/runs')).toBe('postgres://db/runs');
    expect(() => parseRunsTarget('mysql://u:s3cret@db/runs')).toThrow(/mysql:\/\/u:\*\*\*@db\/runs: the runs database is a SQLite file path .* or a PostgreSQL URL \(postgres:\/\/user:password@host:5432\/dbname or postgresql:\/\/…\)/);
  });

  it('an unreachable PostgreSQL stops seahaven serve with one line naming the URL (password masked) and the fix', async () => {
    const served = serveCurricula({ worlds: [tally], runsDb: 'postgres://u:s3cret@127.0.0.1:1/runs' });
    await expect(served.ready).rejects.toThrow(/^cannot reach the PostgreSQL runs database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/runs \(.*ECONNREFUSED.*\); start it, or fix .* in --runs-db postgres:\/\/user:password@host:5432\/dbname$/);
    await served.close();
    const failure = await spawnServe([WORLD, '--runs-db', 'postgres://u:s3cret@127.0.0.1:1/runs']).then(
      async (s) => (await s.stop('SIGKILL'), 'started'),
      (e: Error) => e.message,
    );
    const stderr = failure.slice(failure.indexOf('stderr: ') + 8).trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--runs-db: cannot reach the PostgreSQL runs database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/runs/);
    expect(stderr).not.toContain('s3cret');
  }, 30_000);
});
