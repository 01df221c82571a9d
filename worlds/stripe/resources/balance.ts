/**
 * The balance and its history. `GET /v1/balance` is not stored: it is summed from the balance transactions, per
 * currency, splitting each row's `net` into `available` or `pending` by its `available_on` against the world clock.
 * A transaction is written `pending` and becomes `available` when the clock passes its `available_on`; since nothing
 * runs between calls, the rows are brought up to date (with one `balance.available` event) at the start of every
 * balance, payout and event operation, the calls that can observe the difference.
 */
import type { Ctx, SqlParam } from 'seahaven';
import { accountOf } from './account.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { listPage } from '../lib/list.ts';
import type { OpContext } from '../lib/op.ts';
import { op } from '../lib/op.ts';
import { listParams, p, type OpParams } from '../lib/params.ts';
import { get, nowSeconds, put, rows, type Stored } from '../lib/store.ts';

/** The balance types a balance transaction can be of (Stripe's `type` filter accepts these). */
export const BALANCE_TRANSACTION_TYPES = [
  'adjustment',
  'advance',
  'advance_funding',
  'anticipation_repayment',
  'application_fee',
  'application_fee_refund',
  'charge',
  'climate_order_purchase',
  'climate_order_refund',
  'connect_collection_transfer',
  'contribution',
  'issuing_authorization_hold',
  'issuing_authorization_release',
  'issuing_dispute',
  'issuing_transaction',
  'obligation_outbound',
  'obligation_reversal_inbound',
  'payment',
  'payment_failure_refund',
  'payment_network_reserve_hold',
  'payment_network_reserve_release',
  'payment_refund',
  'payment_reversal',
  'payment_unreconciled',
  'payout',
  'payout_cancel',
  'payout_failure',
  'payout_minimum_balance_hold',
  'payout_minimum_balance_release',
  'refund',
  'refund_failure',
  'reserve_transaction',
  'reserved_funds',
  'stripe_fee',
  'stripe_fx_fee',
  'tax_fee',
  'topup',
  'topup_reversal',
  'transfer',
  'transfer_cancel',
  'transfer_failure',
  'transfer_refund',
] as const;

/** A balance transaction as a reply shows it: its status read off the clock, whatever the stored row says. */
export function currentTransaction(
  ctx: Ctx,
  txn: Stored<'balance_transactions'>,
): Stored<'balance_transactions'> {
  const status = txn.available_on <= nowSeconds(ctx) ? 'available' : 'pending';
  return txn.status === status ? txn : { ...txn, status };
}

/**
 * Mark the transactions whose funds the clock has made available, and say so with `balance.available` (Stripe sends
 * it when pending funds become available). Idempotent: a second call in the same second finds nothing to do.
 */
export function settleBalance(c: OpContext): void {
  const due = rows(
    c.ctx,
    'balance_transactions',
    "status = 'pending' AND available_on <= ?",
    [nowSeconds(c.ctx)],
    true,
  );
  if (due.length === 0) return;
  for (const txn of due) put(c.ctx, 'balance_transactions', { ...txn, status: 'available' });
  emit(c, 'balance.available', balanceOf(c.ctx));
}

/** Funds of one currency, by the source types they came from. */
interface Funds {
  amount: number;
  currency: string;
  source_types: { card: number };
}

/** The `balance` object (the SDK declares no type for it in the world's tables). */
interface Balance {
  object: 'balance';
  available: Funds[];
  connect_reserved: { amount: number; currency: string }[];
  livemode: false;
  pending: Funds[];
}

interface Sums {
  currency: string;
  available: number;
  pending: number;
}

/** Available and pending funds per currency (minor units of `net`). */
export function balanceSums(ctx: Ctx): Sums[] {
  const now = nowSeconds(ctx);
  return ctx.db.all<Sums>(
    `SELECT json_extract(data, '$.currency') AS currency,
            TOTAL(CASE WHEN available_on <= ? THEN json_extract(data, '$.net') ELSE 0 END) AS available,
            TOTAL(CASE WHEN available_on > ? THEN json_extract(data, '$.net') ELSE 0 END) AS pending
       FROM balance_transactions GROUP BY json_extract(data, '$.currency') ORDER BY currency`,
    now,
    now,
  );
}

