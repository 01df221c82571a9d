import { describe, expect, it } from 'vitest';
import { formatHttpFace, runHttpFaceBench } from './http-face.ts';

// A smoke run: the HTTP face benchmark works end to end and measures something sane. Figures live in bench/results.md.
describe('HTTP face benchmark', () => {
  it('drives the Seahaven server and the floor from another process and reports both tables', async () => {
    const r = await runHttpFaceBench({ smoke: true });
    expect(r.canned.get.headers['request-id']).toMatch(/^req_/);
    expect(r.canned.post.headers['idempotency-key']).toBe('bench-capture');
    for (const row of [...r.get, ...r.post]) {
      expect(row.seahaven.served).toBeGreaterThan(0);
      expect(row.floor.served).toBeGreaterThan(0);
      expect(row.seahaven.errors).toBe(0);
      expect(row.floor.errors).toBe(0);
      expect(row.pairedRatios.every((x) => x > 0)).toBe(true);
    }
    expect(r.inProcess.getUs).toBeGreaterThan(0);
    const text = formatHttpFace(r);
    expect(text).toContain('| connections | floor req/s |');
    expect(text).toContain('Target ≥ 40%');
    expect(text).toContain('Target ≥ 25%');
  }, 60_000);
});
