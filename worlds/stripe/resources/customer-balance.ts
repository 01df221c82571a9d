/**
 * A customer's balance ledger: each `cbtxn_` moves `customer.balance` by its amount (negative is credit the customer
 * holds, positive is owed) and records the balance after it. Entries made here are `adjustment`s; the amount, once
 * written, never changes (only the description and metadata do), so the ledger always sums to the balance.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { getCustomer, liveCustomer } from './customers.ts';
import type { Ctx } from 'seahaven';
import { copyJson } from '../lib/clone.ts';

/** A customer's balance transaction, or 404 when it is missing or another customer's. */
function mustTransaction(
  ctx: Ctx,
  customer: string,
  id: string,
): Stored<'customer_balance_transactions'> {
  const txn = get(ctx, 'customer_balance_transactions', id);
  if (txn === undefined || txn.customer !== customer)
    throw resourceMissing('customer balance transaction', id, 'transaction');
  return txn;
}

const listTransactionsParams = { ...listParams, invoice: p.string() };
const createParams = {
  amount: p.int().req(),
  currency: p.string(3).req(),
  description: p.string(350),
  metadata: p.metadata(),
};
const updateParams = { description: p.string(350), metadata: p.metadata() };

export const customerBalanceOps = [
  op({
    id: 'GetCustomersCustomerBalanceTransactions',
    method: 'GET',
    path: '/v1/customers/{customer}/balance_transactions',
    params: listTransactionsParams,
    run(c, params: OpParams<typeof listTransactionsParams>, path) {
      const customer = getCustomer(c.ctx, path.customer);
      const where: [string, ...string[]][] = [['customer = ?', customer.id]];
      // Entries here are adjustments made through the API; none belongs to an invoice.
      if (params.invoice) where.push(['0 = 1']);
      return listPage(c.ctx, 'customer_balance_transactions', params, {
        url: `/v1/customers/${customer.id}/balance_transactions`,
        what: 'customer balance transaction',
        where,
      });
    },
  }),
  op({
    id: 'PostCustomersCustomerBalanceTransactions',
    method: 'POST',
    path: '/v1/customers/{customer}/balance_transactions',
    params: createParams,
    run(c, params: OpParams<typeof createParams>, path) {
      const ctx = c.ctx;
      const before = liveCustomer(ctx, path.customer);
      const currency = String(params.currency).toLowerCase();
      if (!/^[a-z]{3}$/.test(currency))
        throw invalidRequest(
          `Invalid currency: ${params.currency}`,
          'currency',
          'parameter_invalid_string',
        );
      if (before.currency && before.currency !== currency) {
        throw invalidRequest(
          `The currency of this transaction (${currency}) must match the customer's currency (${before.currency}).`,
          'currency',
        );
      }
      if (params.amount === 0)
        throw invalidRequest(
          'The amount of a balance transaction cannot be zero.',
          'amount',
          'parameter_invalid_integer',
        );
      const ending = (before.balance ?? 0) + params.amount;
      const txn: Stored<'customer_balance_transactions'> = {
        id: newId(ctx, 'cbtxn_'),
        object: 'customer_balance_transaction',
        amount: params.amount,
        checkout_session: null,
        created: nowSeconds(ctx),
        credit_note: null,
        currency,
        customer: before.id,
        customer_account: null,
        description: params.description ?? null,
        ending_balance: ending,
        invoice: null,
        livemode: false,
        metadata: mergeMetadata({}, params.metadata),
        type: 'adjustment',
      };
      put(ctx, 'customer_balance_transactions', txn);
      // The first entry fixes the customer's currency, as Stripe's does.
      const after = { ...before, balance: ending, currency: before.currency ?? currency };
      put(ctx, 'customers', after);
      // Stripe has no event for a balance transaction; the customer's balance changing is `customer.updated`.
      emit(c, 'customer.updated', after, changedAttributes(before, after));
      return txn;
    },
  }),
  op({
    id: 'GetCustomersCustomerBalanceTransactionsTransaction',
    method: 'GET',
    path: '/v1/customers/{customer}/balance_transactions/{transaction}',
    params: {},
    run(c, _params: OpParams, path) {
      const customer = getCustomer(c.ctx, path.customer);
      return mustTransaction(c.ctx, customer.id, path.transaction);
    },
  }),
  op({
    id: 'PostCustomersCustomerBalanceTransactionsTransaction',
    method: 'POST',
    path: '/v1/customers/{customer}/balance_transactions/{transaction}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      const before = mustTransaction(c.ctx, customer.id, path.transaction);
      const after = copyJson(before);
      if (params.description !== undefined) after.description = params.description;
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      // No event: Stripe has none for a balance transaction's description or metadata.
      put(c.ctx, 'customer_balance_transactions', after);
      return after;
    },
  }),
];
