/**
 * Subscriptions: create (the first invoice finalized and paid at once), retrieve, update (items, prorations, trials,
 * cancellation, collection pauses), cancel, list, search, pause and resume, migrate to flexible billing, and the
 * discount. What the clock does to them lives in subscription-cycle.ts, the stored model in subscription-model.ts and the calendar in subscription-periods.ts.
 */
import type { Ctx } from '../../../kit/index.ts';
import {
  addIntervals,
  boundaryAfter,
  hasEnded,
  intervalOf,
  itemAmount,
  periodOf,
  prorate,
} from './subscription-periods.ts';
import {
  collect,
  draftInvoice,
  itemsEnvelope,
  MAX_ITEMS,
  newItem,
  pendingItemsOf,
  prorationItem,
  saveSubscription,
  TRIAL_NOTICE,
  updated,
} from './subscription-model.ts';
import { endNow, startPeriod } from './subscription-cycle.ts';
import {
  invalidRequest,
  parameterMissing,
  resourceMissing,
  StripeError,
  type Failed,
} from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { addInvoiceLine, inlinePrice, voidInvoice } from './invoicing.ts';
import { listPage } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, searchParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, must, newId, nowSeconds, put, remove, type Obj } from '../lib/store.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { livePrice, planOf } from '../resources/prices.ts';
import { redeemableCoupon, redeemCoupon } from '../resources/coupons.ts';
import { redeemablePromotionCode, redeemPromotionCode } from '../resources/promotion-codes.ts';

const DAYS_730 = 730 * 86_400;

/** Inline `price_data` of an item, on subscriptions and subscription items alike. */
export const priceData = p.obj({
  currency: p.string().req(),
  product: p.string().req(),
  recurring: p
    .obj({ interval: p.enum('day', 'week', 'month', 'year').req(), interval_count: p.int(1) })
    .req(),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  unit_amount: p.int(0),
  unit_amount_decimal: p.decimal(),
});

/** What an item of `items[]` may say, on create and update alike. */
const itemFields = {
  price: p.string(),
  plan: p.string(),
  price_data: priceData,
  quantity: p.int(0),
  metadata: p.metadata(),
  tax_rates: p.any(),
  discounts: p.any(),
  billing_thresholds: p.any(),
  current_trial: p.any(),
};

const discountsParam = p.arr(
  p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
);
const cancellationDetails = p.obj({
  comment: p.string(),
  feedback: p.enum(
    'customer_service',
    'low_quality',
    'missing_features',
    'other',
    'switched_service',
    'too_complex',
    'too_expensive',
    'unused',
  ),
  feedback_option: p.string(),
});
const prorationBehavior = p.enum('always_invoice', 'create_prorations', 'none');

/** Parameters create and update share. */
const common = {
  add_invoice_items: p.any(),
  application_fee_percent: p.any(),
  automatic_tax: p.any(),
  billing_thresholds: p.any(),
  billing_schedules: p.any(),
  cancel_at: p.any(),
  cancel_at_period_end: p.bool(),
  collection_method: p.enum('charge_automatically', 'send_invoice'),
  coupon: p.string(),
  days_until_due: p.int(0),
  default_payment_method: p.string(),
  default_source: p.string(),
  default_tax_rates: p.any(),
  description: p.string(500),
  discounts: discountsParam,
  invoice_settings: p.any(),
  metadata: p.metadata(),
  off_session: p.bool(),
  on_behalf_of: p.string(),
  payment_settings: p.any(),
  pending_invoice_item_interval: p.any(),
  promotion_code: p.string(),
  proration_behavior: prorationBehavior,
  transfer_data: p.any(),
  trial_end: p.any(),
  trial_from_plan: p.bool(),
  trial_settings: p.obj({
    end_behavior: p
      .obj({ missing_payment_method: p.enum('cancel', 'create_invoice', 'pause').req() })
      .req(),
  }),
};

