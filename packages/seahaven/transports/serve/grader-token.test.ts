import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import type { Grade } from '../../core/task.ts';
import { agentGrade } from '../../core/task.ts';
import { startServer, type RunningServer } from './index.ts';
import { SUBMIT, idleGrade } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// Whole grades (names and reasons, with the grader's targets) reach only a session that presents the server's grader
// token; everyone else is answered the agent view. A wrong token is refused and changes nothing.
const SECRET = 'grader-token-test-secret';
const GRADE = { type: 'step', data: { type: 'grade' } };

let server: RunningServer;
let plain: RunningServer;
const hooked: Grade[] = [];
const wsUrl = (s: RunningServer) => `${s.url.replace('http', 'ws')}/ws`;
const post = (
  s: RunningServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  server = await startServer({
    worlds: [crm],
    port: 0,
    graderToken: SECRET,
    hooks: { onGrade: (_s, g) => void hooked.push(g) },
  });
  plain = await startServer({ worlds: [crm], port: 0 });
});
afterAll(async () => {
  await server.close();
  await plain.close();
});

describe('the grader token over the WebSocket', () => {
  it('a reset with it gets whole grades for its episode; the next reset without it, the agent view', async () => {
    const idle = idleGrade(crm, 'add_lead');
    const p = await WireProbe.open(wsUrl(server));
    try {
      await p.ask({ type: 'reset', data: { task: 'add_lead', grader_token: SECRET } });
      expect((await p.ask(GRADE)).data.observation.grade).toEqual(idle);
      expect((await p.ask(SUBMIT)).data.observation.grade).toEqual(idle);
      await p.ask({ type: 'reset', data: { task: 'add_lead' } });
      expect((await p.ask(GRADE)).data.observation.grade).toEqual(agentGrade(idle));
      const done = (await p.ask(SUBMIT)).data;
      expect(done.observation.grade).toEqual(agentGrade(idle));
      expect(done.reward).toBe(idle.reward);
    } finally {
      await p.close();
    }
    // The hooks hear the whole grade either way.
    expect(hooked.at(-1)).toEqual(idle);
  });

  it('a wrong token is refused naming the fix, and the episode under way goes on as it was', async () => {
    const p = await WireProbe.open(wsUrl(server));
    try {
      await p.ask({ type: 'reset', data: { task: 'dana_signed' } });
      await p.ask({
        type: 'step',
        data: {
          type: 'call_tool',
          tool_name: 'update_deal',
          arguments: { id: 'deal_acme_fleet', stage: 'won' },
        },
      });
      const refused = await p.ask({
        type: 'reset',
        data: { task: 'add_lead', grader_token: 'wrong' },
      });
      expect(refused.type).toBe('error');
      expect(refused.data.code).toBe('VALIDATION_ERROR');
      expect(refused.data.errors[0]).toMatchObject({ loc: ['data', 'grader_token'], input: null });
      expect(refused.data.errors[0].msg).toContain(
        'the grader token is wrong; send the one the server was started with (--grader-token or SEAHAVEN_GRADER_TOKEN)',
      );
      expect(JSON.stringify(refused)).not.toContain(SECRET);
      const state = (await p.ask({ type: 'state' })).data;
      expect(state).toMatchObject({ task: 'dana_signed', call_count: 1, step_count: 1 });
      expect((await p.ask(GRADE)).data.observation.grade.criteria[0]).not.toHaveProperty('reason');
    } finally {
      await p.close();
    }
  });

  it('may come with a fork token: the adopted branch answers whole grades', async () => {
    const p = await WireProbe.open(wsUrl(server));
    const q = await WireProbe.open(wsUrl(server));
    try {
      await p.ask({ type: 'reset', data: { task: 'add_lead' } });
      const token = (await p.ask({ type: 'step', data: { type: 'fork' } })).data.observation.fork
        .token;
      await q.ask({ type: 'reset', data: { fork_token: token, grader_token: SECRET } });
      expect((await q.ask(GRADE)).data.observation.grade).toEqual(idleGrade(crm, 'add_lead'));
    } finally {
      await p.close();
      await q.close();
    }
  });

  it('on a server without one, presenting a token is refused, not quietly answered with the agent view', async () => {
    const p = await WireProbe.open(wsUrl(plain));
    try {
      const refused = await p.ask({
        type: 'reset',
        data: { task: 'add_lead', grader_token: SECRET },
      });
      expect(refused.data.code).toBe('VALIDATION_ERROR');
      expect(refused.data.errors[0].msg).toContain('this server has no grader token');
      expect(refused.data.errors[0].msg).toContain('--grader-token');
    } finally {
      await p.close();
    }
  });
});

describe('the grader token over HTTP', () => {
  it('X-Seahaven-Grader-Token on /reset opens whole grades for the episode, on /step for that step', async () => {
    const idle = idleGrade(crm, 'forget_contact');
    const header = { 'x-session-id': 'gt-http', 'x-seahaven-grader-token': SECRET };
    expect((await post(server, '/reset', { task: 'forget_contact' }, header)).status).toBe(200);
    const whole = await (
      await post(server, '/step', { action: { type: 'grade' } }, { 'x-session-id': 'gt-http' })
    ).json();
    expect(whole.observation.grade).toEqual(idle);
    await post(server, '/reset', { task: 'forget_contact' }, { 'x-session-id': 'gt-http' });
    const view = await (
      await post(server, '/step', { action: { type: 'grade' } }, { 'x-session-id': 'gt-http' })
    ).json();
    expect(view.observation.grade).toEqual(agentGrade(idle));
    const step = await (await post(server, '/step', { action: { type: 'submit' } }, header)).json();
    expect(step.observation.grade).toEqual(idle);
  });

  it('a wrong header is a 422 naming the header; the step is not taken', async () => {
    await post(server, '/reset', { task: 'forget_contact' }, { 'x-session-id': 'gt-wrong' });
    const before = await (
      await fetch(`${server.url}/state`, { headers: { 'x-session-id': 'gt-wrong' } })
    ).json();
    const res = await post(
      server,
      '/step',
      { action: { type: 'submit' } },
      { 'x-session-id': 'gt-wrong', 'x-seahaven-grader-token': 'nope' },
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail[0]).toMatchObject({ loc: ['header', 'X-Seahaven-Grader-Token'] });
    expect(body.detail[0].msg).toContain('the grader token is wrong');
    const after = await (
      await fetch(`${server.url}/state`, { headers: { 'x-session-id': 'gt-wrong' } })
    ).json();
    expect(after.step_count).toBe(before.step_count);
    // A refused reset leaves the session's episode where it was too.
    const refused = await post(
      server,
      '/reset',
      { task: 'add_lead', grader_token: 'nope' },
      { 'x-session-id': 'gt-wrong' },
    );
    expect(refused.status).toBe(422);
    expect(
      (
        await (
          await fetch(`${server.url}/state`, { headers: { 'x-session-id': 'gt-wrong' } })
        ).json()
      ).task,
    ).toBe('forget_contact');
  });
});
