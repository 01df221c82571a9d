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
import type { Ctx } from '../../../kit/index.ts';
import { isFailed, StripeError, type Failed } from '../lib/errors.ts';
import { emit, emitStored, changedAttributes } from '../lib/events.ts';
import { DAY } from '../lib/money.ts';
import { DEFAULT_API_VERSION, type OpContext } from '../lib/op.ts';
import { get, newId, nowSeconds, put, putJson, remove, rows, type Obj } from '../lib/store.ts';
import { pruneEvents } from '../lib/retention.ts';
import {
  attemptQuietly,
  collectDueInvoices,
  createDraftInvoice,
  createFinalizedInvoice,
  createInvoiceItem,
  finalizeInvoice,
  markUncollectible,
  payInvoice,
  priceAmount,
  voidInvoice,
  type LineInput,
} from './invoicing.ts';

/** Stripe allows 20 items on a subscription. */
export const MAX_ITEMS = 20;
/** How long an `incomplete` subscription waits for its first payment before it expires. */
export const INCOMPLETE_WINDOW = 23 * 3600;
/** `customer.subscription.trial_will_end` is sent this long before a trial ends. */
export const TRIAL_NOTICE = 3 * DAY;
/** Days after the previous attempt at which a failed subscription invoice is retried. */
export const RETRY_DAYS: readonly number[] = [3, 5, 7];

const ENDED = new Set(['canceled', 'incomplete_expired']);

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

/** The amount an item bills per period: the price's unit amount times its quantity. */
export function itemAmount(item: Obj): number {
  return priceAmount(item.price, item.quantity ?? 1);
}

/** A new subscription item for `price` (stored through `saveSubscription`). */
export function newItem(
  ctx: Ctx,
  sub: Obj,
  price: Obj,
  plan: Obj,
  quantity: number,
  metadata: Record<string, string>,
  start: number,
  end: number,
): Obj {
  return {
    id: newId(ctx, 'si_'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: nowSeconds(ctx),
    current_period_end: end,
    current_period_start: start,
    discounts: [],
    metadata,
    plan,
    price,
    quantity,
    subscription: sub.id,
    tax_rates: [],
  };
}

/** The items' list envelope on a subscription. */
export function itemsEnvelope(subId: string, data: Obj[]): Obj {
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: `/v1/subscription_items?subscription=${subId}`,
  };
}

/** The subscription's current period, from its items. */
export function periodOf(sub: Obj): { start: number; end: number } {
  const first = sub.items.data[0];
  return {
    start: first?.current_period_start ?? sub.start_date,
    end: first?.current_period_end ?? sub.start_date,
  };
}

/** The interval the subscription bills on (all its items share it). */
export function intervalOf(sub: Obj): { interval: string; count: number } {
  const r = sub.items.data[0]?.price?.recurring ?? { interval: 'month', interval_count: 1 };
  return { interval: r.interval, count: r.interval_count ?? 1 };
}

/**
 * Store a subscription and its items (items no longer on it are forgotten), and schedule what the clock owes it next.
 * `at`: the instant it is saved at (the boundary being processed, or now).
 */
export function saveSubscription(ctx: Ctx, sub: Obj, removedItems: string[] = []): Obj {
  storeSubscription(ctx, sub, removedItems);
  return sub;
}

/** `saveSubscription`, answering the subscription's stored JSON (for the event about it, `emitStored`). */
function storeSubscription(ctx: Ctx, sub: Obj, removedItems: string[]): string {
  sub.items = itemsEnvelope(sub.id, sub.items.data);
  const json = putJson(ctx, 'subscriptions', sub);
  for (const item of sub.items.data) put(ctx, 'subscription_items', item);
  for (const id of removedItems) remove(ctx, 'subscription_items', id);
  ctx.db.run('UPDATE subscriptions SET billing_due = ? WHERE id = ?', dueOf(ctx, sub), sub.id);
  return json;
}

/** The earliest instant the clock owes `sub` something, or null (nothing until someone acts). */
export function dueOf(ctx: Ctx, sub: Obj): number | null {
  const now = nowSeconds(ctx);
  const times: number[] = [];
  if (sub.status === 'incomplete') return sub.created + INCOMPLETE_WINDOW;
  if (sub.status === 'trialing') {
    times.push(sub.trial_end - TRIAL_NOTICE > now ? sub.trial_end - TRIAL_NOTICE : sub.trial_end);
  } else if (sub.status === 'active' || sub.status === 'past_due') {
    times.push(periodOf(sub).end);
    if (sub.pause_collection?.resumes_at) times.push(sub.pause_collection.resumes_at);
    const retry = retryDue(ctx, sub);
    if (retry !== null) times.push(retry);
  } else {
    return null;
  }
  if (sub.cancel_at) times.push(sub.cancel_at);
  return Math.min(...times);
}

