/**
 * Finalizing an invoice (`draft` → `open`, or `paid` when nothing is due), and closing one without payment: void and
 * uncollectible, each restoring what finalization applied of the customer balance.
 */
import { applyTaxes } from './invoice-taxes.ts';
import { type Ctx } from 'seahaven';
import { ACCOUNT_ID } from '../resources/account.ts';
import { getCustomer } from '../lib/customer-lookup.ts';
import { emit, emitStored, changedAttributes, putAndEmit } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import { type OpContext } from '../lib/op.ts';
import type { ApiList } from '../lib/objects.ts';
import { get, newId, nowSeconds, put, putJson, rows, type Stored } from '../lib/store.ts';
import {
  type DraftInput,
  type InvoiceRef,
  idOf,
  mustInvoice,
  linesOf,
  customerDetails,
  buildDraft,
} from './drafting.ts';
import { canMove, moveInvoice } from './invoice-states.ts';
import { applyLines } from './invoice-totals.ts';
import { copyJson } from '../lib/clone.ts';

/** The next invoice number of a customer (as stored), advancing its sequence; and the customer as it is stored now. */
function takeNumber(
  ctx: Ctx,
  customer: Stored<'customers'>,
): { number: string; customer: Stored<'customers'> } {
  const seq = (customer.next_invoice_sequence as number | undefined) ?? 1;
  const prefix = customer.invoice_prefix ?? 'INV';
  const number = `${prefix}-${String(seq).padStart(4, '0')}`;
  if (customer.deleted) return { number, customer };
  return {
    number,
    customer: put(ctx, 'customers', { ...customer, next_invoice_sequence: seq + 1 }),
  };
}

/**
 * Apply the customer's balance to a total: a credit (negative balance) pays part or all of it, a debt is added, and a
 * negative total becomes credit. Writes the customer and an `applied_to_invoice` balance transaction when it moves.
 * `customer`: the invoice's customer as stored.
 */
function applyCustomerBalance(
  c: OpContext,
  invoice: Stored<'invoices'>,
  customer: Stored<'customers'>,
): void {
  const ctx = c.ctx;
  const start = customer.deleted ? 0 : ((customer.balance as number | undefined) ?? 0);
  const total = invoice.total as number;
  let due: number;
  let end: number;
  if (total < 0) {
    due = 0;
    end = start + total;
  } else if (start < 0) {
    const applied = Math.min(-start, total);
    due = total - applied;
    end = start + applied;
  } else {
    due = total + start;
    end = 0;
  }
  invoice.starting_balance = start;
  invoice.ending_balance = end;
  invoice.amount_due = due;
  invoice.amount_remaining = due - invoice.amount_paid;
  if (end === start || customer.deleted) return;
  const txn: Stored<'customer_balance_transactions'> = {
    id: newId(ctx, 'cbtxn_'),
    object: 'customer_balance_transaction',
    amount: end - start,
    checkout_session: null,
    created: nowSeconds(ctx),
    credit_note: null,
    currency: invoice.currency,
    customer: customer.id,
    customer_account: null,
    description: null,
    ending_balance: end,
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    type: 'applied_to_invoice',
  };
  putJson(ctx, 'customer_balance_transactions', txn);
  const after = { ...customer, balance: end, currency: customer.currency ?? invoice.currency };
  const afterJson = putJson(ctx, 'customers', after);
  emitStored(c, 'customer.updated', after, afterJson, changedAttributes(customer, after));
}

/** Finalize a draft (`invoice.finalized`); a zero amount due is paid at once. See the module comment. */
export function finalizeInvoice(c: OpContext, invoiceRef: InvoiceRef): Stored<'invoices'> {
  const ctx = c.ctx;
  const id = idOf(invoiceRef);
  const stored = mustInvoice(ctx, id);
  if (!canMove(stored.status, 'open')) {
    throw invalidRequest(
      "This invoice is already finalized, you can't re-finalize a non-draft invoice.",
      undefined,
      'invoice_not_editable',
    );
  }
  // Its lines and totals as its stored lines make them (`refreshInvoice`, stored with the rest by `finalizeDraft`).
  return finalizeDraft(c, applyLines(stored, applyTaxes(ctx, stored, linesOf(ctx, id))));
}

