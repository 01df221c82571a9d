/**
 * A checkout session's parameters: what create and complete take (checkout-sessions.ts declares the operations).
 */
import { p } from '../lib/params.ts';
import { lineItemPriceData } from './payment-links.ts';

export const HOUR = 3600;

/** Fields a session keeps for its completion that Stripe does not show on the session. */
export const PRIVATE = ['payment_intent_data', 'subscription_data', 'setup_intent_data'] as const;

export const address = p.obj({
  city: p.string(),
  country: p.string(),
  line1: p.string(),
  line2: p.string(),
  postal_code: p.string(),
  state: p.string(),
});

/** Parameters Stripe takes for page features the world has no counterpart for (tax, consent, shipping, branding). */
export const accepted = {
  adaptive_pricing: p.any(),
  after_expiration: p.any(),
  automatic_tax: p.any(),
  branding_settings: p.any(),
  consent_collection: p.any(),
  custom_fields: p.any(),
  custom_text: p.any(),
  customer_update: p.any(),
  discounts: p.any(),
  invoice_creation: p.any(),
  name_collection: p.any(),
  optional_items: p.any(),
  origin_context: p.any(),
  payment_method_configuration: p.string(),
  payment_method_data: p.any(),
  payment_method_options: p.any(),
  permissions: p.any(),
  redirect_on_completion: p.enum('always', 'if_required', 'never'),
  saved_payment_method_options: p.any(),
  shipping_address_collection: p.any(),
  shipping_options: p.any(),
  tax_id_collection: p.any(),
  wallet_options: p.any(),
  excluded_payment_method_types: p.arr(p.string()),
  customer_account: p.string(),
};

export const intentData = p.obj({
  capture_method: p.enum('automatic', 'automatic_async', 'manual'),
  description: p.string(1000),
  metadata: p.metadata(),
  receipt_email: p.string(),
  setup_future_usage: p.enum('off_session', 'on_session'),
  statement_descriptor: p.string(22),
  statement_descriptor_suffix: p.string(22),
  transfer_group: p.string(),
  application_fee_amount: p.int(0),
  on_behalf_of: p.string(),
  shipping: p.any(),
  transfer_data: p.any(),
});

export const createParams = {
  ...accepted,
  allow_promotion_codes: p.bool(),
  billing_address_collection: p.enum('auto', 'required'),
  cancel_url: p.string(5000),
  client_reference_id: p.string(200),
  currency: p.string(3),
  customer: p.string(),
  customer_creation: p.enum('always', 'if_required'),
  customer_email: p.string(512),
  expires_at: p.int(),
  line_items: p.arr(
    p.obj({
      price: p.string(),
      price_data: lineItemPriceData,
      quantity: p.int(),
      adjustable_quantity: p.obj({ enabled: p.bool().req(), maximum: p.int(1), minimum: p.int(0) }),
      tax_rates: p.arr(p.string()),
      dynamic_tax_rates: p.arr(p.string()),
      metadata: p.metadata(),
    }),
  ),
  locale: p.string(),
  metadata: p.metadata(),
  mode: p.enum('payment', 'setup', 'subscription').req(),
  payment_intent_data: intentData,
  payment_method_collection: p.enum('always', 'if_required'),
  payment_method_types: p.arr(p.string()),
  phone_number_collection: p.obj({ enabled: p.bool().req() }),
  return_url: p.string(5000),
  setup_intent_data: p.obj({
    description: p.string(1000),
    metadata: p.metadata(),
    on_behalf_of: p.string(),
  }),
  submit_type: p.enum('auto', 'book', 'donate', 'pay', 'subscribe'),
  subscription_data: p.obj({
    description: p.string(500),
    metadata: p.metadata(),
    trial_period_days: p.int(1),
    trial_end: p.int(),
    billing_cycle_anchor: p.int(),
    default_tax_rates: p.arr(p.string()),
    application_fee_percent: p.num(0, 100),
    billing_mode: p.any(),
    invoice_settings: p.any(),
    on_behalf_of: p.string(),
    proration_behavior: p.enum('create_prorations', 'none'),
    transfer_data: p.any(),
    trial_settings: p.any(),
  }),
  success_url: p.string(5000),
  ui_mode: p.enum(
    'elements',
    'embedded_page',
    'form',
    'hosted_page',
    'custom',
    'embedded',
    'hosted',
  ),
};

/** The UI modes' names before Stripe renamed them, still accepted: the reply carries the current name. */
export const UI_MODE_RENAMED = {
  custom: 'elements',
  embedded: 'embedded_page',
  hosted: 'hosted_page',
} as const;

export const completeParams = {
  payment_method: p.string(),
  customer_details: p.obj({
    email: p.string(512),
    name: p.string(256),
    phone: p.string(20),
    address,
  }),
};