/** When the subscription's latest invoice is next retried, if it is an open one awaiting a retry. */
function retryDue(ctx: Ctx, sub: Obj): number | null {
  if (!sub.latest_invoice) return null;
  // Every save of a subscription asks, so the invoice's `status` column (`put` keeps it in step with the object) answers
  // first: only an open invoice is read whole.
  const status = ctx.db.one<{ status: string | null }>(
    'SELECT status FROM invoices WHERE id = ?',
    sub.latest_invoice,
  )?.status;
  if (status !== 'open') return null;
  const inv = get(ctx, 'invoices', sub.latest_invoice);
  return inv && typeof inv.next_payment_attempt === 'number' ? inv.next_payment_attempt : null;
}

/** Write the subscription and announce the change: `customer.subscription.updated` with what changed. */
export function updated(c: OpContext, before: Obj, after: Obj, removedItems: string[] = []): Obj {
  const json = storeSubscription(c.ctx, after, removedItems);
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length > 0)
    emitStored(c, 'customer.subscription.updated', after, json, changed);
  return after;
}

// ——— Invoices ——————————————————————————————————————————————————————————————————————————————————————————————————

/** `1 × Pro (at $30.00 / month)`, Stripe's line description for an item's period. */
function lineDescription(ctx: Ctx, item: Obj): string {
  const name = productName(ctx, item.price);
  const r = item.price.recurring ?? {};
  const every =
    (r.interval_count ?? 1) === 1 ? r.interval : `every ${r.interval_count} ${r.interval}s`;
  return `${item.quantity} × ${name} (at ${formatMoney(item.price.unit_amount ?? 0, item.price.currency)} / ${every})`;
}

function productName(ctx: Ctx, price: Obj): string {
  const id = typeof price.product === 'string' ? price.product : price.product?.id;
  return (id && get(ctx, 'products', id)?.name) || price.nickname || 'Subscription item';
}

function formatMoney(amount: number, currency: string): string {
  const symbol: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };
  const text = (amount / 100).toFixed(2);
  return symbol[currency] ? `${symbol[currency]}${text}` : `${text} ${currency.toUpperCase()}`;
}

