import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';
import { getDefaultSlowCallMs, setDefaultSlowCallMs } from '../call-timing.ts';
import { spawnServe } from '../serve/test-fixtures/spawn-serve.ts';
import { WireProbe } from '../serve/wire-probe.ts';

// A call slower than a threshold is logged with its world, tool and duration, in one line; the caller can read every
// call's duration. `seahaven serve --slow-call-ms` sets the threshold for the process.

const world = defineWorld({
  name: 'timing',
  version: '1',
  schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
  tools: [
    defineTool({
      name: 'count_to',
      description: 'Count to n in SQL (takes time in proportion to n).',
      input: z.object({ n: z.number().int().min(1) }),
      run: (ctx, { n }) => ctx.db.one('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c', n),
    }),
  ],
});

afterEach(() => setDefaultSlowCallMs(1000));

describe('slow calls', () => {
  it('logs a call at or over the threshold, once, naming world, tool and duration', () => {
    const lines: string[] = [];
    const inst = world.instance({ logger: (l) => lines.push(l), slowCallMs: 50 });
    expect(inst.call('count_to', { n: 1 })).toEqual({ ok: true, result: { n: 1 } });
    expect(lines).toEqual([]);
    expect(inst.lastCallMs).toBeGreaterThanOrEqual(0);
    expect(inst.lastCallMs).toBeLessThan(50);
    // A million-row recursive CTE takes well over 50 ms (about 200 ms here).
    expect(inst.call('count_to', { n: 1_000_000 })).toEqual({ ok: true, result: { n: 1_000_000 } });
    expect(inst.lastCallMs).toBeGreaterThanOrEqual(50);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[seahaven\] slow call: timing\/count_to took \d+ ms \(instance inst_\w+, call 2\); nothing else ran on this thread meanwhile$/);
    expect(Number(/took (\d+) ms/.exec(lines[0])![1])).toBe(Math.round(inst.lastCallMs));
    // A fork keeps the threshold.
    const fork = inst.fork();
    fork.call('count_to', { n: 1_000_000 });
    expect(lines).toHaveLength(2);
  });

  it('defaults to 1000 ms, settable for the process; Infinity turns it off; bad values are refused', () => {
    expect(getDefaultSlowCallMs()).toBe(1000);
    const lines: string[] = [];
    expect(world.instance({ logger: (l) => lines.push(l) }).call('count_to', { n: 1 })).toMatchObject({ ok: true });
    expect(lines).toEqual([]);
    setDefaultSlowCallMs(0);
    world.instance({ logger: (l) => lines.push(l) }).call('count_to', { n: 1 });
    expect(lines).toHaveLength(1);
    world.instance({ logger: (l) => lines.push(l), slowCallMs: Infinity }).call('count_to', { n: 1_000_000 });
    expect(lines).toHaveLength(1);
    expect(() => world.instance({ slowCallMs: -1 })).toThrow(/slowCallMs must be a number of milliseconds >= 0 \(Infinity: never log\); got -1/);
    expect(() => setDefaultSlowCallMs(Number.NaN)).toThrow(/default slow-call threshold must be a number of milliseconds >= 0/);
  });

  it('seahaven serve --slow-call-ms logs slow calls of every session to stderr', async () => {
    const s = await spawnServe(['crm', '--slow-call-ms', '0']);
    try {
      const p = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
      expect((await p.ask({ type: 'reset', data: { fixture: 'small_startup' } })).type).toBe('observation');
      expect((await p.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'search_contacts', arguments: { query: 'dana' } } })).type).toBe('observation');
      await p.close();
      await expect.poll(() => s.stderr()).toMatch(/\[seahaven\] slow call: crm\/search_contacts took \d+ ms \(instance inst_\w+, call 1\)/);
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0);
    }
    const bad = await spawnServe(['crm', '--slow-call-ms', 'soon']).catch((e: Error) => e);
    expect(String(bad)).toContain('--slow-call-ms must be a whole number >= 0; got "soon"');
  }, 60_000);
});