const createParams = {
  ...common,
  customer: p.string(),
  customer_account: p.string(),
  items: p.arr(p.obj(itemFields)),
  backdate_start_date: p.int(),
  billing_cycle_anchor: p.int(),
  billing_cycle_anchor_config: p.any(),
  billing_mode: p.obj({
    type: p.enum('classic', 'flexible').req(),
    flexible: p.obj({ proration_discounts: p.enum('included', 'itemized') }),
  }),
  currency: p.string(),
  payment_behavior: p.enum(
    'allow_incomplete',
    'default_incomplete',
    'error_if_incomplete',
    'pending_if_incomplete',
  ),
  trial_period_days: p.int(0),
};

const updateParams = {
  ...common,
  items: p.arr(p.obj({ ...itemFields, id: p.string(), deleted: p.bool(), clear_usage: p.bool() })),
  billing_cycle_anchor: p.enum('now', 'unchanged'),
  cancellation_details: cancellationDetails,
  pause_collection: p.obj({
    behavior: p.enum('keep_as_draft', 'mark_uncollectible', 'void').req(),
    resumes_at: p.int(),
  }),
  payment_behavior: p.enum(
    'allow_incomplete',
    'default_incomplete',
    'error_if_incomplete',
    'pending_if_incomplete',
  ),
  proration_date: p.int(),
};

/** A subscription by id, or Stripe's 404. */
export function mustSubscription(ctx: Ctx, id: string, param = 'subscription_exposed_id'): Obj {
  return must(ctx, 'subscriptions', id, 'subscription', param);
}

