import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { httpUrlOf } from '../../libraries/client/tasks.ts';
import { defineTask, defineTool, defineWorld, z } from '../../core/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { RESET_KEYS } from './reset.ts';
import { openReset, wsUrlOf } from './wire-probe.ts';

// GET /tasks, OpenEnv's Task API (splits, tasks, num_tasks, task, task_range) and resets by {split, index}.

const SECRET = 'the-gold-target-7731';
const notes = defineWorld({
  name: 'notes',
  version: '1.0.0',
  description: 'A notebook.',
  schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;',
  tools: [
    defineTool({
      name: 'add_note',
      description: 'Add a note.',
      input: z.object({ body: z.string().min(1) }),
      run: (ctx, { body }) => ctx.db.one('INSERT INTO notes (body) VALUES (?) RETURNING *', body),
    }),
  ],
  fixtures: { blank: { description: 'No notes.', now: '2026-03-01T00:00:00.000Z', build() {} } },
  tasks: [
    defineTask({
      id: 'write_secret',
      fixture: 'blank',
      prompt: 'Write a note.',
      tags: ['insert'],
      grade: (t) => ({
        reward:
          t.query<{ n: number }>('SELECT count(*) AS n FROM notes WHERE body = ?', [SECRET])[0].n >
          0
            ? 1
            : 0,
        passed: false,
        criteria: [],
      }),
    }),
  ],
});

let server: RunningServer;
let multi: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: () => {} });
  multi = await startServer({ worlds: [crm, notes], port: 0, logger: () => {} });
});
afterAll(async () => {
  await server.close();
  await multi.close();
});

const get = (s: RunningServer, path: string) =>
  fetch(`${s.url}${path}`).then(async (r) => ({ status: r.status, body: await r.json() }));
const post = (s: RunningServer, path: string, body: unknown) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('GET /tasks', () => {
  it("lists the world's tasks with fixture, prompt, difficulty, tags and curriculum stages, and its splits", async () => {
    const { status, body } = await get(server, '/tasks');
    expect(status).toBe(200);
    expect(body.tasks.map((t: { id: string }) => t.id)).toEqual(crm.tasks.map((t) => t.id));
    const addLead = crm.task('add_lead')!;
    expect(body.tasks.find((t: { id: string }) => t.id === 'add_lead')).toEqual({
      id: 'add_lead',
      world: 'crm',
      fixture: addLead.fixture,
      prompt: addLead.prompt,
      difficulty: 1,
      tags: ['insert', 'contacts'],
      stages: [{ curriculum: 'crm-basics', stage: 'easy' }],
    });
    for (const t of body.tasks)
      expect(Object.keys(t)).toEqual([
        'id',
        'world',
        'fixture',
        'prompt',
        'difficulty',
        'tags',
        'stages',
      ]);
    const splits = Object.fromEntries(
      body.splits.map((s: { name: string; num_tasks: number }) => [s.name, s.num_tasks]),
    );
    expect(splits.all).toBe(crm.tasks.length);
    expect(splits['crm-basics']).toBe(10);
    expect(splits['tag:insert']).toBe(crm.tasks.filter((t) => t.tags?.includes('insert')).length);
    expect(await get(server, '/crm/tasks')).toEqual({ status: 200, body });
  });

  it('never carries what grades a task', async () => {
    const { body } = await get(multi, '/notes/tasks');
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(body.tasks).toEqual([
      {
        id: 'write_secret',
        world: 'notes',
        fixture: 'blank',
        prompt: 'Write a note.',
        difficulty: null,
        tags: ['insert'],
        stages: [],
      },
    ]);
    expect(body.splits).toEqual([
      { name: 'all', num_tasks: 1 },
      { name: 'tag:insert', num_tasks: 1 },
    ]);
  });

  it("lists every world's tasks at the root of a server of several worlds, splits of one name added up", async () => {
    const { body } = await get(multi, '/tasks');
    expect(body.tasks.map((t: { world: string; id: string }) => `${t.world}/${t.id}`)).toEqual([
      ...crm.tasks.map((t) => `crm/${t.id}`),
      'notes/write_secret',
    ]);
    const splits = Object.fromEntries(
      body.splits.map((s: { name: string; num_tasks: number }) => [s.name, s.num_tasks]),
    );
    expect(splits.all).toBe(crm.tasks.length + 1);
    expect(splits['crm-basics']).toBe(10);
    expect((await get(multi, '/list_environments')).body).toEqual(['crm', 'notes']);
  });

  it('is listed in /openapi.json, beside the Task API', async () => {
    const { body } = await get(server, '/openapi.json');
    for (const path of ['/tasks', '/splits', '/num_tasks', '/task', '/task_range'])
      expect(body.paths[path], path).toBeDefined();
    expect(body.paths['/tasks'].get).toBeDefined();
    expect(body.paths['/tasks'].post).toBeDefined();
    // The reset body's schema names every reset key (split, index, submit_tool and groups included).
    const reset =
      body.paths['/reset'].post.requestBody.content['application/json'].schema.properties;
    for (const key of RESET_KEYS) expect(reset[key], key).toBeDefined();
  });
});

