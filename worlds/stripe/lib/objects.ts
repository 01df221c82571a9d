/**
 * The objects Stripe World stores and serves, as TypeScript interfaces: generated from reference/shapes.json
 * (Stripe's example objects) by test/objects-build.ts; do not edit by hand. A field Stripe's example leaves
 * `null` is `unknown` here. `Tables` says which object each resource table holds.
 */

/** Stripe's `account` object. */
export interface Account {
  business_profile: {
    annual_revenue: {
      amount: unknown;
      currency: unknown;
      fiscal_year_end: unknown;
    };
    estimated_worker_count: unknown;
    mcc: unknown;
    name: unknown;
    product_description: unknown;
    support_address: {
      city: unknown;
      country: unknown;
      line1: unknown;
      line2: unknown;
      postal_code: unknown;
      state: unknown;
    };
    support_email: unknown;
    support_phone: unknown;
    support_url: unknown;
    url: unknown;
    minority_owned_business_designation: unknown;
  };
  business_type: unknown;
  capabilities: {
    card_payments: string;
    transfers: string;
  };
  charges_enabled: boolean;
  controller: {
    type: string;
  };
  country: string;
  created: number;
  default_currency: string;
  details_submitted: boolean;
  email: string;
  external_accounts: {
    data: unknown[];
    has_more: boolean;
    object: string;
    url: string;
  };
  future_requirements: {
    alternatives: unknown[];
    current_deadline: unknown;
    currently_due: unknown[];
    disabled_reason: unknown;
    errors: unknown[];
    eventually_due: unknown[];
    past_due: unknown[];
    pending_verification: unknown[];
  };
  id: string;
  metadata: Record<string, string>;
  object: string;
  payouts_enabled: boolean;
  requirements: {
    alternatives: unknown[];
    current_deadline: unknown;
    currently_due: string[];
    disabled_reason: string;
    errors: unknown[];
    eventually_due: string[];
    past_due: unknown[];
    pending_verification: unknown[];
  };
  settings: {
    bacs_debit_payments: {
      display_name: unknown;
      service_user_number: unknown;
    };
    branding: {
      icon: unknown;
      logo: unknown;
      primary_color: unknown;
      secondary_color: unknown;
    };
    card_issuing: {
      tos_acceptance: {
        date: unknown;
        ip: unknown;
      };
    };
    card_payments: {
      decline_on: {
        avs_failure: boolean;
        cvc_failure: boolean;
      };
      statement_descriptor_prefix: unknown;
      statement_descriptor_prefix_kana: unknown;
      statement_descriptor_prefix_kanji: unknown;
    };
    dashboard: {
      display_name: unknown;
      timezone: string;
    };
    invoices: {
      default_account_tax_ids: unknown;
      hosted_payment_method_save: unknown;
    };
    payments: {
      statement_descriptor: unknown;
      statement_descriptor_kana: unknown;
      statement_descriptor_kanji: unknown;
      statement_descriptor_prefix_kana: unknown;
      statement_descriptor_prefix_kanji: unknown;
    };
    payouts: {
      debit_negative_balances: boolean;
      schedule: {
        delay_days: number;
        interval: string;
      };
      statement_descriptor: unknown;
    };
    sepa_debit_payments: Record<string, unknown>;
  };
  tos_acceptance: {
    date: unknown;
    ip: unknown;
    user_agent: unknown;
  };
  type: string;
}

/** Stripe's `balance` object. */
export interface Balance {
  available: Array<{
    amount: number;
    currency: string;
    source_types: {
      card: number;
    };
  }>;
  connect_reserved: Array<{
    amount: number;
    currency: string;
  }>;
  livemode: boolean;
  object: string;
  pending: Array<{
    amount: number;
    currency: string;
    source_types: {
      card: number;
    };
  }>;
}

/** Stripe's `balance_transaction` object. */
export interface BalanceTransaction {
  amount: number;
  available_on: number;
  created: number;
  currency: string;
  description: string;
  exchange_rate: unknown;
  fee: number;
  fee_details: unknown[];
  id: string;
  net: number;
  object: string;
  reporting_category: string;
  source: string;
  status: string;
  type: string;
  balance_type: string;
}

