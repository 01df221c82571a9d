/**
 * Charges: the record of one attempt to move money from a card. Payment intents make them on confirm; the legacy
 * `POST /v1/charges` makes one directly from a `source` (a `tok_…`, a `pm_…`, or the customer's default). A decline
 * still stores the failed charge, as Stripe does, and answers 402. A successful, captured charge writes its balance
 * transaction (2.9% + 30); a dispute test card then opens its dispute at once.
 */
import type { Ctx } from 'seahaven';
import { accountOf } from './account.ts';
import { liveCustomer } from './customers.ts';
import { openDisputeFor } from './disputes.ts';
import { settleDueRefunds } from './refunds.ts';
import { emit, changedAttributes, putAndEmit } from '../lib/events.ts';
import {
  failed,
  invalidRequest,
  resourceMissing,
  unexpectedState,
  type Failed,
  type StripeErrorBody,
} from '../lib/errors.ts';
import { listOf, listPage } from '../lib/list.ts';
import { addBalanceTransaction, cardFee } from '../lib/money.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, searchParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, newId, nowSeconds, put, type Obj, type Stored } from '../lib/store.ts';
import {
  cardOfPaymentMethod,
  declineMessage,
  needsAuthentication,
  resolvePaymentMethod,
} from '../lib/test-cards.ts';

/** Stripe's minimum charge: 50 cents (README 6); we apply it to every currency as the USD figure. */
export const MINIMUM_AMOUNT = 50;

/** 400 `amount_too_small` below Stripe's minimum. */
export function checkAmount(amount: number, param = 'amount'): void {
  if (amount < MINIMUM_AMOUNT) {
    throw invalidRequest('Amount must be at least $0.50 usd', param, 'amount_too_small');
  }
}

/** A three-letter lower-case currency, or Stripe's 400. */
export function checkCurrency(currency: string, param = 'currency'): string {
  const cur = currency.toLowerCase();
  if (!/^[a-z]{3}$/.test(cur))
    throw invalidRequest(
      `Invalid currency: ${currency}. Stripe currently supports these currencies: usd, eur, gbp, …`,
      param,
      'parameter_invalid_string',
    );
  return cur;
}

/** A stored charge, or Stripe's 404. */
export function mustCharge(ctx: Ctx, id: string, param = 'charge'): Obj {
  const ch = get(ctx, 'charges', id);
  if (ch === undefined) throw resourceMissing('charge', id, param);
  return ch;
}

export interface ChargeRequest {
  amount: number;
  currency: string;
  /** The stored payment method the charge draws on. */
  paymentMethod: Obj;
  customer?: string | null;
  description?: string | null;
  metadata?: Record<string, string>;
  /** False authorises only (`requires_capture`); the default captures at once. */
  capture?: boolean;
  paymentIntent?: string | null;
  receiptEmail?: string | null;
  statementDescriptor?: string | null;
  statementDescriptorSuffix?: string | null;
  shipping?: Obj | null;
  transferGroup?: string | null;
  /** An authorisation the merchant asked to be able to increase (`request_incremental_authorization`). */
  incrementalAuthorization?: boolean;
  /** The customer passed 3D Secure for this charge. */
  authenticated?: boolean;
  /** The card needs 3D Secure but nobody is there to give it (off-session, or the legacy charges API). */
  unauthenticatable?: 'off_session' | 'legacy';
}

/** What a charge attempt came to: the stored charge, and the card error when it failed. */
export interface ChargeOutcome {
  charge: Obj;
  /** The decline (without `payment_intent`, which the caller adds when there is one). */
  error?: StripeErrorBody;
}

