/**
 * Changing a subscription: items, quantities and prices with their prorations, trials, pauses, cancellation and
 * collection settings, announced as one `customer.subscription.updated`; and canceling one now, with its final invoice.
 */
import { taxRatesFor } from './invoice-taxes.ts';
import { hasEnded, periodOf } from './subscription-periods.ts';
import {
  collect,
  draftInvoice,
  newItem,
  pendingItemsOf,
  prorationItem,
  updated,
} from './subscription-model.ts';
import { endNow, startPeriod } from './subscription-cycle.ts';
import { invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { voidInvoice } from './invoicing.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata } from '../lib/params.ts';
import { get, nowSeconds, remove, type Stored } from '../lib/store.ts';
import { planOf } from '../resources/price-model.ts';
import {
  itemPrice,
  checkItems,
  checkPaymentMethod,
  trialEndOf,
  discountsOf,
  applyCancellation,
  thrown,
  recurringOf,
  setDiscounts,
} from './subscription-checks.ts';
import type { CancelParams, UpdateParams } from './subscription-params.ts';
import { moveSubscription } from './subscription-states.ts';
import { copyJson } from '../lib/clone.ts';

export interface UpdateOutcome {
  subscription: Stored<'subscriptions'>;
  /** Items added by this update, in order. */
  added: Stored<'subscription_items'>[];
}

/**
 * Update a subscription: items (price, quantity, added, deleted) with prorations, the billing cycle, trial, cancellation,
 * collection pause and the plain fields. Shared with the subscription item endpoints.
 */
export function updateSubscription(
  c: OpContext,
  before: Stored<'subscriptions'>,
  params: UpdateParams,
): UpdateOutcome {
  const ctx = c.ctx;
  const now = nowSeconds(ctx);
  if (hasEnded(before)) {
    const allowed = new Set(['metadata', 'cancellation_details', 'expand']);
    const other = Object.keys(params).find((k) => !allowed.has(k));
    if (other)
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
        other,
      );
  }
  const after = copyJson(before);
  const at = params.proration_date ?? now;
  const period = periodOf(before);
  if (params.proration_date != null && (at < period.start || at > period.end))
    throw invalidRequest(
      'proration_date must be within the current billing period.',
      'proration_date',
    );
  const behavior = params.proration_behavior ?? 'create_prorations';
  const billable = before.status === 'active' || before.status === 'past_due';
  const prorating = behavior !== 'none' && billable;
  const removed: string[] = [];
  const added: Stored<'subscription_items'>[] = [];
  // Changes to items are collected first, so a reset of the billing cycle can credit the old items as they were.
  const credits: Stored<'subscription_items'>[] = [];
  const charges: Stored<'subscription_items'>[] = [];
  for (const [i, spec] of (params.items ?? []).entries()) {
    const param = `items[${i}]`;
    if (spec.id) {
      const index = after.items.data.findIndex((it) => it.id === spec.id);
      if (index < 0) throw resourceMissing('subscription item', spec.id, `${param}[id]`);
      const old = after.items.data[index];
      if (spec.deleted) {
        after.items.data.splice(index, 1);
        removed.push(old.id);
        credits.push(old);
        continue;
      }
      const changesPrice = (['price', 'plan', 'price_data'] as const).some(
        (k) => spec[k] !== undefined && spec[k] !== null,
      );
      const price = changesPrice ? itemPrice(c, spec, param) : old.price;
      const quantity = spec.quantity ?? old.quantity;
      const next = {
        ...old,
        price,
        plan: planOf(price),
        quantity,
        metadata:
          spec.metadata !== undefined ? mergeMetadata(old.metadata, spec.metadata) : old.metadata,
        tax_rates:
          spec.tax_rates !== undefined
            ? taxRatesFor(ctx, spec.tax_rates, `${param}[tax_rates]`)
            : old.tax_rates,
      };
      if (price.id !== old.price.id || quantity !== old.quantity) {
        credits.push(old);
        charges.push(next);
      }
      after.items.data[index] = next;
    } else {
      if (spec.deleted) throw parameterMissing(`${param}[id]`);
      const price = itemPrice(c, spec, param);
      const item = newItem(
        ctx,
        after,
        price,
        planOf(price),
        spec.quantity ?? 1,
        mergeMetadata({}, spec.metadata),
        period.start,
        period.end,
      );
      item.tax_rates = taxRatesFor(ctx, spec.tax_rates, `${param}[tax_rates]`);
      after.items.data.push(item);
      added.push(item);
      charges.push(item);
    }
  }
  if (params.items) checkItems(after.items.data);
  const before0 = before.items.data[0]?.price.recurring;
  const now0 = recurringOf(after.items.data[0].price);
  const intervalChanged =
    before0 &&
    (before0.interval !== now0.interval ||
      (before0.interval_count ?? 1) !== (now0.interval_count ?? 1));
  const resetCycle = billable && (intervalChanged || params.billing_cycle_anchor === 'now');

  for (const k of ['description'] as const) if (params[k] !== undefined) after[k] = params[k];
  if (params.default_tax_rates !== undefined)
    after.default_tax_rates = taxRatesFor(ctx, params.default_tax_rates, 'default_tax_rates');
  if (params.metadata !== undefined)
    after.metadata = mergeMetadata(after.metadata, params.metadata);
  if (params.default_payment_method !== undefined)
    after.default_payment_method =
      params.default_payment_method === null
        ? null
        : checkPaymentMethod(ctx, params.default_payment_method, after.customer);
  if (params.collection_method) {
    after.collection_method = params.collection_method;
    if (
      params.collection_method === 'send_invoice' &&
      (params.days_until_due ?? after.days_until_due) == null
    )
      throw parameterMissing('days_until_due');
    after.days_until_due =
      params.collection_method === 'send_invoice'
        ? (params.days_until_due ?? after.days_until_due)
        : null;
  } else if (params.days_until_due != null) {
    if (after.collection_method !== 'send_invoice')
      throw invalidRequest(
        'days_until_due can only be set when collection_method is send_invoice.',
        'days_until_due',
      );
    after.days_until_due = params.days_until_due;
  }
  if (params.pause_collection !== undefined) {
    const pc = params.pause_collection;
    if (pc && pc.resumes_at != null && pc.resumes_at <= now)
      throw invalidRequest(
        'Invalid timestamp: must be an integer Unix timestamp in the future.',
        'pause_collection[resumes_at]',
      );
    after.pause_collection = pc
      ? { behavior: pc.behavior, resumes_at: pc.resumes_at ?? null }
      : null;
  }
  if (params.trial_settings)
    after.trial_settings = {
      end_behavior: {
        billing_cycle_anchor: after.trial_settings?.end_behavior?.billing_cycle_anchor ?? null,
        missing_payment_method: params.trial_settings.end_behavior.missing_payment_method,
      },
    };
  const discounts = discountsOf(ctx, after, params);
  if (discounts) setDiscounts(after, discounts);
  applyCancellation(after, params, now);

  // Trials: 'now' ends one at once (a new period, invoiced now); a future time starts or extends one.
  const trialEnd = trialEndOf(params.trial_end, now);
  let invoiceNow: 'cycle' | 'update' | null = null;
  if (trialEnd === 'now' && before.status === 'trialing') {
    after.trial_end = now;
    moveSubscription(after, 'active');
    after.billing_cycle_anchor = now;
    startPeriod(after, now);
    invoiceNow = 'cycle';
  } else if (typeof trialEnd === 'number') {
    moveSubscription(after, 'trialing');
    after.trial_start = before.status === 'trialing' ? before.trial_start : now;
    after.trial_end = trialEnd;
    after.billing_cycle_anchor = trialEnd;
    for (const item of after.items.data) {
      item.current_period_start = before.status === 'trialing' ? item.current_period_start : now;
      item.current_period_end = trialEnd;
    }
  } else if (resetCycle) {
    // A new interval (or `billing_cycle_anchor=now`) starts a new period now, billed at once with credit for the old one.
    if (prorating) for (const old of before.items.data) prorationItem(c, after, old, -1, at);
    after.billing_cycle_anchor = now;
    startPeriod(after, now);
    invoiceNow = 'update';
  } else if (prorating) {
    for (const old of credits) prorationItem(c, after, old, -1, at);
    for (const item of charges) prorationItem(c, after, item, 1, at);
    if (behavior === 'always_invoice' && (credits.length || charges.length)) invoiceNow = 'update';
  }
  if (removed.length && !prorating) {
    // Without prorations, an item's pending prorations leave with it (Stripe keeps none for a removed item).
    for (const ii of pendingItemsOf(ctx, after).filter((x) => {
      const item = x.parent?.subscription_details?.subscription_item;
      return item !== undefined && removed.includes(item);
    })) {
      remove(ctx, 'invoiceitems', ii.id);
      emit(c, 'invoiceitem.deleted', { ...ii, deleted: true });
    }
  }
  if (invoiceNow) {
    const draft = draftInvoice(c, after, {
      billing_reason: invoiceNow === 'cycle' ? 'subscription_cycle' : 'subscription_update',
      items: invoiceNow === 'cycle' || resetCycle,
      period: { start: at, end: at },
    });
    after.latest_invoice = draft.id;
    const paymentBehavior = params.payment_behavior ?? 'allow_incomplete';
    const { failure } = collect(c, after, draft, {
      attempt: paymentBehavior !== 'default_incomplete',
      offSession: params.off_session === true,
    });
    if (
      failure &&
      (paymentBehavior === 'error_if_incomplete' || paymentBehavior === 'pending_if_incomplete')
    )
      throw thrown(failure);
    if (failure && after.collection_method === 'charge_automatically')
      moveSubscription(after, 'past_due');
  }
  updated(c, before, after, removed);
  return { subscription: after, added };
}

