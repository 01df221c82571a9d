import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';
import type { Instance } from '../../core/instance.ts';
import { createApp, startServer, type RunningServer } from './index.ts';
import { WireProbe, callFrame as call, openReset, wsUrlOf } from './wire-probe.ts';

// The grade and fork step actions, and resets that adopt a fork, over the WebSocket and over HTTP.

const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
};
const GRADE = { type: 'step', data: { type: 'grade' } };
const FORK = { type: 'step', data: { type: 'fork' } };

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: () => {} });
});
afterAll(async () => {
  await server.close();
});

const url = () => wsUrlOf(server.url);

/** The instances of the forks a server holds (a private field: leak checks look inside). */
function heldInstances(s: RunningServer): Instance[] {
  return [
    ...(
      s.sessions as unknown as { forks: Map<string, { fork: { inst: Instance } }> }
    ).forks.values(),
  ].map((f) => f.fork.inst);
}

/** Fork `p`'s episode: the token. */
async function forkToken(p: WireProbe): Promise<string> {
  const r = await p.ask(FORK);
  expect(r.type).toBe('observation');
  return r.data.observation.fork.token;
}

describe('the grade step', () => {
  it("answers the task's grade now, not done, leaving the episode as it was", async () => {
    const p = await openReset(url(), { task: 'add_lead', seed: 3 });
    p.send(GRADE);
    const first = await p.next();
    // The grade is in the observation; the step's reward stays null, so a harness taking the last non-null reward
    // reads the one at submit.
    expect(first.text).toContain('"reward":null');
    expect(first.json.data).toMatchObject({
      reward: null,
      done: false,
      metadata: {},
      observation: { grade: { reward: 0 } },
    });
    expect(Object.keys(first.json.data.observation)).toEqual(['grade']);
    expect(Object.keys(first.json.data.observation.grade)).toEqual([
      'reward',
      'passed',
      'criteria',
    ]);
    expect(first.json.data.observation.grade.passed).toBe(false);

    expect((await p.ask(call('create_contact', ADA))).data.observation.error).toBeNull();
    const before = (await p.ask({ type: 'state' })).data;
    const g = await p.ask(GRADE);
    expect(g.data).toMatchObject({
      reward: null,
      done: false,
      observation: { grade: { reward: 1, passed: true } },
    });
    const after = (await p.ask({ type: 'state' })).data;
    // Only the step count moves: no call is made, logged or numbered.
    expect({ ...after, step_count: before.step_count }).toEqual(before);
    expect(after.step_count).toBe(before.step_count + 1);
    const submit = await p.ask({ type: 'step', data: { type: 'submit' } });
    expect(submit.data).toMatchObject({
      reward: 1,
      done: true,
      observation: { grade: g.data.observation.grade },
    });
    await p.close();
  });

  it('is refused without a task, like submit, and with extra keys; the session goes on', async () => {
    const p = await openReset(url());
    const r = await p.ask(GRADE);
    expect(r.data.code).toBe('VALIDATION_ERROR');
    expect(r.data.message).toContain('cannot grade');
    expect(r.data.errors[0]).toMatchObject({
      loc: ['data'],
      msg: expect.stringContaining('reset with {"task": "add_lead"} first'),
    });
    const extra = await p.ask({ type: 'step', data: { type: 'grade', task: 'add_lead' } });
    expect(extra.data.errors[0]).toMatchObject({ type: 'extra_forbidden', loc: ['data', 'task'] });
    expect((await p.ask({ type: 'state' })).data.step_count).toBe(0);
    await p.close();
  });

  it('stays out of shaped rewards: the steps of an episode still sum to its grade', async () => {
    const p = await openReset(url(), { task: 'add_lead', reward_mode: 'shaped' });
    const rewards: number[] = [];
    rewards.push(
      (await p.ask(call('create_contact', { ...ADA, title: 'Researcher' }))).data.reward,
    );
    expect((await p.ask(GRADE)).data.reward).toBe(rewards[0]);
    rewards.push(
      (await p.ask(call('update_contact', { id: 'con_missing', title: 'Head of Research' }))).data
        .reward,
    );
    const grade = (await p.ask(GRADE)).data.reward;
    const submit = await p.ask({ type: 'step', data: { type: 'submit' } });
    rewards.push(submit.data.reward);
    expect(rewards.reduce((a, b) => a + b, 0)).toBeCloseTo(grade, 12);
    expect(submit.data.observation.grade.reward).toBe(grade);
    await p.close();
  });
});

