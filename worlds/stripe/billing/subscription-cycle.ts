/**
 * Subscriptions and the billing the clock drives. A subscription's items carry its period (`current_period_start/end`,
 * on the items since 2025-03-31.basil); every item of a subscription shares one interval and one period. The object is
 * stored whole, its items embedded (`items`, a list envelope) and mirrored one row each in `subscription_items`.
 *
 * When the clock passes, `billingTick` (the world's `onClockAdvance`) visits the subscriptions with something due, in
 * time order, by the indexed `billing_due` column: the earliest instant at which the clock owes the subscription
 * something (a renewal, a trial's end or its three-day notice, a payment retry, a scheduled cancellation, the end of an
 * incomplete subscription's 23 hours, a collection pause that resumes). Each boundary is processed at its own time:
 * objects it writes are stamped with that instant, so a month advanced at once reads as a month lived day by day.
 *
 * Every tick ends by forgetting the events older than Stripe's 30 days of retention (retention.ts).
 *
 * Rules chosen where Stripe leaves them to the account's settings (docs/stripe.md):
 *  - A failed renewal leaves the subscription `past_due` and its invoice open; payment is retried 3, 5 and 7 days after
 *    the previous attempt (Stripe's suggested custom schedule). When the last retry fails the subscription is canceled
 *    (`cancellation_details.reason: payment_failed`) and the invoice is left open, Stripe's default settings.
 *  - Only a subscription's latest invoice is retried; an older open invoice waits for an explicit `pay`.
 *  - `unpaid`, `paused` and ended subscriptions do not renew.
 */
