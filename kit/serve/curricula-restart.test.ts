import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../worlds/crm/index.ts';
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

describe('restarting seahaven serve mid-run', () => {
  it('resumes the run at the same stage and position, handing out what an uninterrupted run would', async () => {
    // The reference: one server, never stopped; its in-flight episode ends by the client going away.
    const refFile = join(dir, 'reference.sqlite');
    const served = serveCurricula({ worlds: [crm], path: refFile });
    const ref = await startServer({ worlds: [crm], port: 0, hooks: served.hooks, extend: served.extend });
    const reference: { tasks: string[][]; progress: unknown[] } = { tasks: [], progress: [] };
    try {
      reference.tasks.push(await play(ref.url, 0, 8));
      reference.progress.push(await getProgress(ref.url));
      await (await startInFlight(ref.url)).close();
      await expect.poll(async () => (await getProgress(ref.url)).episodes.abandoned).toBe(1);
      reference.progress.push(await getProgress(ref.url));
      reference.tasks.push(await play(ref.url, 9, 25));
      reference.progress.push(await getProgress(ref.url));
    } finally {
      await ref.close();
      served.close();
    }
    const last = reference.progress[2] as { stage: { name: string }; episodes: unknown; transitions: unknown[] };
    // The run got somewhere worth resuming: promoted out of the easy stage after its window filled.
    expect(last.stage.name).toBe('medium');
    expect(last.transitions).toHaveLength(1);
    expect(last.episodes).toEqual({ issued: 25, recorded: 24, pending: 0, abandoned: 1 });

    const file = join(dir, 'restarted.sqlite');
    const args = ['crm', '--curricula-db', file];
    const servers: ServeProcess[] = [];
    try {
      // 1: eight episodes, then a clean stop with no session open.
      let s = await spawnServe(args);
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
});
