import { describe, expect, it } from 'vitest';
import { stripe } from '../index.ts';
import { runFixtureBuild } from 'seahaven/internal/core/instance-internals';
import { BIG_CO, generate, scaledHistory } from '../fixtures/generate.ts';
import { EVENT_RETENTION } from '../lib/retention.ts';

// big_co's generator path (the bulk one-off charges, their refunds and disputes, scheduled payouts, a year of
// subscription billing) at a hundredth of its size: building big_co itself takes minutes, so the suite never does.

const NOW = '2026-06-01T09:00:00.000Z';
const now = Date.parse(NOW) / 1000;
const size = scaledHistory(BIG_CO, 0.01);

describe('big_co at 1/100', () => {
  const inst = stripe.instance({ seed: 0, clock: 'fixed', now: NOW });
  inst[runFixtureBuild]((ctx) => void generate(ctx, size));
  const count = (sql: string, ...params: unknown[]): number =>
    inst.query<{ n: number }>(sql, ...params)[0].n;

  it('has the customers, subscriptions and a year of billing', () => {
    expect(count('SELECT count(*) AS n FROM customers')).toBe(size.customers);
    expect(count('SELECT count(*) AS n FROM subscriptions')).toBe(size.subscriptions);
    expect(count('SELECT count(DISTINCT customer) AS n FROM subscriptions')).toBe(size.subscribers);
    const months = inst
      .query<{ m: string }>(
        "SELECT DISTINCT strftime('%Y-%m', created, 'unixepoch') AS m FROM invoices WHERE status = 'paid' ORDER BY m",
      )
      .map((r) => r.m);
    expect(months).toHaveLength(12);
    expect(count('SELECT count(*) AS n FROM subscriptions WHERE billing_due <= ?', now)).toBe(0);
  });

  it('has the one-off charges, declines, refunds in full and in part, disputes and payouts', () => {
    const bulk = size.bulk!;
    expect(count('SELECT count(*) AS n FROM charges WHERE payment_intent IS NULL')).toBe(
      bulk.charges,
    );
    expect(
      count("SELECT count(*) AS n FROM charges WHERE status = 'failed' AND payment_intent IS NULL"),
    ).toBeGreaterThan(0);
    expect(count("SELECT count(*) AS n FROM balance_transactions WHERE type = 'charge'")).toBe(
      count("SELECT count(*) AS n FROM charges WHERE status = 'succeeded'"),
    );
    expect(
      count("SELECT count(*) AS n FROM charges WHERE json_extract(data, '$.refunded') = 1"),
    ).toBeGreaterThan(0);
    expect(
      count(
        "SELECT count(*) AS n FROM charges WHERE json_extract(data, '$.refunded') = 0 AND json_extract(data, '$.amount_refunded') > 0",
      ),
    ).toBeGreaterThan(0);
    const disputes = Object.fromEntries(
      inst
        .query<{ status: string; n: number }>(
          'SELECT status, count(*) AS n FROM disputes GROUP BY status ORDER BY status',
        )
        .map((r) => [r.status, r.n]),
    );
    expect(disputes).toEqual({ lost: 2, needs_response: 1, won: 1 });
    const payouts = count('SELECT count(*) AS n FROM payouts');
    expect(payouts).toBeGreaterThan(300); // daily, once there are funds
    expect(count("SELECT count(*) AS n FROM balance_transactions WHERE type = 'payout'")).toBe(
      payouts,
    );
    expect(count("SELECT count(*) AS n FROM payouts WHERE status = 'paid'")).toBeGreaterThanOrEqual(
      payouts - 2,
    ); // the last ones are still on their way
  });

  it('keeps 30 days of events, as Stripe does', () => {
    const oldest = inst.query<{ t: number }>('SELECT min(created) AS t FROM events')[0].t;
    expect(oldest).toBeGreaterThanOrEqual(now - EVENT_RETENTION);
    expect(oldest).toBeLessThan(now - EVENT_RETENTION + 86_400);
  });
});

describe('event retention', () => {
  it('forgets events older than 30 days when the clock advances, recorded as deletions', () => {
    const inst = stripe.instance({ fixture: 'small_startup' });
    const cutoff = now + 2 * 86_400 - EVENT_RETENTION;
    const count = (sql: string, ...params: unknown[]): number =>
      inst.query<{ n: number }>(sql, ...params)[0].n;
    const before = count('SELECT count(*) AS n FROM events WHERE created < ?', cutoff);
    expect(before).toBeGreaterThan(0);
    expect(inst.advanceClock(2 * 86_400_000).ok).toBe(true);
    expect(count('SELECT count(*) AS n FROM events WHERE created < ?', cutoff)).toBe(0);
    expect(inst.changes().filter((c) => c.table === 'events' && c.op === 'delete')).toHaveLength(
      before,
    );
    inst.destroy();
  }, 60_000);
});
