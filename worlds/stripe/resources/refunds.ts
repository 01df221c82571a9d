/**
 * Refunds of a charge, whole or in part, named by the charge or its payment intent. Each refund writes a negative
 * balance transaction at once (the money is set aside even while the refund is pending) and counts toward
 * `charge.amount_refunded`; `charge.refunded` turns true only when nothing is left.
 *
 * Two test cards take a second step: `pm_card_pendingRefund` refunds start `pending` and succeed, `pm_card_refundFail`
 * refunds start `succeeded` and fail (the money comes back with a `refund_failure` transaction). Stripe does this in the
 * background a little later; the world takes the step once its clock has moved past the second the refund was created,
 * at the next call that reads or writes charges or refunds (`settleDueRefunds`). In a fixed-clock episode nothing
 * settles until the clock is advanced.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing, unexpectedState } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { addBalanceTransaction } from '../lib/money.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { cardOfPaymentMethod } from '../lib/test-cards.ts';
import { copyJson } from '../lib/clone.ts';

/** Seconds after creation when a test card's refund takes its second step. */
const SETTLE_AFTER = 1;

/** A stored refund, or Stripe's 404. */
export function mustRefund(ctx: Ctx, id: string, param = 'refund'): Stored<'refunds'> {
  const r = get(ctx, 'refunds', id);
  if (r === undefined) throw resourceMissing('refund', id, param);
  return r;
}

/** Put the refund's current state into its charge's `refunds` list (newest first) and the refunded totals. */
function chargeWithRefund(
  charge: Stored<'charges'>,
  refund: Stored<'refunds'>,
  refundedDelta: number,
): Stored<'charges'> {
  const after = copyJson(charge);
  const list = after.refunds ?? {
    object: 'list',
    data: [],
    has_more: false,
    url: `/v1/charges/${charge.id}/refunds`,
  };
  const i = list.data.findIndex((r) => r.id === refund.id);
  if (i >= 0) list.data[i] = copyJson(refund);
  else list.data.unshift(copyJson(refund));
  after.refunds = list;
  after.amount_refunded = charge.amount_refunded + refundedDelta;
  after.refunded = after.amount_refunded >= after.amount;
  return after;
}

/** Store a refund's change and its charge's, with Stripe's events for the refund's new status. */
function saveTransition(
  c: OpContext,
  before: Stored<'refunds'>,
  refund: Stored<'refunds'>,
  refundedDelta: number,
): void {
  const ctx = c.ctx;
  put(ctx, 'refunds', refund);
  const charge = refund.charge ? get(ctx, 'charges', refund.charge) : undefined;
  if (charge) put(ctx, 'charges', chargeWithRefund(charge, refund, refundedDelta));
  const changed = changedAttributes(before, refund);
  if (refund.status === 'failed') emit(c, 'refund.failed', refund, changed);
  emit(c, 'refund.updated', refund, changed);
  emit(c, 'charge.refund.updated', refund, changed);
}

/** Money a refund set aside comes back to the balance (a failed or canceled refund). */
function giveBack(c: OpContext, refund: Stored<'refunds'>): Stored<'balance_transactions'> {
  return addBalanceTransaction(c.ctx, {
    amount: refund.amount,
    currency: refund.currency,
    type: 'refund_failure',
    source: refund.id,
    description: `REFUND FAILURE FOR CHARGE (${refund.charge})`,
    availableNow: true,
  });
}

/** Take the second step of test-card refunds whose time has come (see the module comment). */
export function settleDueRefunds(c: OpContext): void {
  const ctx = c.ctx;
  const due = ctx.db.all<{ id: string }>(
    'SELECT id FROM refunds WHERE settles_at IS NOT NULL AND settles_at <= ? ORDER BY seq',
    nowSeconds(ctx),
  );
  for (const { id } of due) {
    ctx.db.run('UPDATE refunds SET settles_at = NULL WHERE id = ?', id);
    const before = get(ctx, 'refunds', id);
    if (!before) continue;
    const after = copyJson(before);
    if (before.status === 'pending') {
      after.status = 'succeeded';
      saveTransition(c, before, after, 0);
    } else if (before.status === 'succeeded') {
      after.status = 'failed';
      after.failure_reason = 'expired_or_canceled_card';
      after.failure_balance_transaction = giveBack(c, after).id;
      saveTransition(c, before, after, -after.amount);
    }
  }
}