/** Stripe's `charge` object. */
export interface Charge {
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application: unknown;
  application_fee: unknown;
  application_fee_amount: unknown;
  balance_transaction: string;
  billing_details: {
    address: {
      city: unknown;
      country: unknown;
      line1: unknown;
      line2: unknown;
      postal_code: unknown;
      state: unknown;
    };
    email: unknown;
    name: string;
    phone: unknown;
    tax_id: unknown;
  };
  calculated_statement_descriptor: unknown;
  captured: boolean;
  created: number;
  currency: string;
  customer: unknown;
  description: string;
  disputed: boolean;
  failure_balance_transaction: unknown;
  failure_code: unknown;
  failure_message: unknown;
  fraud_details: Record<string, unknown>;
  id: string;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  on_behalf_of: unknown;
  outcome: {
    advice_code: unknown;
    network_advice_code: unknown;
    network_decline_code: unknown;
    network_status: unknown;
    reason: unknown;
    seller_message: unknown;
    type: string;
  };
  paid: boolean;
  payment_intent: unknown;
  payment_method: string;
  payment_method_details: {
    card: {
      amount_authorized: unknown;
      brand: string;
      checks: {
        address_line1_check: unknown;
        address_postal_code_check: unknown;
        cvc_check: string;
      };
      country: string;
      exp_month: number;
      exp_year: number;
      extended_authorization: {
        status: string;
      };
      fingerprint: string;
      funding: string;
      incremental_authorization: {
        status: string;
      };
      installments: {
        plan: {
          count: unknown;
          interval: unknown;
          type: string;
        };
      };
      last4: string;
      mandate: unknown;
      multicapture: {
        status: string;
      };
      network: string;
      network_token: {
        used: boolean;
      };
      overcapture: {
        maximum_amount_capturable: number;
        status: string;
      };
      three_d_secure: {
        authentication_flow: unknown;
        electronic_commerce_indicator: unknown;
        exemption_indicator: unknown;
        result: unknown;
        result_reason: unknown;
        transaction_id: unknown;
        version: unknown;
      };
      wallet: {
        dynamic_last4: unknown;
        type: string;
      };
      authorization_code: unknown;
      regulated_status: unknown;
      network_transaction_id: unknown;
      transaction_link_id: unknown;
    };
    type: string;
  };
  receipt_email: unknown;
  receipt_number: unknown;
  receipt_url: string;
  refunded: boolean;
  refunds: {
    data: unknown[];
    has_more: boolean;
    object: string;
    url: string;
  };
  review: unknown;
  shipping: Record<string, unknown>;
  source_transfer: unknown;
  statement_descriptor: unknown;
  statement_descriptor_suffix: unknown;
  status: string;
  transfer_data: {
    amount: unknown;
    destination: {
      id: string;
      object: string;
    };
  };
  transfer_group: unknown;
  source: {
    allow_redisplay: unknown;
    amount: unknown;
    client_secret: string;
    created: number;
    currency: unknown;
    flow: string;
    id: string;
    livemode: boolean;
    metadata: unknown;
    object: string;
    owner: {
      address: {
        city: unknown;
        country: unknown;
        line1: unknown;
        line2: unknown;
        postal_code: unknown;
        state: unknown;
      };
      email: unknown;
      name: unknown;
      phone: unknown;
      verified_address: {
        city: unknown;
        country: unknown;
        line1: unknown;
        line2: unknown;
        postal_code: unknown;
        state: unknown;
      };
      verified_email: unknown;
      verified_name: unknown;
      verified_phone: unknown;
    };
    statement_descriptor: unknown;
    status: string;
    type: string;
    usage: unknown;
  };
}

/** Stripe's `coupon` object. */
export interface Coupon {
  amount_off: unknown;
  created: number;
  currency: string;
  duration: string;
  duration_in_months: number;
  id: string;
  livemode: boolean;
  max_redemptions: unknown;
  metadata: Record<string, string>;
  name: string;
  object: string;
  percent_off: number;
  redeem_by: number;
  times_redeemed: number;
  valid: boolean;
}

/** Stripe's `customer` object. */
export interface Customer {
  address: {
    city: unknown;
    country: unknown;
    line1: unknown;
    line2: unknown;
    postal_code: unknown;
    state: unknown;
  };
  balance: number;
  created: number;
  currency: string;
  default_source: unknown;
  delinquent: boolean;
  description: unknown;
  discount: {
    checkout_session: unknown;
    customer: unknown;
    end: unknown;
    id: string;
    invoice: unknown;
    invoice_item: unknown;
    object: string;
    promotion_code: unknown;
    start: number;
    subscription: unknown;
    subscription_item: unknown;
    source: {
      coupon: unknown;
      type: string;
    };
    customer_account: unknown;
  };
  email: unknown;
  id: string;
  invoice_prefix: string;
  invoice_settings: {
    custom_fields: unknown;
    default_payment_method: unknown;
    footer: unknown;
    rendering_options: {
      amount_tax_display: unknown;
      template: unknown;
    };
  };
  livemode: boolean;
  metadata: Record<string, string>;
  name: unknown;
  next_invoice_sequence: number;
  object: string;
  phone: unknown;
  preferred_locales: unknown[];
  shipping: Record<string, unknown>;
  tax_exempt: string;
  test_clock: unknown;
}

/** Stripe's `customer_balance_transaction` object. */
export interface CustomerBalanceTransaction {
  amount: number;
  created: number;
  credit_note: unknown;
  currency: string;
  customer: string;
  description: unknown;
  ending_balance: number;
  id: string;
  invoice: unknown;
  livemode: boolean;
  metadata: unknown;
  object: string;
  type: string;
  checkout_session: unknown;
  customer_account: unknown;
}

