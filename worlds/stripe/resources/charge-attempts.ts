/**
 * A charge attempt: what `attemptCharge` stores for one try at a card (its payment method details, risk outcome and
 * receipt), the decline it answers, and the balance transaction a captured charge writes. Payment intents and the
 * legacy `POST /v1/charges` (charges.ts) both run it.
 */

import { accountOf } from './account.ts';

import { openDisputeFor } from './disputes.ts';

import { putAndEmit } from '../lib/events.ts';
import { type StripeErrorBody } from '../lib/errors.ts';
import { listOf } from '../lib/list.ts';
import { addBalanceTransaction, cardFee } from '../lib/money.ts';
import { type OpContext } from '../lib/op.ts';
import type {
  ChargeOutcome as Outcome,
  ChargePaymentMethodDetails,
  ChargePaymentMethodDetailsCard,
  ChargeShipping,
} from '../lib/objects.ts';
import { get, newId, nowSeconds, type Stored } from '../lib/store.ts';
import {
  billingDetails,
  cardOfPaymentMethod,
  declineMessage,
  needsAuthentication,
  type ErrorCode,
} from '../lib/test-cards.ts';
import { copyJson } from '../lib/clone.ts';

export interface ChargeRequest {
  amount: number;
  currency: string;
  /** The stored payment method the charge draws on. */
  paymentMethod: Stored<'payment_methods'>;
  customer?: string | null;
  description?: string | null;
  metadata?: Record<string, string>;
  /** False authorises only (`requires_capture`); the default captures at once. */
  capture?: boolean;
  paymentIntent?: string | null;
  receiptEmail?: string | null;
  statementDescriptor?: string | null;
  statementDescriptorSuffix?: string | null;
  shipping?: ChargeShipping | null;
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
  charge: Stored<'charges'>;
  /** The decline (without `payment_intent`, which the caller adds when there is one). */
  error?: StripeErrorBody & {
    code: ErrorCode;
    charge: string;
    payment_method: Stored<'payment_methods'>;
  };
}

function paymentMethodDetails(
  pm: Stored<'payment_methods'>,
  amount: number,
  incremental: boolean,
  authenticated: boolean,
): ChargePaymentMethodDetails & { card: ChargePaymentMethodDetailsCard } {
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
): Outcome {
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
  const details = paymentMethodDetails(
    pm,
    req.amount,
    !capture && req.incrementalAuthorization === true,
    req.authenticated === true,
  );
  const charge: Stored<'charges'> = {
    id: newId(ctx, 'ch_'),
    object: 'charge',
    amount: req.amount,
    amount_captured: 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: pm.billing_details ? copyJson(pm.billing_details) : billingDetails(),
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
    payment_method_details: details,
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

  let error: (StripeErrorBody & { code: ErrorCode }) | undefined;
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
    details.card.amount_authorized = null;
    putAndEmit(c, 'charges', charge, 'charge.failed');
    return { charge, error: { ...error, charge: charge.id, payment_method: copyJson(pm) } };
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
    charge.balance_transaction = chargeBalanceTransaction(c, charge, req.amount, pm).id;
  }
  putAndEmit(c, 'charges', charge, 'charge.succeeded');
  if (capture && card?.dispute) return { charge: openDisputeFor(c, charge, card.dispute) };
  return { charge };
}

/**
 * The balance transaction a captured card charge writes: the captured amount, Stripe's fee, pending unless bypassed.
 * `pm`: the charge's payment method, when the caller has it at hand (the attempt that made the charge).
 */
export function chargeBalanceTransaction(
  c: OpContext,
  charge: Stored<'charges'>,
  amount: number,
  pm = charge.payment_method ? get(c.ctx, 'payment_methods', charge.payment_method) : undefined,
): Stored<'balance_transactions'> {
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
