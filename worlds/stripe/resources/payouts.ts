/**
 * Payouts: money from the available balance to the account's bank account. A payout is written `pending` with a
 * negative `payout` balance transaction (the funds leave the balance at once, as Stripe debits them) and an
 * `arrival_date`: midnight UTC two days after the day it was made (standard), or its creation time (instant).
 *
 * Nothing runs between calls, so a payout becomes `paid` lazily: every payout, balance and event operation first
 * settles the payouts whose `arrival_date` the world clock has passed (`payout.paid`, in arrival order). An agent that
 * advances the clock and reads a payout sees it paid, and the event log says so, just as it would have in Stripe.
 *
 * Cancel (pending only) returns the funds with a `payout_cancel` transaction, recorded as the payout's
 * `failure_balance_transaction`. Reverse (paid only) creates the reversal: a new payout with `original_payout` set,
 * whose `payout` transaction credits the amount back at once, and marks the original `reversed_by`. Stripe has no
 * event type of its own for a reversal; it shows as `payout.created` for the reversal and `payout.updated` for the
 * original.
 */
import type { SqlParam } from 'seahaven';
import { invalidRequest, resourceMissing, StripeError } from '../lib/errors.ts';
import { changedAttributes, emit } from '../lib/events.ts';
import { listPage } from '../lib/list.ts';
import { addBalanceTransaction, DAY } from '../lib/money.ts';
import { op, type OpContext } from '../lib/op.ts';
import type { Metadata } from '../lib/objects.ts';
import { listParams, mergeMetadata, p, type OpParams, type Range } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';

type Payout = Stored<'payouts'>;
import { availableIn, settleBalance } from './balance.ts';

/** The account's one bank account: where every payout goes. */
export const BANK_ACCOUNT_ID = 'ba_1SeahavenBankAcct01';

const STATUSES: readonly string[] = ['paid', 'pending', 'in_transit', 'canceled', 'failed'];

/** Midnight UTC, `days` days after the day of `t` (unix seconds). */
function dayAfter(t: number, days: number): number {
  return Math.floor(t / DAY) * DAY + days * DAY;
}

/** Pay the pending payouts whose arrival date the clock has passed. */
export function settlePayouts(c: OpContext): void {
  const due = rows(
    c.ctx,
    'payouts',
    "status = 'pending' AND arrival_date <= ?",
    [nowSeconds(c.ctx)],
    true,
  );
  due.sort((a, b) => a.arrival_date - b.arrival_date);
  for (const payout of due) {
    const paid: Payout = {
      ...payout,
      status: 'paid',
      trace_id: { status: 'unsupported', value: null },
    };
    put(c.ctx, 'payouts', paid);
    emit(c, 'payout.paid', paid);
  }
}

/** Bring balance and payouts up to the world clock (see the module comment); every read of them starts here. */
export function settle(c: OpContext): void {
  settleBalance(c);
  settlePayouts(c);
}

function mustPayout(c: OpContext, id: string): Payout {
  const payout = get(c.ctx, 'payouts', id);
  if (payout === undefined) throw resourceMissing('payout', id, 'payout');
  return payout;
}

function newPayout(
  c: OpContext,
  fields: {
    amount: number;
    currency: string;
    arrival_date: number;
    description: string | null;
    method: string;
    source_type: string;
    statement_descriptor: string | null;
    metadata: Metadata;
    original_payout: string | null;
  },
): Payout {
  return {
    id: newId(c.ctx, 'po_'),
    object: 'payout',
    amount: fields.amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: fields.arrival_date,
    automatic: false,
    balance_transaction: null,
    created: nowSeconds(c.ctx),
    currency: fields.currency,
    description: fields.description,
    destination: BANK_ACCOUNT_ID,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: fields.metadata,
    method: fields.method,
    original_payout: fields.original_payout,
    payout_method: null,
    reconciliation_status: 'not_applicable',
    reversed_by: null,
    source_type: fields.source_type,
    statement_descriptor: fields.statement_descriptor,
    status: 'pending',
    trace_id: { status: 'pending', value: null },
    type: 'bank_account',
  };
}