export interface RefundRequest {
  amount?: number | null;
  reason?: Stored<'refunds'>['reason'];
  metadata?: Record<string, string | null> | null;
}

/**
 * Refund `amount` (default: all that is left) of a succeeded, captured charge. Writes the refund, its negative balance
 * transaction, the charge's new totals, and `refund.created` and `charge.refunded`. Throws Stripe's 400s for a charge
 * that cannot be refunded that much.
 */
export function refundCharge(
  c: OpContext,
  charge: Stored<'charges'>,
  req: RefundRequest = {},
): Stored<'refunds'> {
  const ctx = c.ctx;
  if (charge.status !== 'succeeded')
    throw invalidRequest(
      `Charge ${charge.id} did not succeed, so there is nothing to refund.`,
      'charge',
      'charge_not_refundable',
    );
  if (!charge.captured) {
    throw invalidRequest(
      `Charge ${charge.id} has not been captured; cancel its PaymentIntent (or let the authorization expire) to release the funds.`,
      'charge',
      'charge_not_refundable',
    );
  }
  const chargeback = rows(ctx, 'disputes', 'charge = ?', [charge.id]).find(
    (d) => !String(d.status).startsWith('warning_'),
  );
  if (chargeback)
    throw invalidRequest(
      `Charge ${charge.id} has been charged back; cannot issue a refund.`,
      'charge',
      'charge_disputed',
    );
  const left = charge.amount - charge.amount_refunded;
  if (left <= 0)
    throw invalidRequest(
      `Charge ${charge.id} has already been refunded.`,
      'charge',
      'charge_already_refunded',
    );
  const amount = req.amount ?? left;
  if (amount > left) {
    throw invalidRequest(
      `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      'amount',
      'amount_too_large',
    );
  }
  const pm = charge.payment_method ? get(ctx, 'payment_methods', charge.payment_method) : undefined;
  const behaviour = cardOfPaymentMethod(pm)?.refund;
  const refund: Stored<'refunds'> = {
    id: newId(ctx, 're_'),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: nowSeconds(ctx),
    currency: charge.currency,
    customer: charge.customer ?? null,
    customer_account: null,
    destination_details: {
      card: { type: amount === charge.amount ? 'reversal' : 'refund' },
      type: 'card',
    },
    metadata: mergeMetadata({}, req.metadata),
    payment_intent: charge.payment_intent ?? null,
    payment_method: charge.payment_method ?? null,
    reason: req.reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: behaviour === 'pending' ? 'pending' : 'succeeded',
    transfer_reversal: null,
  };
  refund.balance_transaction = addBalanceTransaction(ctx, {
    amount: -amount,
    currency: charge.currency,
    type: 'refund',
    source: refund.id,
    description: `REFUND FOR CHARGE (${charge.description ?? charge.id})`,
    availableNow: true,
  }).id;
  put(ctx, 'refunds', refund);
  if (behaviour)
    ctx.db.run(
      'UPDATE refunds SET settles_at = ? WHERE id = ?',
      refund.created + SETTLE_AFTER,
      refund.id,
    );
  const before = copyJson(charge);
  const after = chargeWithRefund(charge, refund, amount);
  put(ctx, 'charges', after);
  emit(c, 'refund.created', refund);
  emit(c, 'charge.refunded', after, changedAttributes(before, after));
  return refund;
}

/** Cancel or expire a refund still waiting: the money comes back and the charge counts it unrefunded again. */
function stopRefund(
  c: OpContext,
  refund: Stored<'refunds'>,
  how: 'cancel' | 'expire',
): Stored<'refunds'> {
  if (refund.status !== 'pending' && refund.status !== 'requires_action') {
    const what = how === 'cancel' ? 'canceled' : 'expired';
    throw unexpectedState(
      'refund_unexpected_state',
      `Refund ${refund.id} cannot be ${what} because it has a status of ${refund.status}. Only a refund with a status of pending or requires_action can be ${what}.`,
    );
  }
  c.ctx.db.run('UPDATE refunds SET settles_at = NULL WHERE id = ?', refund.id);
  const after = copyJson(refund);
  after.status = 'canceled';
  giveBack(c, after);
  saveTransition(c, refund, after, -after.amount);
  return after;
}

const createParams = {
  amount: p.int(1),
  charge: p.string(),
  payment_intent: p.string(),
  reason: p.enum('duplicate', 'fraudulent', 'requested_by_customer'),
  metadata: p.metadata(),
  currency: p.string(),
  customer: p.string(),
  instructions_email: p.string(),
  origin: p.enum('customer_balance'),
  refund_application_fee: p.bool(),
  reverse_transfer: p.bool(),
};
const listRefundsParams = { ...listParams, charge: p.string(), payment_intent: p.string() };

export const refundsOps = [
  op({
    id: 'PostRefunds',
    method: 'POST',
    path: '/v1/refunds',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      settleDueRefunds(c);
      const ctx = c.ctx;
      if (!params.charge && !params.payment_intent) {
        throw invalidRequest(
          'One of the following params should be provided for this request: payment_intent or charge.',
          undefined,
          'parameter_missing',
        );
      }
      let charge: Stored<'charges'> | undefined;
      if (params.charge) {
        charge = get(ctx, 'charges', params.charge);
        if (!charge) throw resourceMissing('charge', params.charge, 'charge');
      }
      if (params.payment_intent) {
        const pi = get(ctx, 'payment_intents', params.payment_intent);
        if (!pi) throw resourceMissing('payment_intent', params.payment_intent, 'payment_intent');
        if (charge && charge.payment_intent !== pi.id)
          throw invalidRequest(
            `Charge ${charge.id} does not belong to PaymentIntent ${pi.id}.`,
            'charge',
          );
        if (!charge) {
          const latest =
            typeof pi.latest_charge === 'string'
              ? get(ctx, 'charges', pi.latest_charge)
              : undefined;
          if (!latest || latest.status !== 'succeeded' || pi.status !== 'succeeded') {
            throw unexpectedState(
              'payment_intent_unexpected_state',
              `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
              'payment_intent',
            );
          }
          charge = latest;
        }
      }
      if (params.currency && params.currency.toLowerCase() !== charge!.currency)
        throw invalidRequest(
          `The refund currency must match the charge's currency (${charge!.currency}).`,
          'currency',
        );
      return refundCharge(c, charge!, {
        amount: params.amount,
        reason: params.reason,
        metadata: params.metadata,
      });
    },
  }),
  op({
    id: 'GetRefundsRefund',
    method: 'GET',
    path: '/v1/refunds/{refund}',
    params: {},
    run(c, _params: OpParams, path) {
      settleDueRefunds(c);
      return mustRefund(c.ctx, path.refund);
    },
  }),
  op({
    id: 'PostRefundsRefund',
    method: 'POST',
    path: '/v1/refunds/{refund}',
    params: { metadata: p.metadata() },
    run(c, params: OpParams<{ metadata: ReturnType<typeof p.metadata> }>, path) {
      settleDueRefunds(c);
      const before = mustRefund(c.ctx, path.refund);
      const after: Stored<'refunds'> = {
        ...before,
        metadata: mergeMetadata(before.metadata ?? {}, params.metadata),
      };
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length === 0) return before;
      put(c.ctx, 'refunds', after);
      const charge = after.charge ? get(c.ctx, 'charges', after.charge) : undefined;
      if (charge) put(c.ctx, 'charges', chargeWithRefund(charge, after, 0));
      emit(c, 'refund.updated', after, changed);
      emit(c, 'charge.refund.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetRefunds',
    method: 'GET',
    path: '/v1/refunds',
    params: listRefundsParams,
    run(c, params: OpParams<typeof listRefundsParams>) {
      settleDueRefunds(c);
      const where: [string, ...string[]][] = [];
      if (params.charge) where.push(['charge = ?', params.charge]);
      if (params.payment_intent) where.push(['payment_intent = ?', params.payment_intent]);
      return listPage(c.ctx, 'refunds', params, { url: '/v1/refunds', what: 'refund', where });
    },
  }),
  op({
    id: 'PostRefundsRefundCancel',
    method: 'POST',
    path: '/v1/refunds/{refund}/cancel',
    params: {},
    run(c, _params: OpParams, path) {
      settleDueRefunds(c);
      return stopRefund(c, mustRefund(c.ctx, path.refund), 'cancel');
    },
  }),
  op({
    id: 'PostTestHelpersRefundsRefundExpire',
    method: 'POST',
    path: '/v1/test_helpers/refunds/{refund}/expire',
    params: {},
    run(c, _params: OpParams, path) {
      settleDueRefunds(c);
      return stopRefund(c, mustRefund(c.ctx, path.refund), 'expire');
    },
  }),
];
