/**
 * A payment intent's parameters and their application: what create, update and confirm take (payment-intents.ts
 * declares the operations), and how each is written onto the intent.
 */
import type { Ctx } from 'seahaven';
import { shippingOf, shippingParam } from './charges.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listOf } from '../lib/list.ts';
import { type OpContext } from '../lib/op.ts';
import type {
  PaymentIntentAmountDetailsLineItem,
  PaymentIntentAmountDetailsLineItemPaymentMethodOptions,
  PaymentIntentPaymentMethodOptionsCard,
} from '../lib/objects.ts';
import { p, type ParamsOf, type ParamValue } from '../lib/params.ts';
import { get, newId, type Stored } from '../lib/store.ts';
import { resolvePaymentMethod } from '../lib/test-cards.ts';

/** The payment method configuration automatic payment methods use (the account's default one). */
export const DEFAULT_PMC = 'pmc_1SeahavenDefaultConfig0';

export const CONFIRMABLE: readonly string[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
];
export const CANCELABLE: readonly string[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
];

/** A stored payment intent, or Stripe's 404. */
export function mustPaymentIntent(
  ctx: Ctx,
  id: string,
  param = 'intent',
): Stored<'payment_intents'> {
  const pi = get(ctx, 'payment_intents', id);
  if (pi === undefined) throw resourceMissing('payment_intent', id, param);
  return pi;
}

export function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
}

export const lineItemParam = p.obj({
  discount_amount: p.int(0),
  payment_method_options: p.any(),
  product_code: p.string(12),
  product_name: p.string(1024).req(),
  quantity: p.int(1).req(),
  tax: p.obj({ total_tax_amount: p.int(0).req() }),
  unit_cost: p.int(0).req(),
  unit_of_measure: p.string(12),
});

export const amountDetailsParam = p.obj({
  line_items: p.arr(lineItemParam),
  discount_amount: p.int(0),
  shipping: p.any(),
  tax: p.any(),
  enforce_arithmetic_validation: p.bool(),
});

/** Parameters create, update and confirm share. */
export const common = {
  payment_method: p.string(),
  payment_method_data: p.any(),
  payment_method_options: p.any(),
  payment_method_types: p.arr(p.string()),
  allowed_payment_method_types: p.arr(p.string()),
  excluded_payment_method_types: p.arr(p.string()),
  receipt_email: p.string(),
  setup_future_usage: p.enum('off_session', 'on_session'),
  shipping: shippingParam,
  capture_method: p.enum('automatic', 'automatic_async', 'manual'),
  payment_method_configuration: p.string(),
};

export const createParams = {
  ...common,
  amount: p.int().req(),
  currency: p.string().req(),
  customer: p.string(),
  customer_account: p.string(),
  description: p.string(),
  metadata: p.metadata(),
  automatic_payment_methods: p.obj({
    enabled: p.bool().req(),
    allow_redirects: p.enum('always', 'never'),
  }),
  confirm: p.bool(),
  confirmation_method: p.enum('automatic', 'manual'),
  confirmation_token: p.string(),
  off_session: p.any(),
  return_url: p.string(),
  error_on_requires_action: p.bool(),
  use_stripe_sdk: p.bool(),
  mandate: p.string(),
  mandate_data: p.any(),
  statement_descriptor: p.string(22),
  statement_descriptor_suffix: p.string(22),
  transfer_group: p.string(),
  transfer_data: p.any(),
  application_fee_amount: p.int(),
  on_behalf_of: p.string(),
  radar_options: p.any(),
  amount_details: amountDetailsParam,
  payment_details: p.any(),
  hooks: p.any(),
};

export const updateParams = {
  ...common,
  amount: p.int(),
  currency: p.string(),
  customer: p.string(),
  description: p.string(),
  metadata: p.metadata(),
  statement_descriptor: p.string(22),
  statement_descriptor_suffix: p.string(22),
  transfer_group: p.string(),
  transfer_data: p.any(),
  application_fee_amount: p.int(),
  amount_details: amountDetailsParam,
  payment_details: p.any(),
  hooks: p.any(),
};

export const confirmParams = {
  ...common,
  off_session: p.any(),
  return_url: p.string(),
  error_on_requires_action: p.bool(),
  use_stripe_sdk: p.bool(),
  mandate: p.string(),
  mandate_data: p.any(),
  confirmation_token: p.string(),
  client_secret: p.string(),
  radar_options: p.any(),
  amount_details: amountDetailsParam,
  payment_details: p.any(),
  hooks: p.any(),
};

export function truthy(v: unknown): boolean {
  return v === true || v === 'true' || v === 'one_off' || v === 'recurring';
}

type CardOptions = PaymentIntentPaymentMethodOptionsCard;

/** The parameters create, update and confirm share, as `applyCommon` reads them. */
export type CommonParams = ParamsOf<typeof common> & {
  amount_details?: ParamValue<typeof amountDetailsParam> | null;
};

/**
 * `payment_method_types` lists as given: the world keeps the types it is told (a confirm checks for card), where the
 * SDK declares Stripe's list of them.
 */
function typesAsGiven<T extends string>(given: string[]): T[] {
  return given as T[];
}

