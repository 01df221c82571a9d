import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { MAX_ADVANCE_MS } from '../../core/clock.ts';
import { consoleRoutes, startServer, type RunningServer } from './index.ts';
import { WireProbe, wsUrlOf } from './wire-probe.ts';

// A clock advanced by 2^53 - 1 ms reads an instant no Date can format: every later state and call failed as internal.
// The most one advance may move a clock is 366 days, and no clock passes the year 9999; past either the advance is
// refused as a validation error over every transport, and the episode goes on as it was.

const HUGE = Number.MAX_SAFE_INTEGER;
const post = (body: unknown, session?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) },
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, ...consoleRoutes() });
});
afterAll(() => server.close());

describe('advance_clock is bounded', () => {
  it('inst.advanceClock and inst.clock.advance refuse more than 366 days, and past the year 9999, leaving the clock', () => {
    using inst = crm.instance({ fixture: 'small_startup' });
    const before = inst.clock.iso();
    expect(() => inst.advanceClock(HUGE)).toThrow(/at most 31622400000 \(366 days\)/);
    expect(() => inst.clock.advance(MAX_ADVANCE_MS + 1)).toThrow(/366 days/);
    expect(inst.clock.iso()).toBe(before);
    while (Date.UTC(9999, 0, 1) - inst.clock.now() >= MAX_ADVANCE_MS)
      inst.clock.advance(MAX_ADVANCE_MS);
    expect(() => inst.clock.advance(MAX_ADVANCE_MS)).toThrow(/past 9999-01-01T00:00:00.000Z/);
    expect(inst.state().clock.now.startsWith('9998-')).toBe(true);
    expect(inst.call('list_companies', {}).ok).toBe(true);
  });

  it('refuses over the WebSocket with a VALIDATION_ERROR; state and calls still answer', async () => {
    const p = await WireProbe.open(wsUrlOf(server.url));
    await p.ask({ type: 'reset', data: { fixture: 'small_startup' } });
    const refused = await p.ask({ type: 'step', data: { type: 'advance_clock', ms: HUGE } });
    expect(refused).toMatchObject({
      type: 'error',
      data: {
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('366 days'),
        errors: [{ loc: ['data', 'ms'] }],
      },
    });
    const state = await p.ask({ type: 'state' });
    expect(state.data).toMatchObject({
      step_count: 0,
      call_count: 0,
      clock: { now: '2026-06-01T09:00:00.000Z' },
    });
    const ok = await p.ask({ type: 'step', data: { type: 'advance_clock', ms: MAX_ADVANCE_MS } });
    expect(ok.type).toBe('observation');
    const called = await p.ask({
      type: 'step',
      data: { type: 'call_tool', tool_name: 'list_companies', arguments: {} },
    });
    expect(called.data.observation.error).toBeNull();
    await p.close();
  });

  it('refuses over HTTP /step and the console with 422; /state still answers', async () => {
    const reset = await fetch(`${server.url}/reset`, post({ fixture: 'small_startup' }));
    const id = reset.headers.get('x-session-id') ?? (await reset.json()).metadata?.session_id;
    const step = await fetch(
      `${server.url}/step`,
      post({ action: { type: 'advance_clock', ms: HUGE } }, id),
    );
    expect(step.status).toBe(422);
    expect(JSON.stringify(await step.json())).toContain('366 days');
    const state = await fetch(`${server.url}/state`, { headers: id ? { 'x-session-id': id } : {} });
    expect(state.status).toBe(200);
    expect((await state.json()).clock.now).toBe('2026-06-01T09:00:00.000Z');

    const opened = await fetch(
      `${server.url}/console/api/sessions`,
      post({ world: 'crm', fixture: 'small_startup' }),
    );
    const { session } = await opened.json();
    const base = `${server.url}/console/api/sessions/crm/${session.id}`;
    const advanced = await fetch(`${base}/advance`, post({ ms: HUGE }));
    expect(advanced.status).toBe(422);
    expect(await advanced.text()).toContain('366 days');
    expect((await (await fetch(base)).json()).session.clock.now).toBe('2026-06-01T09:00:00.000Z');
  });
});
