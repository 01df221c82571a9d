/**
 * What a test clock's time does: advancing it bills its customers' subscriptions and invoices exactly as the world
 * clock's advance bills the others (`billingSteps`, subscription-cycle.ts: renewals, trial ends, finalization and
 * payment, retries, cancellations, each boundary at its own instant), scoped to the clock's subscriptions and run on
 * its time; deleting it deletes its customers, ending their subscriptions.
 *
 * An advance completes within its call: the reply is the clock `ready` at its new `frozen_time`, after
 * `test_helpers.test_clock.advancing` (the clock as Stripe shows it while advancing, `status_details.advancing`) and
 * the billing events, then `test_helpers.test_clock.ready`. A loop that polls until `status` is `ready` ends at once.
 *
 * Limits, as Stripe documents them for `advance`: the new time must be after the current `frozen_time`, and at most
 * two intervals of the clock's shortest live subscription ahead of it (two years without one).
 */
import type { Ctx } from 'seahaven';
import { emit } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import type { OpContext } from '../lib/op.ts';
import { onClockTime } from '../lib/test-clocks.ts';
import { get, nowSeconds, put, remove, rows, type Stored } from '../lib/store.ts';
import { billingSteps, endNow } from './subscription-cycle.ts';
import { ENDED, addIntervals, intervalOf } from './subscription-periods.ts';

/** How long a clock lives before the world deletes it: 7 days, as Stripe's example clock shows (`deletes_after`). */
export const CLOCK_LIFETIME = 7 * 86_400;

/** `c` on a clock's time `at`. */
function onClockOf(c: OpContext, at: number): OpContext {
  return { ...c, ctx: onClockTime(c.ctx, at) };
}

/** The live subscriptions on a clock, oldest first. */
function subscriptionsOn(ctx: Ctx, clock: string): Stored<'subscriptions'>[] {
  return rows(ctx, 'subscriptions', 'test_clock = ?', [clock], true).filter(
    (s) => !ENDED.has(s.status),
  );
}

/** The latest time `clock` may advance to: two intervals of its shortest live subscription, else two years. */
function advanceLimit(ctx: Ctx, clock: Stored<'test_clocks'>): { limit: number; what: string } {
  const from = clock.frozen_time as number;
  let best = { limit: addIntervals(from, 'year', 1, 2), what: 'two years' };
  for (const sub of subscriptionsOn(ctx, clock.id)) {
    const { interval, count } = intervalOf(sub);
    const limit = addIntervals(from, interval, count, 2);
    if (limit < best.limit)
      best = { limit, what: `two intervals of its shortest subscription (${sub.id})` };
  }
  return best;
}

/** Advance `clock` to `to`: check the limits, then bill everything on it due by then, on its time. */
export function advanceClock(
  c: OpContext,
  clock: Stored<'test_clocks'>,
  to: number,
): Stored<'test_clocks'> {
  const from = clock.frozen_time as number;
  if (clock.status !== 'ready')
    throw invalidRequest(
      `The test clock ${clock.id} is ${clock.status}; it can be advanced only when its status is ready.`,
      'test_clock',
    );
  if (to <= from)
    throw invalidRequest(
      `The frozen_time you specified (${to}) must be after the test clock's current frozen_time (${from}). Test clocks only move forward.`,
      'frozen_time',
    );
  const { limit, what } = advanceLimit(c.ctx, clock);
  if (to > limit)
    throw invalidRequest(
      `A test clock can advance at most ${what} at a time: frozen_time may be at most ${limit}. Advance to ${limit} or earlier, then advance again.`,
      'frozen_time',
    );
  // The clock's own events carry its time: `advancing` the time it leaves, `ready` the time it reached.
  emit(onClockOf(c, from), 'test_helpers.test_clock.advancing', {
    ...clock,
    status: 'advancing' as const,
    status_details: { advancing: { target_frozen_time: to } },
  });
  // Billing on the clock's time, the world's kept for webhook deliveries (lib/test-clocks.ts).
  const onClock = onClockTime(c.ctx, from);
  const steps = billingSteps(onClock, { from: from * 1000, to: to * 1000 }, clock.id);
  while (!steps.next().done);
  const ready = { ...clock, frozen_time: to, status: 'ready' as const, status_details: {} };
  put(c.ctx, 'test_clocks', ready);
  emit(onClockOf(c, to), 'test_helpers.test_clock.ready', ready);
  return ready;
}

/** Delete `clock`: its customers are deleted and their live subscriptions end, at the clock's time; then the clock. */
export function deleteClock(c: OpContext, clock: Stored<'test_clocks'>): void {
  const at = clock.frozen_time as number;
  const onClock = onClockOf(c, at);
  for (const sub of subscriptionsOn(c.ctx, clock.id))
    endNow(onClock, sub, at, 'cancellation_requested');
  for (const customer of rows(
    c.ctx,
    'customers',
    'test_clock = ? AND deleted = 0',
    [clock.id],
    true,
  )) {
    // As a customer's delete leaves it (resources/customers.ts): a stub that keeps `created` for ordering.
    const stub = { id: customer.id, object: 'customer', deleted: true };
    // The row holds the stub in the customer's place; readers check `deleted` first (liveCustomer).
    const stored = { ...stub, created: customer.created, test_clock: clock.id };
    put(c.ctx, 'customers', stored as Stored<'customers'>);
    c.ctx.db.run('UPDATE customers SET data = ? WHERE id = ?', JSON.stringify(stub), customer.id);
    emit(onClock, 'customer.deleted', customer);
  }
  remove(c.ctx, 'test_clocks', clock.id);
  emit(c, 'test_helpers.test_clock.deleted', clock);
}

/** Delete the clocks whose `deletes_after` the world clock has reached (the world's `onClockAdvance`). */
export function expireClocks(c: OpContext): number {
  const now = nowSeconds(c.ctx);
  const due = c.ctx.db.all<{ id: string }>(
    "SELECT id FROM test_clocks WHERE json_extract(data, '$.deletes_after') <= ? ORDER BY seq",
    now,
  );
  for (const { id } of due) deleteClock(c, get(c.ctx, 'test_clocks', id)!);
  return due.length;
}
