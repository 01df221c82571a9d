/**
 * The parameters of the subscription endpoints, as params.ts declares them: what create and update accept, their
 * items, discounts and cancellation details.
 */
import { p, type OpParams, type ParamsOf } from '../lib/params.ts';

export const DAYS_730 = 730 * 86_400;

export const prorationBehavior = p.enum('always_invoice', 'create_prorations', 'none');

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

/** An item of `items[]` as create reads it (update's items also name the item they change). */
export type ItemParams = ParamsOf<typeof itemFields>;

const discountsParam = p.arr(
  p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
);

export const cancellationDetails = p.obj({
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

export const createParams = {
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

/** What a subscription's discounts are set from: `discounts[]`, or a legacy `coupon` or `promotion_code`. */
export type DiscountParams = Pick<
  ParamsOf<typeof common>,
  'coupon' | 'promotion_code' | 'discounts'
>;

/** What says when (and why) a subscription is to be canceled. */
export type CancellationParams = Pick<
  ParamsOf<typeof updateParams>,
  'cancel_at' | 'cancel_at_period_end' | 'cancellation_details'
>;

export type CreateParams = OpParams<typeof createParams>;

export const updateParams = {
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

export type UpdateParams = OpParams<typeof updateParams>;

/** What canceling a subscription now takes (`DeleteSubscriptionsSubscriptionExposedId`). */
export const cancelParams = {
  cancellation_details: cancellationDetails,
  invoice_now: p.bool(),
  prorate: p.bool(),
};

export type CancelParams = OpParams<typeof cancelParams>;