/** The funds available now in `currency` (minor units). */
export function availableIn(ctx: Ctx, currency: string): number {
  return balanceSums(ctx).find((s) => s.currency === currency)?.available ?? 0;
}

/** The `balance` object: the account's default currency first (always shown, even at zero), then the others. */
export function balanceOf(ctx: Ctx): Balance {
  const home = String(accountOf(ctx).default_currency ?? 'usd');
  const sums = balanceSums(ctx);
  if (!sums.some((s) => s.currency === home))
    sums.unshift({ currency: home, available: 0, pending: 0 });
  sums.sort((a, b) =>
    a.currency === home
      ? -1
      : b.currency === home
        ? 1
        : a.currency < b.currency
          ? -1
          : a.currency > b.currency
            ? 1
            : 0,
  );
  // Every payment this world takes is a card payment, so all funds are of source type `card`.
  const entry = (amount: number, currency: string): Funds => ({
    amount: Math.round(amount),
    currency,
    source_types: { card: Math.round(amount) },
  });
  return {
    object: 'balance',
    available: sums.map((s) => entry(s.available, s.currency)),
    connect_reserved: sums.map((s) => ({ amount: 0, currency: s.currency })),
    livemode: false,
    pending: sums.map((s) => entry(s.pending, s.currency)),
  };
}

const listTransactionsParams = {
  ...listParams,
  currency: p.string(3),
  payout: p.string(),
  source: p.string(),
  type: p.string(),
};

export const balanceOps = [
  op({
    id: 'GetBalance',
    method: 'GET',
    path: '/v1/balance',
    params: {},
    run(c) {
      settleBalance(c);
      return balanceOf(c.ctx);
    },
  }),
  op({
    id: 'GetBalanceTransactionsId',
    method: 'GET',
    path: '/v1/balance_transactions/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      settleBalance(c);
      const txn = get(c.ctx, 'balance_transactions', path.id);
      if (txn === undefined) throw resourceMissing('balance transaction', path.id, 'id');
      return currentTransaction(c.ctx, txn);
    },
  }),
  op({
    id: 'GetBalanceTransactions',
    method: 'GET',
    path: '/v1/balance_transactions',
    params: listTransactionsParams,
    run(c, params: OpParams<typeof listTransactionsParams>) {
      settleBalance(c);
      const ctx = c.ctx;
      const where: [string, ...SqlParam[]][] = [];
      if (params.type) {
        if (!(BALANCE_TRANSACTION_TYPES as readonly string[]).includes(params.type)) {
          throw invalidRequest(
            `Invalid type: must be one of ${BALANCE_TRANSACTION_TYPES.join(', ')}`,
            'type',
            'parameter_invalid_string',
          );
        }
        where.push(['type = ?', params.type]);
      }
      if (params.source) where.push(['source = ?', params.source]);
      if (params.currency)
        where.push(["json_extract(data, '$.currency') = ?", String(params.currency).toLowerCase()]);
      if (params.payout) {
        const payout = get(ctx, 'payouts', params.payout);
        if (payout === undefined) throw resourceMissing('payout', params.payout, 'payout');
        // Stripe keeps the history of automatic payouts only; every payout here is made through the API.
        if (!payout.automatic)
          throw invalidRequest(
            'Balance transaction history can only be filtered on automatic transfers, not manual.',
            'payout',
          );
        where.push(['payout = ?', params.payout]);
      }
      const page = listPage(ctx, 'balance_transactions', params, {
        url: '/v1/balance_transactions',
        what: 'balance transaction',
        where,
      });
      return { ...page, data: page.data.map((t) => currentTransaction(ctx, t)) };
    },
  }),
];