import { type Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { DAY } from '../lib/money.ts';
import { DEFAULT_API_VERSION, type OpContext } from '../lib/op.ts';
import { coalescedWrites, get, nowSeconds, type Stored } from '../lib/store.ts';
import { pruneEvents } from '../lib/retention.ts';
import { attemptQuietly, collectDueInvoices, markUncollectible, voidInvoice } from './invoicing.ts';
import {
  RETRY_DAYS,
  saveSubscription,
  retryDue,
  updated,
  draftInvoice,
} from './subscription-model.ts';
import { ENDED, boundaryAfter, periodOf, intervalOf } from './subscription-periods.ts';
import { moveSubscription } from './subscription-states.ts';
import { copyJson } from '../lib/clone.ts';

/**
 * A context whose clock reads `at` (unix seconds): what billing writes while processing a boundary is stamped with the
 * boundary's instant. Events it sends carry no request, as Stripe's automatic billing events do.
 */
export function contextAt(
  ctx: Ctx,
  at: number,
  request: {
    version: string;
    requestId: string | null;
    idempotencyKey: string | null;
  } | null = null,
): OpContext {
  const ms = at * 1000;
  const stamped: Ctx = { ...ctx, clock: { now: () => ms, iso: () => new Date(ms).toISOString() } };
  // An automatic event's `request.id` is null in Stripe's events; OpContext types it as the request's id.
  return {
    ctx: stamped,
    version: request?.version ?? DEFAULT_API_VERSION,
    requestId: (request?.requestId ?? null) as string,
    idempotencyKey: request?.idempotencyKey ?? null,
  };
}

// ——— Objects ———————————————————————————————————————————————————————————————————————————————————————————————————

export interface TickSummary {
  renewed: number;
  trials_ended: number;
  payments_failed: number;
  retried: number;
  canceled: number;
  expired: number;
}

/**
 * What the clock owes the subscriptions between `from` and `to` (epoch ms): each due subscription in time order,
 * each boundary at its own instant, until nothing is due by `to`.
 */
export function billingTick(ctx: Ctx, passed: { from: number; to: number }): TickSummary {
  const steps = billingSteps(ctx, passed);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `billingTick` as the world's `onClockAdvance`: a generator that pauses after each subscription's step and each
 * hundred pruned events, so the kit can run a long advance in slices and answer other sessions between them. Pausing
 * changes only when the next part runs: every part reads what it does next from the store, never from how the advance
 * was sliced.
 */
export function* billingSteps(
  ctx: Ctx,
  passed: { from: number; to: number },
  testClock: string | null = null,
): Generator<void, TickSummary> {
  const end = Math.floor(passed.to / 1000);
  const summary: TickSummary = {
    renewed: 0,
    trials_ended: 0,
    payments_failed: 0,
    retried: 0,
    canceled: 0,
    expired: 0,
  };
  for (;;) {
    // The world clock bills the subscriptions on no test clock; a test clock's advance bills its own (test-clock-advance.ts).
    const next =
      testClock === null
        ? ctx.db.one<{ id: string; billing_due: number }>(
            'SELECT id, billing_due FROM subscriptions WHERE billing_due <= ? AND test_clock IS NULL ORDER BY billing_due, seq LIMIT 1',
            end,
          )
        : ctx.db.one<{ id: string; billing_due: number }>(
            'SELECT id, billing_due FROM subscriptions WHERE test_clock = ? AND billing_due <= ? ORDER BY billing_due, seq LIMIT 1',
            testClock,
            end,
          );
    if (!next) break;
    // A step writes its invoice, payment intent and payment record once each, with their last values (coalesce.ts).
    const stamped = contextAt(ctx, next.billing_due);
    const writes = coalescedWrites(stamped.ctx);
    const c = { ...stamped, ctx: writes.ctx };
    const sub = get(ctx, 'subscriptions', next.id)!;
    yield* step(c, sub, next.billing_due, summary);
    writes.end();
    const after = ctx.db.one<{ billing_due: number | null }>(
      'SELECT billing_due FROM subscriptions WHERE id = ?',
      next.id,
    )!;
    // Every step moves the subscription's schedule on; a schedule that stood still would never end.
    if (after.billing_due !== null && after.billing_due <= next.billing_due)
      throw new Error(`billing for ${next.id} did not advance past ${next.billing_due}`);
    yield;
  }
  // Invoices outside subscriptions (auto-advancing drafts, their retries) are collected as of the new time.
  collectDueInvoices(contextAt(ctx, end), testClock);
  yield;
  // Events older than Stripe's 30 days of retention are gone (lib/retention.ts), a hundred per pause: on the world clock.
  if (testClock === null) yield* pruneEvents(ctx, end);
  return summary;
}

/** Everything due on `sub` at `at`, in order: expiry, trial notice and end, collection resuming, cancellation, retry, renewal. */
function* step(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  at: number,
  summary: TickSummary,
): Generator<void, void> {
  if (sub.status === 'incomplete') {
    expire(c, sub);
    summary.expired++;
    return;
  }
  if (sub.cancel_at !== null && sub.cancel_at <= at) {
    endNow(c, sub, at, 'cancellation_requested');
    summary.canceled++;
    return;
  }
  if (sub.status === 'trialing') {
    if (sub.trial_end !== null && at < sub.trial_end) {
      emit(c, 'customer.subscription.trial_will_end', sub);
      saveSubscription(c.ctx, sub);
      return;
    }
    yield* endTrial(c, sub, at, summary);
    return;
  }
  let current = sub;
  if (current.pause_collection?.resumes_at && current.pause_collection.resumes_at <= at) {
    current = updated(c, sub, { ...copyJson(sub), pause_collection: null });
  }
  const retry = retryDue(c.ctx, current);
  if (retry !== null && retry <= at) {
    current = retryPayment(c, current, at, summary);
    if (ENDED.has(current.status)) return;
  }
  if (periodOf(current).end <= at) {
    yield* renew(c, current, at, summary);
    return;
  }
  saveSubscription(c.ctx, current);
}

/** An `incomplete` subscription whose first invoice went unpaid for 23 hours: `incomplete_expired`, its invoice voided. */
function expire(c: OpContext, sub: Stored<'subscriptions'>): void {
  const after = copyJson(sub);
  moveSubscription(after, 'incomplete_expired');
  after.ended_at = nowSeconds(c.ctx);
  const inv = sub.latest_invoice ? get(c.ctx, 'invoices', sub.latest_invoice) : undefined;
  if (inv && inv.status === 'open') voidInvoice(c, inv);
  saveSubscription(c.ctx, after);
  emit(c, 'customer.subscription.deleted', after);
}

/** End a subscription now (a scheduled cancellation reached, or the retries ran out). */
export function endNow(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  at: number,
  reason: 'cancellation_requested' | 'payment_failed',
): Stored<'subscriptions'> {
  const after = copyJson(sub);
  moveSubscription(after, 'canceled');
  after.ended_at = at;
  after.canceled_at ??= at;
  after.cancel_at_period_end = sub.cancel_at_period_end;
  after.cancellation_details = {
    ...(after.cancellation_details ?? { comment: null, feedback: null, feedback_option: null }),
    reason,
  };
  saveSubscription(c.ctx, after);
  emit(c, 'customer.subscription.deleted', after);
  return after;
}

/** Move every item to the period that starts at `at`. */
export function startPeriod(sub: Stored<'subscriptions'>, at: number): void {
  const { interval, count } = intervalOf(sub);
  const end = boundaryAfter(sub.billing_cycle_anchor, at, interval, count);
  for (const item of sub.items.data) {
    item.current_period_start = at;
    item.current_period_end = end;
  }
}

/** A period boundary: the next period begins, its invoice is made and collected. */
function* renew(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  at: number,
  summary: TickSummary,
): Generator<void, void> {
  const after = copyJson(sub);
  const previous = periodOf(sub);
  startPeriod(after, at);
  summary.renewed++;
  yield* billPeriod(c, sub, after, previous, 'subscription_cycle', summary);
}

/** A trial's end: the first paid period begins (or the subscription pauses or cancels without a payment method). */
function* endTrial(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  at: number,
  summary: TickSummary,
): Generator<void, void> {
  summary.trials_ended++;
  const after = copyJson(sub);
  const previous = periodOf(sub);
  const missing = sub.trial_settings?.end_behavior?.missing_payment_method ?? 'create_invoice';
  if (
    missing !== 'create_invoice' &&
    sub.collection_method === 'charge_automatically' &&
    !hasPaymentMethod(c.ctx, sub)
  ) {
    if (missing === 'cancel') {
      endNow(c, sub, at, 'cancellation_requested');
      summary.canceled++;
      return;
    }
    moveSubscription(after, 'paused');
    saveSubscription(c.ctx, after);
    emit(c, 'customer.subscription.paused', after, changedAttributes(sub, after));
    return;
  }
  startPeriod(after, at);
  moveSubscription(after, 'active');
  yield* billPeriod(c, sub, after, previous, 'subscription_cycle', summary);
}

/** Whether the subscription has something to charge: its own default payment method or the customer's. */
export function hasPaymentMethod(ctx: Ctx, sub: Stored<'subscriptions'>): boolean {
  if (sub.default_payment_method) return true;
  const customer = get(ctx, 'customers', sub.customer);
  return Boolean(customer?.invoice_settings?.default_payment_method || customer?.default_source);
}

/**
 * Invoice the period `after` has begun, collect it off-session, and settle the subscription's status by the outcome.
 * The billing run may pause between the invoice and its payment (each is a few milliseconds on a large account).
 */
function* billPeriod(
  c: OpContext,
  before: Stored<'subscriptions'>,
  after: Stored<'subscriptions'>,
  previous: { start: number; end: number },
  reason: 'subscription_cycle',
  summary: TickSummary,
): Generator<void, void> {
  const at = nowSeconds(c.ctx);
  const pause = after.pause_collection?.behavior as string | undefined;
  if (pause === 'keep_as_draft') {
    after.latest_invoice = draftInvoice(c, after, {
      billing_reason: reason,
      items: true,
      period: previous,
      autoAdvance: false,
    }).id;
    updated(c, before, after);
    return;
  }
  let invoice = draftInvoice(c, after, {
    billing_reason: reason,
    items: true,
    period: previous,
    finalize: true,
  });
  after.latest_invoice = invoice.id;
  if (pause === 'void' || pause === 'mark_uncollectible') {
    // Collection is paused: the period's invoice is closed without a payment attempt.
    if (invoice.status === 'open') (pause === 'void' ? voidInvoice : markUncollectible)(c, invoice);
    updated(c, before, after);
    return;
  }
  yield;
  if (invoice.status === 'open' && after.collection_method === 'charge_automatically')
    invoice = attemptQuietly(c, invoice, retrySchedule(at));
  if (invoice.status === 'open' && after.collection_method === 'charge_automatically') {
    summary.payments_failed++;
    moveSubscription(after, 'past_due');
  } else if (invoice.status === 'paid' && after.status === 'past_due') {
    moveSubscription(after, 'active');
  }
  updated(c, before, after);
}

/**
 * After a failed attempt at `at`: the invoice's next attempt on this schedule, or none when the retries are spent. The
 * payment attempt writes it with the decline, so a renewal writes its invoice once per step.
 */
function retrySchedule(at: number): (attemptCount: number) => number | null {
  return (attemptCount) => {
    const wait = RETRY_DAYS[Math.max(1, attemptCount ?? 1) - 1];
    return wait === undefined ? null : at + wait * DAY;
  };
}

/** A scheduled retry of the latest invoice: paid → `active`; declined → the next retry, or the end once they are spent. */
function retryPayment(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  at: number,
  summary: TickSummary,
): Stored<'subscriptions'> {
  summary.retried++;
  // A subscription retried is past due on its latest invoice, which it has.
  const latest = get(c.ctx, 'invoices', sub.latest_invoice as string)!;
  const inv = attemptQuietly(c, latest, retrySchedule(at));
  if (inv.status === 'paid') {
    const after = copyJson(sub);
    if (after.status === 'past_due' || after.status === 'unpaid') moveSubscription(after, 'active');
    return updated(c, sub, after);
  }
  summary.payments_failed++;
  if (inv.next_payment_attempt === null) {
    summary.canceled++;
    return endNow(c, sub, at, 'payment_failed');
  }
  saveSubscription(c.ctx, sub);
  return sub;
}

// ——— Invoice outcomes seen from the subscription —————————————————————————————————————————————————————————————————

/**
 * An invoice of a subscription was paid outside its own collection (`invoices.pay`, a confirmed payment intent): an
 * `incomplete` subscription becomes `active`, a `past_due` one too when this was its latest invoice.
 */
export function subscriptionInvoicePaid(c: OpContext, invoice: Stored<'invoices'>): void {
  const subId = invoice.parent?.subscription_details?.subscription;
  if (typeof subId !== 'string') return;
  const sub = get(c.ctx, 'subscriptions', subId);
  if (!sub || sub.latest_invoice !== invoice.id) return;
  if (sub.status !== 'incomplete' && sub.status !== 'past_due' && sub.status !== 'unpaid') return;
  const after = copyJson(sub);
  moveSubscription(after, 'active');
  updated(c, sub, after);
}
