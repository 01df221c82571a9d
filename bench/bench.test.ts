import { describe, expect, it } from 'vitest';
import { runCallsBench } from './calls.ts';
import { runResetBench } from './reset.ts';
import { formatBilling, runBillingBench } from './billing.ts';

// Smoke runs: the benchmarks work and measure something sane. Targets are judged from bench/results.md, not here.
describe('benchmarks run', () => {
  it('calls', () => {
    const r = runCallsBench({ n: 2000, rounds: 1 });
    for (const v of Object.values(r)) expect(v).toBeGreaterThan(0);
    expect(r.readNs).toBeGreaterThan(r.floorReadNs);
  });
  it('reset', () => {
    const rows = runResetBench({ fixtures: ['small_startup'], quick: true });
    expect(rows[0].kit.p50).toBeGreaterThan(0);
    expect(rows[0].query.p50).toBeGreaterThan(0);
    expect(rows[0].floor.p50).toBeGreaterThan(0);
    expect(rows[0].recycled!.p50).toBeGreaterThan(0);
  });
  it('billing', () => {
    const r = runBillingBench({ quick: true, n: 20 });
    expect(r.renewed).toBe(20);
    expect(r.rows).toBeGreaterThan(20 * 10);
    expect(formatBilling(r)).toContain('| 20 | 20 |');
  });
});
