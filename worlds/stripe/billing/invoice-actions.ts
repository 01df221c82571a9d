/**
 * What moves an invoice along its states over the API: finalize, pay, send, void, mark uncollectible, the preview of
 * the next invoice (invoice-preview.ts), attaching a payment, and the invoice payments. The states themselves, and
 * which moves they allow, are invoice-states.ts.
 */
import type { SqlParam } from 'seahaven';
import { emit } from '../lib/events.ts';
import { invalidRequest, isFailed, resourceMissing } from '../lib/errors.ts';
import {
  attemptQuietly,
  finalizeInvoice,
  markUncollectible,
  mustInvoice,
  payInvoice,
  voidInvoice,
} from './invoicing.ts';
import { moveInvoice } from './invoice-states.ts';
import { listPage } from '../lib/list.ts';
import { subscriptionInvoicePaid } from './subscription-cycle.ts';
import { op } from '../lib/op.ts';
import { listParams, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { preview } from './invoice-preview.ts';
import { previewParams, type PreviewParams } from './invoice-preview-params.ts';
import { announceUpdate } from './invoices.ts';
import { copyJson } from '../lib/clone.ts';

const finalizeParams = { auto_advance: p.bool() };
const payParams = {
  forgive: p.bool(),
  mandate: p.string(),
  off_session: p.bool(),
  paid_out_of_band: p.bool(),
  payment_method: p.string(),
  source: p.string(),
};
const attachPaymentParams = { payment_intent: p.string(), payment_record: p.string() };
const listPaymentsParams = {
  ...listParams,
  invoice: p.string(),
  payment: p.obj({
    payment_intent: p.string(),
    payment_record: p.string(),
    type: p.enum('payment_intent', 'payment_record').req(),
  }),
  status: p.enum('canceled', 'open', 'paid'),
};

export const invoiceActionsOps = [
  op({
    id: 'PostInvoicesInvoiceFinalize',
    method: 'POST',
    path: '/v1/invoices/{invoice}/finalize',
    params: finalizeParams,
    run(c, params: OpParams<typeof finalizeParams>, path) {
      const ctx = c.ctx;
      const draft = mustInvoice(ctx, path.invoice);
      if (
        draft.status === 'draft' &&
        params.auto_advance !== undefined &&
        params.auto_advance !== null &&
        params.auto_advance !== draft.auto_advance
      ) {
        put(ctx, 'invoices', { ...draft, auto_advance: params.auto_advance });
      }
      const open = finalizeInvoice(c, path.invoice);
      // Auto-advance collects at once (invoicing.ts); a decline is recorded on the invoice, not answered.
      if (
        open.status === 'open' &&
        open.auto_advance &&
        open.collection_method === 'charge_automatically'
      )
        return attemptQuietly(c, open);
      return open;
    },
  }),
  op({
    id: 'PostInvoicesInvoicePay',
    method: 'POST',
    path: '/v1/invoices/{invoice}/pay',
    params: payParams,
    run(c, params: OpParams<typeof payParams>, path) {
      mustInvoice(c.ctx, path.invoice);
      const out = payInvoice(c, path.invoice, {
        off_session: params.off_session,
        payment_method: params.payment_method ?? params.source,
        paid_out_of_band: params.paid_out_of_band,
      });
      // Paying a subscription's latest invoice by hand brings an incomplete or past-due subscription back to active.
      if (!isFailed(out) && out.status === 'paid') subscriptionInvoicePaid(c, out);
      return out;
    },
  }),
  op({
    id: 'PostInvoicesInvoiceSend',
    method: 'POST',
    path: '/v1/invoices/{invoice}/send',
    params: {},
    run(c, _params: OpParams, path) {
      let invoice = mustInvoice(c.ctx, path.invoice);
      if (invoice.status === 'void')
        throw invalidRequest(
          'You cannot send a voided invoice.',
          undefined,
          'invoice_not_editable',
        );
      // Sending a draft finalizes it first; test mode sends no email, only the event.
      if (invoice.status === 'draft') invoice = finalizeInvoice(c, invoice);
      emit(c, 'invoice.sent', invoice);
      return invoice;
    },
  }),
  op({
    id: 'PostInvoicesInvoiceVoid',
    method: 'POST',
    path: '/v1/invoices/{invoice}/void',
    params: {},
    run: (c, _params: OpParams, path) => voidInvoice(c, mustInvoice(c.ctx, path.invoice)),
  }),
  op({
    id: 'PostInvoicesInvoiceMarkUncollectible',
    method: 'POST',
    path: '/v1/invoices/{invoice}/mark_uncollectible',
    params: {},
    run: (c, _params: OpParams, path) => markUncollectible(c, mustInvoice(c.ctx, path.invoice)),
  }),
  op({
    id: 'PostInvoicesCreatePreview',
    method: 'POST',
    path: '/v1/invoices/create_preview',
    params: previewParams,
    run: (c, params: PreviewParams) => preview(c, params),
  }),
  op({
    id: 'PostInvoicesInvoiceAttachPayment',
    method: 'POST',
    path: '/v1/invoices/{invoice}/attach_payment',
    params: attachPaymentParams,
    run(c, params: OpParams<typeof attachPaymentParams>, path) {
      const ctx = c.ctx;
      const before = mustInvoice(ctx, path.invoice);
      if (params.payment_record)
        throw resourceMissing('payment_record', params.payment_record, 'payment_record');
      if (!params.payment_intent)
        throw invalidRequest(
          'Missing required param: payment_intent.',
          'payment_intent',
          'parameter_missing',
        );
      const pi = get(ctx, 'payment_intents', params.payment_intent);
      if (!pi) throw resourceMissing('payment_intent', params.payment_intent, 'payment_intent');
      if (before.status !== 'open' && before.status !== 'draft') {
        throw invalidRequest(
          `You can only attach a payment to a draft or open invoice; invoice ${before.id} is ${before.status}.`,
          'payment_intent',
          'invoice_not_editable',
        );
      }
      const holder = rows(ctx, 'invoice_payments', 'payment_intent = ?', [pi.id])[0];
      if (holder)
        throw invalidRequest(
          `The PaymentIntent ${pi.id} is already attached to invoice ${holder.invoice}.`,
          'payment_intent',
        );
      if (pi.customer && pi.customer !== before.customer)
        throw invalidRequest(
          `The PaymentIntent ${pi.id} belongs to customer ${pi.customer}, not ${before.customer}.`,
          'payment_intent',
        );
      if (pi.currency !== before.currency)
        throw invalidRequest(
          `The PaymentIntent's currency (${pi.currency}) must match the invoice's (${before.currency}).`,
          'payment_intent',
        );
      const now = nowSeconds(ctx);
      const succeeded = pi.status === 'succeeded';
      const record: Stored<'invoice_payments'> = {
        id: newId(ctx, 'inpay_'),
        object: 'invoice_payment',
        amount_paid: succeeded ? pi.amount_received : null,
        amount_requested: pi.amount,
        created: now,
        currency: pi.currency,
        invoice: before.id,
        is_default: rows(ctx, 'invoice_payments', 'invoice = ?', [before.id]).length === 0,
        livemode: false,
        payment: { payment_intent: pi.id, type: 'payment_intent' },
        status: succeeded ? 'paid' : 'open',
        status_transitions: { canceled_at: null, paid_at: succeeded ? now : null },
      };
      put(ctx, 'invoice_payments', record);
      if (succeeded) emit(c, 'invoice_payment.paid', record);
      const after = copyJson(before);
      const payments = rows(ctx, 'invoice_payments', 'invoice = ?', [before.id]);
      // Stripe counts an invoice's payments on the list it embeds, beyond the SDK's list type.
      const list = {
        object: 'list' as const,
        data: payments,
        has_more: false,
        total_count: payments.length,
        url: '/v1/invoice_payments',
      };
      after.payments = list;
      if (succeeded && after.status === 'open') {
        after.amount_paid += pi.amount_received;
        after.amount_overpaid = Math.max(0, after.amount_paid - after.amount_due);
        after.amount_remaining = Math.max(0, after.amount_due - after.amount_paid);
        if (after.amount_remaining === 0) {
          moveInvoice(after, 'paid');
          after.next_payment_attempt = null;
          after.auto_advance = false;
          after.status_transitions = { ...after.status_transitions, paid_at: now };
          put(ctx, 'invoices', after);
          emit(c, 'invoice.paid', after);
          emit(c, 'invoice.payment_succeeded', after);
          return after;
        }
      }
      put(ctx, 'invoices', after);
      announceUpdate(c, before, after);
      return after;
    },
  }),
  op({
    id: 'GetInvoicePayments',
    method: 'GET',
    path: '/v1/invoice_payments',
    params: listPaymentsParams,
    run(c, params: OpParams<typeof listPaymentsParams>) {
      const where: [string, ...SqlParam[]][] = [];
      if (params.invoice) where.push(['invoice = ?', params.invoice]);
      if (params.status) where.push(['status = ?', params.status]);
      if (params.payment?.type === 'payment_record') where.push(['0 = 1']);
      else if (params.payment?.payment_intent)
        where.push(['payment_intent = ?', params.payment.payment_intent]);
      return listPage(c.ctx, 'invoice_payments', params, {
        url: '/v1/invoice_payments',
        what: 'invoice payment',
        where,
      });
    },
  }),
  op({
    id: 'GetInvoicePaymentsInvoicePayment',
    method: 'GET',
    path: '/v1/invoice_payments/{invoice_payment}',
    params: {},
    run(c, _params: OpParams, path) {
      const record = get(c.ctx, 'invoice_payments', path.invoice_payment);
      if (!record)
        throw resourceMissing('invoice payment', path.invoice_payment, 'invoice_payment');
      return record;
    },
  }),
];
