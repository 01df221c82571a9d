import { describe, expect, it } from 'vitest';
import { formatWs, runWsBench } from './ws.ts';

// A smoke run: the WebSocket benchmark works end to end and measures something sane. Figures live in bench/results.md.
describe('WebSocket serving benchmark', () => {
  it('drives the server and the floor from another process and reports every table', async () => {
    const r = await runWsBench({ smoke: true });
    for (const row of [...r.rows, ...r.episodes, ...r.ping]) {
      expect(row.seahaven.served.every((n) => n > 0)).toBe(true);
      expect(row.floor.served.every((n) => n > 0)).toBe(true);
      expect(row.seahaven.errors).toBe(0);
    }
    expect(r.fairness.map((g) => g.served.length)).toEqual([8, 1]);
    expect(Number.isFinite(r.memory.idleBytes)).toBe(true);
    const text = formatWs(r);
    expect(text).toContain('Targets at 8 sessions');
    expect(text).toContain('Least-served session');
  }, 90_000);
});
