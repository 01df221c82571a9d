/**
 * Collecting an invoice: a payment attempt by a payment intent, its invoice payment record, retries on the clock, and
 * the automatic finalization of due drafts.
 */
import { createPaymentIntent, confirmPaymentIntent } from '../resources/payment-intent-flow.ts';
import { defaultPaymentMethodOf } from '../resources/charges.ts';
import { getCustomer } from '../lib/customer-lookup.ts';
import { emit, emitStored, putAndEmit } from '../lib/events.ts';
import { failed, invalidRequest, isFailed, type Failed } from '../lib/errors.ts';
import { DAY } from '../lib/money.ts';
import { type OpContext } from '../lib/op.ts';
import {
  coalescedWrites,
  get,
  newId,
  nowSeconds,
  put,
  putJson,
  rows,
  type Stored,
} from '../lib/store.ts';
import { resolvePaymentMethod } from '../lib/test-cards.ts';
import { type InvoiceRef, idOf, mustInvoice } from './drafting.ts';
import { finalizeInvoice, markPaid, paymentsList } from './finalization.ts';
import { RETRY_DAYS, MAX_ATTEMPTS, canMove } from './invoice-states.ts';
import { copyJson } from '../lib/clone.ts';

/**
 * The invoice's default payment record (the one its collection uses), made when first needed. `payments`: the
 * invoice's records, newest first.
 */
function defaultPayment(
  c: OpContext,
  invoice: Stored<'invoices'>,
  paymentIntent: Stored<'payment_intents'>,
  payments: Stored<'invoice_payments'>[],
): Stored<'invoice_payments'> {
  const found = payments.find((p) => p.payment?.payment_intent === paymentIntent.id);
  if (found) return found;
  const record: Stored<'invoice_payments'> = {
    id: newId(c.ctx, 'inpay_'),
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: paymentIntent.amount,
    created: nowSeconds(c.ctx),
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: payments.length === 0,
    livemode: false,
    payment: { payment_intent: paymentIntent.id, type: 'payment_intent' },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  };
  return put(c.ctx, 'invoice_payments', record);
}

function paymentPaid(
  c: OpContext,
  record: Stored<'invoice_payments'>,
  amount: number,
): Stored<'invoice_payments'> {
  const paid = {
    ...record,
    amount_paid: amount,
    status: 'paid',
    status_transitions: { ...record.status_transitions, paid_at: nowSeconds(c.ctx) },
  };
  putAndEmit(c, 'invoice_payments', paid, 'invoice_payment.paid');
  return paid;
}

export interface PayOptions {
  off_session?: boolean | null;
  payment_method?: string | null;
  paid_out_of_band?: boolean | null;
  /**
   * When a declined invoice is next attempted, given its attempt count: a subscription's own retry schedule. Without
   * it, auto-advance's rule (`RETRY_DAYS` on, up to `MAX_ATTEMPTS`). The decline writes the invoice once, with it.
   */
  nextAttempt?: (attemptCount: number) => number | null;
}

/** Collect an invoice; see the module comment. */
export function payInvoice(
  c: OpContext,
  invoiceRef: InvoiceRef,
  options: PayOptions = {},
): Stored<'invoices'> | Failed {
  const ctx = c.ctx;
  let current = mustInvoice(ctx, idOf(invoiceRef));
  if (current.status === 'paid')
    throw invalidRequest('Invoice is already paid', undefined, 'invoice_already_paid');
  if (current.status === 'void')
    throw invalidRequest(
      'This invoice has been voided and can no longer be paid.',
      undefined,
      'invoice_not_payable',
    );
  if (current.status === 'draft') current = finalizeInvoice(c, current);
  if (current.status === 'paid') return current;
  if (!canMove(current.status, 'paid'))
    throw invalidRequest(`This invoice cannot be paid: it is ${current.status}.`);
  // This call's own copy: read above, or just finalized.
  const invoice = current;
  if (options.paid_out_of_band) {
    if (options.payment_method)
      throw invalidRequest(
        'You may only specify one of these parameters: paid_out_of_band, payment_method.',
        'paid_out_of_band',
      );
    return markPaid(c, invoice, null);
  }
  if (invoice.amount_remaining <= 0) return markPaid(c, invoice, null);
  const customer = getCustomer(ctx, invoice.customer);
  let pm: Stored<'payment_methods'> | undefined;
  if (options.payment_method)
    pm = resolvePaymentMethod(c, options.payment_method, 'payment_method');
  else if (invoice.default_payment_method)
    pm = get(ctx, 'payment_methods', invoice.default_payment_method);
  if (pm === undefined && !customer.deleted) pm = defaultPaymentMethodOf(ctx, customer);
  if (pm === undefined) {
    throw invalidRequest(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      undefined,
      'invoice_no_payment_method_types',
    );
  }
  // A retry reuses the intent of the earlier attempt, as Stripe does; a first attempt makes one. The invoice's payment
  // records are read once, newest first (as `rows` orders them), and kept in step with what this attempt writes.
  const payments = rows(ctx, 'invoice_payments', 'invoice = ?', [invoice.id]);
  const open = payments.find((p) => p.status === 'open');
  const earlier = open?.payment.payment_intent
    ? get(ctx, 'payment_intents', open.payment.payment_intent)
    : undefined;
  const pi: Stored<'payment_intents'> =
    earlier &&
    ['requires_payment_method', 'requires_confirmation'].includes(earlier.status) &&
    earlier.amount === invoice.amount_remaining
      ? earlier
      : createPaymentIntent(c, {
          amount: invoice.amount_remaining,
          currency: invoice.currency,
          customer: customer.deleted ? null : customer.id,
          description: 'Payment for Invoice',
          metadata: {},
        });
  const record = defaultPayment(c, invoice, pi, payments);
  const out = confirmPaymentIntent(c, pi, {
    payment_method: pm.id,
    ...(options.off_session ? { off_session: true } : {}),
  });
  const now = nowSeconds(ctx);
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (!isFailed(out) && out.status === 'succeeded') {
    const paidRecord = paymentPaid(c, record, out.amount_received);
    // The record was found among the invoice's, or is the newest (made just now).
    const at = payments.indexOf(record);
    const records =
      at < 0 ? [paidRecord, ...payments] : payments.map((p, i) => (i === at ? paidRecord : p));
    return markPaid(c, invoice, out.amount_received, records);
  }
  invoice.next_payment_attempt = options.nextAttempt
    ? options.nextAttempt(invoice.attempt_count)
    : invoice.auto_advance &&
        invoice.collection_method === 'charge_automatically' &&
        invoice.attempt_count < MAX_ATTEMPTS
      ? now + RETRY_DAYS * DAY
      : null;
  invoice.payments = paymentsList(ctx, invoice.id);
  const json = putJson(ctx, 'invoices', invoice);
  emitStored(c, 'invoice.payment_failed', invoice, json);
  if (isFailed(out)) return failed(out.status, out.error);
  // The card asks for authentication the customer is not here to give.
  emitStored(c, 'invoice.payment_action_required', invoice, json);
  return failed(402, {
    type: 'card_error',
    code: 'invoice_payment_intent_requires_action',
    message:
      'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice.',
    payment_intent: copyJson(out),
  });
}