/** The recurring, active price an item names (`price`, legacy `plan`, or `price_data`). */
function itemPrice(c: OpContext, spec: Obj, param: string): Obj {
  const named = (['price', 'plan', 'price_data'] as const).filter(
    (k) => spec[k] !== undefined && spec[k] !== null,
  );
  if (named.length === 0) throw parameterMissing(`${param}[price]`);
  if (named.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${named.join(', ')}.`,
      `${param}[${named[1]}]`,
    );
  let price: Obj;
  if (named[0] === 'price_data') {
    const d = spec.price_data;
    price = inlinePrice(
      c,
      {
        currency: d.currency,
        product: d.product,
        unit_amount: d.unit_amount,
        unit_amount_decimal: d.unit_amount_decimal,
        tax_behavior: d.tax_behavior,
      },
      `${param}[price_data]`,
    );
    price = {
      ...price,
      type: 'recurring',
      recurring: {
        interval: d.recurring.interval,
        interval_count: d.recurring.interval_count ?? 1,
        meter: null,
        trial_period_days: null,
        usage_type: 'licensed',
      },
    };
    put(c.ctx, 'prices', price);
    return price;
  }
  price = livePrice(c.ctx, spec[named[0]], `${param}[${named[0]}]`, named[0]);
  if (price.type !== 'recurring' || !price.recurring) {
    throw invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      `${param}[${named[0]}]`,
    );
  }
  if (!price.active)
    throw invalidRequest(
      'The price specified is inactive. This field only accepts active prices.',
      `${param}[${named[0]}]`,
    );
  return price;
}

/** All items share a currency and a billing interval, and no price appears twice. */
function checkItems(items: Obj[], param = 'items'): void {
  if (items.length === 0)
    throw invalidRequest(
      'A subscription must have at least one active plan. To cancel a subscription, please use the cancel API endpoint.',
      param,
    );
  if (items.length > MAX_ITEMS)
    throw invalidRequest(`A subscription can have at most ${MAX_ITEMS} items.`, param);
  const first = items[0].price;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const r = item.price.recurring;
    if (item.price.currency !== first.currency)
      throw invalidRequest(
        `All prices on a subscription must have the same currency; ${item.price.id} is in ${item.price.currency}, ${first.id} in ${first.currency}.`,
        `${param}[${i}][price]`,
      );
    if (
      r.interval !== first.recurring.interval ||
      (r.interval_count ?? 1) !== (first.recurring.interval_count ?? 1)
    ) {
      throw invalidRequest(
        'Currently, all prices on a subscription must have the same `recurring.interval` and `recurring.interval_count`.',
        `${param}[${i}][price]`,
      );
    }
    if (seen.has(item.price.id))
      throw invalidRequest(
        `Cannot add multiple subscription items with the same price: ${item.price.id}`,
        `${param}[${i}][price]`,
      );
    seen.add(item.price.id);
  });
}

/** A payment method the subscription may charge: attached to its customer. */
function checkPaymentMethod(
  ctx: Ctx,
  id: string,
  customer: string,
  param = 'default_payment_method',
): string {
  const pm = get(ctx, 'payment_methods', id);
  if (!pm || pm.customer !== customer)
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      param,
      'resource_missing',
    );
  return pm.id;
}

/** `trial_end` as given: 'now', or a unix time in the future (at most two years on). */
function trialEndOf(raw: unknown, now: number): number | 'now' | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'now') return 'now';
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\d+$/.test(raw)
        ? Number(raw)
        : NaN;
  if (!Number.isSafeInteger(n))
    throw invalidRequest(
      `Invalid trial_end: must be 'now' or an integer Unix timestamp.`,
      'trial_end',
      'parameter_invalid_integer',
    );
  if (n <= now)
    throw invalidRequest(
      'Invalid timestamp: must be an integer Unix timestamp in the future.',
      'trial_end',
    );
  if (n > now + DAYS_730)
    throw invalidRequest(
      'Invalid timestamp: can be no more than two years in the future.',
      'trial_end',
    );
  return n;
}

/** The discount objects `discounts[]` (or a legacy `coupon`/`promotion_code`) apply to a subscription. */
function discountsOf(ctx: Ctx, sub: Obj, params: Obj): Obj[] | undefined {
  const given = (['coupon', 'promotion_code', 'discounts'] as const).filter(
    (k) => params[k] !== undefined,
  );
  if (given.length === 0) return undefined;
  if (given.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${given.join(', ')}.`,
      given[1],
    );
  const entries: Obj[] =
    given[0] === 'discounts'
      ? (params.discounts ?? [])
      : params[given[0]] === null
        ? []
        : [{ [given[0]]: params[given[0]] }];
  const kept = new Map<string, Obj>((sub.discounts ?? []).map((d: Obj) => [d.id, d]));
  return entries.map((entry, i) => {
    const where = (k: string) => (given[0] === 'discounts' ? `discounts[${i}][${k}]` : k);
    if (entry.discount) {
      const d = kept.get(entry.discount);
      if (!d) throw resourceMissing('discount', entry.discount, where('discount'));
      return d;
    }
    let coupon: Obj;
    let promo: Obj | null = null;
    if (entry.promotion_code)
      ({ promo, coupon } = redeemablePromotionCode(
        ctx,
        entry.promotion_code,
        sub.customer,
        where('promotion_code'),
      ));
    else if (entry.coupon) coupon = redeemableCoupon(ctx, entry.coupon, where('coupon'));
    else
      throw invalidRequest(
        'Each discount needs exactly one of coupon, promotion_code or discount.',
        where('coupon'),
      );
    redeemCoupon(ctx, coupon);
    if (promo) redeemPromotionCode(ctx, promo);
    const start = nowSeconds(ctx);
    return {
      id: newId(ctx, 'di_'),
      object: 'discount',
      checkout_session: null,
      customer: sub.customer,
      customer_account: null,
      end:
        coupon.duration === 'repeating'
          ? addIntervals(start, 'month', 1, coupon.duration_in_months)
          : null,
      invoice: null,
      invoice_item: null,
      promotion_code: promo?.id ?? null,
      source: { coupon: coupon.id, type: 'coupon' },
      start,
      subscription: sub.id,
      subscription_item: null,
    };
  });
}

/** `cancel_at` as given: a future time, the period's end, or unset. */
function cancelAtOf(raw: unknown, sub: Obj, now: number): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  if (raw === 'min_period_end' || raw === 'max_period_end') return periodOf(sub).end;
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\d+$/.test(raw)
        ? Number(raw)
        : NaN;
  if (!Number.isSafeInteger(n))
    throw invalidRequest(
      'Invalid cancel_at: must be an integer Unix timestamp.',
      'cancel_at',
      'parameter_invalid_integer',
    );
  if (n <= now)
    throw invalidRequest(
      'Invalid timestamp: must be an integer Unix timestamp in the future.',
      'cancel_at',
    );
  return n;
}

