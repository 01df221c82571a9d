/**
 * What creating or changing a subscription checks and resolves before it writes: each item's price, the items as a
 * whole, the payment method, the trial's end, discounts, and when (and how) it is to be canceled.
 */
import { type Ctx } from 'seahaven';
import { addIntervals, periodOf } from './subscription-periods.ts';
import { MAX_ITEMS } from './subscription-model.ts';
import {
  invalidRequest,
  parameterMissing,
  resourceMissing,
  StripeError,
  type Failed,
} from '../lib/errors.ts';
import { inlinePrice } from './invoicing.ts';
import { type OpContext } from '../lib/op.ts';
import type { Discount, PriceRecurring } from '../lib/objects.ts';
import { get, must, newId, nowSeconds, put, type Obj, type Stored } from '../lib/store.ts';
import { livePrice } from '../resources/price-model.ts';
import { redeemableCoupon, redeemCoupon } from '../resources/coupons.ts';
import { redeemablePromotionCode, redeemPromotionCode } from '../resources/promotion-codes.ts';
import {
  DAYS_730,
  type CancellationParams,
  type DiscountParams,
  type ItemParams,
} from './subscription-params.ts';

/**
 * A subscription's discounts as the world stores them: the discount objects `discountsOf` makes, where the SDK's
 * declaration of a subscription (objects.ts) has their ids. Read and written through these two, so the difference is
 * said once.
 */
export function discountObjects(sub: Stored<'subscriptions'>): Discount[] {
  // Stored as objects, declared as ids.
  return (sub.discounts ?? []) as unknown as Discount[];
}

/** Set a subscription's discounts (`discountObjects`). */
export function setDiscounts(sub: Stored<'subscriptions'>, discounts: Discount[]): void {
  // Stored as objects, declared as ids.
  sub.discounts = discounts as unknown as string[];
}

/** Every price on a subscription item is recurring (`itemPrice` takes no other), so its `recurring` is set. */
export function recurringOf(price: Stored<'prices'>): PriceRecurring {
  return price.recurring as PriceRecurring;
}

/** The recurring, active price an item names (`price`, legacy `plan`, or `price_data`). */
export function itemPrice(
  c: OpContext,
  spec: Pick<ItemParams, 'price' | 'plan' | 'price_data'>,
  param: string,
): Stored<'prices'> {
  const named = (['price', 'plan', 'price_data'] as const).filter(
    (k) => spec[k] !== undefined && spec[k] !== null,
  );
  if (named.length === 0) throw parameterMissing(`${param}[price]`);
  if (named.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${named.join(', ')}.`,
      `${param}[${named[1]}]`,
    );
  let price: Stored<'prices'>;
  // `named` holds only the fields that are set.
  const d = spec.price_data;
  if (named[0] === 'price_data' && d) {
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
  price = livePrice(c.ctx, spec[named[0]] as string, `${param}[${named[0]}]`, named[0]);
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
export function checkItems(items: readonly { price: Stored<'prices'> }[], param = 'items'): void {
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
    const r = recurringOf(item.price);
    if (item.price.currency !== first.currency)
      throw invalidRequest(
        `All prices on a subscription must have the same currency; ${item.price.id} is in ${item.price.currency}, ${first.id} in ${first.currency}.`,
        `${param}[${i}][price]`,
      );
    if (
      r.interval !== recurringOf(first).interval ||
      (r.interval_count ?? 1) !== (recurringOf(first).interval_count ?? 1)
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
export function checkPaymentMethod(
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
export function trialEndOf(raw: unknown, now: number): number | 'now' | undefined {
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
export function discountsOf(
  ctx: Ctx,
  sub: Stored<'subscriptions'>,
  params: DiscountParams,
): Discount[] | undefined {
  const given = (['coupon', 'promotion_code', 'discounts'] as const).filter(
    (k) => params[k] !== undefined,
  );
  if (given.length === 0) return undefined;
  if (given.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${given.join(', ')}.`,
      given[1],
    );
  const entries: NonNullable<DiscountParams['discounts']> =
    given[0] === 'discounts'
      ? (params.discounts ?? [])
      : params[given[0]] === null
        ? []
        : [{ [given[0]]: params[given[0]] }];
  const kept = new Map<string, Discount>(discountObjects(sub).map((d) => [d.id, d]));
  return entries.map((entry, i) => {
    const where = (k: string) => (given[0] === 'discounts' ? `discounts[${i}][${k}]` : k);
    if (entry.discount) {
      const d = kept.get(entry.discount);
      if (!d) throw resourceMissing('discount', entry.discount, where('discount'));
      return d;
    }
    let coupon: Stored<'coupons'>;
    let promo: Stored<'promotion_codes'> | null = null;
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
    const discount: Discount = {
      id: newId(ctx, 'di_'),
      object: 'discount',
      checkout_session: null,
      customer: sub.customer,
      customer_account: null,
      end:
        coupon.duration === 'repeating'
          ? // A repeating coupon says for how many months.
            addIntervals(start, 'month', 1, coupon.duration_in_months as number)
          : null,
      invoice: null,
      invoice_item: null,
      promotion_code: promo?.id ?? null,
      source: { coupon: coupon.id, type: 'coupon' },
      start,
      subscription: sub.id,
      subscription_item: null,
    };
    return discount;
  });
}

/** `cancel_at` as given: a future time, the period's end, or unset. */
function cancelAtOf(
  raw: unknown,
  sub: Stored<'subscriptions'>,
  now: number,
): number | null | undefined {
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

export function applyCancellation(
  sub: Stored<'subscriptions'>,
  params: CancellationParams,
  now: number,
): void {
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
    const details = sub.cancellation_details ?? {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: null,
    };
    sub.cancellation_details = {
      ...details,
      comment: params.cancellation_details.comment ?? details.comment,
      feedback: params.cancellation_details.feedback ?? details.feedback,
    };
  }
}

/** The failure a first or always-invoiced payment answers with when the caller asked not to keep an unpaid change. */
export function thrown(f: Failed): StripeError {
  return new StripeError(f.status, f.error);
}

export function money(amount: number, currency: string): string {
  const text = (amount / 100).toFixed(2);
  return currency === 'usd' ? `$${text}` : `${text} ${currency.toUpperCase()}`;
}

export function productNameOf(ctx: Ctx, price: Stored<'prices'>): string {
  return get(ctx, 'products', price.product)?.name ?? price.nickname ?? 'Subscription item';
}

/** A subscription by id, or Stripe's 404. */
export function storedSubscription(
  ctx: Ctx,
  id: string,
  param = 'subscription_exposed_id',
): Stored<'subscriptions'> {
  return must(ctx, 'subscriptions', id, 'subscription', param);
}

/** `storedSubscription`, for the subscription endpoints (subscriptions.ts), which read it untyped. */
export function mustSubscription(ctx: Ctx, id: string, param = 'subscription_exposed_id'): Obj {
  return storedSubscription(ctx, id, param);
}
