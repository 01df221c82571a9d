import { describe, expect, it } from 'vitest';
import { runCallsBench } from './calls.ts';
import { runResetBench } from './reset.ts';
import { formatBilling, runBillingBench, runFixtureBilling } from './billing.ts';
import { formatSearch, runSearchBench } from './search.ts';

const aTime = (v: number | undefined) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

// Smoke runs: the benchmarks run and report every figure, each a time. No figure is judged here (a loaded machine makes
// any of them anything); targets are judged from bench/results.md.
describe('benchmarks run', () => {
  it('calls', () => {
    const r = runCallsBench({ n: 2000, rounds: 1 });
    expect(Object.keys(r).length).toBeGreaterThan(0);
    for (const [key, v] of Object.entries(r)) expect(aTime(v), `${key}: ${v}`).toBe(true);
    expect(r).toHaveProperty('readNs');
    expect(r).toHaveProperty('floorReadNs');
  });
  it('reset', () => {
    const rows = runResetBench({ fixtures: ['small_startup'], quick: true });
    expect(rows).toHaveLength(1);
    for (const kind of ['kit', 'query', 'floor', 'recycled'] as const)
      expect(aTime(rows[0][kind]?.p50), kind).toBe(true);
  });
  it('billing', () => {
    const r = runBillingBench({ quick: true, n: 20 });
    expect(r.renewed).toBe(20);
    expect(r.rows).toBeGreaterThan(20 * 10);
    expect(r.floor).toHaveLength(1);
    expect(r.floor[0]).toBeGreaterThan(0);
    expect(formatBilling(r)).toContain('| 20 | 20 |');
  });
  it('billing on a fixture of its own', () => {
    // small_startup stands in for big_co, the benchmark's own.
    const r = runFixtureBilling('small_startup', 1);
    expect(r.subscriptions).toBeGreaterThan(0);
    expect(r.renewed).toBeGreaterThan(0);
    expect(r.floor[0]).toBeGreaterThan(0);
    expect(formatBilling(r)).toContain('| `small_startup` |');
  });
  it('search', () => {
    // Tiny: small_startup and two timed runs a query; big_co is the benchmark's own.
    const r = runSearchBench({ fixture: 'small_startup', iterations: 2 });
    expect(r.rows.length).toBeGreaterThan(20);
    for (const row of r.rows)
      for (const v of [...row.samples, ...row.floor, ...row.walk])
        expect(aTime(v), row.query).toBe(true);
    expect(formatSearch(r)).toContain('| customers | `email:');
  });
});
