/**
 * One curriculum run served by two `seahaven serve` processes at once, on one runs database (a SQLite file in WAL mode,
 * or PostgreSQL): the scenarios both kinds must pass. Every episode is issued once, recorded once, and seen once by
 * mastery gating, and played in turn across both servers the run goes exactly as it would in one process.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { resolveCurriculum } from '../../../libraries/curricula/define.ts';
import { openCurriculumRuns } from '../../../libraries/curricula/runs.ts';
import { decide, lookback } from '../../../libraries/curricula/scheduler.ts';
import type { EpisodeRow, RunRow, TransitionRow } from '../../../libraries/curricula/store.ts';
import type { ServeProcess } from './spawn-serve.ts';
import { tally, tallyCurriculum } from './tally-world.ts';
import { callFrame, SUBMIT } from './wire-gold.ts';
import { WireProbe } from '../wire-probe.ts';

export const WORLD = fileURLToPath(new URL('./tally-world.ts', import.meta.url));
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

export interface Stored {
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

export const progressOf = async (url: string, runId: string) => (await fetch(`${url}/curricula/tally/runs/${runId}`)).json();

/**
 * The scenarios both runs databases must pass, against two running servers (`null`: skip) and a reader of the stored rows.
 */
export function sharedRunScenarios(servers: () => ServeProcess[] | null, read: (runId: string) => Promise<Stored>) {
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