/** Stripe's `deleted_coupon` object. */
export interface DeletedCoupon {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `deleted_customer` object. */
export interface DeletedCustomer {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `deleted_plan` object. */
export interface DeletedPlan {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `deleted_product` object. */
export interface DeletedProduct {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `discount` object. */
export interface Discount {
  checkout_session: unknown;
  customer: string;
  end: number;
  id: string;
  invoice: unknown;
  invoice_item: unknown;
  object: string;
  promotion_code: unknown;
  start: number;
  subscription: unknown;
  subscription_item: unknown;
  source: {
    coupon: unknown;
    type: string;
  };
  customer_account: unknown;
}

/** Stripe's `dispute` object. */
export interface Dispute {
  amount: number;
  balance_transactions: unknown[];
  charge: string;
  created: number;
  currency: string;
  evidence: {
    access_activity_log: unknown;
    billing_address: unknown;
    cancellation_policy: unknown;
    cancellation_policy_disclosure: unknown;
    cancellation_rebuttal: unknown;
    customer_communication: unknown;
    customer_email_address: unknown;
    customer_name: unknown;
    customer_purchase_ip: unknown;
    customer_signature: unknown;
    duplicate_charge_documentation: unknown;
    duplicate_charge_explanation: unknown;
    duplicate_charge_id: unknown;
    product_description: unknown;
    receipt: unknown;
    refund_policy: unknown;
    refund_policy_disclosure: unknown;
    refund_refusal_explanation: unknown;
    service_date: unknown;
    service_documentation: unknown;
    shipping_address: unknown;
    shipping_carrier: unknown;
    shipping_date: unknown;
    shipping_documentation: unknown;
    shipping_tracking_number: unknown;
    uncategorized_file: unknown;
    uncategorized_text: unknown;
    enhanced_evidence: Record<string, unknown>;
  };
  evidence_details: {
    due_by: number;
    has_evidence: boolean;
    past_due: boolean;
    submission_count: number;
    enhanced_eligibility: Record<string, unknown>;
  };
  id: string;
  is_charge_refundable: boolean;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  payment_intent: unknown;
  payment_method_details: {
    card: {
      brand: string;
      case_type: string;
      network_reason_code: string;
      network: string;
    };
    type: string;
  };
  reason: string;
  status: string;
  enhanced_eligibility_types: string[];
}

/** Stripe's `event` object. */
export interface Event {
  api_version: unknown;
  created: number;
  data: {
    object: {
      active: boolean;
      aggregate_usage: unknown;
      amount: number;
      amount_decimal: string;
      billing_scheme: string;
      created: number;
      currency: string;
      id: string;
      interval: string;
      interval_count: number;
      livemode: boolean;
      metadata: Record<string, string>;
      meter: unknown;
      nickname: unknown;
      object: string;
      product: string;
      tiers_mode: unknown;
      transform_usage: unknown;
      trial_period_days: unknown;
      usage_type: string;
    };
  };
  id: string;
  livemode: boolean;
  object: string;
  pending_webhooks: number;
  request: {
    id: unknown;
    idempotency_key: unknown;
  };
  type: string;
}

/** Stripe's `payment_intent` object. */
export interface PaymentIntent {
  amount: number;
  amount_capturable: number;
  amount_details: {
    tip: Record<string, unknown>;
  };
  amount_received: number;
  application: unknown;
  application_fee_amount: unknown;
  automatic_payment_methods: {
    enabled: boolean;
  };
  canceled_at: number;
  cancellation_reason: unknown;
  capture_method: string;
  client_secret: string;
  confirmation_method: string;
  created: number;
  currency: string;
  customer: unknown;
  description: unknown;
  id: string;
  last_payment_error: {
    type: string;
  };
  latest_charge: unknown;
  livemode: boolean;
  metadata: Record<string, string>;
  next_action: {
    type: string;
  };
  object: string;
  on_behalf_of: unknown;
  payment_method: unknown;
  payment_method_configuration_details: {
    id: string;
    parent: unknown;
  };
  payment_method_options: Record<string, unknown>;
  payment_method_types: string[];
  processing: {
    type: string;
  };
  receipt_email: unknown;
  review: unknown;
  setup_future_usage: unknown;
  shipping: Record<string, unknown>;
  statement_descriptor: unknown;
  statement_descriptor_suffix: unknown;
  status: string;
  transfer_data: {
    destination: {
      id: string;
      object: string;
    };
  };
  transfer_group: unknown;
  source: unknown;
  excluded_payment_method_types: unknown;
  customer_account: unknown;
  managed_payments: {
    enabled: boolean;
  };
}

/** Stripe's `payment_intent_amount_details_line_item` object. */
export interface PaymentIntentAmountDetailsLineItem {
  discount_amount: unknown;
  id: string;
  object: string;
  payment_method_options: Record<string, unknown>;
  product_code: unknown;
  product_name: string;
  quantity: number;
  tax: {
    total_tax_amount: number;
  };
  unit_cost: number;
  unit_of_measure: unknown;
}

/** Stripe's `payment_method` object. */
export interface PaymentMethod {
  allow_redisplay: string;
  billing_details: {
    address: {
      city: string;
      country: string;
      line1: string;
      line2: unknown;
      postal_code: string;
      state: string;
    };
    email: string;
    name: unknown;
    phone: string;
    tax_id: unknown;
  };
  card: {
    brand: string;
    checks: {
      address_line1_check: unknown;
      address_postal_code_check: unknown;
      cvc_check: string;
    };
    country: string;
    display_brand: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    funding: string;
    generated_from: {
      charge: unknown;
      payment_method_details: {
        type: string;
      };
      setup_attempt: unknown;
    };
    last4: string;
    networks: {
      available: string[];
      preferred: unknown;
    };
    three_d_secure_usage: {
      supported: boolean;
    };
    wallet: {
      dynamic_last4: unknown;
      type: string;
    };
    regulated_status: unknown;
  };
  created: number;
  customer: unknown;
  id: string;
  livemode: boolean;
  metadata: {
    order_id: string;
  };
  object: string;
  type: string;
  customer_account: unknown;
}

/** Stripe's `payout` object. */
export interface Payout {
  amount: number;
  application_fee: unknown;
  application_fee_amount: unknown;
  arrival_date: number;
  automatic: boolean;
  balance_transaction: string;
  created: number;
  currency: string;
  description: string;
  destination: string;
  failure_balance_transaction: unknown;
  failure_code: unknown;
  failure_message: unknown;
  id: string;
  livemode: boolean;
  metadata: Record<string, string>;
  method: string;
  object: string;
  original_payout: unknown;
  reconciliation_status: string;
  reversed_by: unknown;
  source_type: string;
  statement_descriptor: unknown;
  status: string;
  type: string;
  trace_id: {
    status: string;
    value: unknown;
  };
  payout_method: unknown;
}

/** Stripe's `plan` object. */
export interface Plan {
  active: boolean;
  amount: number;
  amount_decimal: string;
  billing_scheme: string;
  created: number;
  currency: string;
  id: string;
  interval: string;
  interval_count: number;
  livemode: boolean;
  metadata: Record<string, string>;
  meter: unknown;
  nickname: unknown;
  object: string;
  product: string;
  tiers_mode: unknown;
  transform_usage: {
    divide_by: number;
    round: string;
  };
  trial_period_days: unknown;
  usage_type: string;
}

/** Stripe's `price` object. */
export interface Price {
  active: boolean;
  billing_scheme: string;
  created: number;
  currency: string;
  custom_unit_amount: {
    maximum: unknown;
    minimum: unknown;
    preset: unknown;
  };
  id: string;
  livemode: boolean;
  lookup_key: unknown;
  metadata: Record<string, string>;
  nickname: unknown;
  object: string;
  product: string;
  recurring: {
    interval: string;
    interval_count: number;
    meter: unknown;
    usage_type: string;
    trial_period_days: unknown;
  };
  tax_behavior: string;
  tiers_mode: unknown;
  transform_quantity: {
    divide_by: number;
    round: string;
  };
  type: string;
  unit_amount: number;
  unit_amount_decimal: string;
}

/** Stripe's `product` object. */
export interface Product {
  active: boolean;
  created: number;
  default_price: string;
  description: string;
  id: string;
  images: unknown[];
  livemode: boolean;
  marketing_features: unknown[];
  metadata: Record<string, string>;
  name: string;
  object: string;
  package_dimensions: {
    height: number;
    length: number;
    weight: number;
    width: number;
  };
  shippable: unknown;
  statement_descriptor: unknown;
  tax_code: unknown;
  unit_label: unknown;
  updated: number;
  url: unknown;
  type: string;
}

/** Stripe's `promotion_code` object. */
export interface PromotionCode {
  active: boolean;
  code: string;
  created: number;
  customer: unknown;
  expires_at: number;
  id: string;
  livemode: boolean;
  max_redemptions: unknown;
  metadata: Record<string, string>;
  object: string;
  restrictions: {
    first_time_transaction: boolean;
    minimum_amount: unknown;
    minimum_amount_currency: unknown;
  };
  times_redeemed: number;
  promotion: {
    coupon: unknown;
    type: string;
  };
  customer_account: unknown;
}

/** Stripe's `refund` object. */
export interface Refund {
  amount: number;
  balance_transaction: unknown;
  charge: string;
  created: number;
  currency: string;
  destination_details: {
    card: {
      type: string;
    };
    type: string;
  };
  id: string;
  metadata: Record<string, string>;
  object: string;
  payment_intent: unknown;
  reason: unknown;
  receipt_number: unknown;
  source_transfer_reversal: unknown;
  status: string;
  transfer_reversal: unknown;
  customer: unknown;
  customer_account: unknown;
  payment_method: unknown;
}

/** Stripe's `setup_intent` object. */
export interface SetupIntent {
  application: unknown;
  automatic_payment_methods: {
    enabled: unknown;
  };
  cancellation_reason: unknown;
  client_secret: string;
  created: number;
  customer: unknown;
  description: unknown;
  flow_directions: unknown;
  id: string;
  last_setup_error: {
    type: string;
  };
  latest_attempt: unknown;
  livemode: boolean;
  mandate: unknown;
  metadata: Record<string, string>;
  next_action: {
    type: string;
  };
  object: string;
  on_behalf_of: unknown;
  payment_method: unknown;
  payment_method_configuration_details: {
    id: string;
    parent: unknown;
  };
  payment_method_options: Record<string, unknown>;
  payment_method_types: string[];
  single_use_mandate: unknown;
  status: string;
  usage: string;
  excluded_payment_method_types: unknown;
}

/** Stripe's `tax_rate` object. */
export interface TaxRate {
  active: boolean;
  country: string;
  created: number;
  description: string;
  display_name: string;
  effective_percentage: unknown;
  id: string;
  inclusive: boolean;
  jurisdiction: string;
  jurisdiction_level: unknown;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  percentage: number;
  state: unknown;
  tax_type: string;
  flat_amount: {
    amount: number;
    currency: string;
  };
  rate_type: unknown;
}

/** Stripe's `tax_id` object. */
export interface TaxId {
  country: string;
  created: number;
  customer: string;
  id: string;
  livemode: boolean;
  object: string;
  owner: {
    customer: string;
    type: string;
    customer_account: unknown;
  };
  type: string;
  value: string;
  verification: {
    status: string;
    verified_address: unknown;
    verified_name: unknown;
  };
  customer_account: unknown;
}

/** Stripe's `deleted_tax_id` object. */
export interface DeletedTaxId {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `deleted_price` object. */
export interface DeletedPrice {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `invoice` object. */
export interface Invoice {
  account_country: string;
  account_name: unknown;
  account_tax_ids: unknown;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  amount_shipping: number;
  application: unknown;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  automatic_tax: {
    enabled: boolean;
    liability: {
      type: string;
    };
    status: unknown;
    disabled_reason: unknown;
    provider: unknown;
  };
  billing_reason: string;
  collection_method: string;
  created: number;
  currency: string;
  custom_fields: unknown;
  customer: string;
  customer_address: {
    city: unknown;
    country: unknown;
    line1: unknown;
    line2: unknown;
    postal_code: unknown;
    state: unknown;
  };
  customer_email: unknown;
  customer_name: unknown;
  customer_phone: unknown;
  customer_shipping: Record<string, unknown>;
  customer_tax_exempt: string;
  customer_tax_ids: unknown[];
  default_payment_method: unknown;
  default_source: unknown;
  default_tax_rates: unknown[];
  description: unknown;
  discounts: unknown[];
  due_date: number;
  effective_at: number;
  ending_balance: unknown;
  footer: unknown;
  from_invoice: {
    action: string;
    invoice: string;
  };
  hosted_invoice_url: unknown;
  id: string;
  invoice_pdf: unknown;
  issuer: {
    type: string;
  };
  last_finalization_error: {
    type: string;
  };
  latest_revision: unknown;
  lines: {
    data: Array<{
      amount: number;
      currency: string;
      description: string;
      discount_amounts: unknown[];
      discountable: boolean;
      discounts: unknown[];
      id: string;
      invoice: string;
      livemode: boolean;
      metadata: Record<string, string>;
      object: string;
      period: {
        end: number;
        start: number;
      };
      quantity: number;
      subscription: unknown;
      pretax_credit_amounts: unknown;
      taxes: unknown;
      parent: {
        invoice_item_details: {
          invoice_item: string;
          proration: boolean;
          proration_details: {
            credited_items: {
              invoice: string;
              invoice_line_items: string[];
            };
          };
          subscription: unknown;
        };
        subscription_item_details: {
          invoice_item: unknown;
          proration: boolean;
          proration_details: {
            credited_items: {
              invoice: string;
              invoice_line_items: string[];
            };
          };
          subscription: string;
          subscription_item: string;
        };
        type: string;
      };
      pricing: {
        type: string;
        unit_amount_decimal: unknown;
      };
      subtotal: number;
      quantity_decimal: unknown;
    }>;
    has_more: boolean;
    object: string;
    url: string;
  };
  livemode: boolean;
  metadata: Record<string, string>;
  next_payment_attempt: number;
  number: unknown;
  object: string;
  on_behalf_of: unknown;
  payment_settings: {
    default_mandate: unknown;
    payment_method_options: {
      acss_debit: Record<string, unknown>;
      bancontact: {
        preferred_language: string;
      };
      card: {
        request_three_d_secure: unknown;
      };
      customer_balance: {
        funding_type: unknown;
      };
      konbini: Record<string, unknown>;
      sepa_debit: Record<string, unknown>;
      us_bank_account: Record<string, unknown>;
      payto: Record<string, unknown>;
      pix: {
        amount_includes_iof: unknown;
      };
      upi: Record<string, unknown>;
    };
    payment_method_types: unknown;
  };
  period_end: number;
  period_start: number;
  post_payment_credit_notes_amount: number;
  pre_payment_credit_notes_amount: number;
  receipt_number: unknown;
  rendering: {
    amount_tax_display: unknown;
    pdf: {
      page_size: unknown;
    };
    template: unknown;
    template_version: unknown;
  };
  shipping_cost: {
    amount_subtotal: number;
    amount_tax: number;
    amount_total: number;
    shipping_rate: unknown;
  };
  shipping_details: Record<string, unknown>;
  starting_balance: number;
  statement_descriptor: unknown;
  status: string;
  status_transitions: {
    finalized_at: unknown;
    marked_uncollectible_at: unknown;
    paid_at: unknown;
    voided_at: unknown;
  };
  subscription: unknown;
  subtotal: number;
  subtotal_excluding_tax: number;
  test_clock: unknown;
  total: number;
  total_discount_amounts: unknown[];
  total_excluding_tax: number;
  webhooks_delivered_at: number;
  automatically_finalizes_at: unknown;
  total_pretax_credit_amounts: unknown;
  total_taxes: unknown;
  amount_overpaid: number;
  parent: {
    quote_details: {
      quote: string;
    };
    subscription_details: {
      metadata: unknown;
      subscription: string;
    };
    type: string;
  };
  customer_account: unknown;
}

/** Stripe's `line_item` object. */
export interface LineItem {
  amount: number;
  currency: string;
  description: string;
  discount_amounts: unknown[];
  discountable: boolean;
  discounts: unknown[];
  id: string;
  invoice: string;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  period: {
    end: number;
    start: number;
  };
  quantity: number;
  subscription: unknown;
  pretax_credit_amounts: unknown;
  taxes: unknown;
  parent: {
    invoice_item_details: {
      invoice_item: string;
      proration: boolean;
      proration_details: {
        credited_items: {
          invoice: string;
          invoice_line_items: string[];
        };
      };
      subscription: unknown;
    };
    subscription_item_details: {
      invoice_item: unknown;
      proration: boolean;
      proration_details: {
        credited_items: {
          invoice: string;
          invoice_line_items: string[];
        };
      };
      subscription: string;
      subscription_item: string;
    };
    type: string;
  };
  pricing: {
    type: string;
    unit_amount_decimal: unknown;
  };
  subtotal: number;
  quantity_decimal: unknown;
}

/** Stripe's `invoiceitem` object. */
export interface Invoiceitem {
  amount: number;
  currency: string;
  customer: string;
  date: number;
  description: string;
  discountable: boolean;
  discounts: unknown[];
  id: string;
  invoice: unknown;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  period: {
    end: number;
    start: number;
  };
  proration: boolean;
  quantity: number;
  tax_rates: unknown[];
  test_clock: unknown;
  parent: {
    subscription_details: {
      subscription: string;
    };
    type: string;
  };
  pricing: {
    type: string;
    unit_amount_decimal: unknown;
  };
  net_amount: number;
  customer_account: unknown;
  quantity_decimal: string;
}

/** Stripe's `deleted_invoice` object. */
export interface DeletedInvoice {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `deleted_invoiceitem` object. */
export interface DeletedInvoiceitem {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `invoice_payment` object. */
export interface InvoicePayment {
  amount_paid: unknown;
  amount_requested: number;
  created: number;
  currency: string;
  id: string;
  invoice: string;
  is_default: boolean;
  livemode: boolean;
  object: string;
  payment: {
    type: string;
  };
  status: string;
  status_transitions: {
    canceled_at: unknown;
    paid_at: unknown;
  };
}

/** Stripe's `subscription` object. */
export interface Subscription {
  application: unknown;
  application_fee_percent: unknown;
  automatic_tax: {
    enabled: boolean;
    liability: {
      type: string;
    };
    disabled_reason: unknown;
  };
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: {
    day_of_month: number;
    hour: unknown;
    minute: unknown;
    month: unknown;
    second: unknown;
  };
  cancel_at: number;
  canceled_at: number;
  cancellation_details: {
    comment: unknown;
    feedback: unknown;
    reason: unknown;
  };
  collection_method: string;
  created: number;
  currency: string;
  customer: string;
  days_until_due: unknown;
  default_payment_method: unknown;
  default_source: unknown;
  default_tax_rates: unknown[];
  description: unknown;
  discounts: unknown[];
  ended_at: number;
  id: string;
  invoice_settings: {
    account_tax_ids: unknown;
    issuer: {
      type: string;
    };
    custom_fields: unknown;
    description: unknown;
    footer: unknown;
  };
  items: {
    data: Array<{
      created: number;
      discounts: unknown[];
      id: string;
      metadata: Record<string, string>;
      object: string;
      price: {
        active: boolean;
        billing_scheme: string;
        created: number;
        currency: string;
        custom_unit_amount: {
          maximum: unknown;
          minimum: unknown;
          preset: unknown;
        };
        id: string;
        livemode: boolean;
        lookup_key: unknown;
        metadata: Record<string, string>;
        nickname: unknown;
        object: string;
        product: string;
        recurring: {
          interval: string;
          interval_count: number;
          meter: unknown;
          usage_type: string;
          trial_period_days: unknown;
        };
        tax_behavior: string;
        tiers_mode: unknown;
        transform_quantity: {
          divide_by: number;
          round: string;
        };
        type: string;
        unit_amount: number;
        unit_amount_decimal: string;
      };
      quantity: number;
      subscription: string;
      tax_rates: unknown[];
      plan: {
        active: boolean;
        amount: unknown;
        amount_decimal: unknown;
        billing_scheme: string;
        created: number;
        currency: string;
        id: string;
        interval: string;
        interval_count: number;
        livemode: boolean;
        metadata: unknown;
        meter: unknown;
        nickname: unknown;
        object: string;
        product: unknown;
        tiers_mode: unknown;
        transform_usage: {
          divide_by: number;
          round: string;
        };
        trial_period_days: unknown;
        usage_type: string;
      };
      current_period_end: number;
      current_period_start: number;
      billing_thresholds: {
        usage_gte: unknown;
      };
    }>;
    has_more: boolean;
    object: string;
    url: string;
  };
  latest_invoice: unknown;
  livemode: boolean;
  metadata: Record<string, string>;
  next_pending_invoice_item_invoice: number;
  object: string;
  on_behalf_of: unknown;
  pause_collection: {
    behavior: string;
    resumes_at: unknown;
  };
  payment_settings: {
    payment_method_options: {
      acss_debit: Record<string, unknown>;
      bancontact: {
        preferred_language: string;
      };
      card: {
        network: unknown;
        request_three_d_secure: unknown;
      };
      customer_balance: {
        funding_type: unknown;
      };
      konbini: Record<string, unknown>;
      sepa_debit: Record<string, unknown>;
      us_bank_account: Record<string, unknown>;
      payto: Record<string, unknown>;
      pix: Record<string, unknown>;
      upi: Record<string, unknown>;
    };
    payment_method_types: unknown;
    save_default_payment_method: unknown;
  };
  pending_invoice_item_interval: {
    interval: string;
    interval_count: number;
  };
  pending_setup_intent: unknown;
  pending_update: {
    billing_cycle_anchor: unknown;
    discount: {
      checkout_session: unknown;
      customer: unknown;
      end: unknown;
      id: string;
      invoice: unknown;
      invoice_item: unknown;
      object: string;
      promotion_code: unknown;
      start: number;
      subscription: unknown;
      subscription_item: unknown;
      source: {
        coupon: unknown;
        type: string;
      };
      customer_account: unknown;
    };
    discounts: unknown[];
    expires_at: number;
    subscription_items: unknown;
    trial_end: unknown;
    trial_from_plan: unknown;
    metadata: unknown;
  };
  schedule: unknown;
  start_date: number;
  status: string;
  test_clock: unknown;
  transfer_data: {
    amount_percent: unknown;
    destination: {
      id: string;
      object: string;
    };
  };
  trial_end: number;
  trial_settings: {
    end_behavior: {
      missing_payment_method: string;
    };
  };
  trial_start: number;
  cancel_at_period_end: boolean;
  billing_thresholds: {
    amount_gte: unknown;
    reset_billing_cycle_anchor: unknown;
  };
  billing_mode: {
    type: string;
    flexible: Record<string, unknown>;
  };
  customer_account: unknown;
  managed_payments: {
    enabled: boolean;
  };
  billing_schedules: Array<{
    applies_to: unknown;
    bill_until: {
      computed_timestamp: number;
      duration: {
        interval: string;
        interval_count: unknown;
      };
      timestamp: unknown;
      type: string;
    };
    key: string;
  }>;
}

/** Stripe's `subscription_item` object. */
export interface SubscriptionItem {
  created: number;
  discounts: unknown[];
  id: string;
  metadata: Record<string, string>;
  object: string;
  price: {
    active: boolean;
    billing_scheme: string;
    created: number;
    currency: string;
    custom_unit_amount: {
      maximum: unknown;
      minimum: unknown;
      preset: unknown;
    };
    id: string;
    livemode: boolean;
    lookup_key: unknown;
    metadata: Record<string, string>;
    nickname: unknown;
    object: string;
    product: string;
    recurring: {
      interval: string;
      interval_count: number;
      meter: unknown;
      usage_type: string;
      trial_period_days: unknown;
    };
    tax_behavior: string;
    tiers_mode: unknown;
    transform_quantity: {
      divide_by: number;
      round: string;
    };
    type: string;
    unit_amount: number;
    unit_amount_decimal: string;
  };
  quantity: number;
  subscription: string;
  tax_rates: unknown[];
  plan: {
    active: boolean;
    amount: unknown;
    amount_decimal: unknown;
    billing_scheme: string;
    created: number;
    currency: string;
    id: string;
    interval: string;
    interval_count: number;
    livemode: boolean;
    metadata: unknown;
    meter: unknown;
    nickname: unknown;
    object: string;
    product: unknown;
    tiers_mode: unknown;
    transform_usage: {
      divide_by: number;
      round: string;
    };
    trial_period_days: unknown;
    usage_type: string;
  };
  current_period_end: number;
  current_period_start: number;
  billing_thresholds: {
    usage_gte: unknown;
  };
}

/** Stripe's `deleted_subscription_item` object. */
export interface DeletedSubscriptionItem {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `credit_note` object. */
export interface CreditNote {
  amount: number;
  amount_shipping: number;
  created: number;
  currency: string;
  customer: string;
  customer_balance_transaction: unknown;
  discount_amount: number;
  discount_amounts: unknown[];
  effective_at: number;
  id: string;
  invoice: string;
  lines: {
    data: Array<{
      amount: number;
      description: string;
      discount_amount: number;
      discount_amounts: unknown[];
      id: string;
      invoice_line_item: string;
      livemode: boolean;
      object: string;
      quantity: number;
      tax_rates: Array<{
        active: boolean;
        country: string;
        created: number;
        description: string;
        display_name: string;
        effective_percentage: unknown;
        id: string;
        inclusive: boolean;
        jurisdiction: string;
        jurisdiction_level: unknown;
        livemode: boolean;
        metadata: Record<string, string>;
        object: string;
        percentage: number;
        state: unknown;
        tax_type: string;
        flat_amount: {
          amount: number;
          currency: string;
        };
        rate_type: unknown;
      }>;
      type: string;
      unit_amount: unknown;
      unit_amount_decimal: unknown;
      pretax_credit_amounts: Array<{
        amount: number;
        type: string;
      }>;
      taxes: unknown;
      metadata: unknown;
    }>;
    has_more: boolean;
    object: string;
    url: string;
  };
  livemode: boolean;
  memo: unknown;
  metadata: Record<string, string>;
  number: string;
  object: string;
  out_of_band_amount: unknown;
  pdf: string;
  shipping_cost: {
    amount_subtotal: number;
    amount_tax: number;
    amount_total: number;
    shipping_rate: unknown;
  };
  status: string;
  subtotal: number;
  subtotal_excluding_tax: number;
  total: number;
  total_excluding_tax: unknown;
  type: string;
  voided_at: number;
  pretax_credit_amounts: Array<{
    amount: number;
    type: string;
  }>;
  total_taxes: unknown;
  refunds: Array<{
    amount_refunded: number;
    refund: string;
    payment_record_refund: {
      payment_record: string;
      refund_group: string;
    };
    type: unknown;
  }>;
  post_payment_amount: number;
  pre_payment_amount: number;
  reason: unknown;
  customer_account: unknown;
}

/** Stripe's `credit_note_line_item` object. */
export interface CreditNoteLineItem {
  amount: number;
  description: string;
  discount_amount: number;
  discount_amounts: unknown[];
  id: string;
  invoice_line_item: string;
  livemode: boolean;
  object: string;
  quantity: number;
  tax_rates: unknown[];
  type: string;
  unit_amount: unknown;
  unit_amount_decimal: unknown;
  pretax_credit_amounts: Array<{
    amount: number;
    type: string;
  }>;
  taxes: unknown;
  metadata: unknown;
}

/** Stripe's `payment_link` object. */
export interface PaymentLink {
  active: boolean;
  after_completion: {
    hosted_confirmation: {
      custom_message: unknown;
    };
    type: string;
  };
  allow_promotion_codes: boolean;
  application: unknown;
  application_fee_amount: unknown;
  application_fee_percent: unknown;
  automatic_tax: {
    enabled: boolean;
    liability: {
      type: string;
    };
  };
  billing_address_collection: string;
  consent_collection: {
    payment_method_reuse_agreement: {
      position: string;
    };
    promotions: unknown;
    terms_of_service: unknown;
  };
  currency: string;
  custom_fields: unknown[];
  custom_text: {
    after_submit: {
      message: string;
    };
    shipping_address: {
      message: string;
    };
    submit: {
      message: string;
    };
    terms_of_service_acceptance: {
      message: string;
    };
  };
  customer_creation: string;
  id: string;
  inactive_message: unknown;
  invoice_creation: {
    enabled: boolean;
    invoice_data: {
      account_tax_ids: unknown;
      custom_fields: unknown;
      description: unknown;
      footer: unknown;
      issuer: {
        type: string;
      };
      metadata: unknown;
      rendering_options: {
        amount_tax_display: unknown;
        template: unknown;
      };
    };
  };
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  on_behalf_of: unknown;
  payment_intent_data: {
    capture_method: unknown;
    description: unknown;
    metadata: {
      undefined: string;
    };
    setup_future_usage: unknown;
    statement_descriptor: unknown;
    statement_descriptor_suffix: unknown;
    transfer_group: unknown;
  };
  payment_method_collection: string;
  payment_method_types: unknown;
  phone_number_collection: {
    enabled: boolean;
  };
  restrictions: {
    completed_sessions: {
      count: number;
      limit: number;
    };
  };
  shipping_address_collection: {
    allowed_countries: string[];
  };
  shipping_options: unknown[];
  submit_type: string;
  subscription_data: {
    description: unknown;
    invoice_settings: {
      issuer: {
        type: string;
      };
    };
    metadata: {
      undefined: string;
    };
    trial_period_days: unknown;
    trial_settings: {
      end_behavior: {
        missing_payment_method: string;
      };
    };
  };
  tax_id_collection: {
    enabled: boolean;
    required: string;
  };
  transfer_data: {
    amount: unknown;
    destination: {
      id: string;
      object: string;
    };
  };
  url: string;
  managed_payments: {
    enabled: boolean;
  };
  payment_method_options: {
    card: {
      restrictions: {
        brands_blocked: string[];
      };
    };
  };
}

/** Stripe's `checkout.session` object. */
export interface CheckoutSession {
  after_expiration: {
    recovery: {
      allow_promotion_codes: boolean;
      enabled: boolean;
      expires_at: unknown;
      url: unknown;
    };
  };
  allow_promotion_codes: unknown;
  amount_subtotal: unknown;
  amount_total: unknown;
  automatic_tax: {
    enabled: boolean;
    liability: {
      type: string;
    };
    status: unknown;
    provider: unknown;
  };
  billing_address_collection: unknown;
  cancel_url: string;
  client_reference_id: unknown;
  client_secret: unknown;
  consent: {
    promotions: unknown;
    terms_of_service: unknown;
  };
  consent_collection: {
    payment_method_reuse_agreement: {
      position: string;
    };
    promotions: unknown;
    terms_of_service: unknown;
  };
  created: number;
  currency: unknown;
  custom_fields: unknown[];
  custom_text: {
    after_submit: {
      message: string;
    };
    shipping_address: {
      message: string;
    };
    submit: {
      message: string;
    };
    terms_of_service_acceptance: {
      message: string;
    };
  };
  customer: unknown;
  customer_creation: unknown;
  customer_details: {
    address: {
      city: unknown;
      country: unknown;
      line1: unknown;
      line2: unknown;
      postal_code: unknown;
      state: unknown;
    };
    email: string;
    name: unknown;
    phone: unknown;
    tax_exempt: string;
    tax_ids: unknown;
    business_name: unknown;
    individual_name: unknown;
  };
  customer_email: unknown;
  expires_at: number;
  id: string;
  invoice: unknown;
  invoice_creation: {
    enabled: boolean;
    invoice_data: {
      account_tax_ids: unknown;
      custom_fields: unknown;
      description: unknown;
      footer: unknown;
      issuer: {
        type: string;
      };
      metadata: unknown;
      rendering_options: {
        amount_tax_display: unknown;
        template: unknown;
      };
    };
  };
  livemode: boolean;
  locale: unknown;
  metadata: Record<string, string>;
  mode: string;
  object: string;
  payment_intent: string;
  payment_link: unknown;
  payment_method_collection: unknown;
  payment_method_configuration_details: {
    id: string;
    parent: unknown;
  };
  payment_method_options: Record<string, unknown>;
  payment_method_types: string[];
  payment_status: string;
  phone_number_collection: {
    enabled: boolean;
  };
  recovered_from: unknown;
  saved_payment_method_options: {
    allow_redisplay_filters: unknown;
    payment_method_remove: unknown;
    payment_method_save: unknown;
  };
  setup_intent: unknown;
  shipping_address_collection: {
    allowed_countries: string[];
  };
  shipping_cost: {
    amount_subtotal: number;
    amount_tax: number;
    amount_total: number;
    shipping_rate: unknown;
  };
  shipping_options: unknown[];
  status: string;
  submit_type: unknown;
  subscription: unknown;
  success_url: string;
  total_details: {
    amount_discount: number;
    amount_shipping: unknown;
    amount_tax: number;
  };
  ui_mode: unknown;
  url: string;
  adaptive_pricing: {
    enabled: boolean;
  };
  discounts: unknown;
  collected_information: {
    shipping_details: {
      address: {
        city: unknown;
        country: unknown;
        line1: unknown;
        line2: unknown;
        postal_code: unknown;
        state: unknown;
      };
      name: string;
    };
    business_name: unknown;
    individual_name: unknown;
  };
  permissions: {
    update_shipping_details: unknown;
  };
  wallet_options: Record<string, unknown>;
  origin_context: unknown;
  currency_conversion: {
    amount_subtotal: number;
    amount_total: number;
    fx_rate: string;
    source_currency: string;
  };
  customer_account: unknown;
  integration_identifier: unknown;
  managed_payments: {
    enabled: boolean;
  };
}

/** Stripe's `item` object. */
export interface Item {
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  id: string;
  object: string;
  price: {
    active: boolean;
    billing_scheme: string;
    created: number;
    currency: string;
    custom_unit_amount: {
      maximum: unknown;
      minimum: unknown;
      preset: unknown;
    };
    id: string;
    livemode: boolean;
    lookup_key: unknown;
    metadata: Record<string, string>;
    nickname: unknown;
    object: string;
    product: string;
    recurring: {
      interval: string;
      interval_count: number;
      meter: unknown;
      trial_period_days: unknown;
      usage_type: string;
    };
    tax_behavior: string;
    tiers_mode: unknown;
    transform_quantity: {
      divide_by: number;
      round: string;
    };
    type: string;
    unit_amount: number;
    unit_amount_decimal: string;
  };
  quantity: number;
  metadata: unknown;
  adjustable_quantity: {
    enabled: boolean;
    maximum: unknown;
    minimum: unknown;
  };
}

/** Stripe's `webhook_endpoint` object. */
export interface WebhookEndpoint {
  api_version: unknown;
  application: unknown;
  created: number;
  description: string;
  enabled_events: string[];
  id: string;
  livemode: boolean;
  metadata: Record<string, string>;
  object: string;
  status: string;
  url: string;
}

/** Stripe's `deleted_webhook_endpoint` object. */
export interface DeletedWebhookEndpoint {
  deleted: boolean;
  id: string;
  object: string;
}

/** Stripe's `test_helpers.webhook_delivery` object. */
export interface TestHelpersWebhookDelivery {
  id: string;
  object: string;
  created: number;
  event: string;
  event_type: string;
  webhook_endpoint: string;
  url: string;
  target: string;
  status: string;
  attempts: Array<{
    attempted_at: number;
    status_code: unknown;
    error: unknown;
  }>;
  next_attempt: unknown;
  livemode: boolean;
}

/** The object type each resource table holds in its `data` column. */
export interface Tables {
  customers: Customer;
  customer_balance_transactions: CustomerBalanceTransaction;
  products: Product;
  prices: Price;
  coupons: Coupon;
  promotion_codes: PromotionCode;
  tax_rates: TaxRate;
  tax_ids: TaxId;
  payment_methods: PaymentMethod;
  setup_intents: SetupIntent;
  payment_intents: PaymentIntent;
  charges: Charge;
  refunds: Refund;
  disputes: Dispute;
  balance_transactions: BalanceTransaction;
  payouts: Payout;
  events: Event;
  invoices: Invoice;
  invoice_line_items: LineItem;
  invoiceitems: Invoiceitem;
  subscriptions: Subscription;
  subscription_items: SubscriptionItem;
  credit_notes: CreditNote;
  payment_links: PaymentLink;
  checkout_sessions: CheckoutSession;
  invoice_payments: InvoicePayment;
  webhook_endpoints: WebhookEndpoint;
  webhook_deliveries: TestHelpersWebhookDelivery;
}
