import { describe, expect, it } from 'vitest';
import { defineWorld, DefinitionError } from '../index.ts';
import { chargeLeases, DAY, rentWorld } from './rent-world.ts';

// What happens while time passes: a world's onClockAdvance runs when the harness advances an instance's clock, as one
// numbered call recorded under advance_clock, so it is graded, replayed and forked like any call.

const rent = rentWorld('rent', (ctx, { from, to }) => {
  const run = chargeLeases(ctx, to);
  let step = run.next();
  while (!step.done) step = run.next();
  if (to - from > 300 * DAY) throw new Error('more than 300 days at once');
  return { charged: step.value };
});

describe('onClockAdvance', () => {
  it('runs as a recorded call when the clock advances, with the clock already moved', () => {
    const inst = rent.instance({ seed: 1 });
    const lease = inst.call('sign_lease', {});
    expect(lease.ok).toBe(true);
    const start = inst.clock.now();
    expect(inst.advanceClock(65 * DAY)).toEqual({ ok: true, result: { charged: 2 } });
    expect(inst.clock.now()).toBe(start + 65 * DAY);
    inst.clock.advance(DAY * 30);
    expect(inst.query('SELECT count(*) AS n FROM charges')).toEqual([{ n: 3 }]);
    expect(inst.callLog().map((c) => [c.index, c.tool, c.args])).toEqual([
      [1, 'sign_lease', {}],
      [2, 'advance_clock', { ms: 65 * DAY }],
      [3, 'advance_clock', { ms: 30 * DAY }],
    ]);
    expect(inst.changes().filter((c) => c.table === 'charges')).toHaveLength(3);
  });

  it('replays from the call log, forks carry it, and a failing hook rolls back its writes but not the time', () => {
    const inst = rent.instance({ seed: 9 });
    inst.call('sign_lease', {});
    const cache = inst.query('PRAGMA cache_size');
    inst.advanceClock(40 * DAY);
    // A bulk call runs with a large page cache (connection.ts); it is back to its size once the call ends.
    expect(inst.query('PRAGMA cache_size')).toEqual(cache);
    const fork = inst.fork();
    fork.advanceClock(40 * DAY);
    expect(fork.query('SELECT count(*) AS n FROM charges')).toEqual([{ n: 2 }]);
    expect(inst.query('SELECT count(*) AS n FROM charges')).toEqual([{ n: 1 }]);

    const again = rent.instance({ seed: 9 });
    for (const c of inst.callLog()) {
      if (c.tool === 'advance_clock') again.advanceClock((c.args as { ms: number }).ms);
      else again.call(c.tool, c.args);
    }
    expect(again.changes()).toEqual(inst.changes());

    const lines: string[] = [];
    const bad = rent.instance({ seed: 2, logger: (l) => lines.push(l) });
    bad.call('sign_lease', {});
    const before = bad.changes();
    const r = bad.advanceClock(330 * DAY);
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(bad.changes()).toEqual(before);
    expect(bad.query('PRAGMA cache_size')).toEqual(cache);
    expect(lines.join('\n')).toContain('more than 300 days at once');
    expect(() => bad.advanceClock(-1)).toThrow(/whole number of milliseconds >= 0/);
  });

  it('leaves worlds without a hook as they were: the clock moves and nothing is recorded', () => {
    const plain = defineWorld({
      name: 'plain',
      version: '1',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
      tools: rent.tools as never,
    });
    const inst = plain.instance();
    const start = inst.clock.now();
    expect(inst.advanceClock(1000)).toEqual({ ok: true, result: null });
    inst.clock.advance(1000);
    expect(inst.clock.now()).toBe(start + 2000);
    expect(inst.callLog()).toEqual([]);
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
        tools: rent.tools as never,
        onClockAdvance: 5 as never,
      }),
    ).toThrow(DefinitionError);
  });
});

describe('advance_clock over OpenEnv', () => {
  it('is a step action on WebSocket and HTTP, and the TypeScript client sends it', async () => {
    const { startServer } = await import('../../transports/serve/server.ts');
    const { SeahavenClient } = await import('../../libraries/client/index.ts');
    const server = await startServer({ worlds: [rent], port: 0 });
    try {
      const env = await SeahavenClient.connect(server.url);
      await env.reset({ seed: 4 });
      await env.call('sign_lease', {});
      expect(await env.advanceClock(31 * DAY)).toEqual({ ok: true, result: { charged: 1 } });
      expect(JSON.stringify((await env.state()).changes)).toContain('"table":"charges"');
      await env.close();
      const post = (path: string, body: unknown) =>
        fetch(server.url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      await post('/reset', { seed: 4 });
      const bad = await post('/step', { action: { type: 'advance_clock', ms: -5 } });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(await bad.json())).toContain(
        'ms must be a whole number of milliseconds',
      );
      const ok = await post('/step', { action: { type: 'advance_clock', ms: 1000 } });
      expect(ok.status).toBe(200);
      expect(
        ((await ok.json()) as { observation: { result: { data: unknown } } }).observation.result
          .data,
      ).toEqual({ charged: 0 });
    } finally {
      await server.close();
    }
  });
});
