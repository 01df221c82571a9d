/**
 * Charges: the record of one attempt to move money from a card. Payment intents make them on confirm; the legacy
 * `POST /v1/charges` makes one directly from a `source` (a `tok_…`, a `pm_…`, or the customer's default). A decline
 * still stores the failed charge, as Stripe does, and answers 402. A successful, captured charge writes its balance
 * transaction (2.9% + 30); a dispute test card then opens its dispute at once.
 */
import type { Ctx } from 'seahaven';

import { attemptCharge, chargeBalanceTransaction } from './charge-attempts.ts';
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
} from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';

import { op, type OpContext } from '../lib/op.ts';
import type { ChargeShipping } from '../lib/objects.ts';
import {
  listParams,
  mergeMetadata,
  p,
  searchParams,
  type OpParams,
  type ParamValue,
} from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, put, type Stored } from '../lib/store.ts';
import { cardOfPaymentMethod, resolvePaymentMethod } from '../lib/test-cards.ts';
import { copyJson } from '../lib/clone.ts';

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
export function mustCharge(ctx: Ctx, id: string, param = 'charge'): Stored<'charges'> {
  const ch = get(ctx, 'charges', id);
  if (ch === undefined) throw resourceMissing('charge', id, param);
  return ch;
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
): Stored<'charges'> {
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
  const before = copyJson(charge);
  const after: Stored<'charges'> = {
    ...charge,
    captured: true,
    amount_captured: take,
    amount_refunded: charge.amount - take,
  };
  after.refunded = after.amount_refunded === after.amount;
  after.balance_transaction = chargeBalanceTransaction(c, after, take).id;
  const details = copyJson(charge.payment_method_details);
  // Every charge the world makes is a card's (charge-attempts.ts).
  if (details?.card) details.card.incremental_authorization = { status: 'unavailable' };
  after.payment_method_details = details;
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
): Stored<'payment_intents'> {
  const after: Stored<'payment_intents'> = {
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
export function releaseCharge(c: OpContext, charge: Stored<'charges'>): Stored<'charges'> {
  if (charge.captured || charge.status !== 'succeeded') return charge;
  const before = copyJson(charge);
  const after: Stored<'charges'> = { ...charge, amount_refunded: charge.amount, refunded: true };
  put(c.ctx, 'charges', after);
  emit(c, 'charge.refunded', after, changedAttributes(before, after));
  return after;
}

/** The payment method a customer is charged with by default: the legacy default source, else the invoice default. */
export function defaultPaymentMethodOf(
  ctx: Ctx,
  customer: Stored<'customers'>,
): Stored<'payment_methods'> | undefined {
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

function shippingOf(s: ParamValue<typeof shippingParam> | null | undefined): ChargeShipping | null {
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
    // A name not given is null, where the SDK declares a string.
    name: (s.name ?? null) as string,
    phone: s.phone ?? null,
    tracking_number: s.tracking_number ?? null,
  };
}

export { shippingParam, shippingOf };

const createParams = {
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
};

const updateParams = {
  customer: p.string(),
  description: p.string(),
  fraud_details: p.obj({ user_report: p.enum('fraudulent', 'safe').req() }),
  metadata: p.metadata(),
  receipt_email: p.string(),
  shipping: shippingParam,
  transfer_group: p.string(),
};

const listChargesParams = {
  ...listParams,
  customer: p.string(),
  payment_intent: p.string(),
  transfer_group: p.string(),
};

const captureParams = {
  amount: p.int(),
  application_fee: p.int(),
  application_fee_amount: p.int(),
  receipt_email: p.string(),
  statement_descriptor: p.string(22),
  statement_descriptor_suffix: p.string(22),
  transfer_data: p.obj({ amount: p.int() }),
  transfer_group: p.string(),
};

export const chargesOps = [
  op({
    id: 'PostCharges',
    method: 'POST',
    path: '/v1/charges',
    params: createParams,
    run(c, params: OpParams<typeof createParams>): Stored<'charges'> | Failed {
      const ctx = c.ctx;
      checkAmount(params.amount);
      const currency = checkCurrency(params.currency);
      const customer = params.customer ? liveCustomer(ctx, params.customer) : undefined;
      let pm: Stored<'payment_methods'> | undefined;
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
        capture: params.capture ?? undefined,
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
    run(c, _params: OpParams, path) {
      settleDueRefunds(c);
      return mustCharge(c.ctx, path.charge);
    },
  }),
  op({
    id: 'PostChargesCharge',
    method: 'POST',
    path: '/v1/charges/{charge}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = mustCharge(c.ctx, path.charge);
      const after = copyJson(before);
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
    params: listChargesParams,
    run(c, params: OpParams<typeof listChargesParams>) {
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
    run: (c, params: OpParams<typeof searchParams>) =>
      searchPage(c.ctx, 'charges', params, '/v1/charges/search'),
  }),
  op({
    id: 'PostChargesChargeCapture',
    method: 'POST',
    path: '/v1/charges/{charge}/capture',
    params: captureParams,
    run(c, params: OpParams<typeof captureParams>, path) {
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