export function cardOptions(given: unknown, current?: CardOptions | null): CardOptions {
  const base: CardOptions = current ?? {
    installments: null,
    mandate_options: null,
    network: null,
    request_three_d_secure: 'automatic',
  };
  // `payment_method_options` is taken as the request gives it (p.any), so it is read as JSON and its card options
  // are kept as given.
  const card =
    given && typeof given === 'object' ? (given as Record<string, unknown>).card : undefined;
  if (!card || typeof card !== 'object') return base;
  const from = card as Record<string, unknown>;
  const out: Record<string, unknown> = { ...base };
  for (const k of [
    'request_three_d_secure',
    'request_incremental_authorization',
    'request_extended_authorization',
    'request_multicapture',
    'request_overcapture',
    'capture_method',
    'setup_future_usage',
    'network',
  ]) {
    if (from[k] !== undefined) out[k] = from[k] === '' ? null : from[k];
  }
  return out as unknown as CardOptions;
}

/** A line item of `amount_details[line_items]`, as the line items list returns it. */
export function lineItemOf(
  ctx: Ctx,
  li: ParamValue<typeof lineItemParam>,
): PaymentIntentAmountDetailsLineItem {
  return {
    id: newId(ctx, 'uli_'),
    object: 'payment_intent_amount_details_line_item',
    discount_amount: li.discount_amount ?? null,
    // Taken as given (p.any).
    payment_method_options: (li.payment_method_options ??
      null) as PaymentIntentAmountDetailsLineItemPaymentMethodOptions | null,
    product_code: li.product_code ?? null,
    product_name: li.product_name,
    quantity: li.quantity,
    tax: li.tax ? { total_tax_amount: li.tax.total_tax_amount } : null,
    unit_cost: li.unit_cost,
    unit_of_measure: li.unit_of_measure ?? null,
  };
}

/** Apply the parameters create, update and confirm share; `pm` is set when one was named (a new pm for a token). */
export function applyCommon(
  c: OpContext,
  pi: Stored<'payment_intents'>,
  params: CommonParams,
): void {
  const ctx = c.ctx;
  const types = params.allowed_payment_method_types ?? params.payment_method_types;
  if (types !== undefined && types !== null) {
    if (types.length === 0)
      throw invalidRequest(
        'payment_method_types must list at least one payment method type.',
        'payment_method_types',
      );
    pi.payment_method_types = types;
    if (params.allowed_payment_method_types !== undefined)
      pi.allowed_payment_method_types = params.allowed_payment_method_types
        ? typesAsGiven(params.allowed_payment_method_types)
        : params.allowed_payment_method_types;
    pi.automatic_payment_methods = null;
    pi.payment_method_configuration_details = null;
  }
  if (params.excluded_payment_method_types !== undefined)
    pi.excluded_payment_method_types = params.excluded_payment_method_types
      ? typesAsGiven(params.excluded_payment_method_types)
      : params.excluded_payment_method_types;
  if (params.receipt_email !== undefined) pi.receipt_email = params.receipt_email;
  if (params.setup_future_usage !== undefined) pi.setup_future_usage = params.setup_future_usage;
  if (params.shipping !== undefined) pi.shipping = shippingOf(params.shipping);
  if (params.capture_method !== undefined && params.capture_method !== null)
    pi.capture_method = params.capture_method;
  if (params.payment_method_options !== undefined)
    pi.payment_method_options = {
      ...pi.payment_method_options,
      card: cardOptions(params.payment_method_options, pi.payment_method_options?.card),
    };
  if (params.amount_details?.line_items) {
    const items = params.amount_details.line_items.map((li) => lineItemOf(ctx, li));
    pi.amount_details = {
      ...pi.amount_details,
      line_items: listOf(items, `/v1/payment_intents/${pi.id}/amount_details_line_items`),
    };
  }
  let pmId: string | null | undefined = params.payment_method;
  const data = params.payment_method_data;
  if (pmId === undefined && data && typeof data === 'object') {
    // `payment_method_data` is taken as given (p.any): read as JSON.
    const { type, card } = data as { type?: unknown; card?: unknown };
    const token =
      (card && typeof card === 'object' ? (card as { token?: unknown }).token : undefined) ??
      (typeof card === 'string' ? card : undefined);
    if (type !== 'card' || typeof token !== 'string') {
      throw invalidRequest(
        'payment_method_data takes a card by token here: payment_method_data[type]=card&payment_method_data[card][token]=tok_visa.',
        'payment_method_data',
      );
    }
    pmId = token;
  }
  if (pmId === null) {
    pi.payment_method = null;
  } else if (pmId !== undefined) {
    const pm = resolvePaymentMethod(
      c,
      pmId,
      params.payment_method !== undefined ? 'payment_method' : 'payment_method_data',
    );
    if (pm.customer && pi.customer && pm.customer !== pi.customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${pm.id} is attached to another customer (${pm.customer}); it cannot be used with customer ${pi.customer}.`,
        'payment_method',
      );
    }
    if (pm.customer && !pi.customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${pm.id} is attached to customer ${pm.customer}; pass customer=${pm.customer} with it.`,
        'payment_method',
      );
    }
    pi.payment_method = pm.id;
  }
}