function paymentMethodDetails(
  pm: Stored<'payment_methods'>,
  amount: number,
  incremental: boolean,
  authenticated: boolean,
): Obj {
  // A payment method without card details (none the world makes) is charged as a default test card.
  const card: Partial<NonNullable<Stored<'payment_methods'>['card']>> = pm.card ?? {};
  return {
    card: {
      amount_authorized: amount,
      authorization_code: null,
      brand: card.brand ?? 'visa',
      checks: card.checks ?? {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: null,
      },
      country: card.country ?? 'US',
      // The network's ECI: fully authenticated (05) after 3D Secure; the world's test networks send none otherwise.
      electronic_commerce_indicator: authenticated ? '05' : null,
      exp_month: card.exp_month ?? 12,
      exp_year: card.exp_year ?? 2034,
      extended_authorization: { status: 'disabled' },
      fingerprint: card.fingerprint ?? null,
      funding: card.funding ?? 'credit',
      incremental_authorization: { status: incremental ? 'available' : 'unavailable' },
      installments: null,
      last4: card.last4 ?? '0000',
      mandate: null,
      multicapture: { status: 'unavailable' },
      network: card.networks?.preferred ?? card.brand ?? 'visa',
      network_token: { used: false },
      network_transaction_id: null,
      overcapture: { maximum_amount_capturable: amount, status: 'unavailable' },
      regulated_status: card.regulated_status ?? null,
      three_d_secure: authenticated
        ? {
            authentication_flow: 'challenge',
            electronic_commerce_indicator: '05',
            exemption_indicator: null,
            result: 'authenticated',
            result_reason: null,
            transaction_id: null,
            version: '2.2.0',
          }
        : null,
      transaction_link_id: null,
      wallet: null,
    },
    type: 'card',
  };
}

const RISK_SCORE: Record<string, number> = { normal: 18, elevated: 67, highest: 85 };

function outcomeOf(
  kind: 'authorized' | 'issuer_declined' | 'blocked',
  riskLevel: string,
  reason: string | null,
  message: string,
): Obj {
  return {
    advice_code: null,
    network_advice_code: null,
    network_decline_code: null,
    network_status:
      kind === 'authorized'
        ? 'approved_by_network'
        : kind === 'blocked'
          ? 'not_sent_to_network'
          : 'declined_by_network',
    reason,
    risk_level: riskLevel,
    risk_score: RISK_SCORE[riskLevel] ?? 18,
    seller_message: message,
    type: kind,
  };
}

/** A receipt link per charge; the token is the charge id's tail, so it is stable. */
function receiptUrl(id: string): string {
  return `https://pay.stripe.com/receipts/payment/${id.slice(3)}`;
}

/**
 * Attempt a charge on a stored payment method: the test card decides (decline, Radar block, dispute, pending funds).
 * Writes the charge (failed or succeeded), its balance transaction when captured, its events, and a dispute for the
 * dispute cards. Never throws for a decline: the caller answers 402 with `outcome.error` and keeps the writes.
 */
