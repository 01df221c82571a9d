import { describe, expect, it } from 'vitest';
import type { LoadResult } from './http-face-load.ts';
import { formatHttpFace, runHttpFaceBench } from './http-face.ts';

/** A load run's counts are whole and every reply was a 2xx; how many there were is not judged. */
function wellFormed(r: LoadResult, label: string): void {
  for (const n of [r.served, r.total])
    expect(Number.isInteger(n) && n >= 0, `${label}: ${n}`).toBe(true);
  expect(r.errors, label).toBe(0);
}

// A smoke run: the HTTP face benchmark runs end to end and reports both tables. It asserts no figure (a loaded machine
// makes any of them anything); the figures are judged in bench/results.md.
describe('HTTP face benchmark', () => {
  it('drives the Seahaven server and the floor from another process and reports both tables', async () => {
    const r = await runHttpFaceBench({ smoke: true });
    expect(r.canned.get.headers['request-id']).toMatch(/^req_/);
    expect(r.canned.post.headers['idempotency-key']).toBe('bench-capture');
    expect(r.get.length).toBeGreaterThan(0);
    expect(r.post.length).toBeGreaterThan(0);
    for (const row of [...r.get, ...r.post]) {
      wellFormed(row.seahaven, `seahaven ×${row.connections}`);
      wellFormed(row.floor, `floor ×${row.connections}`);
      expect(row.pairedRatios).toHaveLength(r.rounds);
    }
    for (const v of [r.inProcess.getUs, r.inProcess.postUs])
      expect(Number.isFinite(v) && v >= 0, String(v)).toBe(true);
    const text = formatHttpFace(r);
    expect(text).toContain('| connections | floor req/s |');
    expect(text).toContain('Target ≥ 60%');
    expect(text).toContain('Target ≥ 40%');
  }, 60_000);
});