/**
 * What time does to invoices, up to the world clock: auto-advancing drafts whose `automatically_finalizes_at` has
 * passed are finalized (and collected, if they charge automatically), and open invoices whose
 * `next_payment_attempt` has come are charged again. Declines are recorded, never thrown.
 */
export function collectDueInvoices(c: OpContext, testClock: string | null = null): void {
  const ctx = c.ctx;
  const now = nowSeconds(ctx);
  // The invoices of customers on the test clock, or (the world clock) of customers on none.
  const [onClock, args] =
    testClock === null
      ? ['customer NOT IN (SELECT id FROM customers WHERE test_clock IS NOT NULL)', []]
      : ['customer IN (SELECT id FROM customers WHERE test_clock = ?)', [testClock]];
  for (const draft of rows(ctx, 'invoices', `status = 'draft' AND ${onClock}`, args, true)) {
    if (
      !draft.auto_advance ||
      draft.automatically_finalizes_at === null ||
      draft.automatically_finalizes_at > now
    )
      continue;
    coalesced(c, (cc) => {
      const open = finalizeInvoice(cc, draft);
      if (open.status === 'open' && open.collection_method === 'charge_automatically')
        attemptQuietly(cc, open);
    });
  }
  for (const open of rows(ctx, 'invoices', `status = 'open' AND ${onClock}`, args, true)) {
    if (
      open.collection_method !== 'charge_automatically' ||
      !open.auto_advance ||
      open.next_payment_attempt === null ||
      open.next_payment_attempt > now
    )
      continue;
    coalesced(c, (cc) => attemptQuietly(cc, open));
  }
}

/** Run `fn` as a stretch of coalesced writes (lib/coalesce.ts): each invoice's collection writes its objects once. */
function coalesced(c: OpContext, fn: (c: OpContext) => void): void {
  const writes = coalescedWrites(c.ctx);
  fn({ ...c, ctx: writes.ctx });
  writes.end();
}

/**
 * A payment attempt whose failure is only recorded (a background collection has no caller to answer); `nextAttempt`
 * as `payInvoice` takes it.
 */
export function attemptQuietly(
  c: OpContext,
  invoice: Stored<'invoices'>,
  nextAttempt?: PayOptions['nextAttempt'],
): Stored<'invoices'> {
  try {
    const out = payInvoice(c, invoice, { off_session: true, nextAttempt });
    return isFailed(out) ? mustInvoice(c.ctx, invoice.id) : out;
  } catch (e) {
    // Nothing to charge (no payment method): Stripe counts the attempt and waits for the next one.
    const current = copyJson(mustInvoice(c.ctx, invoice.id));
    if (current.status !== 'open') throw e;
    current.attempt_count += 1;
    current.attempted = true;
    current.next_payment_attempt = nextAttempt
      ? nextAttempt(current.attempt_count)
      : current.attempt_count < MAX_ATTEMPTS
        ? nowSeconds(c.ctx) + RETRY_DAYS * DAY
        : null;
    put(c.ctx, 'invoices', current);
    emit(c, 'invoice.payment_failed', current);
    return current;
  }
}