function applyCancellation(sub: Obj, params: Obj, now: number): void {
  if (params.cancel_at_period_end !== undefined && params.cancel_at_period_end !== null) {
    sub.cancel_at_period_end = params.cancel_at_period_end;
    sub.cancel_at = params.cancel_at_period_end ? periodOf(sub).end : null;
    sub.canceled_at = params.cancel_at_period_end ? now : null;
  }
  const at = cancelAtOf(params.cancel_at, sub, now);
  if (at !== undefined) {
    if (params.cancel_at_period_end)
      throw invalidRequest(
        'You may only specify one of these parameters: cancel_at, cancel_at_period_end.',
        'cancel_at',
      );
    sub.cancel_at = at;
    sub.cancel_at_period_end = false;
    sub.canceled_at = at === null ? null : now;
  }
  if (params.cancellation_details) {
    sub.cancellation_details = {
      ...sub.cancellation_details,
      comment: params.cancellation_details.comment ?? sub.cancellation_details.comment,
      feedback: params.cancellation_details.feedback ?? sub.cancellation_details.feedback,
    };
  }
}

/** The failure a first or always-invoiced payment answers with when the caller asked not to keep an unpaid change. */
function thrown(f: Failed): StripeError {
  return new StripeError(f.status, f.error);
}

/** Create a subscription; see the module comment. */
function createSubscription(c: OpContext, params: Obj): Obj {
  const ctx = c.ctx;
  if (!params.customer) throw parameterMissing('customer');
  const customer = liveCustomer(ctx, params.customer);
  if (!params.items || params.items.length === 0) throw parameterMissing('items');
  const now = nowSeconds(ctx);
  const id = newId(ctx, 'sub_');
  const collection = params.collection_method ?? 'charge_automatically';
  if (collection === 'send_invoice' && (params.days_until_due ?? null) === null)
    throw parameterMissing('days_until_due');
  if (collection === 'charge_automatically' && params.days_until_due !== undefined)
    throw invalidRequest(
      'days_until_due can only be set when collection_method is send_invoice.',
      'days_until_due',
    );
  const prices = (params.items as Obj[]).map((spec, i) => itemPrice(c, spec, `items[${i}]`));
  // Trials: an explicit end, a number of days, or the first price's own trial days.
  let trialEnd = trialEndOf(params.trial_end, now);
  if (trialEnd !== undefined && params.trial_period_days != null)
    throw invalidRequest(
      'You may only specify one of these parameters: trial_end, trial_period_days.',
      'trial_period_days',
    );
  if (trialEnd === undefined && params.trial_period_days)
    trialEnd = now + params.trial_period_days * 86_400;
  if (trialEnd === undefined && params.trial_from_plan && prices[0].recurring?.trial_period_days)
    trialEnd = now + prices[0].recurring.trial_period_days * 86_400;
  const trial = typeof trialEnd === 'number' ? trialEnd : null;
  const { interval, interval_count: count = 1 } = prices[0].recurring;
  let anchor = trial ?? now;
  if (params.billing_cycle_anchor != null) {
    if (trial)
      throw invalidRequest(
        'You may only specify one of these parameters: billing_cycle_anchor, trial_end.',
        'billing_cycle_anchor',
      );
    if (params.billing_cycle_anchor < now)
      throw invalidRequest(
        'Invalid timestamp: billing_cycle_anchor must be in the future.',
        'billing_cycle_anchor',
      );
    anchor = params.billing_cycle_anchor;
  }
  const periodEnd =
    trial ??
    (anchor > now
      ? boundaryAfter(anchor, now, interval, count)
      : addIntervals(now, interval, count, 1));
  const sub: Obj = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: anchor,
    billing_cycle_anchor_config: null,
    billing_mode:
      params.billing_mode?.type === 'flexible'
        ? {
            flexible: {
              proration_discounts: params.billing_mode.flexible?.proration_discounts ?? 'included',
            },
            type: 'flexible',
          }
        : { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: collection,
    created: now,
    currency: prices[0].currency,
    customer: customer.id,
    customer_account: null,
    days_until_due: collection === 'send_invoice' ? params.days_until_due : null,
    default_payment_method: params.default_payment_method
      ? checkPaymentMethod(ctx, params.default_payment_method, customer.id)
      : null,
    default_source: null,
    default_tax_rates: [],
    description: params.description ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: itemsEnvelope(id, []),
    latest_invoice: null,
    livemode: false,
    managed_payments: { enabled: false },
    metadata: mergeMetadata({}, params.metadata),
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: params.payment_settings?.save_default_payment_method ?? 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: trial ? 'trialing' : 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: trial,
    trial_settings: {
      end_behavior: {
        missing_payment_method:
          params.trial_settings?.end_behavior?.missing_payment_method ?? 'create_invoice',
      },
    },
    trial_start: trial ? now : null,
  };
  sub.items.data = prices.map((price, i) =>
    newItem(
      ctx,
      sub,
      price,
      planOf(price),
      params.items[i].quantity ?? 1,
      mergeMetadata({}, params.items[i].metadata),
      now,
      periodEnd,
    ),
  );
  checkItems(sub.items.data);
  sub.discounts = discountsOf(ctx, sub, params) ?? [];
  applyCancellation(sub, params, now);

  // The first invoice: $0 lines for a trial, a partial period up to a future anchor, else the whole first period.
  const partial = !trial && anchor > now && params.proration_behavior !== 'none';
  const fullStart = partial ? addIntervals(periodEnd, interval, count, -1) : now;
  const draft = draftInvoice(c, sub, {
    billing_reason: 'subscription_create',
    items: false,
    period: { start: now, end: now },
  });
  let inv = draft;
  for (const item of sub.items.data) {
    const amount = trial
      ? 0
      : partial
        ? prorate(itemAmount(item), periodEnd - now, periodEnd - fullStart)
        : anchor > now
          ? 0
          : itemAmount(item);
    inv = addInvoiceLine(c, inv, {
      price: item.price.id,
      amount,
      quantity: item.quantity,
      description: trial
        ? `Trial period for ${productNameOf(ctx, item.price)}`
        : `${item.quantity} × ${productNameOf(ctx, item.price)} (at ${money(item.price.unit_amount ?? 0, item.price.currency)} / ${item.price.recurring.interval})`,
      period: { start: now, end: periodEnd },
      subscription_item: item.id,
      proration: partial,
    });
  }
  sub.latest_invoice = inv.id;
  const behavior = params.payment_behavior ?? 'allow_incomplete';
  const { invoice, failure } = collect(c, sub, inv, {
    attempt: behavior !== 'default_incomplete',
    offSession: params.off_session === true,
  });
  if (failure && (behavior === 'error_if_incomplete' || behavior === 'pending_if_incomplete'))
    throw thrown(failure);
  if (!trial)
    sub.status =
      invoice.status === 'paid' || collection === 'send_invoice' ? 'active' : 'incomplete';
  saveSubscription(ctx, sub);
  emit(c, 'customer.subscription.created', sub);
  // A trial of three days or less is announced at once; a longer one three days before it ends (subscription-cycle.ts).
  if (trial && trial - TRIAL_NOTICE <= now) emit(c, 'customer.subscription.trial_will_end', sub);
  return sub;
}

