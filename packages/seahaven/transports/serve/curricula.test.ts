import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import notes from '../../libraries/curricula/test-fixtures/notes-world.ts';
import { openCurriculumRuns } from '../../libraries/curricula/index.ts';
import { resolveCurriculum } from '../../libraries/curricula/define.ts';
import { listRuns } from '../../libraries/curricula/progress.ts';
import { openRunsDbReadonly } from '../../libraries/curricula/store.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';
import { serveCurricula, startServer, type RunningServer, type ServedCurricula } from './index.ts';
import { playEpisode } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// Curricula over real sockets: reset with {curriculum, run_id} hands out the run's next task, submit feeds the grade
// back, sessions that end early give their episode up, and GET /curricula/<name>/runs/<run_id> reports progress.

const stages = resolveCurriculum(crm, crm.curricula[0]).stages;
const EASY = stages[0].tasks;
const MEDIUM = stages[1].tasks;

let dir: string;
let served: ServedCurricula;
let server: RunningServer;
const wsUrl = (prefix = '') => `${server.url.replace('http', 'ws')}${prefix}/ws`;
const progress = async (path: string) => {
  const r = await fetch(`${server.url}${path}`);
  return { status: r.status, body: await r.json() };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seahaven-serve-curricula-'));
  served = serveCurricula({ worlds: [crm], path: join(dir, 'c.sqlite') });
  server = await startServer({
    worlds: [crm],
    port: 0,
    hooks: served.hooks,
    extend: served.extend,
  });
});
afterAll(async () => {
  await server.close();
  served.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crm-basics over the WebSocket', () => {
  it('hands out easy tasks, moves progress with each submitted grade, and promotes to medium', async () => {
    // The same curriculum driven in process with the same outcomes: the server must hand out the same tasks.
    expect(stages.map((s) => s.name)).toEqual(['easy', 'medium', 'hard']);
    expect([...EASY].sort()).toEqual(['add_company', 'add_lead', 'log_call']);
    const reference = openCurriculumRuns({ world: crm, path: ':memory:' });
    const p = await WireProbe.open(wsUrl());
    const rates: number[] = [];
    let promotedAt = -1;
    try {
      for (let i = 0; promotedAt < 0; i++) {
        expect(i).toBeLessThan(40);
        const solve = i >= 2; // two failures first, so the success rate has somewhere to rise to
        const ep = await playEpisode(p, crm, { curriculum: 'crm-basics', run_id: 'climb' }, solve);
        const want = reference.next('crm-basics', 'climb');
        expect(ep.task).toBe(want.task);
        expect(EASY).toContain(ep.task);
        expect(ep.start.observation.task.prompt).toBe(crm.task(ep.task)!.prompt);
        expect(ep.start.metadata.curriculum).toEqual({
          name: 'crm-basics',
          run_id: 'climb',
          episode: i,
          stage: { index: 0, name: 'easy' },
          kind: 'current',
          ticket: `crm-basics/climb/${i}`,
        });
        expect(ep.done).toMatchObject({ reward: solve ? 1 : 0, done: true });
        const recorded = reference.record(want.ticket, ep.done.observation.grade);
        expect(ep.done.metadata.curriculum).toEqual({
          ticket: want.ticket,
          outcome: i + 1,
          stage: recorded.stage,
          transition: recorded.transition,
          mastered: false,
        });

        const { status, body } = await progress('/curricula/crm-basics/runs/climb');
        expect(status).toBe(200);
        expect(body.episodes).toEqual({ issued: i + 1, recorded: i + 1, pending: 0, abandoned: 0 });
        expect(body.success_rate).toBeCloseTo(Math.max(0, i - 1) / (i + 1), 12);
        rates.push(body.success_rate);
        if (ep.done.metadata.curriculum.transition) promotedAt = i;
      }
      // 20 current outcomes with 18 passes reach the 0.8 threshold over the window of 20.
      expect(promotedAt).toBe(19);
      expect(rates.slice(2).every((r, k) => k === 0 || r > rates[k + 1])).toBe(true);
      const after = await progress('/curricula/crm-basics/runs/climb');
      expect(after.body.stage).toEqual({ index: 1, name: 'medium' });
      expect(after.body.transitions).toEqual([
        {
          kind: 'promote',
          from: { index: 0, name: 'easy' },
          to: { index: 1, name: 'medium' },
          episode: 20,
          outcome: 20,
        },
      ]);
      expect(after.body.stages.map((s: { status: string }) => s.status)).toEqual([
        'done',
        'current',
        'locked',
      ]);
      // Now the current stage is medium; a review episode may replay an easy task.
      for (let i = 0; i < 6; i++) {
        const ep = await playEpisode(p, crm, { curriculum: 'crm-basics', run_id: 'climb' }, true);
        const want = reference.next('crm-basics', 'climb');
        reference.record(want.ticket, ep.done.observation.grade);
        expect(ep.task).toBe(want.task);
        expect(ep.start.metadata.curriculum.kind).toBe(want.kind);
        expect(want.kind === 'current' ? MEDIUM : EASY).toContain(ep.task);
      }
      expect(reference.progress('crm-basics', 'climb').stages[1].episodes).toBeGreaterThan(0);
      // The wire reports exactly what the in-process run says.
      expect((await progress('/curricula/crm-basics/runs/climb')).body).toEqual(
        reference.progress('crm-basics', 'climb', { history: 1000 }),
      );
    } finally {
      reference.close();
      await p.close();
    }
  });

  it('serves progress at the root and under /crm, honours ?history, and answers 404 for unknown runs and curricula', async () => {
    const p = await WireProbe.open(wsUrl('/crm'));
    await playEpisode(p, crm, { curriculum: 'crm-basics', run_id: 'routes' }, true);
    await playEpisode(p, crm, { curriculum: 'crm-basics', run_id: 'routes' }, false);
    await p.close();
    const root = await progress('/curricula/crm-basics/runs/routes');
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({
      format: 'seahaven.curriculum-run/1',
      world: 'crm',
      curriculum: 'crm-basics',
      run_id: 'routes',
      success_rate: 0.5,
    });
    expect((await progress('/crm/curricula/crm-basics/runs/routes')).body).toEqual(root.body);
    const short = await progress('/curricula/crm-basics/runs/routes?history=1');
    expect(short.body.history).toHaveLength(1);
    expect(short.body.history_omitted).toBe(1);
    expect(await progress('/curricula/crm-basics/runs/nobody')).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_run' } },
    });
    const unknown = await progress('/curricula/nope/runs/routes');
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'unknown_curriculum' } } });
    expect(unknown.body.error.message).toContain('crm: crm-basics');
    expect(await progress('/crm/curricula/nope/runs/routes')).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_curriculum' } },
    });
    expect(await progress('/curricula/crm-basics/runs/routes?history=lots')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_history' } },
    });
    // A path under a name that is not a served world is not a curricula route.
    const stray = await fetch(`${server.url}/elsewhere/curricula/crm-basics/runs/routes`);
    expect(stray.status).toBe(404);
    expect((await stray.json()).detail).toContain('no route');
  });

  it('refuses bad curriculum resets with VALIDATION_ERROR naming the field and the fix', async () => {
    const p = await WireProbe.open(wsUrl());
    try {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ curriculum: 'nope' }, 'curriculum', 'its curricula are crm-basics'],
        [{ curriculum: 'crm-basics', task: 'add_lead' }, 'task', 'drop task from the reset'],
        [
          { curriculum: 'crm-basics', fixture: 'small_startup' },
          'fixture',
          'drop fixture from the reset',
        ],
        [{ run_id: 'lonely' }, 'run_id', 'give curriculum too'],
        [{ curriculum: 'crm-basics', run_id: 'no spaces' }, 'run_id', 'run_id must match'],
      ];
      for (const [data, field, hint] of cases) {
        const r = await p.ask({ type: 'reset', data });
        expect(r.type).toBe('error');
        expect(r.data.code).toBe('VALIDATION_ERROR');
        expect(r.data.errors[0].loc).toEqual(['data', field]);
        expect(r.data.message).toContain(hint);
      }
      // Nothing was started: the session is still on its default episode, and no run was created.
      const state = (await p.ask({ type: 'state' })).data;
      expect(state).toMatchObject({ fixture: { id: 'empty' }, step_count: 0, call_count: 0 });
      expect(state.task ?? null).toBeNull();
      expect((await progress('/curricula/crm-basics/runs/lonely')).status).toBe(404);
      const http = await fetch(`${server.url}/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ curriculum: 'nope' }),
      });
      expect(http.status).toBe(422);
      expect((await http.json()).detail[0]).toMatchObject({
        loc: ['body', 'curriculum'],
        msg: expect.stringContaining('no curriculum "nope"'),
      });
    } finally {
      await p.close();
    }
  });

  it('gives up episodes whose session resets or closes before submit, and only those', async () => {
    const run = { curriculum: 'crm-basics', run_id: 'quitter' };
    const p = await WireProbe.open(wsUrl());
    await p.ask({ type: 'reset', data: run }); // 0: reset again before submitting
    await playEpisode(p, crm, run, true); // 1: submitted
    await p.ask({ type: 'reset', data: run }); // 2: abandoned by a plain task reset
    await p.ask({ type: 'reset', data: { task: 'add_lead' } });
    await p.ask({ type: 'reset', data: run }); // 3: abandoned by closing the socket
    await p.close();
    await expect
      .poll(async () => (await progress('/curricula/crm-basics/runs/quitter')).body.episodes)
      .toEqual({ issued: 4, recorded: 1, pending: 0, abandoned: 3 });
    const { body } = await progress('/curricula/crm-basics/runs/quitter');
    expect(body.history.map((h: { status: string }) => h.status)).toEqual([
      'abandoned',
      'recorded',
      'abandoned',
      'abandoned',
    ]);
    // A second submit of a graded episode reports the grade again but records nothing more.
    const q = await WireProbe.open(wsUrl());
    const first = await playEpisode(q, crm, run, true);
    const again = await q.ask({ type: 'step', data: { type: 'submit' } });
    expect(again.data).toMatchObject({ reward: 1, done: true, metadata: {} });
    expect(first.done.metadata.curriculum.outcome).toBe(2);
    await q.close();
    expect((await progress('/curricula/crm-basics/runs/quitter')).body.episodes).toEqual({
      issued: 5,
      recorded: 2,
      pending: 0,
      abandoned: 3,
    });
  });

  it('plays a curriculum through the HTTP /reset and /step routes too', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'x-session-id': 'http-run', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const start = await post('/reset', { curriculum: 'crm-basics', run_id: 'over-http' });
    expect(EASY).toContain(start.observation.task.id);
    expect(start.metadata.curriculum.ticket).toBe('crm-basics/over-http/0');
    const done = await post('/step', { action: { type: 'submit' } });
    expect(done).toMatchObject({
      reward: 0,
      done: true,
      metadata: { curriculum: { outcome: 1, stage: { name: 'easy' } } },
    });
    expect((await progress('/curricula/crm-basics/runs/over-http')).body.episodes.recorded).toBe(1);
  });
});

describe('several worlds on one runs file', () => {
  const plain = defineWorld({
    name: 'plain',
    version: '1.0.0',
    schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
    tools: [
      defineTool({
        name: 'noop',
        description: 'Do nothing.',
        input: z.object({}),
        run: () => ({ ok: true }),
      }),
    ],
  });

  it('routes each world to its own curricula, shares the file, and refuses curricula where a world has none', async () => {
    const file = join(dir, 'shared.sqlite');
    const many = serveCurricula({ worlds: [plain, crm, notes], path: file });
    const s = await startServer({
      worlds: [plain, crm, notes],
      port: 0,
      hooks: many.hooks,
      extend: many.extend,
    });
    try {
      expect([...many.curricula]).toEqual([
        ['crm', ['crm-basics']],
        ['notes', ['basics']],
      ]);
      expect(many.path).toBe(file);
      const ws = (w: string) => WireProbe.open(`${s.url.replace('http', 'ws')}/${w}/ws`);
      const n = await ws('notes');
      const ep = await playEpisode(n, notes, { curriculum: 'basics', run_id: 'same-id' }, true);
      expect(ep.done).toMatchObject({ reward: 1, metadata: { curriculum: { outcome: 1 } } });
      await n.close();
      const c = await ws('crm');
      await playEpisode(c, crm, { curriculum: 'crm-basics', run_id: 'same-id' }, false);
      await c.close();
      const p = await ws('plain');
      const refused = await p.ask({ type: 'reset', data: { curriculum: 'crm-basics' } });
      expect(refused.data).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: [{ loc: ['data', 'curriculum'] }],
      });
      expect(refused.data.message).toContain('world "plain" declares no curricula');
      await p.close();

      const get = async (path: string) => (await fetch(`${s.url}${path}`)).json();
      // At the root a curriculum is found in whichever served world declares it.
      expect(await get('/curricula/basics/runs/same-id')).toMatchObject({
        world: 'notes',
        success_rate: 1,
      });
      expect(await get('/curricula/crm-basics/runs/same-id')).toMatchObject({
        world: 'crm',
        success_rate: 0,
      });
      expect(await get('/notes/curricula/basics/runs/same-id')).toMatchObject({ world: 'notes' });
      expect(await get('/crm/curricula/basics/runs/same-id')).toMatchObject({
        error: { code: 'unknown_curriculum' },
      });
      expect(await get('/plain/curricula/basics/runs/same-id')).toMatchObject({
        error: { message: expect.stringContaining('world "plain" declares no curricula') },
      });
    } finally {
      await s.close();
      many.close();
    }
    const db = openRunsDbReadonly(file);
    try {
      expect(
        listRuns(db)
          .map((r) => `${r.world}/${r.curriculum}/${r.run_id}`)
          .sort(),
      ).toEqual(['crm/crm-basics/same-id', 'notes/basics/same-id']);
    } finally {
      db.close();
    }
  });
});
