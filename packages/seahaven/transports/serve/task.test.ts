import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineTask,
  defineTool,
  defineWorld,
  z,
  type Grade,
  type GradeTarget,
} from '../../core/index.ts';
import { ResetError, startServer, type RunningServer, type Session } from './index.ts';
import { WireProbe } from './wire-probe.ts';

function countNotes(t: GradeTarget): number {
  return Number(t.query<{ n: number }>('SELECT count(*) AS n FROM notes')[0].n);
}

// A plain function grader: half a point per note, up to two.
function twoNotes(t: GradeTarget): Grade {
  const n = countNotes(t);
  const reward = Math.min(n, 2) / 2;
  return {
    reward,
    passed: n === 2,
    criteria: [
      { id: 'notes', name: 'two notes', score: reward, weight: 1, reason: `${n} note(s)` },
    ],
  };
}

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
    defineTool({
      name: 'count_notes',
      description: 'Count notes.',
      input: z.object({}),
      run: (ctx) => ctx.db.one('SELECT count(*) AS n FROM notes'),
    }),
  ],
  fixtures: {
    blank: { description: 'No notes.', now: '2026-03-01T00:00:00.000Z', build() {} },
    one: {
      description: 'One note.',
      now: '2026-03-01T00:00:00.000Z',
      build: (ctx) => void ctx.db.run("INSERT INTO notes (body) VALUES ('first')"),
    },
  },
  tasks: [
    defineTask({ id: 'write_two', fixture: 'blank', prompt: 'Write two notes.', grade: twoNotes }),
    defineTask({
      id: 'broken',
      fixture: 'blank',
      prompt: 'Anything.',
      grade: () => {
        throw new Error('grader bug');
      },
    }),
  ],
});

const graded: { session: string; reward: number; context: unknown }[] = [];
const abandoned: string[] = [];
const logged: string[] = [];
let server: RunningServer;
const url = () => `${server.url.replace('http', 'ws')}/ws`;
const add = (body: string) => ({
  type: 'step',
  data: { type: 'call_tool', tool_name: 'add_note', arguments: { body } },
});
const submit = { type: 'step', data: { type: 'submit' } };

