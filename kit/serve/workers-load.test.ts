/**
 * `seahaven serve --workers 2` under hostile load, over the real command line: bursts of connections against
 * `--max-sessions`, requests sent to a worker's private port, forks adopted on the other worker, and a SIGTERM while
 * requests are in flight. One server for the whole file, in order, to keep it quick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { WireProbe } from './wire-probe.ts';

const MAX = 6;
const health = async (url: string) => (await fetch(`${url}/health`)).json();

describe('seahaven serve --workers 2 under load', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await spawnServe(['crm', '--workers', '2', '--max-sessions', String(MAX)], { timeoutMs: 60_000 });
  }, 70_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
  });

  it('holds --max-sessions under a burst of connections dealt to both workers at once', async () => {
    const probes = await Promise.all(Array.from({ length: 24 }, () => WireProbe.open(`${s.url.replace('http', 'ws')}/ws`)));
    const first = await Promise.all(probes.map((p) => p.ask({ type: 'state' })));
    const admitted = first.filter((f) => f.type === 'state').length;
    const refused = first.filter((f) => f.type === 'error' && f.data.code === 'CAPACITY_REACHED').length;
    expect(admitted + refused).toBe(probes.length);
    // At most one over the limit per worker besides the first (docs/serving.md), and every place is used.
    expect(admitted).toBeGreaterThanOrEqual(MAX - 1);
    expect(admitted).toBeLessThanOrEqual(MAX + 1);
    await expect.poll(async () => (await health(s.url)).sessions).toBe(admitted);
    for (const p of probes) p.ws.terminate();
    await expect.poll(async () => (await health(s.url)).sessions).toBe(0);
  });
});
