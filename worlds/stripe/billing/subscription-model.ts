/**
 * A stored subscription and the invoices it makes: its items (embedded, and mirrored one row each in
 * `subscription_items`), saving it with its `customer.subscription.updated` event, proration items, and drafting and
 * collecting its invoices.
 */
import { type Ctx } from 'seahaven';
import { isFailed, StripeError, type Failed } from '../lib/errors.ts';
import { emitStored, changedAttributes } from '../lib/events.ts';
import { DAY } from '../lib/money.ts';
import type { ApiList, PriceRecurring } from '../lib/objects.ts';
import { type OpContext } from '../lib/op.ts';
import { get, newId, nowSeconds, put, putJson, remove, rows, type Stored } from '../lib/store.ts';
import {
  createDraftInvoice,
  createFinalizedInvoice,
  createInvoiceItem,
  finalizeInvoice,
  payInvoice,
  type LineInput,
} from './invoicing.ts';
import { prorate, itemAmount, periodOf, formatMoney, formatDate } from './subscription-periods.ts';

/** Stripe allows 20 items on a subscription. */
export const MAX_ITEMS = 20;

/** Days after the previous attempt at which a failed subscription invoice is retried. */
export const RETRY_DAYS: readonly number[] = [3, 5, 7];

/** `customer.subscription.trial_will_end` is sent this long before a trial ends. */
export const TRIAL_NOTICE = 3 * DAY;

/** How long an `incomplete` subscription waits for its first payment before it expires. */
export const INCOMPLETE_WINDOW = 23 * 3600;

/** A new subscription item for `price` (stored through `saveSubscription`). */
export function newItem(
  ctx: Ctx,
  sub: Stored<'subscriptions'>,
  price: Stored<'prices'>,
  plan: Stored<'subscription_items'>['plan'],
  quantity: number,
  metadata: Record<string, string>,
  start: number,
  end: number,
): Stored<'subscription_items'> {
  return {
    id: newId(ctx, 'si_'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: nowSeconds(ctx),
    current_period_end: end,
    current_period_start: start,
    current_trial: null,
    discounts: [],
    metadata,
    plan,
    price,
    quantity,
    subscription: sub.id,
    tax_rates: [],
  };
}

/** The items' list envelope on a subscription: a list that says how many items it holds. */
export function itemsEnvelope(
  subId: string,
  data: Stored<'subscription_items'>[],
): ApiList<Stored<'subscription_items'>> & { total_count: number } {
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: `/v1/subscription_items?subscription=${subId}`,
  };
}

/**
 * Store a subscription and its items (items no longer on it are forgotten), and schedule what the clock owes it next.
 * `at`: the instant it is saved at (the boundary being processed, or now).
 */
export function saveSubscription(
  ctx: Ctx,
  sub: Stored<'subscriptions'>,
  removedItems: string[] = [],
): Stored<'subscriptions'> {
  storeSubscription(ctx, sub, removedItems);
  return sub;
}

/** `saveSubscription`, answering the subscription's stored JSON (for the event about it, `emitStored`). */
function storeSubscription(ctx: Ctx, sub: Stored<'subscriptions'>, removedItems: string[]): string {
  sub.items = itemsEnvelope(sub.id, sub.items.data);
  const json = putJson(ctx, 'subscriptions', sub);
  for (const item of sub.items.data) put(ctx, 'subscription_items', item);
  for (const id of removedItems) remove(ctx, 'subscription_items', id);
  ctx.db.run('UPDATE subscriptions SET billing_due = ? WHERE id = ?', dueOf(ctx, sub), sub.id);
  return json;
}

/** Write the subscription and announce the change: `customer.subscription.updated` with what changed. */
export function updated(
  c: OpContext,
  before: Stored<'subscriptions'>,
  after: Stored<'subscriptions'>,
  removedItems: string[] = [],
): Stored<'subscriptions'> {
  const json = storeSubscription(c.ctx, after, removedItems);
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length > 0)
    emitStored(c, 'customer.subscription.updated', after, json, changed);
  return after;
}

// ——— Invoices ——————————————————————————————————————————————————————————————————————————————————————————————————

/** `1 × Pro (at $30.00 / month)`, Stripe's line description for an item's period. */
function lineDescription(ctx: Ctx, item: Stored<'subscription_items'>): string {
  const name = productName(ctx, item.price);
  const r: Partial<PriceRecurring> = item.price.recurring ?? {};
  const every =
    (r.interval_count ?? 1) === 1 ? r.interval : `every ${r.interval_count} ${r.interval}s`;
  return `${item.quantity} × ${name} (at ${formatMoney(item.price.unit_amount ?? 0, item.price.currency)} / ${every})`;
}

function productName(ctx: Ctx, price: Stored<'prices'>): string {
  const id = price.product;
  return (id && get(ctx, 'products', id)?.name) || price.nickname || 'Subscription item';
}

/**
 * A pending proration invoice item: the credit for unused time (`sign` −1) or the charge for remaining time (+1) on an
 * item from `at` to its period's end. Returns null when it rounds to nothing.
 */
export function prorationItem(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  item: Stored<'subscription_items'>,
  sign: 1 | -1,
  at: number,
): Stored<'invoiceitems'> | null {
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
    tax_rates: item.tax_rates ?? [],
  });
}

/** The subscription's invoice items not yet on an invoice, oldest first. */
export function pendingItemsOf(ctx: Ctx, sub: Stored<'subscriptions'>): Stored<'invoiceitems'>[] {
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
export function draftInvoice(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  spec: SubscriptionInvoice,
): Stored<'invoices'> {
  const lines: LineInput[] = !spec.items
    ? []
    : sub.items.data.map((item) => ({
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
    default_tax_rates: sub.default_tax_rates ?? [],
    item_tax_rates: Object.fromEntries(sub.items.data.map((item) => [item.id, item])),
  });
}

/**
 * Finalize a subscription invoice and, for automatic collection, pay it with the subscription's payment method (or
 * the customer's default), the customer present. Returns the invoice as it ends up, and the failure if the payment was
 * declined or there was nothing to charge.
 */
export function collect(
  c: OpContext,
  sub: Stored<'subscriptions'>,
  draft: Stored<'invoices'>,
  opts: { attempt: boolean; offSession?: boolean },
): { invoice: Stored<'invoices'>; failure: Failed | null } {
  const inv = finalizeInvoice(c, draft);
  if (inv.status !== 'open' || sub.collection_method !== 'charge_automatically' || !opts.attempt)
    return { invoice: inv, failure: null };
  let paid: Stored<'invoices'> | Failed;
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

/** The earliest instant the clock owes `sub` something, or null (nothing until someone acts). */
export function dueOf(ctx: Ctx, sub: Stored<'subscriptions'>): number | null {
  const now = nowSeconds(ctx);
  const times: number[] = [];
  if (sub.status === 'incomplete') return sub.created + INCOMPLETE_WINDOW;
  if (sub.status === 'trialing' && sub.trial_end !== null) {
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
export function retryDue(ctx: Ctx, sub: Stored<'subscriptions'>): number | null {
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