beforeAll(async () => {
  server = await startServer({
    worlds: [notes],
    port: 0,
    logger: (l) => logged.push(l),
    hooks: {
      async resolveReset(req, { session }) {
        await new Promise((r) => setTimeout(r, 20));
        if (req.curriculum === 'misconfigured')
          return { task: 'no_such_task', context: 'ticket-never-started' };
        if (req.curriculum !== 'starter')
          throw new ResetError(
            'curriculum',
            `no curriculum "${req.curriculum}"; this server has "starter"`,
          );
        return {
          task: 'write_two',
          seed: 9,
          context: { stage: 1, session: session.id },
          metadata: { curriculum: { name: 'starter', stage: 1 } },
        };
      },
      onGrade(session: Session, grade: Grade) {
        graded.push({ session: session.id, reward: grade.reward, context: session.context });
      },
      onAbandon(session: Session, context: unknown) {
        abandoned.push(typeof context === 'string' ? context : session.id);
      },
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('tasks over the WebSocket', () => {
  it('starts the task from its fixture, grades it on submit, and reports the reward at the top level as a float', async () => {
    const p = await WireProbe.open(url());
    const r = await p.ask({ type: 'reset', data: { task: 'write_two' } });
    expect(r.data.observation).toMatchObject({
      fixture: 'blank',
      seed: 0,
      now: '2026-03-01T00:00:00.000Z',
      task: { id: 'write_two', prompt: 'Write two notes.' },
    });
    await p.ask(add('one'));
    p.send(submit);
    const half = await p.next();
    expect(half.text).toContain('"reward":0.5,"done":true');
    await p.ask(add('two'));
    p.send(submit);
    const full = await p.next();
    expect(full.text).toContain('"reward":1.0,"done":true');
    // The agent's view of the grade: what each criterion checks and how it scored, without its name or reason.
    expect(full.json.data.observation).toEqual({
      grade: {
        reward: 1,
        passed: true,
        criteria: [{ id: 'notes', label: 'notes', score: 1, weight: 1 }],
      },
    });
    const state = (await p.ask({ type: 'state' })).data;
    expect(state).toMatchObject({ step_count: 4, task: 'write_two', call_count: 2 });
    await p.close();
  });

  it('in shaped mode rewards each call with the change in grade, so an episode sums to its final grade', async () => {
    const p = await WireProbe.open(url());
    await p.ask({ type: 'reset', data: { task: 'write_two', reward_mode: 'shaped' } });
    const rewards: number[] = [];
    for (const frame of [
      add('a'),
      { type: 'step', data: { type: 'call_tool', tool_name: 'count_notes', arguments: {} } },
      add('b'),
      add('c'),
      submit,
    ]) {
      rewards.push((await p.ask(frame)).data.reward);
    }
    expect(rewards).toEqual([0.5, 0, 0.5, 0, 0]);
    expect(rewards.reduce((a, b) => a + b, 0)).toBe(1);
    await p.close();
  });

  it('refuses submit without a task, a task on the wrong fixture, and reports grader bugs as EXECUTION_ERROR', async () => {
    const p = await WireProbe.open(url());
    const none = await p.ask(submit);
    expect(none.data.code).toBe('VALIDATION_ERROR');
    expect(none.data.message).toContain('{"task": "write_two"}');
    const wrong = await p.ask({ type: 'reset', data: { task: 'write_two', fixture: 'one' } });
    expect(wrong.data.errors[0]).toMatchObject({
      loc: ['data', 'fixture'],
      msg: expect.stringContaining('starts from fixture "blank"'),
    });
    await p.ask({ type: 'reset', data: { task: 'broken' } });
    const bug = await p.ask(submit);
    expect(bug.data.code).toBe('EXECUTION_ERROR');
    // The client sees a reference; the log line under it has the grader's error.
    const ref = /^internal error \(server error (\w+);/.exec(bug.data.message)?.[1];
    expect(ref).toBeDefined();
    expect(logged.some((l) => l.includes(ref!) && l.includes('grader bug'))).toBe(true);
    // The session is still there, unchanged by the failed submit.
    expect((await p.ask({ type: 'state' })).data).toMatchObject({ task: 'broken', step_count: 0 });
    await p.close();
  });

  it('a task implies its fixture: a matching fixture is accepted, another is a VALIDATION_ERROR naming both, over the socket and HTTP', async () => {
    const p = await WireProbe.open(url());
    // From a session on another fixture, the task alone starts from its own.
    expect(
      (await p.ask({ type: 'reset', data: { fixture: 'one' } })).data.observation.fixture,
    ).toBe('one');
    expect(
      (await p.ask({ type: 'reset', data: { task: 'write_two' } })).data.observation,
    ).toMatchObject({ fixture: 'blank', task: { id: 'write_two' } });
    expect(
      (await p.ask({ type: 'reset', data: { task: 'write_two', fixture: 'blank', seed: 2 } })).data
        .observation,
    ).toMatchObject({ fixture: 'blank', seed: 2, task: { id: 'write_two' } });
    const msg =
      'task "write_two" starts from fixture "blank"; omit fixture or pass fixture: "blank" (got "one")';
    const wrong = await p.ask({ type: 'reset', data: { task: 'write_two', fixture: 'one' } });
    expect(wrong.data).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining(msg),
      errors: [{ type: 'value_error', loc: ['data', 'fixture'], msg, input: 'one' }],
    });
    // The refused reset left the episode alone.
    expect((await p.ask({ type: 'state' })).data).toMatchObject({ task: 'write_two', seed: 2 });
    await p.close();

    const http = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'write_two', fixture: 'one' }),
    });
    expect(http.status).toBe(422);
    expect(await http.json()).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'fixture'], msg, input: 'one' }],
    });
  });

  it('resolves curriculum resets through the hook, keeps frames queued behind it in order, and reports grades to onGrade', async () => {
    const p = await WireProbe.open(url());
    p.send({ type: 'reset', data: { curriculum: 'starter' } });
    p.send(add('x'));
    p.send(add('y'));
    p.send(submit);
    const reset = (await p.next()).json;
    expect(reset.data.observation.task.id).toBe('write_two');
    expect(reset.data.metadata).toMatchObject({
      curriculum: { name: 'starter', stage: 1 },
      episode_id: expect.any(String),
    });
    expect((await p.next()).json.data.observation.result.data).toMatchObject({ body: 'x' });
    expect((await p.next()).json.data.observation.result.data).toMatchObject({ body: 'y' });
    expect((await p.next()).json.data.reward).toBe(1);
    const s = (await p.ask({ type: 'state' })).data;
    expect(s.seed).toBe(9);
    expect(graded.at(-1)).toEqual({
      session: expect.any(String),
      reward: 1,
      context: { stage: 1, session: graded.at(-1)!.session },
    });
    const refused = await p.ask({ type: 'reset', data: { curriculum: 'advanced' } });
    expect(refused.data).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ loc: ['data', 'curriculum'], msg: expect.stringContaining('"starter"') }],
    });
    await p.close();
  });

  it('reports a grade once per episode, and abandons curriculum episodes that end without a submit', async () => {
    const p = await WireProbe.open(url());
    const gradedBefore = graded.length;
    await p.ask({ type: 'reset', data: { curriculum: 'starter' } });
    await p.ask(submit);
    await p.ask(submit);
    expect(graded.length).toBe(gradedBefore + 1);
    const sid = graded.at(-1)!.session;
    await p.ask({ type: 'reset', data: { curriculum: 'starter' } });
    expect(abandoned).toEqual([]);
    await p.ask({ type: 'reset', data: { curriculum: 'starter' } });
    expect(abandoned).toEqual([sid]);
    await p.ask({ type: 'reset', data: { task: 'write_two' } });
    expect(abandoned).toEqual([sid, sid]);
    await p.ask({ type: 'reset', data: { curriculum: 'starter' } });
    await p.close();
    await expect.poll(() => abandoned.length).toBe(3);
    // A plan that cannot start is refused and abandoned at once.
    const q = await WireProbe.open(url());
    const refused = await q.ask({ type: 'reset', data: { curriculum: 'misconfigured' } });
    expect(refused.data.errors[0].loc).toEqual(['data', 'task']);
    expect(abandoned.at(-1)).toBe('ticket-never-started');
    await q.close();
  });
});