export function attemptCharge(c: OpContext, req: ChargeRequest): ChargeOutcome {
  const ctx = c.ctx;
  const pm = req.paymentMethod;
  const card = cardOfPaymentMethod(pm);
  const capture = req.capture !== false;
  const riskLevel =
    card?.radar === 'highest' || card?.radar === 'block'
      ? 'highest'
      : card?.radar === 'elevated'
        ? 'elevated'
        : 'normal';
  const charge: Obj = {
    id: newId(ctx, 'ch_'),
    object: 'charge',
    amount: req.amount,
    amount_captured: 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: structuredClone(
      pm.billing_details ?? {
        address: {
          city: null,
          country: null,
          line1: null,
          line2: null,
          postal_code: null,
          state: null,
        },
        email: null,
        name: null,
        phone: null,
        tax_id: null,
      },
    ),
    calculated_statement_descriptor:
      req.statementDescriptor ??
      accountOf(ctx).settings?.payments?.statement_descriptor ??
      'SEAHAVEN TEST CO',
    captured: false,
    created: nowSeconds(ctx),
    currency: req.currency,
    customer: req.customer ?? null,
    description: req.description ?? null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: req.metadata ?? {},
    on_behalf_of: null,
    outcome: null,
    paid: false,
    payment_intent: req.paymentIntent ?? null,
    payment_method: pm.id,
    payment_method_details: paymentMethodDetails(
      pm,
      req.amount,
      !capture && req.incrementalAuthorization === true,
      req.authenticated === true,
    ),
    receipt_email: req.receiptEmail ?? null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: null,
    review: null,
    shipping: req.shipping ?? null,
    source: null,
    source_transfer: null,
    statement_descriptor: req.statementDescriptor ?? null,
    statement_descriptor_suffix: req.statementDescriptorSuffix ?? null,
    status: 'failed',
    transfer_data: null,
    transfer_group: req.transferGroup ?? null,
  };
  charge.receipt_url = receiptUrl(charge.id);
  charge.refunds = listOf([], `/v1/charges/${charge.id}/refunds`);

  let error: StripeErrorBody | undefined;
  if (req.unauthenticatable && !req.authenticated && needsAuthentication(ctx, pm)) {
    // A 3D Secure card with nobody present to authenticate: the issuer declines it.
    const code =
      req.unauthenticatable === 'off_session' ? 'authentication_required' : 'card_declined';
    error = {
      type: 'card_error',
      code,
      decline_code: 'authentication_required',
      message: declineMessage('authentication_required'),
    };
    charge.outcome = outcomeOf(
      'issuer_declined',
      riskLevel,
      'authentication_required',
      'The bank returned the decline code `authentication_required`.',
    );
  } else if (card?.radar === 'block') {
    error = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'fraudulent',
      message: declineMessage('card_declined', 'fraudulent'),
    };
    charge.outcome = outcomeOf(
      'blocked',
      'highest',
      'highest_risk_level',
      'Stripe blocked this payment as too risky.',
    );
  } else if (card?.decline) {
    const { code, decline_code } = card.decline;
    error = {
      type: 'card_error',
      code,
      ...(decline_code ? { decline_code } : {}),
      message: declineMessage(code, decline_code),
    };
    charge.outcome = outcomeOf(
      'issuer_declined',
      riskLevel,
      decline_code ?? code,
      code === 'card_declined'
        ? 'The bank did not return any further details with this decline.'
        : `The bank returned the decline code \`${code}\`.`,
    );
  }
  if (error) {
    charge.failure_code = error.code;
    charge.failure_message = error.message;
    charge.payment_method_details.card.amount_authorized = null;
    putAndEmit(c, 'charges', charge, 'charge.failed');
    return { charge, error: { ...error, charge: charge.id, payment_method: structuredClone(pm) } };
  }

  charge.status = 'succeeded';
  charge.paid = true;
  charge.outcome = outcomeOf(
    'authorized',
    riskLevel,
    riskLevel === 'elevated' ? 'elevated_risk_level' : null,
    'Payment complete.',
  );
  if (capture) {
    charge.captured = true;
    charge.amount_captured = req.amount;
    charge.balance_transaction = chargeBalanceTransaction(c, charge, req.amount).id;
  }
  putAndEmit(c, 'charges', charge, 'charge.succeeded');
  if (capture && card?.dispute) return { charge: openDisputeFor(c, charge, card.dispute) };
  return { charge };
}

/** The balance transaction a captured card charge writes: the captured amount, Stripe's fee, pending unless bypassed. */
function chargeBalanceTransaction(c: OpContext, charge: Stored<'charges'>, amount: number): Obj {
  const pm = charge.payment_method
    ? get(c.ctx, 'payment_methods', charge.payment_method)
    : undefined;
  return addBalanceTransaction(c.ctx, {
    amount,
    currency: charge.currency,
    type: 'charge',
    source: charge.id,
    description: charge.description,
    fee: cardFee(amount),
    availableNow: cardOfPaymentMethod(pm)?.bypassPending === true,
  });
}

/**
 * Capture an authorised charge: all of it, or `amount` of it (the rest is released and counts as refunded, as
 * Stripe reports it). Writes the balance transaction and `charge.captured`; a dispute card opens its dispute now.
 */
export function captureCharge(
  c: OpContext,
  charge: Stored<'charges'>,
  amount: number | undefined,
  param = 'amount',
): Obj {
  if (charge.captured || charge.status !== 'succeeded') {
    throw unexpectedState(
      'charge_already_captured',
      `Charge ${charge.id} has already been captured.`,
    );
  }
  if (charge.refunded)
    throw unexpectedState(
      'charge_expired_for_capture',
      `Charge ${charge.id} has been released and can no longer be captured.`,
    );
  const take = amount ?? charge.amount;
  if (take > charge.amount)
    throw invalidRequest(
      `The amount to capture (${take}) cannot be greater than the authorized amount (${charge.amount}).`,
      param,
      'amount_too_large',
    );
  if (take < MINIMUM_AMOUNT && take !== charge.amount) checkAmount(take, param);
  const before = structuredClone(charge);
  const after: Obj = {
    ...charge,
    captured: true,
    amount_captured: take,
    amount_refunded: charge.amount - take,
  };
  after.refunded = after.amount_refunded === after.amount;
  after.balance_transaction = chargeBalanceTransaction(c, after, take).id;
  after.payment_method_details = structuredClone(charge.payment_method_details);
  after.payment_method_details.card.incremental_authorization = { status: 'unavailable' };
  put(c.ctx, 'charges', after);
  emit(c, 'charge.captured', after, changedAttributes(before, after));
  const pm = after.payment_method ? get(c.ctx, 'payment_methods', after.payment_method) : undefined;
  const dispute = cardOfPaymentMethod(pm)?.dispute;
  return dispute ? openDisputeFor(c, after, dispute) : after;
}

