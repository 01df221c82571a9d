import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { serveCurricula, startServer } from './index.ts';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { playEpisode } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// A training run survives a restart of `seahaven serve`: the same runs file, the same stage, position and next task.
// One run is played through real `seahaven serve` processes stopped twice (once idle, once with an episode in flight);
// a reference run is played in one uninterrupted server on its own file. Both must agree at every point.

const RUN = { curriculum: 'crm-basics', run_id: 'restart-1' };
const FAILS = new Set([1, 4]); // episodes answered by doing nothing
const PROGRESS = `/curricula/${RUN.curriculum}/runs/${RUN.run_id}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seahaven-restart-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const getProgress = async (base: string) => (await fetch(`${base}${PROGRESS}`)).json();

/** Play episodes `from`..`to-1` on one socket; the tasks handed out. */
async function play(base: string, from: number, to: number): Promise<string[]> {
  const p = await WireProbe.open(`${base.replace('http', 'ws')}/ws`);
  const tasks = [];
  try {
    for (let i = from; i < to; i++) {
      const ep = await playEpisode(p, crm, RUN, !FAILS.has(i));
      expect(ep.start.metadata.curriculum.episode).toBe(i);
      tasks.push(ep.task);
    }
  } finally {
    await p.close();
  }
  return tasks;
}

/** Start an episode and leave it in flight; the probe is returned open. */
async function startInFlight(base: string): Promise<WireProbe> {
  const p = await WireProbe.open(`${base.replace('http', 'ws')}/ws`);
  const r = await p.ask({ type: 'reset', data: RUN });
  expect(r.type).toBe('observation');
  return p;
}

// The two runs use files of their own and servers of their own: they play at once.
describe.concurrent('restarting seahaven serve mid-run', () => {
  it('resumes the run at the same stage and position, handing out what an uninterrupted run would', async () => {
    const file = join(dir, 'restarted.sqlite');
    const args = ['crm', '--curricula-db', file];
    // The first real server starts (about a second of compiling) while the reference run plays.
    const firstServer = spawnServe(args);
    // Awaited below; a start that fails meanwhile is reported there, not as an unhandled rejection.
    firstServer.catch(() => undefined);
    // The reference: one server, never stopped; its in-flight episode ends by the client going away.
    const refFile = join(dir, 'reference.sqlite');
    const served = serveCurricula({ worlds: [crm], path: refFile });
    const ref = await startServer({
      worlds: [crm],
      port: 0,
      hooks: served.hooks,
      extend: served.extend,
    });
    const reference: { tasks: string[][]; progress: unknown[] } = { tasks: [], progress: [] };
    try {
      reference.tasks.push(await play(ref.url, 0, 8));
      reference.progress.push(await getProgress(ref.url));
      await (await startInFlight(ref.url)).close();
      await expect.poll(async () => (await getProgress(ref.url)).episodes.abandoned).toBe(1);
      reference.progress.push(await getProgress(ref.url));
      reference.tasks.push(await play(ref.url, 9, 25));
      reference.progress.push(await getProgress(ref.url));
      const last = reference.progress[2] as {
        stage: { name: string };
        episodes: unknown;
        transitions: unknown[];
      };
      // The run got somewhere worth resuming: promoted out of the easy stage after its window filled.
      expect(last.stage.name).toBe('medium');
      expect(last.transitions).toHaveLength(1);
      expect(last.episodes).toEqual({ issued: 25, recorded: 24, pending: 0, abandoned: 1 });
    } catch (e) {
      await (await firstServer.catch(() => undefined))?.stop('SIGKILL');
      throw e;
    } finally {
      await ref.close();
      served.close();
    }

    const servers: ServeProcess[] = [];
    try {
      // 1: eight episodes, then a clean stop with no session open.
      let s = await firstServer;
      servers.push(s);
      expect(s.stdout()).toContain(`runs file:        ${file}`);
      expect(await play(s.url, 0, 8)).toEqual(reference.tasks[0]);
      const before = await getProgress(s.url);
      expect(before).toEqual(reference.progress[0]);
      expect(await s.stop('SIGTERM')).toBe(0);

      // 2: the same file: identical progress; then stopped with an episode in flight, which the shutdown gives up.
      s = await spawnServe(args);
      servers.push(s);
      expect(await getProgress(s.url)).toEqual(before);
      const inFlight = await startInFlight(s.url);
      expect(await s.stop('SIGTERM')).toBe(0);
      expect((await inFlight.closed).code).toBe(1001);
      expect(s.stderr()).not.toContain('hook failed');

      // 3: the run continues exactly as the uninterrupted one did, through the promotion to medium.
      s = await spawnServe(args);
      servers.push(s);
      expect(await getProgress(s.url)).toEqual(reference.progress[1]);
      expect(await play(s.url, 9, 25)).toEqual(reference.tasks[1]);
      expect(await getProgress(s.url)).toEqual(reference.progress[2]);
      expect(await s.stop('SIGTERM')).toBe(0);
    } finally {
      for (const s of servers) await s.stop('SIGKILL');
    }
  }, 90_000);

  it('after kill -9 during curriculum submits, the runs file is intact and a restart gives up what was in flight', async () => {
    const file = join(dir, 'killed.sqlite');
    const run = { curriculum: RUN.curriculum, run_id: 'killed-1' };
    const progress = async (base: string) =>
      (await fetch(`${base}/curricula/${run.curriculum}/runs/${run.run_id}`)).json();
    const servers: ServeProcess[] = [];
    try {
      let s = await spawnServe(['crm', '--curricula-db', file]);
      servers.push(s);
      const ws = `${s.url.replace('http', 'ws')}/ws`;
      // One episode surely in flight at the kill, and six sessions playing back to back, submitting as fast as answered.
      const held = await WireProbe.open(ws);
      expect((await held.ask({ type: 'reset', data: run })).type).toBe('observation');
      let stop = false;
      const players = Array.from({ length: 6 }, async (_, k) => {
        const p = await WireProbe.open(ws);
        let played = 0;
        try {
          while (!stop) {
            await playEpisode(p, crm, run, k % 3 !== 0);
            played++;
          }
        } catch {
          // the server died mid-episode
        }
        p.ws.terminate();
        return played;
      });
      await expect
        .poll(async () => (await progress(s.url)).episodes.recorded, {
          timeout: 60_000,
          interval: 50,
        })
        .toBeGreaterThanOrEqual(20);
      expect(await s.stop('SIGKILL')).toBeNull();
      stop = true;
      const played = (await Promise.all(players)).reduce((a, b) => a + b, 0);
      held.ws.terminate();

      // The file as the killed process left it: intact, with the in-flight episodes still pending.
      const crashed = inspect(file);
      expect(crashed.integrity).toEqual(['ok']);
      expect(crashed.inconsistencies).toEqual([]);
      expect(crashed.counts.pending).toBeGreaterThanOrEqual(1);
      expect(crashed.counts.recorded).toBeGreaterThanOrEqual(played);

      // A restart gives them up; nothing else changes, and the run goes on.
      s = await spawnServe(['crm', '--curricula-db', file]);
      servers.push(s);
      const after = await progress(s.url);
      const left = `the killed server left ${JSON.stringify(crashed.counts)}`;
      expect(after.episodes, left).toEqual({
        issued: crashed.counts.issued,
        recorded: crashed.counts.recorded,
        pending: 0,
        abandoned: crashed.counts.abandoned + crashed.counts.pending,
      });
      const p = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
      const next = await playEpisode(p, crm, run, true);
      expect(next.start.metadata.curriculum.episode).toBe(crashed.counts.issued);
      await p.close();
      expect(await s.stop('SIGTERM')).toBe(0);

      const restarted = inspect(file);
      expect(restarted.integrity).toEqual(['ok']);
      expect(restarted.inconsistencies).toEqual([]);
      expect(
        restarted.counts,
        `${left}; the restarted one answered ${JSON.stringify(after.episodes)}`,
      ).toEqual({
        issued: crashed.counts.issued + 1,
        recorded: crashed.counts.recorded + 1,
        pending: 0,
        abandoned: crashed.counts.abandoned + crashed.counts.pending,
      });
    } finally {
      for (const s of servers) await s.stop('SIGKILL');
    }
  }, 120_000);
});

/** `PRAGMA integrity_check`, episode counts, and every way the runs file could disagree with itself. */
function inspect(file: string): {
  integrity: string[];
  counts: Record<'issued' | 'recorded' | 'pending' | 'abandoned', number>;
  inconsistencies: unknown[];
} {
  const db = new Database(file);
  try {
    const integrity = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
    const row = db
      .prepare(
        "SELECT count(*) AS issued, count(*) FILTER (WHERE status = 'recorded') AS recorded, count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'abandoned') AS abandoned FROM curriculum_episodes",
      )
      .get() as Record<'issued' | 'recorded' | 'pending' | 'abandoned', number>;
    const inconsistencies = db
      .prepare(
        `SELECT r.run_id, r.episodes, r.outcomes, count(e.episode) AS rows, max(e.episode) AS last_episode,
                count(e.outcome) AS outcomes_set, max(e.outcome) AS last_outcome, count(DISTINCT e.outcome) AS distinct_outcomes,
                count(*) FILTER (WHERE e.status = 'recorded') AS recorded,
                (SELECT count(*) FROM curriculum_transitions t WHERE t.world = r.world AND t.curriculum = r.curriculum AND t.run_id = r.run_id) AS transitions,
                (SELECT max(seq) FROM curriculum_transitions t WHERE t.world = r.world AND t.curriculum = r.curriculum AND t.run_id = r.run_id) AS last_seq
           FROM curriculum_runs r LEFT JOIN curriculum_episodes e ON e.world = r.world AND e.curriculum = r.curriculum AND e.run_id = r.run_id
          GROUP BY r.world, r.curriculum, r.run_id
         HAVING r.episodes <> rows OR last_episode <> rows - 1 OR r.outcomes <> recorded OR outcomes_set <> recorded
             OR last_outcome IS NOT r.outcomes AND recorded > 0 OR distinct_outcomes <> recorded OR coalesce(last_seq, -1) <> transitions - 1`,
      )
      .all();
    return {
      integrity,
      counts: {
        issued: row.issued,
        recorded: row.recorded,
        pending: row.pending,
        abandoned: row.abandoned,
      },
      inconsistencies,
    };
  } finally {
    db.close();
  }
}