/** `15 Jun 2026`, as Stripe writes dates in proration descriptions. */
function formatDate(t: number): string {
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

/**
 * A pending proration invoice item: the credit for unused time (`sign` −1) or the charge for remaining time (+1) on an
 * item from `at` to its period's end. Returns null when it rounds to nothing.
 */
export function prorationItem(
  c: OpContext,
  sub: Obj,
  item: Obj,
  sign: 1 | -1,
  at: number,
): Obj | null {
  const { start, end } = { start: item.current_period_start, end: item.current_period_end };
  const amount = sign * prorate(itemAmount(item), end - at, end - start);
  if (amount === 0) return null;
  const qty = item.quantity ?? 1;
  const what = `${qty > 1 ? `${qty} × ` : ''}${productName(c.ctx, item.price)}`;
  return createInvoiceItem(c, {
    customer: sub.customer,
    amount,
    currency: item.price.currency,
    description: `${sign < 0 ? 'Unused' : 'Remaining'} time on ${what} after ${formatDate(at)}`,
    period: { start: at, end },
    subscription: sub.id,
    subscription_item: item.id,
    proration: true,
  });
}

/** The subscription's invoice items not yet on an invoice, oldest first. */
export function pendingItemsOf(ctx: Ctx, sub: Obj): Obj[] {
  return rows(ctx, 'invoiceitems', 'customer = ? AND invoice IS NULL', [sub.customer], true).filter(
    (ii) => ii.parent?.subscription_details?.subscription === sub.id,
  );
}

export interface SubscriptionInvoice {
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** Bill each item for its current period at full price. */
  items: boolean;
  /** The invoice's own period (the period just ended, for a renewal). */
  period: { start: number; end: number };
  autoAdvance?: boolean;
  /** Finalize it at once (`createFinalizedInvoice`: the draft is announced, not stored). */
  finalize?: boolean;
}

/** A draft invoice for the subscription: a line per item (when asked); its pending invoice items join by themselves. */
export function draftInvoice(c: OpContext, sub: Obj, spec: SubscriptionInvoice): Obj {
  const lines: LineInput[] = !spec.items
    ? []
    : sub.items.data.map((item: Obj) => ({
        price: item.price.id,
        currency: item.price.currency,
        quantity: item.quantity,
        description: lineDescription(c.ctx, item),
        period: { start: item.current_period_start, end: item.current_period_end },
        subscription_item: item.id,
      }));
  return (spec.finalize ? createFinalizedInvoice : createDraftInvoice)(c, {
    customer: sub.customer,
    subscription: sub.id,
    subscription_metadata: sub.metadata,
    collection_method: sub.collection_method,
    days_until_due: sub.collection_method === 'send_invoice' ? sub.days_until_due : null,
    billing_reason: spec.billing_reason,
    period: spec.period,
    currency: sub.currency,
    default_payment_method: sub.default_payment_method,
    description: sub.description,
    // A draft kept while collection is paused stays a draft until someone finalizes it.
    auto_advance: spec.autoAdvance ?? true,
    lines,
  });
}

/**
 * Finalize a subscription invoice and, for automatic collection, pay it with the subscription's payment method (or
 * the customer's default), the customer present. Returns the invoice as it ends up, and the failure if the payment was
 * declined or there was nothing to charge.
 */
export function collect(
  c: OpContext,
  sub: Obj,
  draft: Obj,
  opts: { attempt: boolean; offSession?: boolean },
): { invoice: Obj; failure: Failed | null } {
  const inv = finalizeInvoice(c, draft);
  if (inv.status !== 'open' || sub.collection_method !== 'charge_automatically' || !opts.attempt)
    return { invoice: inv, failure: null };
  let paid: Obj | Failed;
  try {
    paid = payInvoice(c, inv, { off_session: opts.offSession ?? false });
  } catch (e) {
    // Nothing to charge (no payment method on file) fails the first payment as a decline does; the invoice stays open.
    if (!(e instanceof StripeError) || e.status >= 500) throw e;
    paid = { failed: true, status: e.status, error: e.error };
  }
  if (isFailed(paid)) return { invoice: get(c.ctx, 'invoices', inv.id) ?? inv, failure: paid };
  return { invoice: paid, failure: null };
}

// ——— The clock —————————————————————————————————————————————————————————————————————————————————————————————————

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
    const next = ctx.db.one<{ id: string; billing_due: number }>(
      'SELECT id, billing_due FROM subscriptions WHERE billing_due <= ? ORDER BY billing_due, seq LIMIT 1',
      end,
    );
    if (!next) break;
    const c = contextAt(ctx, next.billing_due);
    const sub = get(ctx, 'subscriptions', next.id)!;
    yield* step(c, sub, next.billing_due, summary);
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
  collectDueInvoices(contextAt(ctx, end));
  yield;
  // Events older than Stripe's 30 days of retention are gone (lib/retention.ts), a hundred per pause.
  yield* pruneEvents(ctx, end);
  return summary;
}

