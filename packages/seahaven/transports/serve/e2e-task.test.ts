import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { agentGrade } from '../../core/task.ts';
import { startServer, type RunningServer } from './index.ts';
import { SUBMIT, idleGrade, recordGold, replay } from './test-fixtures/wire-gold.ts';
import { WireProbe } from './wire-probe.ts';

// Tasks over a real socket: reset with a task, play it, submit, and the top-level reward is the in-process grade. An
// agent's session is answered the agent view of it; one that presents the grader token, the whole grade.
const GRADER_TOKEN = 'e2e-grader-secret';

let server: RunningServer;
const wsUrl = () => `${server.url.replace('http', 'ws')}/ws`;
/** A reward as the wire must write it: always with a fraction, so Python reads a float. */
const rewardText = (r: number) =>
  `"reward":${Number.isInteger(r) ? r.toFixed(1) : String(r)},"done":true`;

beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, graderToken: GRADER_TOKEN });
});
afterAll(async () => {
  await server.close();
});

describe('crm tasks over the WebSocket', () => {
  it.each(crm.tasks.map((t) => t.id))(
    '%s: the gold solution played over the socket earns the in-process grade',
    async (id) => {
      const task = crm.task(id)!;
      const twin = recordGold(crm, id, 3);
      expect(twin.grade.passed).toBe(true);
      const p = await WireProbe.open(wsUrl());
      try {
        const start = await p.ask({ type: 'reset', data: { task: id, seed: 3 } });
        expect(start.type).toBe('observation');
        expect(start.data.observation).toMatchObject({
          fixture: task.fixture,
          seed: 3,
          task: { id, prompt: task.prompt },
        });
        expect(start.data).toMatchObject({ reward: null, done: false });

        const steps = await replay(p, twin.calls);
        // The same episode: each call answers over the wire exactly as it did in process.
        steps.forEach((s, i) => {
          const want = twin.calls[i].outcome;
          if (want.ok) expect(s.observation.result.data).toEqual(want.result);
          else expect(s.metadata.seahaven_error).toEqual(want.error);
          expect(s).toMatchObject({ reward: null, done: false });
        });

        p.send(SUBMIT);
        const done = await p.next();
        expect(done.json.data.observation.grade).toEqual(agentGrade(twin.grade));
        expect(done.json.data.reward).toBe(twin.grade.reward);
        expect(done.json.data.done).toBe(true);
        expect(done.text).toContain(rewardText(twin.grade.reward));
      } finally {
        await p.close();
      }
    },
  );

  it('a do-nothing attempt submits to the low in-process grade, written as a float (whole, with the grader token)', async () => {
    const p = await WireProbe.open(wsUrl());
    try {
      for (const id of ['add_lead', 'dana_signed']) {
        const idle = idleGrade(crm, id);
        expect(idle.passed).toBe(false);
        expect(idle.reward).toBeLessThan(1);
        await p.ask({ type: 'reset', data: { task: id, grader_token: GRADER_TOKEN } });
        p.send(SUBMIT);
        const done = await p.next();
        expect(done.json.data.observation.grade).toEqual(idle);
        expect(done.json.data).toMatchObject({ reward: idle.reward, done: true });
        expect(done.text).toContain(rewardText(idle.reward));
      }
    } finally {
      await p.close();
    }
  });

  it('a half-done attempt earns the partial grade the same instance state earns in process', async () => {
    const twin = recordGold(crm, 'dana_signed');
    const half = twin.calls.slice(0, twin.calls.findIndex((c) => c.gradeAfter > 0) + 1);
    const partial = half.at(-1)!.gradeAfter;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(1);
    const p = await WireProbe.open(wsUrl());
    try {
      await p.ask({ type: 'reset', data: { task: 'dana_signed' } });
      await replay(p, half);
      const done = await p.ask(SUBMIT);
      expect(done.data.reward).toBe(partial);
      expect(done.data.observation.grade.passed).toBe(false);
    } finally {
      await p.close();
    }
  });

  it.each(['dana_signed', 'lose_stale_negotiations'])(
    '%s in shaped mode: each call earns the change in grade, and the episode sums to the final grade',
    async (id) => {
      const twin = recordGold(crm, id);
      const p = await WireProbe.open(wsUrl());
      try {
        await p.ask({ type: 'reset', data: { task: id, reward_mode: 'shaped' } });
        const steps = await replay(p, twin.calls);
        let before = idleGrade(crm, id).reward;
        steps.forEach((s, i) => {
          expect(s.reward).toBeCloseTo(twin.calls[i].gradeAfter - before, 12);
          before = twin.calls[i].gradeAfter;
        });
        const done = await p.ask(SUBMIT);
        expect(done.data.done).toBe(true);
        expect(done.data.observation.grade).toEqual(agentGrade(twin.grade));
        const total = [...steps, done.data].reduce((sum, s) => sum + s.reward, 0);
        expect(total).toBeCloseTo(twin.grade.reward, 12);
        // Partial credit shows up before the end, so the shaping is doing something.
        expect(steps.some((s) => s.reward > 0 && s.reward < 1)).toBe(true);
      } finally {
        await p.close();
      }
    },
  );
});

describe('crm tasks through seahaven/client and over HTTP', () => {
  it('SeahavenClient: reset with a task, call, submit', async () => {
    const twin = recordGold(crm, 'add_lead');
    await using env = await SeahavenClient.connect(server.url);
    const start = await env.reset({ task: 'add_lead', grader_token: GRADER_TOKEN });
    expect(start.observation.task).toEqual({
      id: 'add_lead',
      prompt: crm.task('add_lead')!.prompt,
    });
    for (const c of twin.calls) expect(await env.call(c.tool, c.args)).toEqual(c.outcome);
    expect(await env.grade()).toEqual(twin.grade);
    expect(await env.submit()).toEqual({ grade: twin.grade, reward: 1, done: true, metadata: {} });
  });

  it('HTTP /reset and /step on a named session: the submit reward is the grade', async () => {
    const twin = recordGold(crm, 'log_call');
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-id': 'e2e-http' },
        body: JSON.stringify(body),
      });
    const start = await (await post('/reset', { task: 'log_call' })).json();
    expect(start.observation.task.id).toBe('log_call');
    for (const c of twin.calls) {
      const step = await (
        await post('/step', { action: { type: 'call_tool', tool_name: c.tool, arguments: c.args } })
      ).json();
      expect(step.observation.result.data).toEqual((c.outcome as { result: unknown }).result);
    }
    const done = await post('/step', { action: { type: 'submit' } });
    const text = await done.text();
    expect(text).toContain('"reward":1.0,"done":true');
    expect(JSON.parse(text).observation.grade).toEqual(agentGrade(twin.grade));
    // The grader token on a step answers that step with the whole grade.
    const whole = await fetch(`${server.url}/step`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-session-id': 'e2e-http',
        'x-seahaven-grader-token': GRADER_TOKEN,
      },
      body: JSON.stringify({ action: { type: 'submit' } }),
    });
    expect((await whole.json()).observation.grade).toEqual(twin.grade);
  });
});
