/**
 * Creating a subscription: its items and first period (or trial), its first invoice, finalized and collected at once
 * for automatic collection, and the status that payment leaves it in.
 */
import { taxRatesFor } from './invoice-taxes.ts';
import { addIntervals, boundaryAfter, itemAmount, prorate } from './subscription-periods.ts';
import {
  collect,
  draftInvoice,
  itemsEnvelope,
  newItem,
  saveSubscription,
  TRIAL_NOTICE,
} from './subscription-model.ts';
import { invalidRequest, parameterMissing } from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { addInvoiceLine } from './invoicing.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata } from '../lib/params.ts';
import type { SubscriptionPaymentSettings } from '../lib/objects.ts';
import { newId, nowSeconds, type Stored } from '../lib/store.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { planOf } from '../resources/price-model.ts';
import {
  itemPrice,
  checkItems,
  checkPaymentMethod,
  trialEndOf,
  discountsOf,
  applyCancellation,
  thrown,
  productNameOf,
  money,
  recurringOf,
  setDiscounts,
} from './subscription-checks.ts';
import type { CreateParams } from './subscription-params.ts';
import { moveSubscription } from './subscription-states.ts';

/** `payment_settings` as given: taken as any JSON (params.ts checks no more), read for what a subscription keeps. */
function paymentSettingsOf(params: CreateParams): Partial<SubscriptionPaymentSettings> | null {
  const given = params.payment_settings;
  return given !== null && typeof given === 'object'
    ? (given as Partial<SubscriptionPaymentSettings>)
    : null;
}

/** Create a subscription; see the module comment. */
export function createSubscription(c: OpContext, params: CreateParams): Stored<'subscriptions'> {
  const ctx = c.ctx;
  if (!params.customer) throw parameterMissing('customer');
  const customer = liveCustomer(ctx, params.customer);
  const items = params.items;
  if (!items || items.length === 0) throw parameterMissing('items');
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
  const prices = items.map((spec, i) => itemPrice(c, spec, `items[${i}]`));
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
  const { interval, interval_count: count = 1 } = recurringOf(prices[0]);
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
  const sub: Stored<'subscriptions'> = {
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
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: collection,
    created: now,
    currency: prices[0].currency,
    customer: customer.id,
    customer_account: null,
    // Set when collection is send_invoice (checked above).
    days_until_due: collection === 'send_invoice' ? (params.days_until_due ?? null) : null,
    default_payment_method: params.default_payment_method
      ? checkPaymentMethod(ctx, params.default_payment_method, customer.id)
      : null,
    default_source: null,
    default_tax_rates: taxRatesFor(ctx, params.default_tax_rates, 'default_tax_rates'),
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
      save_default_payment_method: paymentSettingsOf(params)?.save_default_payment_method ?? 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: trial ? 'trialing' : 'incomplete',
    test_clock: customer.test_clock ?? null,
    transfer_data: null,
    trial_end: trial,
    trial_settings: {
      end_behavior: {
        billing_cycle_anchor: null,
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
      items[i].quantity ?? 1,
      mergeMetadata({}, items[i].metadata),
      now,
      periodEnd,
    ),
  );
  sub.items.data.forEach((item, i) => {
    item.tax_rates = taxRatesFor(ctx, items[i].tax_rates, `items[${i}][tax_rates]`);
  });
  checkItems(sub.items.data);
  setDiscounts(sub, discountsOf(ctx, sub, params) ?? []);
  applyCancellation(sub, params, now);

  // The first invoice: $0 lines for a trial, a partial period up to a future anchor, else the whole first period.
  const partial = !trial && anchor > now && params.proration_behavior !== 'none';
  const fullStart = partial ? addIntervals(periodEnd, interval, count, -1) : now;
  // Stored before its first invoice, whose lines are taxed at its items' rates (invoice-taxes.ts reads them).
  saveSubscription(ctx, sub);
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
      // A whole period is the price's own amount (on a tiered price, a line per tier: tier-lines.ts).
      amount: !trial && !partial && anchor <= now ? undefined : amount,
      quantity: item.quantity,
      description: trial
        ? `Trial period for ${productNameOf(ctx, item.price)}`
        : `${item.quantity} × ${productNameOf(ctx, item.price)} (at ${money(item.price.unit_amount ?? 0, item.price.currency)} / ${item.price.recurring?.interval})`,
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
    moveSubscription(
      sub,
      invoice.status === 'paid' || collection === 'send_invoice' ? 'active' : 'incomplete',
    );
  saveSubscription(ctx, sub);
  emit(c, 'customer.subscription.created', sub);
  // A trial of three days or less is announced at once; a longer one three days before it ends (subscription-cycle.ts).
  if (trial && trial - TRIAL_NOTICE <= now) emit(c, 'customer.subscription.trial_will_end', sub);
  return sub;
}
