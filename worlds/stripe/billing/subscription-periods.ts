/**
 * A subscription's calendar and amounts, pure: interval arithmetic anchored to the billing cycle, proration, an item's
 * amount, the period and interval a subscription is in, whether it has ended, and the text of its invoice lines.
 * Nothing here reads or writes the database.
 */
import { DAY } from '../lib/money.ts';
import type { Stored } from '../lib/store.ts';
import { priceAmount } from './invoice-totals.ts';

export const ENDED = new Set(['canceled', 'incomplete_expired']);

// ——— Periods ———————————————————————————————————————————————————————————————————————————————————————————————————

/** `n` intervals after `anchor` (unix seconds). Months count on the calendar and keep the anchor's day, clamped to the month's end. */
export function addIntervals(anchor: number, interval: string, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * DAY;
  if (interval === 'week') return anchor + n * count * 7 * DAY;
  const months = (interval === 'year' ? 12 : 1) * count * n;
  const d = new Date(anchor * 1000);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ),
  );
  const last = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return Math.floor(target.getTime() / 1000);
}

/** The first boundary of the cycle anchored at `anchor` that falls after `t`. */
export function boundaryAfter(anchor: number, t: number, interval: string, count: number): number {
  if (anchor > t) {
    // A future anchor (a trial's end) is itself the next boundary unless a whole interval fits before it.
    let n = 0;
    while (addIntervals(anchor, interval, count, n - 1) > t) n--;
    return addIntervals(anchor, interval, count, n);
  }
  // Estimate the count, then step: calendar months are uneven.
  const approx =
    interval === 'day'
      ? DAY
      : interval === 'week'
        ? 7 * DAY
        : interval === 'month'
          ? 30 * DAY
          : 365 * DAY;
  let n = Math.max(1, Math.floor((t - anchor) / (approx * count)));
  while (n > 1 && addIntervals(anchor, interval, count, n - 1) > t) n--;
  while (addIntervals(anchor, interval, count, n) <= t) n++;
  return addIntervals(anchor, interval, count, n);
}

/** Stripe's proration: the share of `amount` for `remaining` of `length` seconds, rounded to the minor unit. */
export function prorate(amount: number, remaining: number, length: number): number {
  if (length <= 0) return 0;
  return Math.round((amount * remaining) / length);
}

// ——— Contexts ——————————————————————————————————————————————————————————————————————————————————————————————————

/** The amount an item bills per period: the price's unit amount times its quantity. */
export function itemAmount(item: Stored<'subscription_items'>): number {
  return priceAmount(item.price, item.quantity ?? 1);
}

/** The subscription's current period, from its items. */
export function periodOf(sub: Stored<'subscriptions'>): { start: number; end: number } {
  const first = sub.items.data[0];
  return {
    start: first?.current_period_start ?? sub.start_date,
    end: first?.current_period_end ?? sub.start_date,
  };
}

/** The interval the subscription bills on (all its items share it). */
export function intervalOf(sub: Stored<'subscriptions'>): { interval: string; count: number } {
  const r = sub.items.data[0]?.price?.recurring ?? { interval: 'month', interval_count: 1 };
  return { interval: r.interval, count: r.interval_count ?? 1 };
}

export function formatMoney(amount: number, currency: string): string {
  const symbol: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };
  const text = (amount / 100).toFixed(2);
  return symbol[currency] ? `${symbol[currency]}${text}` : `${text} ${currency.toUpperCase()}`;
}

/** `15 Jun 2026`, as Stripe writes dates in proration descriptions. */
export function formatDate(t: number): string {
  const d = new Date(t * 1000);
  const months = [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Whether a subscription has ended (canceled, or expired before its first payment). */
export function hasEnded(sub: Stored<'subscriptions'>): boolean {
  return ENDED.has(sub.status);
}
