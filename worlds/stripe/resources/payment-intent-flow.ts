/**
 * A payment intent's flow: creating one, confirming it (the charge attempt, 3D Secure's next action, saving the card
 * for later), the customer's authentication and the capture. payment-intents.ts declares the operations over these.
 */
import { attemptCharge } from './charge-attempts.ts';
import {
  captureCharge,
  checkAmount,
  checkCurrency,
  intentCaptured,
  mustCharge,
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
import { type OpContext } from '../lib/op.ts';
import type { PaymentIntentNextAction } from '../lib/objects.ts';
import { mergeMetadata, type ParamsOf } from '../lib/params.ts';
import { get, newId, nowSeconds, type Stored } from '../lib/store.ts';
import { markSetUp, needsAuthentication } from '../lib/test-cards.ts';
import {
  CONFIRMABLE,
  DEFAULT_PMC,
  applyCommon,
  docUrl,
  type confirmParams,
  type createParams,
  mustPaymentIntent,
  truthy,
} from './payment-intent-params.ts';
import { copyJson } from '../lib/clone.ts';

type PaymentIntent = Stored<'payment_intents'>;

/** What a new payment intent is made of: create's parameters (an amount and a currency, at least). */
export type IntentRequest = Partial<ParamsOf<typeof createParams>> & {
  amount: number;
  currency: string;
};

/** What a confirm takes: confirm's parameters (create passes on those it shares). */
export type ConfirmRequest = Partial<ParamsOf<typeof confirmParams>>;

/** Build and store a new payment intent (`payment_intent.created`), not yet confirmed. */
export function createPaymentIntent(c: OpContext, params: IntentRequest): PaymentIntent {
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
  const pi: PaymentIntent = {
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
export function charge(
  c: OpContext,
  pi: PaymentIntent,
  pm: Stored<'payment_methods'>,
  opts: { offSession: boolean; authenticated: boolean },
): PaymentIntent | Failed {
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
    return failed(402, { ...out.error, payment_intent: copyJson(pi) });
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
export function saveForLater(c: OpContext, pm: Stored<'payment_methods'>, customer: string): void {
  if (!pm.customer) {
    const attached = { ...pm, customer };
    putAndEmit(c, 'payment_methods', attached, 'payment_method.attached');
  }
  markSetUp(c, pm.id);
}

/** The 3D Secure step a card asks for: `next_action` as Stripe.js (or a redirect, with a return_url) reads it. */
export function nextActionOf(
  c: OpContext,
  pi: PaymentIntent,
  returnUrl: string | null | undefined,
): PaymentIntentNextAction {
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
  start: PaymentIntent,
  params: ConfirmRequest = {},
): PaymentIntent | Failed {
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
  const pi = copyJson(start);
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
        code: 'authentication_required' as const,
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        payment_method: pm,
      };
      pi.last_payment_error = { ...error, doc_url: docUrl('authentication_required') };
      putAndEmit(c, 'payment_intents', pi, 'payment_intent.payment_failed');
      return failed(402, { ...error, payment_intent: copyJson(pi) });
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
): PaymentIntent | Failed {
  const ctx = c.ctx;
  const start = mustPaymentIntent(ctx, id);
  if (start.status !== 'requires_action') {
    throw unexpectedState(
      'payment_intent_unexpected_state',
      `PaymentIntent ${id} has a status of ${start.status}; only a PaymentIntent that requires_action can be authenticated.`,
    );
  }
  const pi = copyJson(start);
  const pm = pi.payment_method ? get(ctx, 'payment_methods', pi.payment_method) : undefined;
  if (outcome === 'fail' || !pm) {
    pi.status = 'requires_payment_method';
    pi.next_action = null;
    pi.last_payment_error = {
      code: 'payment_intent_authentication_failure',
      doc_url: docUrl('payment_intent_authentication_failure'),
      message:
        'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
      // Null when the payment method is gone, where the SDK declares the field optional.
      payment_method: (pm ?? null) as Stored<'payment_methods'>,
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
  authenticatePaymentIntent(c, intent.id, outcome);

/** Capture a `requires_capture` intent: all of it, or `amount_to_capture` (the rest is released). */
export function capturePaymentIntent(
  c: OpContext,
  pi: PaymentIntent,
  amountToCapture?: number | null,
): PaymentIntent {
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
  // An intent is authorised (requires_capture) by its charge.
  if (!pi.latest_charge) throw new Error(`payment intent ${pi.id} has no charge to capture`);
  const ch = captureCharge(c, mustCharge(c.ctx, pi.latest_charge), amount, 'amount_to_capture');
  return intentCaptured(c, pi, ch);
}
