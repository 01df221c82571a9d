/**
 * The parameters of `POST /v1/invoices/create_preview`, apart from the preview itself (invoice-preview.ts) so that the
 * subscription previews it builds on (subscription-preview-changes.ts) can name them without importing it.
 */
import { p, type OpParams } from '../lib/params.ts';
import { priceData, prorationBehavior } from './subscription-params.ts';
import { discountsParam } from './invoices.ts';

/** `subscription_details`: a subscription to preview, or a change to one (subscription-preview-changes.ts). */
export const subscriptionDetails = p.obj({
  items: p.arr(
    p.obj({
      id: p.string(),
      deleted: p.bool(),
      clear_usage: p.bool(),
      price: p.string(),
      plan: p.string(),
      price_data: priceData,
      quantity: p.int(0),
      metadata: p.metadata(),
      tax_rates: p.any(),
      discounts: p.any(),
      billing_thresholds: p.any(),
    }),
  ),
  proration_behavior: prorationBehavior,
  proration_date: p.int(),
  billing_cycle_anchor: p.enum('now', 'unchanged'),
  cancel_at_period_end: p.bool(),
  cancel_at: p.any(),
  cancel_now: p.bool(),
  trial_end: p.any(),
  start_date: p.int(),
  default_tax_rates: p.any(),
  billing_mode: p.any(),
  billing_schedules: p.any(),
  resume_at: p.any(),
});

/** The parameters of `create_preview`. */
export const previewParams = {
  automatic_tax: p.obj({ enabled: p.bool().req(), liability: p.any() }),
  currency: p.string(3),
  customer: p.string(),
  customer_account: p.string(),
  customer_details: p.any(),
  discounts: discountsParam,
  invoice_items: p.arr(
    p.obj({
      amount: p.int(),
      currency: p.string(3),
      description: p.string(),
      discountable: p.bool(),
      discounts: discountsParam,
      invoiceitem: p.string(),
      metadata: p.metadata(),
      period: p.obj({ start: p.int().req(), end: p.int().req() }),
      price: p.string(),
      price_data: p.obj({
        currency: p.string().req(),
        product: p.string().req(),
        tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
        unit_amount: p.int(),
        unit_amount_decimal: p.decimal(),
      }),
      quantity: p.int(0),
      quantity_decimal: p.decimal(),
      tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
      tax_code: p.string(),
      tax_rates: p.arr(p.string()),
      unit_amount: p.int(),
      unit_amount_decimal: p.decimal(),
    }),
  ),
  issuer: p.obj({ account: p.string(), type: p.enum('account', 'self').req() }),
  on_behalf_of: p.string(),
  preview_mode: p.enum('next', 'recurring'),
  schedule: p.string(),
  schedule_details: p.any(),
  subscription: p.string(),
  subscription_details: subscriptionDetails,
};

export type PreviewParams = OpParams<typeof previewParams>;