/** Finalize `invoice`, a draft with its lines and totals that the caller holds as its own; stores it. */
function finalizeDraft(c: OpContext, invoice: Stored<'invoices'>): Stored<'invoices'> {
  const ctx = c.ctx;
  const now = nowSeconds(ctx);
  let customer = getCustomer(ctx, invoice.customer);
  if (!customer.deleted) Object.assign(invoice, customerDetails(customer));
  if (invoice.number === null || invoice.number === undefined) {
    const taken = takeNumber(ctx, customer);
    invoice.number = taken.number;
    customer = taken.customer;
  }
  applyCustomerBalance(c, invoice, customer);
  const token = ctx.ids.token('', 40);
  moveInvoice(invoice, 'open');
  invoice.hosted_invoice_url = `https://invoice.stripe.com/i/${ACCOUNT_ID}/test_${token}?s=ap`;
  invoice.invoice_pdf = `https://pay.stripe.com/invoice/${ACCOUNT_ID}/test_${token}/pdf?s=ap`;
  invoice.status_transitions = { ...invoice.status_transitions, finalized_at: now };
  invoice.effective_at ??= now;
  invoice.automatically_finalizes_at = null;
  invoice.webhooks_delivered_at = now;
  putAndEmit(c, 'invoices', invoice, 'invoice.finalized');
  if (invoice.amount_due === 0) return markPaid(c, invoice, null);
  return invoice;
}

/**
 * Record an invoice as paid: `paid`, `amount_paid`, `paid_at`; `invoice.paid` and `invoice.payment_succeeded`.
 * `payments`: the invoice's payment records as they are now, newest first, when the caller has them.
 */
export function markPaid(
  c: OpContext,
  invoice: Stored<'invoices'>,
  amount: number | null,
  payments?: Stored<'invoice_payments'>[],
): Stored<'invoices'> {
  const now = nowSeconds(c.ctx);
  moveInvoice(invoice, 'paid');
  invoice.amount_paid += amount ?? invoice.amount_remaining;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions = { ...invoice.status_transitions, paid_at: now };
  invoice.payments = payments ? paymentsListOf(payments) : paymentsList(c.ctx, invoice.id);
  const json = putJson(c.ctx, 'invoices', invoice);
  emitStored(c, 'invoice.paid', invoice, json);
  if (amount !== null) emitStored(c, 'invoice.payment_succeeded', invoice, json);
  return invoice;
}

/** An invoice's payments as embedded in it: a list that says how many it holds. */
type PaymentsList = ApiList<Stored<'invoice_payments'>> & { total_count: number };

/** The invoice's payments, as embedded in it. */
export function paymentsList(ctx: Ctx, invoiceId: string): PaymentsList {
  return paymentsListOf(rows(ctx, 'invoice_payments', 'invoice = ?', [invoiceId]));
}

/** An invoice's payment records (newest first) as the list embedded in it. */
function paymentsListOf(data: Stored<'invoice_payments'>[]): PaymentsList {
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: '/v1/invoice_payments',
  };
}

