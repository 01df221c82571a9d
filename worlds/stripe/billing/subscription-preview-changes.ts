/**
 * `create_preview` with `subscription_details`: the invoice a change to a subscription would bring, or a new
 * subscription's first invoice. A change is previewed by making it, as `POST /v1/subscriptions/{id}` would (items
 * with their prorations at `proration_date`, cancellation, the billing cycle), inside a savepoint that is rolled back
 * once the preview is built, so nothing of it stays: no rows, no events. By `proration_behavior`: `create_prorations`
 * (the default) previews the next renewal, with the change's proration items and the next period at the new prices;
 * `always_invoice` the invoice the change would bill at once (its prorations, `subscription_update`); `none` the next
 * renewal at the new prices. With `customer` and no `subscription`, the preview is the first invoice of a subscription
 * to the items, starting now (`subscription_create`: a period of each price, or the trial's zero lines).
 */
import type { Ctx } from 'seahaven';
import { invalidRequest, parameterMissing } from '../lib/errors.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import type { OpContext } from '../lib/op.ts';
import type { ParamValue } from '../lib/params.ts';
import { must, nowSeconds, type Stored } from '../lib/store.ts';
import { subscriptionDetails, type PreviewParams } from './invoice-preview-params.ts';
import type { SubscriptionPreview } from './invoicing.ts';
import { checkItems, itemPrice, productNameOf, recurringOf } from './subscription-checks.ts';
import type { UpdateParams } from './subscription-params.ts';
import { addIntervals } from './subscription-periods.ts';
import { previewSubscription } from './subscription-preview.ts';
import { updateSubscription } from './subscription-update.ts';

/** The `subscription_details` parameter of `create_preview`. */
type SubscriptionDetails = ParamValue<typeof subscriptionDetails>;

/** The preview `build` makes, carried out of the savepoint by the throw that rolls it back. */
class Built {
  readonly invoice: Stored<'invoices'>;
  constructor(invoice: Stored<'invoices'>) {
    this.invoice = invoice;
  }
}

/** `fn`'s result, with everything it wrote undone. */
function rolledBack(ctx: Ctx, fn: () => Stored<'invoices'>): Stored<'invoices'> {
  try {
    ctx.db.transaction(() => {
      throw new Built(fn());
    });
  } catch (e) {
    if (e instanceof Built) return e.invoice;
    throw e;
  }
  throw new Error('rolledBack: the savepoint returned without its preview');
}

/** Refuse what a preview here cannot make: schedules of phases, and pauses. */
function refuseUnsupported(d: SubscriptionDetails): void {
  for (const k of ['billing_schedules', 'resume_at', 'cancel_at'] as const)
    if (d[k] !== undefined && d[k] !== null)
      throw invalidRequest(
        `subscription_details[${k}] is not supported by this account's previews; preview the change without it.`,
        `subscription_details[${k}]`,
      );
}

/**
 * The preview of `params.subscription_details` (`d`): `build` makes the invoice from the request and the
 * subscription's part (invoice-preview.ts), here on the changed subscription inside the savepoint.
 */
export function previewChange(
  c: OpContext,
  params: PreviewParams,
  d: SubscriptionDetails,
  build: (params: PreviewParams, sub: SubscriptionPreview) => Stored<'invoices'>,
): Stored<'invoices'> {
  refuseUnsupported(d);
  const subscription = params.subscription;
  if (!subscription)
    return rolledBack(c.ctx, () => build(params, newSubscription(c, params.customer, d)));
  return rolledBack(c.ctx, () => {
    const before = must(c.ctx, 'subscriptions', subscription, 'subscription', 'subscription');
    if (params.customer && params.customer !== before.customer)
      throw invalidRequest(
        `The subscription ${before.id} does not belong to the customer ${params.customer}.`,
        'customer',
      );
    const behavior = d.proration_behavior ?? 'create_prorations';
    const at: number = d.proration_date ?? nowSeconds(c.ctx);
    const change: UpdateParams = {
      // Billing at once is previewed, not done: the prorations are made pending and shown as that invoice.
      proration_behavior: behavior === 'always_invoice' ? 'create_prorations' : behavior,
      ...(d.items ? { items: d.items } : {}),
      ...(d.proration_date != null ? { proration_date: d.proration_date } : {}),
      ...(d.billing_cycle_anchor ? { billing_cycle_anchor: d.billing_cycle_anchor } : {}),
      ...(d.cancel_at_period_end != null ? { cancel_at_period_end: d.cancel_at_period_end } : {}),
      ...(d.trial_end !== undefined ? { trial_end: d.trial_end } : {}),
    };
    if (d.cancel_now) change.cancel_at_period_end = true;
    const { subscription: after } = updateSubscription(c, before, change);
    const rest = { ...params, subscription: after.id, subscription_details: undefined };
    if (behavior === 'always_invoice')
      return build(rest, {
        customer: after.customer,
        subscription: after.id,
        period: { start: at, end: at },
        billing_reason: 'subscription_update',
        currency: after.currency,
        lines: [],
      });
    return build(rest, previewSubscription(c, rest));
  });
}

/** The first invoice of a new subscription of `customer` to `d.items`, starting now (or at `start_date`). */
function newSubscription(
  c: OpContext,
  customerId: string | null | undefined,
  d: SubscriptionDetails,
): SubscriptionPreview {
  if (!customerId)
    throw invalidRequest(
      'Previewing a new subscription needs customer (or subscription, to preview a change to one).',
      'customer',
      'parameter_missing',
    );
  const customer = liveCustomer(c.ctx, customerId);
  const items = d.items;
  if (!items?.length) throw parameterMissing('subscription_details[items]');
  const start: number = d.start_date ?? nowSeconds(c.ctx);
  // Prices named by `price_data` are made in a savepoint too: the preview keeps their objects, not their rows.
  const prices = items.map((spec, i) => {
    if (spec.id || spec.deleted)
      throw invalidRequest(
        'A new subscription has no items to change; give each item a price.',
        `subscription_details[items][${i}][${spec.id ? 'id' : 'deleted'}]`,
      );
    return itemPrice(c, spec, `subscription_details[items][${i}]`);
  });
  checkItems(
    prices.map((price: Stored<'prices'>) => ({ price })),
    'subscription_details[items]',
  );
  const { interval, interval_count: count = 1 } = recurringOf(prices[0]);
  const trialEnd = typeof d.trial_end === 'number' ? d.trial_end : Number(d.trial_end) || null;
  const end = trialEnd && trialEnd > start ? trialEnd : addIntervals(start, interval, count, 1);
  return {
    customer: customer.id,
    subscription: null,
    period: { start, end: start },
    billing_reason: 'subscription_create',
    currency: prices[0].currency,
    lines: prices.map((price: Stored<'prices'>, i: number) => {
      const quantity = items[i].quantity ?? 1;
      return {
        price,
        currency: price.currency,
        quantity,
        period: { start, end },
        ...(trialEnd && trialEnd > start
          ? {
              amount: 0,
              description: `Trial period for ${productNameOf(c.ctx, price)}`,
            }
          : {}),
      };
    }),
  };
}
