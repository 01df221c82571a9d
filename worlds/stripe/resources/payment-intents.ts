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
import { checkAmount, checkCurrency, mustCharge, releaseCharge } from './charges.ts';
import { liveCustomer } from './customers.ts';
import { putAndEmit } from '../lib/events.ts';
import { invalidRequest, resourceMissing, unexpectedState, type Failed } from '../lib/errors.ts';
import { limitOf, listPage, listOf, type ListEnvelope } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, searchParams, type OpParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { nowSeconds, put, type Stored } from '../lib/store.ts';
import {
  CANCELABLE,
  applyCommon,
  confirmParams,
  createParams,
  mustPaymentIntent,
  updateParams,
} from './payment-intent-params.ts';
import {
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
} from './payment-intent-flow.ts';
import { copyJson } from '../lib/clone.ts';

/** In-memory cursor pagination over a nested list (the intent's line items), as Stripe pages its lists. */
function pageOf<T extends { id: string }>(
  items: T[],
  params: { limit?: number | null; starting_after?: string | null; ending_before?: string | null },
  url: string,
): ListEnvelope<T> {
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

const retrieveParams = { client_secret: p.string() };
const listIntentsParams = { ...listParams, customer: p.string(), customer_account: p.string() };
const captureParams = {
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
};
const cancelParams = {
  cancellation_reason: p.enum('abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'),
};
const incrementParams = {
  amount: p.int().req(),
  description: p.string(),
  metadata: p.metadata(),
  statement_descriptor: p.string(22),
  application_fee_amount: p.int(),
  transfer_data: p.any(),
  amount_details: p.any(),
  payment_details: p.any(),
  hooks: p.any(),
};
const applyBalanceParams = { amount: p.int(0), currency: p.string() };
const lineItemsParams = { limit: p.int(), starting_after: p.string(), ending_before: p.string() };

export const paymentIntentsOps = [
  op({
    id: 'PostPaymentIntents',
    method: 'POST',
    path: '/v1/payment_intents',
    params: createParams,
    run(c, params: OpParams<typeof createParams>): Stored<'payment_intents'> | Failed {
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
    params: retrieveParams,
    run(c, params: OpParams<typeof retrieveParams>, path) {
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
    run(c, params: OpParams<typeof updateParams>, path) {
      const ctx = c.ctx;
      const before = mustPaymentIntent(ctx, path.intent);
      const pi = copyJson(before);
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
      if (params.statement_descriptor !== undefined)
        pi.statement_descriptor = params.statement_descriptor;
      if (params.statement_descriptor_suffix !== undefined)
        pi.statement_descriptor_suffix = params.statement_descriptor_suffix;
      if (params.transfer_group !== undefined) pi.transfer_group = params.transfer_group;
      if (params.application_fee_amount !== undefined)
        pi.application_fee_amount = params.application_fee_amount;
      applyCommon(c, pi, params);
      const reconfirm = (
        ['amount', 'currency', 'payment_method', 'payment_method_data'] as const
      ).some((k) => params[k] !== undefined);
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
    params: listIntentsParams,
    run(c, params: OpParams<typeof listIntentsParams>) {
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
    run: (c, params: OpParams<typeof searchParams>) =>
      searchPage(c.ctx, 'payment_intents', params, '/v1/payment_intents/search'),
  }),
  op({
    id: 'PostPaymentIntentsIntentConfirm',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/confirm',
    params: confirmParams,
    run: (c, params: OpParams<typeof confirmParams>, path) =>
      confirmPaymentIntent(c, mustPaymentIntent(c.ctx, path.intent), params),
  }),
  op({
    id: 'PostPaymentIntentsIntentCapture',
    method: 'POST',
    path: '/v1/payment_intents/{intent}/capture',
    params: captureParams,
    run(c, params: OpParams<typeof captureParams>, path) {
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
    params: cancelParams,
    run(c, params: OpParams<typeof cancelParams>, path) {
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
      const after: Stored<'payment_intents'> = {
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
    params: incrementParams,
    run(c, params: OpParams<typeof incrementParams>, path) {
      const ctx = c.ctx;
      const pi = mustPaymentIntent(ctx, path.intent);
      if (pi.status !== 'requires_capture') {
        throw unexpectedState(
          'payment_intent_unexpected_state',
          `This PaymentIntent's authorization could not be incremented because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be incremented: requires_capture.`,
        );
      }
      // An intent is authorised (requires_capture) by its charge.
      if (!pi.latest_charge) throw new Error(`payment intent ${pi.id} has no charge`);
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
      const charge = copyJson(ch);
      charge.amount = params.amount;
      // The charge is a card's that allows incremental authorization (checked above).
      const card = charge.payment_method_details?.card;
      if (card) {
        card.amount_authorized = params.amount;
        if (card.overcapture) card.overcapture.maximum_amount_capturable = params.amount;
      }
      put(ctx, 'charges', charge);
      const after: Stored<'payment_intents'> = {
        ...pi,
        amount: params.amount,
        amount_capturable: params.amount,
      };
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
    params: applyBalanceParams,
    run(c, params: OpParams<typeof applyBalanceParams>, path) {
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
    run(c, _params: OpParams, path) {
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
    params: lineItemsParams,
    run(c, params: OpParams<typeof lineItemsParams>, path) {
      const pi = mustPaymentIntent(c.ctx, path.intent);
      const items = pi.amount_details?.line_items?.data ?? [];
      return pageOf(items, params, `/v1/payment_intents/${pi.id}/amount_details_line_items`);
    },
  }),
];