function productNameOf(ctx: Ctx, price: Obj): string {
  return get(ctx, 'products', price.product)?.name ?? price.nickname ?? 'Subscription item';
}

function money(amount: number, currency: string): string {
  const text = (amount / 100).toFixed(2);
  return currency === 'usd' ? `$${text}` : `${text} ${currency.toUpperCase()}`;
}

export interface UpdateOutcome {
  subscription: Obj;
  /** Items added by this update, in order. */
  added: Obj[];
}

/**
 * Update a subscription: items (price, quantity, added, deleted) with prorations, the billing cycle, trial, cancellation,
 * collection pause and the plain fields. Shared with the subscription item endpoints.
 */
export function updateSubscription(c: OpContext, before: Obj, params: Obj): UpdateOutcome {
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
  const after = structuredClone(before);
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
  const added: Obj[] = [];
  // Changes to items are collected first, so a reset of the billing cycle can credit the old items as they were.
  const credits: Obj[] = [];
  const charges: Obj[] = [];
  for (const [i, spec] of ((params.items ?? []) as Obj[]).entries()) {
    const param = `items[${i}]`;
    if (spec.id) {
      const index = after.items.data.findIndex((it: Obj) => it.id === spec.id);
      if (index < 0) throw resourceMissing('subscription item', spec.id, `${param}[id]`);
      const old = after.items.data[index];
      if (spec.deleted) {
        after.items.data.splice(index, 1);
        removed.push(old.id);
        credits.push(old);
        continue;
      }
      const changesPrice = ['price', 'plan', 'price_data'].some(
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
      after.items.data.push(item);
      added.push(item);
      charges.push(item);
    }
  }
  if (params.items) checkItems(after.items.data);
  const before0 = before.items.data[0]?.price.recurring;
  const now0 = after.items.data[0].price.recurring;
  const intervalChanged =
    before0 &&
    (before0.interval !== now0.interval ||
      (before0.interval_count ?? 1) !== (now0.interval_count ?? 1));
  const resetCycle = billable && (intervalChanged || params.billing_cycle_anchor === 'now');

  for (const k of ['description'] as const) if (params[k] !== undefined) after[k] = params[k];
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
        missing_payment_method: params.trial_settings.end_behavior.missing_payment_method,
      },
    };
  const discounts = discountsOf(ctx, after, params);
  if (discounts) after.discounts = discounts;
  applyCancellation(after, params, now);

  // Trials: 'now' ends one at once (a new period, invoiced now); a future time starts or extends one.
  const trialEnd = trialEndOf(params.trial_end, now);
  let invoiceNow: 'cycle' | 'update' | null = null;
  if (trialEnd === 'now' && before.status === 'trialing') {
    after.trial_end = now;
    after.status = 'active';
    after.billing_cycle_anchor = now;
    startPeriod(after, now);
    invoiceNow = 'cycle';
  } else if (typeof trialEnd === 'number') {
    after.status = 'trialing';
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
    for (const ii of pendingItemsOf(ctx, after).filter((x) =>
      removed.includes(x.parent?.subscription_details?.subscription_item),
    )) {
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
    if (failure && after.collection_method === 'charge_automatically') after.status = 'past_due';
  }
  updated(c, before, after, removed);
  return { subscription: after, added };
}