/** Cancel now: the final invoice (`invoice_now`), credit for unused time (`prorate`), `customer.subscription.deleted`. */
export function cancelSubscription(
  c: OpContext,
  before: Stored<'subscriptions'>,
  params: CancelParams,
): Stored<'subscriptions'> {
  const ctx = c.ctx;
  if (hasEnded(before))
    throw invalidRequest(
      `This subscription has already been canceled: ${before.id}.`,
      undefined,
      'resource_missing',
    );
  const now = nowSeconds(ctx);
  const sub = copyJson(before);
  if (params.cancellation_details)
    applyCancellation(sub, { cancellation_details: params.cancellation_details }, now);
  const billable = before.status === 'active' || before.status === 'past_due';
  if (params.prorate && billable)
    for (const item of sub.items.data) prorationItem(c, sub, item, -1, now);
  if (params.invoice_now && pendingItemsOf(ctx, sub).length > 0) {
    const draft = draftInvoice(c, sub, {
      billing_reason: 'subscription_update',
      items: false,
      period: { start: periodOf(sub).start, end: now },
    });
    sub.latest_invoice = draft.id;
    collect(c, sub, draft, { attempt: true, offSession: true });
  } else if (!params.invoice_now && !params.prorate) {
    for (const ii of pendingItemsOf(ctx, sub).filter((x) => x.proration)) {
      remove(ctx, 'invoiceitems', ii.id);
      emit(c, 'invoiceitem.deleted', { ...ii, deleted: true });
    }
  }
  if (before.status === 'incomplete' && before.latest_invoice) {
    const inv = get(ctx, 'invoices', before.latest_invoice);
    if (inv?.status === 'open') voidInvoice(c, inv);
  }
  sub.canceled_at = now;
  return endNow(c, sub, now, 'cancellation_requested');
}