describe("OpenEnv's Task API under /<world>", () => {
  it("answers splits, a split's tasks, its size, one task and a range, in split order", async () => {
    const splits = (await get(server, '/crm/splits')).body;
    expect(splits[0]).toEqual({ name: 'all', type: 'train' });
    expect(splits.map((s: { name: string }) => s.name)).toContain('crm-basics');
    const listed = await post(server, '/crm/tasks', { split: 'crm-basics' });
    expect(listed.status).toBe(200);
    expect(listed.body.env_name).toBe('crm');
    expect(
      listed.body.tasks
        .slice(0, 3)
        .map((t: { id: string; index: number; split: string }) => [t.id, t.index, t.split]),
    ).toEqual([
      ['add_company', 0, 'crm-basics'],
      ['add_lead', 1, 'crm-basics'],
      ['log_call', 2, 'crm-basics'],
    ]);
    expect((await post(server, '/crm/num_tasks', { split: 'crm-basics' })).body).toEqual({
      num_tasks: 10,
    });
    const one = await post(server, '/crm/task', { split: 'crm-basics', index: 1 });
    expect(one.body.task).toMatchObject({
      id: 'add_lead',
      index: 1,
      split: 'crm-basics',
      world: 'crm',
    });
    const range = await post(server, '/crm/task_range', {
      split: 'crm-basics',
      start: 8,
      stop: 20,
    });
    expect(range.body.tasks.map((t: { index: number }) => t.index)).toEqual([8, 9]);
    expect(
      (await post(server, '/crm/task_range', { split: 'crm-basics', start: -2 })).body.tasks.map(
        (t: { index: number }) => t.index,
      ),
    ).toEqual([8, 9]);
    expect((await post(server, '/crm/task_range', { split: 'all' })).body.tasks).toHaveLength(
      crm.tasks.length,
    );
    // The first world answers at the root too.
    expect((await post(server, '/num_tasks', { split: 'all' })).body).toEqual({
      num_tasks: crm.tasks.length,
    });
  });

  it("matches the world's name without regard to case, as OpenEnv matches env_name", async () => {
    expect((await get(server, '/CRM/splits')).body).toEqual(
      (await get(server, '/crm/splits')).body,
    );
    expect((await post(server, '/Crm/num_tasks', { split: 'all' })).body).toEqual({
      num_tasks: crm.tasks.length,
    });
    expect((await post(server, '/CRM/task', { split: 'all', index: 99 })).status).toBe(400);
  });

  it('refuses an unknown world with 404, an unknown split or an index out of range with 400, and a malformed body with 422', async () => {
    expect((await get(server, '/nope/splits')).status).toBe(404);
    const badSplit = await post(server, '/crm/num_tasks', { split: 'train' });
    expect(badSplit.status).toBe(400);
    expect(badSplit.body.detail).toContain('its splits are all, crm-basics');
    const badIndex = await post(server, '/crm/task', { split: 'crm-basics', index: 10 });
    expect(badIndex.status).toBe(400);
    expect(badIndex.body.detail).toContain('has 10 task(s); use an index from 0 to 9');
    expect((await post(server, '/crm/task', { split: 'crm-basics' })).status).toBe(422);
    expect((await post(server, '/crm/task', { split: 'crm-basics', index: 'one' })).status).toBe(
      422,
    );
    expect((await post(server, '/crm/tasks', {})).status).toBe(422);
    expect(
      (await post(server, '/crm/tasks', { split: 'all', limit: 3 })).body.detail[0].loc,
    ).toEqual(['body', 'limit']);
  });
});

describe('a reset with {split, index}', () => {
  it('plays the task at that position of the split', async () => {
    const p = await openReset(wsUrlOf(server.url), { split: 'crm-basics', index: 1 });
    const state = await p.ask({ type: 'state' });
    expect(state.data.task).toBe('add_lead');
    const again = await p.ask({ type: 'reset', data: { index: 2 } });
    expect(again.data.observation.task.id).toBe(crm.tasks[2].id);
    await p.close();
  });

  it("refuses an index past the split's size, an unknown split, and split beside task", async () => {
    const p = await openReset(wsUrlOf(server.url), { fixture: 'small_startup' });
    const past = await p.ask({ type: 'reset', data: { split: 'crm-basics', index: 10 } });
    expect(past.data.code).toBe('VALIDATION_ERROR');
    expect(past.data.errors[0]).toMatchObject({ loc: ['data', 'index'] });
    expect(past.data.errors[0].msg).toContain('has 10 task(s)');
    const unknown = await p.ask({ type: 'reset', data: { split: 'nope', index: 0 } });
    expect(unknown.data.errors[0]).toMatchObject({ loc: ['data', 'split'] });
    const both = await p.ask({ type: 'reset', data: { split: 'all', index: 0, task: 'add_lead' } });
    expect(both.data.errors[0]).toMatchObject({ loc: ['data', 'task'] });
    const noIndex = await p.ask({ type: 'reset', data: { split: 'all' } });
    expect(noIndex.data.errors[0]).toMatchObject({ loc: ['data', 'index'] });
    // The session is as it was.
    expect((await p.ask({ type: 'state' })).data.fixture.id).toBe('small_startup');
    await p.close();
  });

  it('works over HTTP /reset too', async () => {
    const r = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': 'by-index' },
      body: JSON.stringify({ split: 'tag:insert', index: 0 }),
    });
    expect((await r.json()).observation.task.id).toBe(
      crm.tasks.find((t) => t.tags?.includes('insert'))!.id,
    );
  });
});

describe('SeahavenClient.tasks()', () => {
  it("reads GET /tasks over HTTP from the session's host, whether it connected with an http or a ws URL", async () => {
    const want = (await get(multi, '/notes/tasks')).body.tasks;
    for (const url of [
      `${multi.url}/notes`,
      `${wsUrlOf(multi.url).replace(/\/ws$/, '')}/notes/ws`,
    ]) {
      const env = await SeahavenClient.connect(url);
      expect(await env.tasks()).toEqual(want);
      await env.close();
    }
    expect(httpUrlOf('wss://example.com/crm/ws', '/tasks')).toBe('https://example.com/crm/tasks');
    expect(httpUrlOf('http://127.0.0.1:8000/', '/tasks')).toBe('http://127.0.0.1:8000/tasks');
  });
});