/** Cancel now: the final invoice (`invoice_now`), credit for unused time (`prorate`), `customer.subscription.deleted`. */
function cancelSubscription(c: OpContext, before: Obj, params: Obj): Obj {
  const ctx = c.ctx;
  if (hasEnded(before))
    throw invalidRequest(
      `This subscription has already been canceled: ${before.id}.`,
      undefined,
      'resource_missing',
    );
  const now = nowSeconds(ctx);
  const sub = structuredClone(before);
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

const STATUSES = [
  'active',
  'all',
  'canceled',
  'ended',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'paused',
  'trialing',
  'unpaid',
];

export const subscriptionsOps = [
  op({
    id: 'PostSubscriptions',
    method: 'POST',
    path: '/v1/subscriptions',
    params: createParams,
    run: (c, params) => createSubscription(c, params),
  }),
  op({
    id: 'GetSubscriptionsSubscriptionExposedId',
    method: 'GET',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: {},
    run: (c, _params, path) => mustSubscription(c.ctx, path.subscription_exposed_id),
  }),
  op({
    id: 'PostSubscriptionsSubscriptionExposedId',
    method: 'POST',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: updateParams,
    run: (c, params, path) =>
      updateSubscription(c, mustSubscription(c.ctx, path.subscription_exposed_id), params)
        .subscription,
  }),
  op({
    id: 'DeleteSubscriptionsSubscriptionExposedId',
    method: 'DELETE',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: { cancellation_details: cancellationDetails, invoice_now: p.bool(), prorate: p.bool() },
    run: (c, params, path) =>
      cancelSubscription(c, mustSubscription(c.ctx, path.subscription_exposed_id), params),
  }),
  op({
    id: 'GetSubscriptions',
    method: 'GET',
    path: '/v1/subscriptions',
    params: {
      ...listParams,
      customer: p.string(),
      customer_account: p.string(),
      price: p.string(),
      plan: p.string(),
      status: p.enum(...STATUSES),
      collection_method: p.enum('charge_automatically', 'send_invoice'),
      current_period_end: p.range(),
      current_period_start: p.range(),
      automatic_tax: p.any(),
      test_clock: p.string(),
    },
    run(c, params) {
      const where: [string, ...(string | number)[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      const status = params.status;
      if (status === 'ended') where.push(["status IN ('canceled', 'incomplete_expired')"]);
      else if (status && status !== 'all') where.push(['status = ?', status]);
      else if (!status) where.push(["status NOT IN ('canceled', 'incomplete_expired')"]);
      const price = params.price ?? params.plan;
      if (price)
        where.push([
          "id IN (SELECT subscription FROM subscription_items WHERE json_extract(data, '$.price.id') = ?)",
          price,
        ]);
      if (params.collection_method)
        where.push(["json_extract(data, '$.collection_method') = ?", params.collection_method]);
      const ops: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
      for (const field of ['current_period_end', 'current_period_start'] as const) {
        for (const [k, v] of Object.entries(
          (params[field] ?? {}) as Record<string, number | null>,
        )) {
          if (v === null || v === undefined) continue;
          // Fixed clause text per field and comparison; the value is a parameter.
          const clause =
            field === 'current_period_end'
              ? `json_extract(data, '$.items.data[0].current_period_end') ${ops[k]} ?`
              : `json_extract(data, '$.items.data[0].current_period_start') ${ops[k]} ?`;
          where.push([clause, v]);
        }
      }
      return listPage(c.ctx, 'subscriptions', params, {
        url: '/v1/subscriptions',
        what: 'subscription',
        where,
      });
    },
  }),
  op({
    id: 'GetSubscriptionsSearch',
    method: 'GET',
    path: '/v1/subscriptions/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'subscriptions', params, '/v1/subscriptions/search'),
  }),
  op({
    id: 'PostSubscriptionsSubscriptionResume',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/resume',
    params: {
      // `{ type: 'now' | 'unchanged' }` in the current API; older versions send the bare word.
      billing_cycle_anchor: p.any(),
      payment_behavior: p.enum('resume_on_payment_attempt', 'resume_on_payment_success'),
      proration_behavior: prorationBehavior,
      proration_date: p.int(),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (before.status !== 'paused')
        throw invalidRequest(
          `Subscription ${before.id} is not paused (its status is ${before.status}); only a paused subscription can be resumed.`,
          undefined,
          'subscription_not_paused',
        );
      if (before.collection_method !== 'charge_automatically')
        throw invalidRequest('Only subscriptions that charge automatically can be resumed.');
      const now = nowSeconds(c.ctx);
      const after = structuredClone(before);
      after.status = 'active';
      const raw = params.billing_cycle_anchor;
      const anchor = (raw && typeof raw === 'object' ? raw.type : raw) ?? 'now';
      if (anchor !== 'now' && anchor !== 'unchanged')
        throw invalidRequest(
          'Invalid billing_cycle_anchor: must be one of now, unchanged',
          'billing_cycle_anchor[type]',
          'parameter_invalid_string',
        );
      let draft: Obj | null = null;
      if (anchor === 'now') {
        after.billing_cycle_anchor = now;
        startPeriod(after, now);
        draft = draftInvoice(c, after, {
          billing_reason: 'subscription_cycle',
          items: true,
          period: { start: now, end: now },
        });
      } else {
        const { interval, count } = intervalOf(after);
        const end = boundaryAfter(after.billing_cycle_anchor, now, interval, count);
        const start = Math.max(
          addIntervals(end, interval, count, -1),
          after.billing_cycle_anchor <= now ? addIntervals(end, interval, count, -1) : now,
        );
        for (const item of after.items.data) {
          item.current_period_start = start;
          item.current_period_end = end;
        }
        const behavior = params.proration_behavior ?? 'create_prorations';
        if (behavior !== 'none') {
          for (const item of after.items.data)
            prorationItem(c, after, item, 1, params.proration_date ?? now);
          if (behavior === 'always_invoice')
            draft = draftInvoice(c, after, {
              billing_reason: 'subscription_update',
              items: false,
              period: { start: now, end: now },
            });
        }
      }
      if (draft) {
        after.latest_invoice = draft.id;
        const { failure } = collect(c, after, draft, { attempt: true });
        if (failure) {
          if (
            (params.payment_behavior ?? 'resume_on_payment_attempt') === 'resume_on_payment_success'
          )
            after.status = 'paused';
          else after.status = 'past_due';
        }
      }
      updated(c, before, after);
      if (after.status !== 'paused') emit(c, 'customer.subscription.resumed', after);
      return after;
    },
  }),
  op({
    id: 'PostSubscriptionsSubscriptionPause',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/pause',
    params: {
      bill_for: p.obj({
        outstanding_usage_through: p.obj({ type: p.enum('none', 'now').req() }),
        unused_time_from: p.obj({ type: p.enum('item_current_period_start', 'none', 'now').req() }),
      }),
      invoicing_behavior: p.enum('invoice', 'pending_invoice_item'),
      type: p.enum('subscription'),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (!['active', 'trialing', 'past_due'].includes(before.status)) {
        throw invalidRequest(
          `Subscription ${before.id} cannot be paused: its status is ${before.status}.`,
          undefined,
          'subscription_not_pausable',
        );
      }
      const now = nowSeconds(c.ctx);
      const after = structuredClone(before);
      after.status = 'paused';
      // Credit for the rest of the period, when asked; billed now or left pending for the next invoice.
      const from = params.bill_for?.unused_time_from?.type;
      if (from && from !== 'none' && before.status !== 'trialing') {
        const at = from === 'now' ? now : periodOf(before).start;
        for (const item of after.items.data) prorationItem(c, after, item, -1, at);
        if ((params.invoicing_behavior ?? 'invoice') === 'invoice') {
          const draft = draftInvoice(c, after, {
            billing_reason: 'subscription_update',
            items: false,
            period: { start: now, end: now },
          });
          after.latest_invoice = draft.id;
          collect(c, after, draft, { attempt: true });
        }
      }
      updated(c, before, after);
      emit(c, 'customer.subscription.paused', after);
      return after;
    },
  }),
  op({
    id: 'PostSubscriptionsSubscriptionMigrate',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/migrate',
    params: {
      billing_mode: p
        .obj({
          type: p.enum('flexible').req(),
          flexible: p.obj({ proration_discounts: p.enum('included', 'itemized') }),
        })
        .req(),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (before.billing_mode?.type === 'flexible')
        throw invalidRequest(
          `Subscription ${before.id} already uses billing_mode flexible.`,
          'billing_mode[type]',
        );
      if (hasEnded(before))
        throw invalidRequest(`Subscription ${before.id} has ended and cannot be migrated.`);
      const after = {
        ...structuredClone(before),
        billing_mode: {
          flexible: {
            proration_discounts: params.billing_mode.flexible?.proration_discounts ?? 'included',
          },
          type: 'flexible',
        },
      };
      return updated(c, before, after);
    },
  }),
  op({
    id: 'DeleteSubscriptionsSubscriptionExposedIdDiscount',
    method: 'DELETE',
    path: '/v1/subscriptions/{subscription_exposed_id}/discount',
    params: {},
    run(c, _params, path) {
      const before = mustSubscription(c.ctx, path.subscription_exposed_id);
      const discount = before.discounts?.[0];
      if (!discount) throw resourceMissing('discount', before.id, 'subscription_exposed_id');
      updated(c, before, { ...structuredClone(before), discounts: [] });
      emit(c, 'customer.discount.deleted', discount);
      const {
        checkout_session,
        coupon,
        customer,
        customer_account,
        id,
        invoice,
        invoice_item,
        promotion_code,
        source,
        start,
        subscription,
        subscription_item,
      } = discount;
      return {
        checkout_session,
        ...(coupon !== undefined ? { coupon } : {}),
        customer,
        customer_account,
        deleted: true,
        id,
        invoice,
        invoice_item,
        object: 'discount',
        promotion_code,
        source,
        start,
        subscription,
        subscription_item,
      };
    },
  }),
];
