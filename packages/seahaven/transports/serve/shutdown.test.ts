import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startServer } from './index.ts';
import { WireProbe } from './wire-probe.ts';

// A shutdown answers every request it received: what finishes within the grace period gets its reply, and what does
// not (here, resets waiting on a hook that never settles, and everything queued behind them) gets SESSION_ERROR over
// a WebSocket, before the close frame, and 503 over HTTP.

const call = (name: string) => ({
  type: 'step',
  data: { type: 'call_tool', tool_name: 'create_company', arguments: { name } },
});

describe('shutdown with requests in flight', () => {
  it('answers every frame and request it could not finish within the grace period, then closes with 1001', async () => {
    const server = await startServer({
      worlds: [crm],
      port: 0,
      logger: () => {},
      shutdownGraceMs: 300,
      // A curriculum reset waits on this hook, which never answers: the session stays busy past the grace period.
      hooks: { resolveReset: () => new Promise(() => {}) },
    });
    const socket = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
    expect((await socket.ask(call('Before'))).type).toBe('observation');
    socket.send({ type: 'reset', data: { curriculum: 'crm-basics', run_id: 'stuck' } });
    for (let i = 0; i < 3; i++) socket.send(call(`Queued ${i}`));
    const reset = (body: unknown, id: string) =>
      fetch(`${server.url}/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-id': id },
        body: JSON.stringify(body),
      });
    expect((await reset({}, 'h1')).status).toBe(200);
    const stuck = reset({ curriculum: 'crm-basics', run_id: 'stuck-http' }, 'h1');
    // Both requests are received and waiting before the shutdown begins.
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close();
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push((await socket.next(3000)).json);
    for (const r of replies)
      expect(r).toMatchObject({
        type: 'error',
        data: { code: 'SESSION_ERROR', message: expect.stringMatching(/shutting down/) },
      });
    expect(await socket.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    const answer = await stuck;
    expect(answer.status).toBe(503);
    expect((await answer.json()).detail).toMatch(/ended before this request finished/);
    await closed;
  });
});