/** Void an open or uncollectible invoice (`invoice.voided`); credit taken from the customer balance goes back. */
export function voidInvoice(c: OpContext, invoiceRef: InvoiceRef): Stored<'invoices'> {
  const ctx = c.ctx;
  const before = mustInvoice(ctx, idOf(invoiceRef));
  if (!canMove(before.status, 'void')) {
    const why =
      before.status === 'draft'
        ? 'a draft invoice cannot be voided; delete it instead'
        : `it is ${before.status}`;
    throw invalidRequest(
      `You can only void an open or uncollectible invoice: ${why}.`,
      undefined,
      'invoice_not_editable',
    );
  }
  const invoice = copyJson(before);
  moveInvoice(invoice, 'void');
  invoice.auto_advance = false;
  invoice.next_payment_attempt = null;
  invoice.status_transitions = { ...invoice.status_transitions, voided_at: nowSeconds(ctx) };
  restoreBalance(c, invoice);
  for (const record of rows(ctx, 'invoice_payments', "invoice = ? AND status = 'open'", [
    invoice.id,
  ])) {
    put(ctx, 'invoice_payments', {
      ...record,
      status: 'canceled',
      status_transitions: { ...record.status_transitions, canceled_at: nowSeconds(ctx) },
    });
    const pi = record.payment.payment_intent
      ? get(ctx, 'payment_intents', record.payment.payment_intent)
      : undefined;
    if (
      pi &&
      ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)
    ) {
      const canceled = {
        ...pi,
        status: 'canceled' as const,
        canceled_at: nowSeconds(ctx),
        cancellation_reason: 'void_invoice' as const,
        next_action: null,
      };
      put(ctx, 'payment_intents', canceled);
      emit(c, 'payment_intent.canceled', canceled);
    }
  }
  invoice.payments = paymentsList(ctx, invoice.id);
  put(ctx, 'invoices', invoice);
  emit(c, 'invoice.voided', invoice);
  return invoice;
}

/** Give back the customer balance a voided invoice applied at finalization. */
function restoreBalance(c: OpContext, invoice: Stored<'invoices'>): void {
  const moved = (invoice.ending_balance ?? invoice.starting_balance) - invoice.starting_balance;
  if (!moved) return;
  const customer = getCustomer(c.ctx, invoice.customer);
  if (customer.deleted) return;
  const end = (customer.balance as number) - moved;
  const txn: Stored<'customer_balance_transactions'> = {
    id: newId(c.ctx, 'cbtxn_'),
    object: 'customer_balance_transaction',
    amount: -moved,
    checkout_session: null,
    created: nowSeconds(c.ctx),
    credit_note: null,
    currency: invoice.currency,
    customer: customer.id,
    customer_account: null,
    description: null,
    ending_balance: end,
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    type: 'unapplied_from_invoice',
  };
  put(c.ctx, 'customer_balance_transactions', txn);
  const after = { ...customer, balance: end };
  put(c.ctx, 'customers', after);
  emit(c, 'customer.updated', after, changedAttributes(customer, after));
}

/** Mark an open invoice uncollectible (`invoice.marked_uncollectible`); it can still be paid later. */
export function markUncollectible(c: OpContext, invoiceRef: InvoiceRef): Stored<'invoices'> {
  const ctx = c.ctx;
  const before = mustInvoice(ctx, idOf(invoiceRef));
  if (!canMove(before.status, 'uncollectible')) {
    throw invalidRequest(
      `You can only mark an open invoice as uncollectible; invoice ${before.id} is ${before.status}.`,
      undefined,
      'invoice_not_editable',
    );
  }
  const invoice = copyJson(before);
  moveInvoice(invoice, 'uncollectible');
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions = {
    ...invoice.status_transitions,
    marked_uncollectible_at: nowSeconds(ctx),
  };
  put(ctx, 'invoices', invoice);
  emit(c, 'invoice.marked_uncollectible', invoice);
  return invoice;
}

/**
 * `createDraftInvoice` then `finalizeInvoice`, for a caller that finalizes the draft it makes at once (billing at a
 * period boundary): the same events and the same finalized invoice, but the draft is only announced, not stored and
 * read back, since the finalized invoice replaces it within the same call.
 */
export function createFinalizedInvoice(c: OpContext, input: DraftInput): Stored<'invoices'> {
  const draft = buildDraft(c, input);
  emit(c, 'invoice.created', draft);
  return finalizeDraft(c, draft);
}