/** A payment intent whose charge was just captured: succeeded, with what was received. */
export function intentCaptured(
  c: OpContext,
  pi: Stored<'payment_intents'>,
  charge: Stored<'charges'>,
): Obj {
  const after: Obj = {
    ...pi,
    status: 'succeeded',
    amount_capturable: 0,
    amount_received: charge.amount_captured,
    latest_charge: charge.id,
  };
  putAndEmit(c, 'payment_intents', after, 'payment_intent.succeeded');
  return after;
}

/** Release an uncaptured charge in full (its payment intent was canceled): nothing moves, all counts as refunded. */
export function releaseCharge(c: OpContext, charge: Stored<'charges'>): Obj {
  if (charge.captured || charge.status !== 'succeeded') return charge;
  const before = structuredClone(charge);
  const after: Obj = { ...charge, amount_refunded: charge.amount, refunded: true };
  put(c.ctx, 'charges', after);
  emit(c, 'charge.refunded', after, changedAttributes(before, after));
  return after;
}

/** The payment method a customer is charged with by default: the legacy default source, else the invoice default. */
export function defaultPaymentMethodOf(ctx: Ctx, customer: Stored<'customers'>): Obj | undefined {
  for (const id of [customer.default_source, customer.invoice_settings?.default_payment_method]) {
    if (typeof id !== 'string') continue;
    const pm = get(ctx, 'payment_methods', id);
    if (pm) return pm;
  }
  return undefined;
}

const shippingParam = p.obj({
  address: p.obj({
    city: p.string(),
    country: p.string(),
    line1: p.string(),
    line2: p.string(),
    postal_code: p.string(),
    state: p.string(),
  }),
  carrier: p.string(),
  name: p.string(),
  phone: p.string(),
  tracking_number: p.string(),
});

function shippingOf(s: Obj | null | undefined): Obj | null {
  if (!s) return null;
  const a = s.address ?? {};
  return {
    address: {
      city: a.city ?? null,
      country: a.country ?? null,
      line1: a.line1 ?? null,
      line2: a.line2 ?? null,
      postal_code: a.postal_code ?? null,
      state: a.state ?? null,
    },
    carrier: s.carrier ?? null,
    name: s.name ?? null,
    phone: s.phone ?? null,
    tracking_number: s.tracking_number ?? null,
  };
}

export { shippingParam, shippingOf };

