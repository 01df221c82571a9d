/**
 * Balance transactions: every movement of money (a charge, a refund, a dispute and its fee, a payout) writes one
 * `txn_`, with Stripe's fee model for cards (2.9% + 30¢, a modelling choice documented in docs/stripe.md). Funds from
 * charges are `pending` until `available_on` (two days later by the world clock) unless the card bypasses pending.
 * `GET /v1/balance` sums these rows.
 */
import type { Ctx } from 'seahaven';
import { newId, nowSeconds, put, type Stored } from './store.ts';

export const DAY = 86_400;

/** Stripe's US card fee for `amount` minor units: 2.9% + 30. */
export function cardFee(amount: number): number {
  return Math.round(amount * 0.029) + 30;
}

export interface BalanceEntry {
  amount: number;
  currency: string;
  type:
    | 'charge'
    | 'payment'
    | 'refund'
    | 'payment_refund'
    | 'adjustment'
    | 'payout'
    | 'payout_cancel'
    | 'payout_failure'
    | 'stripe_fee'
    | 'refund_failure'
    | 'payment_failure_refund';
  /** The object that moved the money (`ch_…`, `re_…`, `du_…`, `po_…`). */
  source: string;
  description?: string | null;
  /** Fee charged on top (positive minor units). */
  fee?: number;
  feeDescription?: string;
  /** Available at once (payouts, refunds, bypass-pending cards) instead of after two days. */
  availableNow?: boolean;
  reportingCategory?: string;
}

/** Write a balance transaction and return it. */
export function addBalanceTransaction(ctx: Ctx, e: BalanceEntry): Stored<'balance_transactions'> {
  const created = nowSeconds(ctx);
  const fee = e.fee ?? 0;
  const txn: Stored<'balance_transactions'> = {
    id: newId(ctx, 'txn_'),
    object: 'balance_transaction',
    amount: e.amount,
    available_on: e.availableNow ? created : created + 2 * DAY,
    balance_type: 'payments',
    created,
    currency: e.currency,
    description: e.description ?? null,
    exchange_rate: null,
    fee,
    fee_details: fee
      ? [
          {
            amount: fee,
            application: null,
            currency: e.currency,
            description: e.feeDescription ?? 'Stripe processing fees',
            type: 'stripe_fee',
          },
        ]
      : [],
    net: e.amount - fee,
    reporting_category:
      e.reportingCategory ?? (e.type === 'charge' || e.type === 'payment' ? 'charge' : e.type),
    source: e.source,
    status: e.availableNow ? 'available' : 'pending',
    type: e.type,
  };
  return put(ctx, 'balance_transactions', txn);
}