/** A `{eq|gt|gte|lt|lte}` filter (validated by `p.range()`) as SQL over `column`. */
function rangeWhere(
  column: 'arrival_date',
  range: Range | null | undefined,
): [string, ...SqlParam[]][] {
  const ops: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
  const out: [string, ...SqlParam[]][] = [];
  for (const [k, v] of Object.entries(range ?? {})) {
    if (v === null || v === undefined) continue;
    out.push([`${column} ${ops[k]} ?`, v]);
  }
  return out;
}

const createParams = {
  amount: p.int(1).req(),
  currency: p.string(3).req(),
  description: p.string(),
  destination: p.string(),
  metadata: p.metadata(),
  method: p.enum('standard', 'instant'),
  payout_method: p.string(),
  source_type: p.enum('bank_account', 'card', 'fpx'),
  statement_descriptor: p.string(22),
};
const metadataParams = { metadata: p.metadata() };
const listPayoutsParams = {
  ...listParams,
  arrival_date: p.range(),
  destination: p.string(),
  status: p.string(),
};

export const payoutsOps = [
  op({
    id: 'PostPayouts',
    method: 'POST',
    path: '/v1/payouts',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      settle(c);
      const ctx = c.ctx;
      const currency = String(params.currency).toLowerCase();
      if (!/^[a-z]{3}$/.test(currency))
        throw invalidRequest(
          `Invalid currency: ${params.currency}. Stripe currencies are three-letter ISO codes, like usd.`,
          'currency',
          'parameter_invalid_string',
        );
      if (params.destination && params.destination !== BANK_ACCOUNT_ID)
        throw resourceMissing('external account', params.destination, 'destination');
      if (params.payout_method)
        throw resourceMissing('payout method', params.payout_method, 'payout_method');
      const sourceType = params.source_type ?? 'card';
      // Every payment this world takes is a card payment: only the card balance holds funds.
      const available = sourceType === 'card' ? availableIn(ctx, currency) : 0;
      if (params.amount > available) {
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'balance_insufficient',
          message: `You have insufficient funds in your Stripe account for this transfer. Your ${sourceType === 'card' ? 'card' : sourceType.replace('_', ' ')} balance is too low (${Math.round(available)} ${currency} available, ${params.amount} requested). You can use the /v1/balance endpoint to view your Stripe balance (for more details, see stripe.com/docs/api#balance).`,
        });
      }
      const method = params.method ?? 'standard';
      const created = nowSeconds(ctx);
      const payout = newPayout(c, {
        amount: params.amount,
        currency,
        arrival_date: method === 'instant' ? created : dayAfter(created, 2),
        description: params.description ?? null,
        method,
        source_type: sourceType,
        statement_descriptor: params.statement_descriptor ?? null,
        metadata: mergeMetadata({}, params.metadata),
        original_payout: null,
      });
      const txn = addBalanceTransaction(ctx, {
        amount: -params.amount,
        currency,
        type: 'payout',
        source: payout.id,
        description: payout.description ?? 'STRIPE PAYOUT',
        availableNow: true,
      });
      payout.balance_transaction = txn.id;
      put(ctx, 'payouts', payout);
      emit(c, 'payout.created', payout);
      return payout;
    },
  }),
  op({
    id: 'GetPayoutsPayout',
    method: 'GET',
    path: '/v1/payouts/{payout}',
    params: {},
    run(c, _params: OpParams, path) {
      settle(c);
      return mustPayout(c, path.payout);
    },
  }),
  op({
    id: 'PostPayoutsPayout',
    method: 'POST',
    path: '/v1/payouts/{payout}',
    params: metadataParams,
    run(c, params: OpParams<typeof metadataParams>, path) {
      settle(c);
      const before = mustPayout(c, path.payout);
      const after = { ...before, metadata: mergeMetadata(before.metadata ?? {}, params.metadata) };
      put(c.ctx, 'payouts', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'payout.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetPayouts',
    method: 'GET',
    path: '/v1/payouts',
    params: listPayoutsParams,
    run(c, params: OpParams<typeof listPayoutsParams>) {
      settle(c);
      const where: [string, ...SqlParam[]][] = rangeWhere('arrival_date', params.arrival_date);
      if (params.status) {
        if (!STATUSES.includes(params.status))
          throw invalidRequest(
            `Invalid status: must be one of ${STATUSES.join(', ')}`,
            'status',
            'parameter_invalid_string',
          );
        where.push(['status = ?', params.status]);
      }
      if (params.destination)
        where.push(["json_extract(data, '$.destination') = ?", params.destination]);
      return listPage(c.ctx, 'payouts', params, { url: '/v1/payouts', what: 'payout', where });
    },
  }),
  op({
    id: 'PostPayoutsPayoutCancel',
    method: 'POST',
    path: '/v1/payouts/{payout}/cancel',
    params: {},
    run(c, _params: OpParams, path) {
      settle(c);
      const before = mustPayout(c, path.payout);
      if (before.status !== 'pending') {
        throw invalidRequest(
          `Payout ${before.id} cannot be canceled: only pending payouts can be, and this one is ${before.status}.${before.status === 'paid' ? ' Reverse a paid payout with /v1/payouts/{payout}/reverse.' : ''}`,
        );
      }
      const txn = addBalanceTransaction(c.ctx, {
        amount: before.amount,
        currency: before.currency,
        type: 'payout_cancel',
        source: before.id,
        description: `Payout ${before.id} canceled`,
        availableNow: true,
      });
      const after: Payout = { ...before, status: 'canceled', failure_balance_transaction: txn.id };
      put(c.ctx, 'payouts', after);
      emit(c, 'payout.canceled', after);
      return after;
    },
  }),
  op({
    id: 'PostPayoutsPayoutReverse',
    method: 'POST',
    path: '/v1/payouts/{payout}/reverse',
    params: metadataParams,
    run(c, params: OpParams<typeof metadataParams>, path) {
      settle(c);
      const original = mustPayout(c, path.payout);
      if (original.status !== 'paid') {
        throw invalidRequest(
          `Payout ${original.id} cannot be reversed: only paid payouts can be, and this one is ${original.status}.${original.status === 'pending' ? ' Cancel a pending payout with /v1/payouts/{payout}/cancel.' : ''}`,
        );
      }
      if (original.reversed_by)
        throw invalidRequest(
          `Payout ${original.id} has already been reversed by ${original.reversed_by}.`,
        );
      if (original.original_payout)
        throw invalidRequest(
          `Payout ${original.id} is itself a reversal (of ${original.original_payout}) and cannot be reversed.`,
        );
      const created = nowSeconds(c.ctx);
      const reversal = newPayout(c, {
        amount: original.amount,
        currency: original.currency,
        arrival_date: dayAfter(created, 2),
        description: original.description,
        method: 'standard',
        source_type: original.source_type,
        statement_descriptor: original.statement_descriptor,
        metadata: mergeMetadata({}, params.metadata),
        original_payout: original.id,
      });
      const txn = addBalanceTransaction(c.ctx, {
        amount: original.amount,
        currency: original.currency,
        type: 'payout',
        source: reversal.id,
        description: `Reversal of payout ${original.id}`,
        availableNow: true,
        reportingCategory: 'payout_reversal',
      });
      reversal.balance_transaction = txn.id;
      put(c.ctx, 'payouts', reversal);
      emit(c, 'payout.created', reversal);
      const after = { ...original, reversed_by: reversal.id };
      put(c.ctx, 'payouts', after);
      emit(c, 'payout.updated', after, changedAttributes(original, after));
      return reversal;
    },
  }),
];