export const chargesOps = [
  op({
    id: 'PostCharges',
    method: 'POST',
    path: '/v1/charges',
    params: {
      amount: p.int().req(),
      currency: p.string().req(),
      customer: p.string(),
      source: p.string(),
      description: p.string(),
      metadata: p.metadata(),
      capture: p.bool(),
      receipt_email: p.string(),
      statement_descriptor: p.string(22),
      statement_descriptor_suffix: p.string(22),
      shipping: shippingParam,
      transfer_group: p.string(),
      on_behalf_of: p.string(),
      application_fee_amount: p.int(),
      transfer_data: p.obj({ amount: p.int(), destination: p.string().req() }),
      radar_options: p.obj({ session: p.string() }),
    },
    run(c, params): Obj | Failed {
      const ctx = c.ctx;
      checkAmount(params.amount);
      const currency = checkCurrency(params.currency);
      const customer = params.customer ? liveCustomer(ctx, params.customer) : undefined;
      let pm: Obj | undefined;
      if (params.source) pm = resolvePaymentMethod(c, params.source, 'source');
      else if (customer) pm = defaultPaymentMethodOf(ctx, customer);
      if (pm === undefined) {
        if (customer)
          throw invalidRequest(
            'Cannot charge a customer that has no active card',
            'card',
            'missing',
          );
        throw invalidRequest('Must provide source or customer.', undefined, 'parameter_missing');
      }
      if (customer && pm.customer && pm.customer !== customer.id) {
        throw invalidRequest(
          `Customer ${customer.id} does not have a linked source with ID ${pm.id}.`,
          'source',
          'missing',
        );
      }
      const out = attemptCharge(c, {
        amount: params.amount,
        currency,
        paymentMethod: pm,
        customer: customer?.id ?? null,
        description: params.description ?? null,
        metadata: mergeMetadata({}, params.metadata),
        capture: params.capture,
        receiptEmail: params.receipt_email ?? null,
        statementDescriptor: params.statement_descriptor ?? null,
        statementDescriptorSuffix: params.statement_descriptor_suffix ?? null,
        shipping: shippingOf(params.shipping),
        transferGroup: params.transfer_group ?? null,
        unauthenticatable: 'legacy',
      });
      if (out.error) return failed(402, out.error);
      return out.charge;
    },
  }),
  op({
    id: 'GetChargesCharge',
    method: 'GET',
    path: '/v1/charges/{charge}',
    params: {},
    run(c, _params, path) {
      settleDueRefunds(c);
      return mustCharge(c.ctx, path.charge);
    },
  }),
  op({
    id: 'PostChargesCharge',
    method: 'POST',
    path: '/v1/charges/{charge}',
    params: {
      customer: p.string(),
      description: p.string(),
      fraud_details: p.obj({ user_report: p.enum('fraudulent', 'safe').req() }),
      metadata: p.metadata(),
      receipt_email: p.string(),
      shipping: shippingParam,
      transfer_group: p.string(),
    },
    run(c, params, path) {
      const before = mustCharge(c.ctx, path.charge);
      const after = structuredClone(before);
      if (params.customer !== undefined && params.customer !== null) {
        if (before.customer && before.customer !== params.customer) {
          throw invalidRequest(
            `Charge ${before.id} already belongs to customer ${before.customer}; a charge's customer can only be set once.`,
            'customer',
          );
        }
        after.customer = liveCustomer(c.ctx, params.customer).id;
      }
      if (params.description !== undefined) after.description = params.description;
      if (params.receipt_email !== undefined) after.receipt_email = params.receipt_email;
      if (params.transfer_group !== undefined) after.transfer_group = params.transfer_group;
      if (params.shipping !== undefined) after.shipping = shippingOf(params.shipping);
      if (params.fraud_details)
        after.fraud_details = {
          ...after.fraud_details,
          user_report: params.fraud_details.user_report,
        };
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(after.metadata ?? {}, params.metadata);
      put(c.ctx, 'charges', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'charge.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetCharges',
    method: 'GET',
    path: '/v1/charges',
    params: {
      ...listParams,
      customer: p.string(),
      payment_intent: p.string(),
      transfer_group: p.string(),
    },
    run(c, params) {
      settleDueRefunds(c);
      const where: [string, ...string[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      if (params.payment_intent) where.push(['payment_intent = ?', params.payment_intent]);
      const page = listPage(c.ctx, 'charges', params, {
        url: '/v1/charges',
        what: 'charge',
        where,
      });
      if (params.transfer_group)
        page.data = page.data.filter((ch) => ch.transfer_group === params.transfer_group);
      return page;
    },
  }),
  op({
    id: 'GetChargesSearch',
    method: 'GET',
    path: '/v1/charges/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'charges', params, '/v1/charges/search'),
  }),
  op({
    id: 'PostChargesChargeCapture',
    method: 'POST',
    path: '/v1/charges/{charge}/capture',
    params: {
      amount: p.int(),
      application_fee: p.int(),
      application_fee_amount: p.int(),
      receipt_email: p.string(),
      statement_descriptor: p.string(22),
      statement_descriptor_suffix: p.string(22),
      transfer_data: p.obj({ amount: p.int() }),
      transfer_group: p.string(),
    },
    run(c, params, path) {
      const charge = mustCharge(c.ctx, path.charge);
      if (params.receipt_email !== undefined) charge.receipt_email = params.receipt_email;
      const captured = captureCharge(c, charge, params.amount ?? undefined);
      // A payment intent's charge captured here moves its intent along too, so the two stay in step.
      const pi = charge.payment_intent
        ? get(c.ctx, 'payment_intents', charge.payment_intent)
        : undefined;
      if (pi) intentCaptured(c, pi, captured);
      return captured;
    },
  }),
];