describe('the fork step and resets with fork_token', () => {
  it('holds the episode under a token; a reset adopting it carries state, clock, task and step count, as a new episode', async () => {
    const p = await openReset(url(), {
      task: 'add_lead',
      seed: 9,
      clock: 'tick',
      episode_id: 'origin',
    });
    await p.ask(call('search_contacts', { query: 'acme' }));
    await p.ask(call('create_contact', { ...ADA, title: 'Researcher' }));
    p.send(FORK);
    const f = await p.next();
    expect(f.text).toContain('"reward":null');
    expect(f.json.data).toMatchObject({ done: false, metadata: {} });
    expect(Object.keys(f.json.data.observation.fork)).toEqual(['token', 'expires_in_s']);
    const { token, expires_in_s } = f.json.data.observation.fork;
    expect(token).toMatch(/^fork_[A-Za-z0-9_-]{24}$/);
    expect(expires_in_s).toBe(60);
    expect(server.sessions.heldForks).toBe(1);
    const origin = (await p.ask({ type: 'state' })).data;
    expect(origin.step_count).toBe(3);

    const b = await WireProbe.open(url());
    const r = await b.ask({ type: 'reset', data: { fork_token: token } });
    expect(server.sessions.heldForks).toBe(0);
    const obs = r.data.observation;
    expect(Object.keys(obs)).toEqual(['fixture', 'seed', 'now', 'task', 'forked_from', 'tools']);
    expect(obs).toMatchObject({
      fixture: 'small_startup',
      seed: 9,
      now: origin.clock.now,
      task: { id: 'add_lead' },
      forked_from: 'origin',
    });
    expect(r.data.metadata.episode_id).not.toBe('origin');
    const branch = (await b.ask({ type: 'state' })).data;
    expect(branch).toEqual({ ...origin, episode_id: r.data.metadata.episode_id });

    // From here the two go their own ways.
    await b.ask(
      call('update_contact', {
        id: (branch.changes[0].key as { id: string }).id,
        title: 'Head of Research',
      }),
    );
    expect((await b.ask(GRADE)).data.observation.grade.reward).toBe(1);
    expect((await p.ask(GRADE)).data.observation.grade.reward).toBeLessThan(1);
    expect((await p.ask({ type: 'state' })).data.changes).toEqual(origin.changes);

    // A reset of the adopting session starts from the fixture, not from the fork's state.
    await b.ask({ type: 'reset', data: { task: 'add_lead', seed: 9 } });
    const found = await b.ask(call('search_contacts', { query: 'Ada Lovelace' }));
    expect(found.data.observation.result.data.contacts).toEqual([]);
    expect((await b.ask(call('create_contact', ADA))).data.observation.error).toBeNull();
    expect((await b.ask(GRADE)).data.observation.grade.reward).toBe(1);
    await Promise.all([p.close(), b.close()]);
  });

  it('takes a token once, and tells an unknown, used or expired token apart', async () => {
    const p = await openReset(url());
    const token = await forkToken(p);
    expect((await p.ask({ type: 'reset', data: { fork_token: token } })).type).toBe('observation');
    const again = await p.ask({ type: 'reset', data: { fork_token: token } });
    expect(again.data).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ loc: ['data', 'fork_token'], input: token }],
    });
    expect(again.data.message).toContain('fork token already used');
    const unknown = await p.ask({ type: 'reset', data: { fork_token: 'fork_nope' } });
    expect(unknown.data.message).toContain('fork token unknown');
    await p.close();

    const quick = await startServer({ worlds: [crm], port: 0, forkTtlMs: 100, logger: () => {} });
    try {
      const q = await openReset(wsUrlOf(quick.url));
      const stale = await forkToken(q);
      expect(quick.sessions.heldForks).toBe(1);
      const [inst] = heldInstances(quick);
      await new Promise((r) => setTimeout(r, 250));
      expect(quick.sessions.heldForks).toBe(0);
      expect(() => inst.changes()).toThrow(/was destroyed/);
      const late = await q.ask({ type: 'reset', data: { fork_token: stale } });
      expect(late.data.code).toBe('VALIDATION_ERROR');
      expect(late.data.message).toContain('fork token expired after 0.1 s without being adopted');
      expect(late.data.message).toContain('--fork-ttl-ms');
      await q.close();
    } finally {
      await quick.close();
    }
  });

  it('refuses fork_token beside any other reset key, naming the conflict, and leaves the fork held', async () => {
    const p = await openReset(url());
    const token = await forkToken(p);
    const r = await p.ask({
      type: 'reset',
      data: { fork_token: token, seed: 2, task: 'add_lead' },
    });
    expect(r.data.code).toBe('VALIDATION_ERROR');
    expect(r.data.errors.map((e: { loc: string[] }) => e.loc)).toEqual([
      ['data', 'seed'],
      ['data', 'task'],
    ]);
    expect(r.data.message).toContain('seed cannot be combined with fork_token');
    // Keys sent as null are absent, as everywhere in reset data (pydantic clients send them).
    expect(
      (await p.ask({ type: 'reset', data: { fork_token: token, seed: null, episode_id: null } }))
        .type,
    ).toBe('observation');
    await p.close();
  });

  it('counts held forks against --max-sessions, refuses a fork when full, and frees them on adoption and expiry', async () => {
    const small = await startServer({
      worlds: [crm],
      port: 0,
      maxSessions: 2,
      forkTtlMs: 150,
      logger: () => {},
    });
    const ws = () => WireProbe.open(wsUrlOf(small.url));
    try {
      const a = await ws();
      const t1 = await forkToken(a);
      const refused = await ws();
      expect((await refused.next()).json.data).toMatchObject({
        code: 'CAPACITY_REACHED',
        active_sessions: 2,
        max_sessions: 2,
      });
      expect((await refused.closed).code).toBe(1000);
      // Full, a fork is refused too; the session goes on.
      const full = await a.ask(FORK);
      expect(full.data).toMatchObject({
        code: 'CAPACITY_REACHED',
        active_sessions: 2,
        max_sessions: 2,
      });
      expect(full.data.message).toContain('1 of them held forks waiting to be adopted');
      expect((await a.ask({ type: 'state' })).data.step_count).toBe(1);
      // Adopting frees the fork's place.
      expect((await a.ask({ type: 'reset', data: { fork_token: t1 } })).type).toBe('observation');
      const b = await ws();
      expect((await b.ask({ type: 'state' })).type).toBe('state');
      await b.close();
      // So does expiry.
      await forkToken(a);
      expect(small.sessions.heldForks).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(small.sessions.heldForks).toBe(0);
      const c = await ws();
      expect((await c.ask({ type: 'state' })).type).toBe('state');
      await Promise.all([a.close(), c.close()]);
    } finally {
      await small.close();
    }
  });

  it('destroys every held fork at shutdown', async () => {
    const s = await startServer({ worlds: [crm], port: 0, logger: () => {} });
    const p = await openReset(wsUrlOf(s.url));
    await forkToken(p);
    await forkToken(p);
    const held = heldInstances(s);
    expect(held).toHaveLength(2);
    expect(held[0].changes()).toEqual([]);
    await s.close();
    expect(s.sessions.heldForks).toBe(0);
    for (const inst of held) expect(() => inst.changes()).toThrow(/was destroyed/);
  });

  it('refuses a token on another world, and keeps it for its own', async () => {
    const notes = defineWorld({
      name: 'notes',
      version: '1.0.0',
      schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;',
      tools: [
        defineTool({
          name: 'add_note',
          description: 'Write a note.',
          input: z.object({ body: z.string() }),
          run: (ctx, { body }) => ctx.db.run('INSERT INTO notes (body) VALUES (?)', body).changes,
        }),
      ],
      fixtures: {
        blank: { description: 'No notes.', now: '2026-01-01T00:00:00.000Z', build() {} },
      },
    });
    const two = await startServer({ worlds: [crm, notes], port: 0, logger: () => {} });
    try {
      const p = await openReset(wsUrlOf(two.url, '/crm'));
      const token = await forkToken(p);
      const other = await WireProbe.open(wsUrlOf(two.url, '/notes'));
      const r = await other.ask({ type: 'reset', data: { fork_token: token } });
      expect(r.data.code).toBe('VALIDATION_ERROR');
      expect(r.data.message).toContain(
        'fork token belongs to world "crm", not "notes"; forks cannot cross worlds',
      );
      const same = await WireProbe.open(wsUrlOf(two.url, '/crm'));
      expect(
        (await same.ask({ type: 'reset', data: { fork_token: token } })).data.observation
          .forked_from,
      ).toBeTypeOf('string');
      await Promise.all([p.close(), other.close(), same.close()]);
    } finally {
      await two.close();
    }
  });
});