/** Everything due on `sub` at `at`, in order: expiry, trial notice and end, collection resuming, cancellation, retry, renewal. */
function* step(c: OpContext, sub: Obj, at: number, summary: TickSummary): Generator<void, void> {
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
    if (at < sub.trial_end) {
      emit(c, 'customer.subscription.trial_will_end', sub);
      saveSubscription(c.ctx, sub);
      return;
    }
    yield* endTrial(c, sub, at, summary);
    return;
  }
  let current = sub;
  if (current.pause_collection?.resumes_at && current.pause_collection.resumes_at <= at) {
    current = updated(c, sub, { ...structuredClone(sub), pause_collection: null });
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
function expire(c: OpContext, sub: Obj): void {
  const after = structuredClone(sub);
  after.status = 'incomplete_expired';
  after.ended_at = nowSeconds(c.ctx);
  const inv = sub.latest_invoice ? get(c.ctx, 'invoices', sub.latest_invoice) : undefined;
  if (inv && inv.status === 'open') voidInvoice(c, inv);
  saveSubscription(c.ctx, after);
  emit(c, 'customer.subscription.deleted', after);
}

/** End a subscription now (a scheduled cancellation reached, or the retries ran out). */
export function endNow(
  c: OpContext,
  sub: Obj,
  at: number,
  reason: 'cancellation_requested' | 'payment_failed',
): Obj {
  const after = structuredClone(sub);
  after.status = 'canceled';
  after.ended_at = at;
  after.canceled_at ??= at;
  after.cancel_at_period_end = sub.cancel_at_period_end;
  after.cancellation_details = { ...after.cancellation_details, reason };
  saveSubscription(c.ctx, after);
  emit(c, 'customer.subscription.deleted', after);
  return after;
}

/** Move every item to the period that starts at `at`. */
export function startPeriod(sub: Obj, at: number): void {
  const { interval, count } = intervalOf(sub);
  const end = boundaryAfter(sub.billing_cycle_anchor, at, interval, count);
  for (const item of sub.items.data) {
    item.current_period_start = at;
    item.current_period_end = end;
  }
}

/** A period boundary: the next period begins, its invoice is made and collected. */
function* renew(c: OpContext, sub: Obj, at: number, summary: TickSummary): Generator<void, void> {
  const after = structuredClone(sub);
  const previous = periodOf(sub);
  startPeriod(after, at);
  summary.renewed++;
  yield* billPeriod(c, sub, after, previous, 'subscription_cycle', summary);
}

/** A trial's end: the first paid period begins (or the subscription pauses or cancels without a payment method). */
function* endTrial(
  c: OpContext,
  sub: Obj,
  at: number,
  summary: TickSummary,
): Generator<void, void> {
  summary.trials_ended++;
  const after = structuredClone(sub);
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
    after.status = 'paused';
    saveSubscription(c.ctx, after);
    emit(c, 'customer.subscription.paused', after, changedAttributes(sub, after));
    return;
  }
  startPeriod(after, at);
  after.status = 'active';
  yield* billPeriod(c, sub, after, previous, 'subscription_cycle', summary);
}

/** Whether the subscription has something to charge: its own default payment method or the customer's. */
export function hasPaymentMethod(ctx: Ctx, sub: Obj): boolean {
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
  before: Obj,
  after: Obj,
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
    invoice = attemptQuietly(c, invoice);
  if (invoice.status === 'open' && after.collection_method === 'charge_automatically') {
    summary.payments_failed++;
    after.status = 'past_due';
    scheduleRetry(c, invoice, at);
  } else if (invoice.status === 'paid' && after.status === 'past_due') {
    after.status = 'active';
  }
  updated(c, before, after);
}

/** After a failed attempt: the invoice's next attempt on this schedule, or none when the retries are spent. */
function scheduleRetry(c: OpContext, invoice: Obj, at: number): Obj {
  const inv = get(c.ctx, 'invoices', invoice.id) ?? invoice;
  const wait = RETRY_DAYS[Math.max(1, inv.attempt_count ?? 1) - 1];
  return put(c.ctx, 'invoices', {
    ...inv,
    next_payment_attempt: wait === undefined ? null : at + wait * DAY,
  });
}

/** A scheduled retry of the latest invoice: paid → `active`; declined → the next retry, or the end once they are spent. */
function retryPayment(c: OpContext, sub: Obj, at: number, summary: TickSummary): Obj {
  summary.retried++;
  const inv = attemptQuietly(c, get(c.ctx, 'invoices', sub.latest_invoice)!);
  if (inv.status === 'paid') {
    const after = structuredClone(sub);
    if (after.status === 'past_due' || after.status === 'unpaid') after.status = 'active';
    return updated(c, sub, after);
  }
  summary.payments_failed++;
  const next = scheduleRetry(c, inv, at);
  if (next.next_payment_attempt === null) {
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
export function subscriptionInvoicePaid(c: OpContext, invoice: Obj): void {
  const subId = invoice.parent?.subscription_details?.subscription;
  if (typeof subId !== 'string') return;
  const sub = get(c.ctx, 'subscriptions', subId);
  if (!sub || sub.latest_invoice !== invoice.id) return;
  if (sub.status !== 'incomplete' && sub.status !== 'past_due' && sub.status !== 'unpaid') return;
  updated(c, sub, { ...structuredClone(sub), status: 'active' });
}

/** Whether a subscription has ended (canceled, or expired before its first payment). */
export function hasEnded(sub: Obj): boolean {
  return ENDED.has(sub.status);
}
