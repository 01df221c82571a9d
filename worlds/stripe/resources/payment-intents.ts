/**
 * Payment intents: Stripe's state machine for collecting one payment.
 *
 *   requires_payment_method → (payment method attached) requires_confirmation → confirm →
 *     succeeded | requires_capture (capture_method=manual) → capture → succeeded
 *     | requires_action (3D Secure test cards: `next_action`) → authenticated → succeeded / requires_capture
 *     | requires_payment_method again with `last_payment_error` (a decline: 402, the failed charge kept)
 *   cancel from any state but succeeded and canceled → canceled.
 *
 * No browser exists to complete 3D Secure, so `authenticatePaymentIntent` stands in for the customer: the test hook
 * `POST /v1/test_helpers/authenticate/{intent}` (`outcome=succeed|fail`) calls it for `pi_` ids, and with a successful authentication the
 * payment goes on at once, as Stripe does for automatic confirmation.
 *
 * Both spellings of the payment method type list are taken (`payment_method_types` and, from 2026-09-30,
 * `allowed_payment_method_types`); without either, automatic payment methods are on, as Stripe defaults.
 */
import type { Ctx } from 'seahaven';
import { attemptCharge } from './charge-attempts.ts';
import {
  captureCharge,
  checkAmount,
  checkCurrency,
  intentCaptured,
  mustCharge,
  releaseCharge,
  shippingOf,
  shippingParam,
} from './charges.ts';
import { liveCustomer } from './customers.ts';
import { authenticationHandlers } from './setup-intents.ts';
import { putAndEmit } from '../lib/events.ts';
import {
  failed,
  invalidRequest,
  resourceMissing,
  unexpectedState,
  type Failed,
} from '../lib/errors.ts';
import { limitOf, listPage, listOf } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, searchParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, newId, nowSeconds, put, type Obj } from '../lib/store.ts';
import { markSetUp, needsAuthentication, resolvePaymentMethod } from '../lib/test-cards.ts';

/** The payment method configuration automatic payment methods use (the account's default one). */
const DEFAULT_PMC = 'pmc_1SeahavenDefaultConfig0';

const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const CANCELABLE = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
];

/** A stored payment intent, or Stripe's 404. */
export function mustPaymentIntent(ctx: Ctx, id: string, param = 'intent'): Obj {
  const pi = get(ctx, 'payment_intents', id);
  if (pi === undefined) throw resourceMissing('payment_intent', id, param);
  return pi;
}

function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
}

const lineItemParam = p.obj({
  discount_amount: p.int(0),
  payment_method_options: p.any(),
  product_code: p.string(12),
  product_name: p.string(1024).req(),
  quantity: p.int(1).req(),
  tax: p.obj({ total_tax_amount: p.int(0).req() }),
  unit_cost: p.int(0).req(),
  unit_of_measure: p.string(12),
});

const amountDetailsParam = p.obj({
  line_items: p.arr(lineItemParam),
  discount_amount: p.int(0),
  shipping: p.any(),
  tax: p.any(),
  enforce_arithmetic_validation: p.bool(),
});