describe('grade and fork over HTTP', () => {
  const json = (body: unknown, session?: string) => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(session ? { 'x-session-id': session } : {}),
    },
  });

  it('grades on /step, and forks into a new HTTP session whose id is answered', async () => {
    const { app, sessions } = createApp({ worlds: [crm] });
    expect((await app.request('/reset', json({ task: 'add_lead', seed: 2 }, 'me'))).status).toBe(
      200,
    );
    await app.request(
      '/step',
      json(
        {
          action: {
            type: 'call_tool',
            tool_name: 'create_contact',
            arguments: { ...ADA, title: 'Researcher' },
          },
        },
        'me',
      ),
    );
    const graded = await app.request('/step', json({ action: { type: 'grade' } }, 'me'));
    const g = await graded.json();
    expect(g).toMatchObject({ done: false, observation: { grade: { passed: false } } });
    expect(g.reward).toBeNull();

    const forked = await app.request('/step', json({ action: { type: 'fork' } }, 'me'));
    expect(forked.status).toBe(200);
    const text = await forked.text();
    expect(text).toContain('"reward":null');
    const fork = JSON.parse(text).observation.fork;
    expect(Object.keys(fork)).toEqual(['session_id', 'episode_id']);
    expect(sessions.size).toBe(2);
    expect(sessions.heldForks).toBe(0);
    const origin = await (
      await app.request('/state', { headers: { 'x-session-id': 'me' } })
    ).json();
    const branch = await (
      await app.request('/state', { headers: { 'x-session-id': fork.session_id } })
    ).json();
    expect(branch).toEqual({ ...origin, episode_id: fork.episode_id });
    expect(origin.step_count).toBe(3);

    const id = branch.changes[0].key.id;
    await app.request(
      '/step',
      json(
        {
          action: {
            type: 'call_tool',
            tool_name: 'update_contact',
            arguments: { id, title: 'Head of Research' },
          },
        },
        fork.session_id,
      ),
    );
    expect(
      (
        await (
          await app.request('/step', json({ action: { type: 'submit' } }, fork.session_id))
        ).json()
      ).reward,
    ).toBe(1);
    expect(
      (await (await app.request('/state', { headers: { 'x-session-id': 'me' } })).json()).changes,
    ).toEqual(origin.changes);
    sessions.endAll('shutdown');
  });

  it('adopts a WebSocket fork with POST /reset, refuses conflicts with 422, and a fork when full with 503', async () => {
    const p = await openReset(url(), { task: 'add_lead' });
    const token = await forkToken(p);
    const post = (path: string, body: unknown, session: string) =>
      fetch(`${server.url}${path}`, json(body, session));
    const conflict = await post(
      '/reset',
      { fork_token: token, fixture: 'small_startup' },
      'adopter',
    );
    expect(conflict.status).toBe(422);
    expect((await conflict.json()).detail[0]).toMatchObject({
      loc: ['body', 'fixture'],
      msg: expect.stringContaining('cannot be combined with fork_token'),
    });
    const adopted = await post('/reset', { fork_token: token }, 'adopter');
    expect(adopted.status).toBe(200);
    expect((await adopted.json()).observation).toMatchObject({
      task: { id: 'add_lead' },
      forked_from: expect.any(String),
    });
    await post(
      '/step',
      { action: { type: 'call_tool', tool_name: 'create_contact', arguments: ADA } },
      'adopter',
    );
    expect(
      (await (await post('/step', { action: { type: 'grade' } }, 'adopter')).json()).observation
        .grade.reward,
    ).toBe(1);
    await p.close();

    const { app, sessions } = createApp({ worlds: [crm], maxSessions: 1 });
    expect((await app.request('/reset', json({}, 'only'))).status).toBe(200);
    const refused = await app.request('/step', json({ action: { type: 'fork' } }, 'only'));
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ active_sessions: 1, max_sessions: 1 });
    expect(sessions.size).toBe(1);
    sessions.endAll('shutdown');
  });
});
