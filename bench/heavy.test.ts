import { describe, expect, it } from 'vitest';
import { formatHeavy, largestFormBody, runHeavyBench } from './heavy.ts';

// A smoke run: the heavy-calls benchmark drives its three processes end to end. Figures live in bench/results.md.
describe('heavy calls benchmark', () => {
  it('measures light sessions quiet and beside a heavy session, and reports every table', async () => {
    const r = await runHeavyBench({ smoke: true });
    // How many replies a light session got in the window is a figure (a loaded machine may give one none); only that
    // the counts are whole and nothing failed is judged here.
    for (const g of [r.quiet, r.loaded]) {
      expect(g.served).toHaveLength(8);
      expect(
        g.served.every((n) => Number.isInteger(n) && n >= 0),
        String(g.served),
      ).toBe(true);
      expect(g.errors).toBe(0);
    }
    expect(r.ops.map((o) => o.kind)).toContain('search');
    expect(r.ops.find((o) => o.kind === 'search')?.status).toBe('200');
    // The body is refused by Stripe's metadata rules once decoded, not by the body limit.
    expect(r.ops.find((o) => o.kind === 'form body')?.status).toBe('400');
    const text = formatHeavy(r);
    expect(text).toContain('loaded / quiet');
  }, 120_000);

  it('posts the largest body the server takes: 10,000 parameters, under 1 MiB', () => {
    const body = largestFormBody();
    expect(body.split('&')).toHaveLength(10_000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1 << 20);
    expect(Buffer.byteLength(body)).toBeGreaterThan(900_000);
  });
});