/** Parameters create, update and confirm share. */
const common = {
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

const createParams = {
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

const updateParams = {
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

const confirmParams = {
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

function truthy(v: unknown): boolean {
  return v === true || v === 'true' || v === 'one_off' || v === 'recurring';
}

function cardOptions(given: unknown, current?: Obj): Obj {
  const base: Obj = current ?? {
    installments: null,
    mandate_options: null,
    network: null,
    request_three_d_secure: 'automatic',
  };
  const card = given && typeof given === 'object' ? (given as Obj).card : undefined;
  if (!card || typeof card !== 'object') return base;
  const out = { ...base };
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
    if (card[k] !== undefined) out[k] = card[k] === '' ? null : card[k];
  }
  return out;
}

/** A line item of `amount_details[line_items]`, as the line items list returns it. */
function lineItemOf(ctx: Ctx, li: Obj): Obj {
  return {
    id: newId(ctx, 'uli_'),
    object: 'payment_intent_amount_details_line_item',
    discount_amount: li.discount_amount ?? null,
    payment_method_options: li.payment_method_options ?? null,
    product_code: li.product_code ?? null,
    product_name: li.product_name,
    quantity: li.quantity,
    tax: li.tax ? { total_tax_amount: li.tax.total_tax_amount } : null,
    unit_cost: li.unit_cost,
    unit_of_measure: li.unit_of_measure ?? null,
  };
}

/** Apply the parameters create, update and confirm share; `pm` is set when one was named (a new pm for a token). */
function applyCommon(c: OpContext, pi: Obj, params: Record<string, any>): void {
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
      pi.allowed_payment_method_types = params.allowed_payment_method_types;
    pi.automatic_payment_methods = null;
    pi.payment_method_configuration_details = null;
  }
  if (params.excluded_payment_method_types !== undefined)
    pi.excluded_payment_method_types = params.excluded_payment_method_types;
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
    const items = (params.amount_details.line_items as Obj[]).map((li) => lineItemOf(ctx, li));
    pi.amount_details = {
      ...pi.amount_details,
      line_items: listOf(items, `/v1/payment_intents/${pi.id}/amount_details_line_items`),
    };
  }
  let pmId: string | null | undefined = params.payment_method;
  const data = params.payment_method_data;
  if (pmId === undefined && data && typeof data === 'object') {
    const token = data.card?.token ?? (typeof data.card === 'string' ? data.card : undefined);
    if (data.type !== 'card' || typeof token !== 'string') {
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

export interface IntentRequest {
  amount: number;
  currency: string;
  customer?: string | null;
  description?: string | null;
  metadata?: Record<string, string | null> | null;
  payment_method?: string | null;
  [k: string]: unknown;
}

/** Build and store a new payment intent (`payment_intent.created`), not yet confirmed. */
export function createPaymentIntent(
  c: OpContext,
  params: IntentRequest & Record<string, any>,
): Obj {
  const ctx = c.ctx;
  checkAmount(params.amount);
  const currency = checkCurrency(params.currency);
  const customer = params.customer ? liveCustomer(ctx, params.customer).id : null;
  if (
    params.automatic_payment_methods?.enabled &&
    (params.payment_method_types || params.allowed_payment_method_types)
  ) {
    throw invalidRequest(
      'You may only specify one of these parameters: automatic_payment_methods, payment_method_types.',
      'automatic_payment_methods',
    );
  }
  if (params.off_session !== undefined && params.confirm !== true)
    throw invalidRequest('off_session can only be used when confirm=true.', 'off_session');
  const id = newId(ctx, 'pi_');
  const automatic = params.automatic_payment_methods
    ? params.automatic_payment_methods.enabled !== false
    : true;
  const pi: Obj = {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: params.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: params.application_fee_amount ?? null,
    automatic_payment_methods: automatic
      ? {
          ...(params.automatic_payment_methods?.allow_redirects
            ? { allow_redirects: params.automatic_payment_methods.allow_redirects }
            : {}),
          enabled: true,
        }
      : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${ctx.ids.token('', 25)}`,
    confirmation_method: params.confirmation_method ?? 'automatic',
    created: nowSeconds(ctx),
    currency,
    customer,
    customer_account: null,
    description: params.description ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: mergeMetadata({}, params.metadata),
    next_action: null,
    on_behalf_of: params.on_behalf_of ?? null,
    payment_method: null,
    payment_method_configuration_details: automatic ? { id: DEFAULT_PMC, parent: null } : null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure: 'automatic',
      },
    },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: params.statement_descriptor ?? null,
    statement_descriptor_suffix: params.statement_descriptor_suffix ?? null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: params.transfer_group ?? null,
  };
  applyCommon(c, pi, params);
  if (pi.payment_method) pi.status = 'requires_confirmation';
  putAndEmit(c, 'payment_intents', pi, 'payment_intent.created');
  return pi;
}

/** The charge attempt behind a confirm (or a finished authentication): moves the intent on and answers. */
function charge(
  c: OpContext,
  pi: Obj,
  pm: Obj,
  opts: { offSession: boolean; authenticated: boolean },
): Obj | Failed {
  const manual = pi.capture_method === 'manual';
  const out = attemptCharge(c, {
    amount: pi.amount,
    currency: pi.currency,
    paymentMethod: pm,
    customer: pi.customer,
    description: pi.description,
    metadata: pi.metadata,
    capture: !manual,
    paymentIntent: pi.id,
    receiptEmail: pi.receipt_email,
    statementDescriptor: pi.statement_descriptor,
    statementDescriptorSuffix: pi.statement_descriptor_suffix,
    shipping: pi.shipping,
    transferGroup: pi.transfer_group,
    authenticated: opts.authenticated,
    unauthenticatable: opts.offSession ? 'off_session' : undefined,
    incrementalAuthorization:
      pi.payment_method_options?.card?.request_incremental_authorization === 'if_available',
  });
  pi.latest_charge = out.charge.id;
  pi.next_action = null;
  if (out.error) {
    const { charge: chargeId, code, decline_code, message, type, payment_method } = out.error;
    pi.status = 'requires_payment_method';
    pi.payment_method = null;
    pi.last_payment_error = {
      charge: chargeId,
      code,
      ...(decline_code ? { decline_code } : {}),
      doc_url: docUrl(code ?? 'card_declined'),
      message,
      payment_method,
      type,
    };
    putAndEmit(c, 'payment_intents', pi, 'payment_intent.payment_failed');
    return failed(402, { ...out.error, payment_intent: structuredClone(pi) });
  }
  pi.last_payment_error = null;
  if (pi.setup_future_usage && pi.customer) saveForLater(c, pm, pi.customer);
  if (manual) {
    pi.status = 'requires_capture';
    pi.amount_capturable = pi.amount;
    putAndEmit(c, 'payment_intents', pi, 'payment_intent.amount_capturable_updated');
  } else {
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    putAndEmit(c, 'payment_intents', pi, 'payment_intent.succeeded');
  }
  return pi;
}

/** `setup_future_usage`: the card is attached to the customer and counts as set up for later off-session use. */
function saveForLater(c: OpContext, pm: Obj, customer: string): void {
  if (!pm.customer) {
    const attached = { ...pm, customer };
    putAndEmit(c, 'payment_methods', attached, 'payment_method.attached');
  }
  markSetUp(c, pm.id);
}

/** The 3D Secure step a card asks for: `next_action` as Stripe.js (or a redirect, with a return_url) reads it. */
function nextActionOf(c: OpContext, pi: Obj, returnUrl: string | null | undefined): Obj {
  const url = `https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1SeahavenWorld01&payment_intent=${pi.id}&payment_intent_client_secret=${pi.client_secret}`;
  if (returnUrl)
    return { redirect_to_url: { return_url: returnUrl, url }, type: 'redirect_to_url' };
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: {
      source: newId(c.ctx, 'src_'),
      stripe_js: url,
      type: 'three_d_secure_redirect',
    },
  };
}

/**
 * Confirm a payment intent: charge its payment method, or stop at 3D Secure (`requires_action`), or record a decline
 * (402, the failed charge kept). Returns the intent or the failure to answer with.
 */
export function confirmPaymentIntent(
  c: OpContext,
  start: Obj,
  params: Record<string, any> = {},
): Obj | Failed {
  const ctx = c.ctx;
  // The secret is checked first: a caller holding only the publishable key learns nothing else without it.
  if (params.client_secret && params.client_secret !== start.client_secret)
    throw invalidRequest(
      'The client_secret provided does not match the client_secret associated with the PaymentIntent.',
      'client_secret',
    );
  if (!CONFIRMABLE.includes(start.status)) {
    throw unexpectedState(
      'payment_intent_unexpected_state',
      `You cannot confirm this PaymentIntent because it has a status of ${start.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(', ')}.`,
    );
  }
  const pi = structuredClone(start);
  applyCommon(c, pi, params);
  if (!pi.payment_method) {
    throw unexpectedState(
      'payment_intent_unexpected_state',
      `You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent${pi.customer ? ` with ${pi.customer}` : ''}, specify a payment method${pi.customer ? ' attached to this customer along with the customer ID' : ''}.`,
    );
  }
  if (!pi.payment_method_types.includes('card')) {
    throw invalidRequest(
      `The PaymentIntent's payment_method_types (${pi.payment_method_types.join(', ')}) do not include card, the type of ${pi.payment_method}.`,
      'payment_method',
    );
  }
  const pm = get(ctx, 'payment_methods', pi.payment_method);
  if (!pm) throw resourceMissing('PaymentMethod', pi.payment_method, 'payment_method');
  const offSession = truthy(params.off_session);
  if (needsAuthentication(c, pm) && !offSession) {
    if (params.error_on_requires_action) {
      // The integration cannot handle a next action: the attempt fails as a decline would, without a charge.
      pi.status = 'requires_payment_method';
      pi.payment_method = null;
      const error = {
        type: 'card_error' as const,
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        payment_method: pm,
      };
      pi.last_payment_error = { ...error, doc_url: docUrl('authentication_required') };
      putAndEmit(c, 'payment_intents', pi, 'payment_intent.payment_failed');
      return failed(402, { ...error, payment_intent: structuredClone(pi) });
    }
    pi.status = 'requires_action';
    pi.next_action = nextActionOf(c, pi, params.return_url);
    pi.last_payment_error = null;
    putAndEmit(c, 'payment_intents', pi, 'payment_intent.requires_action');
    return pi;
  }
  return charge(c, pi, pm, { offSession, authenticated: false });
}

/**
 * The customer's answer to 3D Secure for a `requires_action` intent: `succeed` goes on with the payment (it can
 * still decline, as `…ChargeDeclinedInsufficientFunds` does), `fail` returns the intent to `requires_payment_method`
 * with `payment_intent_authentication_failure`. Called by the authentication test hook for `pi_` ids.
 */
export function authenticatePaymentIntent(
  c: OpContext,
  id: string,
  outcome: 'succeed' | 'fail' = 'succeed',
): Obj | Failed {
  const ctx = c.ctx;
  const start = mustPaymentIntent(ctx, id);
  if (start.status !== 'requires_action') {
    throw unexpectedState(
      'payment_intent_unexpected_state',
      `PaymentIntent ${id} has a status of ${start.status}; only a PaymentIntent that requires_action can be authenticated.`,
    );
  }
  const pi = structuredClone(start);
  const pm = pi.payment_method ? get(ctx, 'payment_methods', pi.payment_method) : undefined;
  if (outcome === 'fail' || !pm) {
    pi.status = 'requires_payment_method';
    pi.next_action = null;
    pi.last_payment_error = {
      code: 'payment_intent_authentication_failure',
      doc_url: docUrl('payment_intent_authentication_failure'),
      message:
        'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
      payment_method: pm ?? null,
      type: 'invalid_request_error',
    };
    pi.payment_method = null;
    putAndEmit(c, 'payment_intents', pi, 'payment_intent.payment_failed');
    return pi;
  }
  return charge(c, pi, pm, { offSession: false, authenticated: true });
}

// The authentication test hook reaches payment intents through here. A decline after authentication is a recorded
// failure (402, writes kept), which the hook answers like any operation's.
authenticationHandlers.payment_intent = (c, intent, outcome) =>
  authenticatePaymentIntent(c, intent.id, outcome) as Obj;

/** Capture a `requires_capture` intent: all of it, or `amount_to_capture` (the rest is released). */
export function capturePaymentIntent(c: OpContext, pi: Obj, amountToCapture?: number | null): Obj {
  if (pi.status !== 'requires_capture') {
    throw unexpectedState(
      'payment_intent_unexpected_state',
      `This PaymentIntent could not be captured because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
    );
  }
  const amount = amountToCapture ?? pi.amount_capturable;
  if (amount > pi.amount_capturable) {
    throw invalidRequest(
      `The amount_to_capture (${amount}) is greater than the amount capturable on this PaymentIntent (${pi.amount_capturable}).`,
      'amount_to_capture',
      'amount_too_large',
    );
  }
  const ch = captureCharge(c, mustCharge(c.ctx, pi.latest_charge), amount, 'amount_to_capture');
  return intentCaptured(c, pi, ch);
}

/** In-memory cursor pagination over a nested list (the intent's line items), as Stripe pages its lists. */
function pageOf(
  items: Obj[],
  params: { limit?: number | null; starting_after?: string | null; ending_before?: string | null },
  url: string,
): Obj {
  const limit = limitOf(params.limit);
  let from = 0;
  let to = items.length;
  if (params.starting_after) {
    const i = items.findIndex((x) => x.id === params.starting_after);
    if (i < 0)
      throw resourceMissing(
        'payment_intent_amount_details_line_item',
        params.starting_after,
        'starting_after',
      );
    from = i + 1;
  } else if (params.ending_before) {
    const i = items.findIndex((x) => x.id === params.ending_before);
    if (i < 0)
      throw resourceMissing(
        'payment_intent_amount_details_line_item',
        params.ending_before,
        'ending_before',
      );
    to = i;
    from = Math.max(0, i - limit);
  }
  const data = items.slice(from, Math.min(to, from + limit));
  return listOf(data, url, from + limit < to);
}

export const paymentIntentsOps = [
  op({
    id: 'PostPaymentIntents',
    method: 'POST',
    path: '/v1/payment_intents',
    params: createParams,
    run(c, params): Obj | Failed {
      const pi = createPaymentIntent(c, params);
      if (params.confirm)
        return confirmPaymentIntent(c, pi, {
          off_session: params.off_session,
          return_url: params.return_url,
          error_on_requires_action: params.error_on_requires_action,
        });
      return pi;
    },
  }),
  op({
    id: 'GetPaymentIntentsIntent',
    method: 'GET',
    path: '/v1/payment_intents/{intent}',
    params: { client_secret: p.string() },
    run(c, params, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      if (params.client_secret && params.client_secret !== pi.client_secret)
        throw invalidRequest(
          'The client_secret provided does not match the client_secret associated with the PaymentIntent.',
          'client_secret',
        );
      return pi;
    },
  }),
  op({
    id: 'PostPaymentIntentsIntent',
    method: 'POST',
    path: '/v1/payment_intents/{intent}',
    params: updateParams,
    run(c, params, path) {
      const ctx = c.ctx;
      const before = mustPaymentIntent(ctx, path.intent);
      const pi = structuredClone(before);
      const final = pi.status === 'succeeded' || pi.status === 'canceled';
      const loose = ['metadata', 'description', 'receipt_email', 'shipping', 'expand'];
      const strict = Object.keys(params).filter((k) => !loose.includes(k));
      if ((final || pi.status === 'processing') && strict.length > 0) {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `You cannot update ${strict[0]} on this PaymentIntent because it has a status of ${pi.status}. Only metadata, description, receipt_email and shipping can be updated now.`,
          strict[0],
        );
      }
      if (
        pi.status === 'requires_capture' &&
        strict.some((k) =>
          ['amount', 'currency', 'payment_method', 'customer', 'capture_method'].includes(k),
        )
      ) {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `This PaymentIntent has been authorised (requires_capture); capture or cancel it instead of changing its ${strict[0]}.`,
          strict[0],
        );
      }
      if (params.amount !== undefined && params.amount !== null) {
        checkAmount(params.amount);
        pi.amount = params.amount;
      }
      if (params.currency) pi.currency = checkCurrency(params.currency);
      if (params.customer !== undefined) {
        if (params.customer !== null && pi.customer && pi.customer !== params.customer) {
          throw invalidRequest(
            `This PaymentIntent already belongs to customer ${pi.customer}.`,
            'customer',
          );
        }
        pi.customer = params.customer === null ? null : liveCustomer(ctx, params.customer).id;
      }
      if (params.description !== undefined) pi.description = params.description;
      if (params.metadata !== undefined)
        pi.metadata = mergeMetadata(pi.metadata ?? {}, params.metadata);
      for (const k of [
        'statement_descriptor',
        'statement_descriptor_suffix',
        'transfer_group',
        'application_fee_amount',
      ] as const) {
        if (params[k] !== undefined) pi[k] = params[k];
      }
      applyCommon(c, pi, params);
      const reconfirm = ['amount', 'currency', 'payment_method', 'payment_method_data'].some(
        (k) => params[k] !== undefined,
      );
      if (!final && pi.status !== 'requires_capture') {
        if (!pi.payment_method) pi.status = 'requires_payment_method';
        else if (reconfirm || pi.status === 'requires_payment_method')
          pi.status = 'requires_confirmation';
        if (pi.status !== 'requires_action') pi.next_action = null;
      }
      put(ctx, 'payment_intents', pi);
      return pi;
    },
  }),
  op({
    id: 'GetPaymentIntents',
    method: 'GET',
    path: '/v1/payment_intents',
    params: { ...listParams, customer: p.string(), customer_account: p.string() },
    run(c, params) {
      const where: [string, ...string[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      return listPage(c.ctx, 'payment_intents', params, {
        url: '/v1/payment_intents',
        what: 'payment_intent',
        where,
      });
    },
  }),
  op({
    id: 'GetPaymentIntentsSearch',
    method: 'GET',
    path: '/v1/payment_intents/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'payment_intents', params, '/v1/payment_intents/search'),
  }),
  op({
    id: 'PostPaymentIntentsIntentConfirm',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/confirm',
    params: confirmParams,
    run: (c, params, path) =>
      confirmPaymentIntent(c, mustPaymentIntent(c.ctx, path.intent), params),
  }),
  op({
    id: 'PostPaymentIntentsIntentCapture',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/capture',
    params: {
      amount_to_capture: p.int(),
      application_fee_amount: p.int(),
      final_capture: p.bool(),
      metadata: p.metadata(),
      statement_descriptor: p.string(22),
      statement_descriptor_suffix: p.string(22),
      transfer_data: p.any(),
      amount_details: p.any(),
      payment_details: p.any(),
      hooks: p.any(),
    },
    run(c, params, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      if (params.metadata !== undefined)
        pi.metadata = mergeMetadata(pi.metadata ?? {}, params.metadata);
      return capturePaymentIntent(c, pi, params.amount_to_capture);
    },
  }),
  op({
    id: 'PostPaymentIntentsIntentCancel',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/cancel',
    params: {
      cancellation_reason: p.enum('abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'),
    },
    run(c, params, path) {
      const ctx = c.ctx;
      const pi = mustPaymentIntent(ctx, path.intent);
      if (!CANCELABLE.includes(pi.status)) {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        );
      }
      if (pi.status === 'requires_capture' && pi.latest_charge)
        releaseCharge(c, mustCharge(ctx, pi.latest_charge));
      const after: Obj = {
        ...pi,
        status: 'canceled',
        canceled_at: nowSeconds(ctx),
        cancellation_reason: params.cancellation_reason ?? null,
        amount_capturable: 0,
        next_action: null,
      };
      putAndEmit(c, 'payment_intents', after, 'payment_intent.canceled');
      return after;
    },
  }),
  op({
    id: 'PostPaymentIntentsIntentIncrementAuthorization',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/increment_authorization',
    params: {
      amount: p.int().req(),
      description: p.string(),
      metadata: p.metadata(),
      statement_descriptor: p.string(22),
      application_fee_amount: p.int(),
      transfer_data: p.any(),
      amount_details: p.any(),
      payment_details: p.any(),
      hooks: p.any(),
    },
    run(c, params, path) {
      const ctx = c.ctx;
      const pi = mustPaymentIntent(ctx, path.intent);
      if (pi.status !== 'requires_capture') {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `This PaymentIntent's authorization could not be incremented because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be incremented: requires_capture.`,
        );
      }
      const ch = mustCharge(ctx, pi.latest_charge);
      if (ch.payment_method_details?.card?.incremental_authorization?.status !== 'available') {
        throw invalidRequest(
          'This PaymentIntent is not eligible for incremental authorizations: create it with payment_method_options[card][request_incremental_authorization]=if_available and capture_method=manual.',
          undefined,
          'incremental_authorization_not_available',
        );
      }
      if (params.amount <= pi.amount)
        throw invalidRequest(
          `The new amount (${params.amount}) must be greater than the PaymentIntent's current amount (${pi.amount}).`,
          'amount',
        );
      const charge = structuredClone(ch);
      charge.amount = params.amount;
      charge.payment_method_details.card.amount_authorized = params.amount;
      charge.payment_method_details.card.overcapture.maximum_amount_capturable = params.amount;
      put(ctx, 'charges', charge);
      const after: Obj = { ...pi, amount: params.amount, amount_capturable: params.amount };
      if (params.description !== undefined) after.description = params.description;
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(pi.metadata ?? {}, params.metadata);
      if (params.statement_descriptor !== undefined)
        after.statement_descriptor = params.statement_descriptor;
      putAndEmit(c, 'payment_intents', after, 'payment_intent.amount_capturable_updated');
      return after;
    },
  }),
  op({
    id: 'PostPaymentIntentsIntentApplyCustomerBalance',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/apply_customer_balance',
    params: { amount: p.int(0), currency: p.string() },
    run(c, params, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      if (!pi.payment_method_types.includes('customer_balance')) {
        throw invalidRequest(
          'This PaymentIntent cannot use the customer balance: its payment_method_types must include customer_balance.',
          undefined,
          'payment_intent_unexpected_state',
        );
      }
      if (!pi.customer)
        throw invalidRequest(
          'This PaymentIntent has no customer whose cash balance could be applied.',
          'customer',
        );
      if (
        !['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)
      ) {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `You cannot apply a customer balance to this PaymentIntent because it has a status of ${pi.status}.`,
        );
      }
      if (
        params.amount !== undefined &&
        params.amount !== null &&
        params.amount > pi.amount - pi.amount_received
      ) {
        throw invalidRequest(
          `The amount (${params.amount}) is greater than the amount left to pay on this PaymentIntent.`,
          'amount',
        );
      }
      // Cash balances are funded by bank transfers, which this world does not model: there is nothing to apply, and
      // the intent is returned as it stands.
      return pi;
    },
  }),
  op({
    id: 'PostPaymentIntentsIntentVerifyMicrodeposits',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/verify_microdeposits',
    params: { amounts: p.arr(p.int()), descriptor_code: p.string(), client_secret: p.string() },
    run(c, _params, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      // Only bank debits verified by microdeposits stop at `verify_with_microdeposits`; card payments never do.
      throw unexpectedState(
        'payment_intent_unexpected_state',
        `This PaymentIntent (status ${pi.status}) does not need to be verified with microdeposits; only a us_bank_account PaymentIntent whose next_action is verify_with_microdeposits can be.`,
      );
    },
  }),
  op({
    id: 'GetPaymentIntentsIntentAmountDetailsLineItems',
    method: 'GET',
    path: '/v1/payment_intents/{intent}/amount_details_line_items',
    params: { limit: p.int(), starting_after: p.string(), ending_before: p.string() },
    run(c, params, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      const items: Obj[] = pi.amount_details?.line_items?.data ?? [];
      return pageOf(items, params, `/v1/payment_intents/${pi.id}/amount_details_line_items`);
    },
  }),
];
