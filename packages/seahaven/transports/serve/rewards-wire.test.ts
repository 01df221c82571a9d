import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { WireProbe, openReset, wsUrlOf } from './wire-probe.ts';

// In the default reward mode only the terminal submit carries a reward: every other step says null, on every
// transport, so a harness that takes an episode's last non-null reward (OpenEnv's `_resolve_env_reward`) reads the grade.

const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
};
const steps: [string, Record<string, unknown>][] = [
  ['call_tool', { type: 'call_tool', tool_name: 'create_contact', arguments: ADA }],
  [
    'a failed call_tool',
    { type: 'call_tool', tool_name: 'get_contact', arguments: { id: 'con_nobody' } },
  ],
  ['an unknown tool', { type: 'call_tool', tool_name: 'no_such_tool', arguments: {} }],
  ['advance_clock', { type: 'advance_clock', ms: 60_000 }],
  ['list_tools', { type: 'list_tools' }],
  ['grade', { type: 'grade' }],
  ['fork', { type: 'fork' }],
];

/** What OpenEnv's harness would take as the episode's reward: the last non-null one. */
const lastReward = (rewards: (number | null)[]) => rewards.findLast((r) => r !== null) ?? null;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: () => {} });
});
afterAll(async () => {
  await server.close();
});

describe('rewards in the default (final) mode', () => {
  it('are null on every WebSocket step before submit, and the grade at submit', async () => {
    const p = await openReset(wsUrlOf(server.url), { task: 'add_lead' });
    const rewards: (number | null)[] = [];
    for (const [what, action] of steps) {
      const r = await p.ask({ type: 'step', data: action });
      expect(r.type, what).toBe('observation');
      expect(r.data.reward, what).toBeNull();
      expect(r.data.done, what).toBe(false);
      rewards.push(r.data.reward);
    }
    p.send({ type: 'step', data: { type: 'submit' } });
    const done = await p.next();
    expect(done.text).toContain('"reward":1.0,"done":true');
    rewards.push(done.json.data.reward);
    expect(lastReward(rewards)).toBe(1);
    await p.close();
  });

  it('keep a mid-episode grade out of the reward, so an episode that never submits has none', async () => {
    const p = await openReset(wsUrlOf(server.url), { task: 'add_lead' });
    await p.ask({ type: 'step', data: steps[0][1] });
    const g = await p.ask({ type: 'step', data: { type: 'grade' } });
    expect(g.data.observation.grade).toMatchObject({ reward: 1, passed: true });
    const after = await p.ask({ type: 'step', data: { type: 'list_tools' } });
    expect(lastReward([g.data.reward, after.data.reward])).toBeNull();
    await p.close();
  });

  it('are null on HTTP /step too, and the grade at submit', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'x-session-id': 'final-mode', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    expect((await post('/reset', { task: 'add_lead' })).status).toBe(200);
    for (const [what, action] of steps) {
      const r = await post('/step', { action });
      expect(r.status, what).toBe(200);
      expect(JSON.parse(r.text).reward, what).toBeNull();
    }
    const done = await post('/step', { action: { type: 'submit' } });
    expect(done.text).toContain('"reward":1.0,"done":true');
  });

  it('leave shaped mode as it was: a number on every call, the grade on a grade step', async () => {
    const p = await WireProbe.open(wsUrlOf(server.url));
    await p.ask({ type: 'reset', data: { task: 'add_lead', reward_mode: 'shaped' } });
    const called = await p.ask({ type: 'step', data: steps[0][1] });
    expect(called.data.reward).toBe(1);
    p.send({ type: 'step', data: steps[1][1] });
    expect((await p.next()).text).toContain('"reward":0.0');
    const g = await p.ask({ type: 'step', data: { type: 'grade' } });
    expect(g.data.reward).toBe(1);
    await p.close();
  });
});
