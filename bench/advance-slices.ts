/**
 * The slices of a long clock advance, in process: what a served session's neighbours wait for between their turns.
 * One Stripe World instance on a fixture (big_co by default) advances its clock in slices of the budget the server
 * gives them (a quarter of the scheduler's 4 ms turn), and each slice's duration is recorded: how many there are, their
 * p50, p90, p99 and longest, how many pass 30 ms, and the last one (the commit). Every slice's start and end can be
 * written out (`--times <file>`, monotonic microseconds, the clock of a `--cpu-prof` profile) to find out what the long
 * ones spent their time on.
 *
 * Run: `npx tsx --conditions=@seahaven/source bench/advance-slices.ts [--fixture big_co] [--days 30] [--times slices.json]`.
 */
import { writeFileSync } from 'node:fs';
import { advanceInSlices } from 'seahaven/internal/core/instance-internals';
import { stripe } from '@seahaven/stripe';

export interface SliceStats {
  slices: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  over30: number;
  last: number;
  totalMs: number;
  ok: boolean;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Advance `days` on a fresh instance of `fixture` a slice of `budgetMs` at a time; each slice's [start, end] in µs. */
export function measureSlices(
  fixture: string,
  days: number,
  budgetMs = 1,
): { stats: SliceStats; times: [number, number][] } {
  const inst = stripe.instance({ fixture, seed: 1, slowCallMs: Infinity });
  try {
    // The database opens on first use: before the advance, not in its first slice.
    inst.operation('GetCharges', {
      params: { limit: 1 },
      path: {},
      version: '2026-10-28.endive',
      idempotency_key: null,
    });
    const run = inst[advanceInSlices](days * 86_400_000);
    const times: [number, number][] = [];
    const us = () => Number(process.hrtime.bigint() / 1000n);
    let outcome = null;
    while (outcome === null) {
      const t = us();
      outcome = run.slice(budgetMs);
      times.push([t, us()]);
    }
    const ms = times.map(([a, b]) => (b - a) / 1000);
    const sorted = [...ms].sort((a, b) => a - b);
    const stats: SliceStats = {
      slices: ms.length,
      p50: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      p99: quantile(sorted, 0.99),
      max: sorted[sorted.length - 1],
      over30: ms.filter((x) => x > 30).length,
      last: ms[ms.length - 1],
      totalMs: ms.reduce((a, b) => a + b, 0),
      ok: outcome.ok,
    };
    return { stats, times };
  } finally {
    inst.destroy();
  }
}

export function formatSlices(s: SliceStats): string {
  const f = (x: number) => x.toFixed(1) + ' ms';
  return `| ${s.slices.toLocaleString('en-US')} | ${f(s.p50)} | ${f(s.p90)} | ${f(s.p99)} | ${f(s.max)} | ${s.over30} | ${f(s.last)} | ${(s.totalMs / 1000).toFixed(1)} s |`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const fixture = arg('--fixture') ?? 'big_co';
  const days = Number(arg('--days') ?? 30);
  const { stats, times } = measureSlices(fixture, days);
  const file = arg('--times');
  if (file !== undefined) writeFileSync(file, JSON.stringify(times));
  process.stdout.write(`${fixture}, ${days} days${stats.ok ? '' : ' (the advance failed)'}\n`);
  process.stdout.write(
    '| slices | p50 | p90 | p99 | longest | over 30 ms | last | total |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  process.stdout.write(formatSlices(stats) + '\n');
}
