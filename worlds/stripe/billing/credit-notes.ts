/**
 * Credit notes: money given back on a finalized invoice, by `amount` or by `lines[]` (part or all of an invoice line,
 * by quantity or amount, or a custom line). What a note does depends on the invoice:
 *
 *   open (`pre_payment`): the invoice's `amount_due` and `amount_remaining` drop by the note's total (a note that
 *     leaves nothing to pay marks the invoice paid);
 *   paid (`post_payment`): the total is split between `refund_amount` (a refund of the invoice's charge),
 *     `credit_amount` (credit on the customer's balance, a `credit_note` balance transaction) and
 *     `out_of_band_amount` (settled elsewhere); what the split leaves unnamed is credited to the balance.
 *
 * Numbers are `<invoice number>-CN-01`, counting per invoice. Voiding undoes a note: the open invoice owes the
 * amount again, the balance credit is taken back; a refund cannot be taken back, so a note that refunded stays.
 * `GET /v1/credit_notes/preview` (and `/preview/lines`) answers what a create would make, writing nothing.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { mustInvoice } from './invoicing.ts';
import { moveInvoice } from './invoice-states.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { nestedPage } from '../resources/payment-links.ts';
import { refundCharge } from '../resources/refunds.ts';
import {
  linesUrl,
  mustCreditNote,
  chargeOfInvoice,
  buildNote,
  moveBalance,
  saveInvoice,
  noteParams,
  type NoteParams,
} from './credit-note-model.ts';
import { copyJson } from '../lib/clone.ts';

const previewLinesParams = {
  ...noteParams,
  limit: listParams.limit,
  starting_after: listParams.starting_after,
  ending_before: listParams.ending_before,
};
const updateParams = { memo: p.string(), metadata: p.metadata() };
const listNotesParams = {
  ...listParams,
  customer: p.string(),
  invoice: p.string(),
  customer_account: p.string(),
};

function previewIds() {
  return { note: 'cn_preview', line: (i: number) => `cnli_preview_${i + 1}` };
}

export const creditNotesOps = [
  op({
    id: 'PostCreditNotes',
    method: 'POST',
    path: '/v1/credit_notes',
    params: noteParams,
    run(c, params: OpParams<typeof noteParams>) {
      const ctx = c.ctx;
      const noteId = newId(ctx, 'cn_');
      const {
        note,
        refund: toRefund,
        credit: toCredit,
      } = buildNote(c, params, { note: noteId, line: () => newId(ctx, 'cnli_') });
      const before = mustInvoice(ctx, note.invoice);
      const invoice = copyJson(before);
      if (note.type === 'pre_payment') {
        invoice.pre_payment_credit_notes_amount =
          (invoice.pre_payment_credit_notes_amount ?? 0) + note.total;
        invoice.amount_due -= note.total;
        invoice.amount_remaining -= note.total;
        if (invoice.amount_remaining <= 0) {
          // Credited in full: nothing is left to collect.
          moveInvoice(invoice, 'paid');
          invoice.amount_remaining = 0;
          invoice.next_payment_attempt = null;
          invoice.auto_advance = false;
          invoice.status_transitions = { ...invoice.status_transitions, paid_at: nowSeconds(ctx) };
        }
      } else {
        invoice.post_payment_credit_notes_amount =
          (invoice.post_payment_credit_notes_amount ?? 0) + note.total;
        if (toRefund > 0) {
          // buildNote has checked that a charge paid the invoice.
          const charge = chargeOfInvoice(ctx, invoice) as Stored<'charges'>;
          const refund = refundCharge(c, charge, { amount: toRefund, metadata: null });
          note.refunds = [
            {
              amount_refunded: toRefund,
              payment_record_refund: null,
              refund: refund.id,
              type: 'refund',
            },
          ];
        }
        if (toCredit > 0) note.customer_balance_transaction = moveBalance(c, note, -toCredit).id;
      }
      put(ctx, 'credit_notes', note);
      emit(c, 'credit_note.created', note);
      saveInvoice(c, before, invoice);
      return note;
    },
  }),
  op({
    id: 'GetCreditNotesPreview',
    method: 'GET',
    path: '/v1/credit_notes/preview',
    params: noteParams,
    run: (c, params: NoteParams) => buildNote(c, params, previewIds()).note,
  }),
  op({
    id: 'GetCreditNotesPreviewLines',
    method: 'GET',
    path: '/v1/credit_notes/preview/lines',
    params: previewLinesParams,
    run(c, params: OpParams<typeof previewLinesParams>) {
      const { note } = buildNote(c, params, previewIds());
      return nestedPage(
        note.lines.data,
        params,
        '/v1/credit_notes/preview/lines',
        'credit note line item',
      );
    },
  }),
  op({
    id: 'GetCreditNotesId',
    method: 'GET',
    path: '/v1/credit_notes/{id}',
    params: {},
    run: (c, _params: OpParams, path) => mustCreditNote(c.ctx, path.id),
  }),
  op({
    id: 'PostCreditNotesId',
    method: 'POST',
    path: '/v1/credit_notes/{id}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = mustCreditNote(c.ctx, path.id);
      const after = copyJson(before);
      if (params.memo !== undefined) after.memo = params.memo;
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      put(c.ctx, 'credit_notes', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'credit_note.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetCreditNotes',
    method: 'GET',
    path: '/v1/credit_notes',
    params: listNotesParams,
    run(c, params: OpParams<typeof listNotesParams>) {
      const where: [string, ...string[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      if (params.invoice) where.push(['invoice = ?', params.invoice]);
      return listPage(c.ctx, 'credit_notes', params, {
        url: '/v1/credit_notes',
        what: 'credit note',
        where,
      });
    },
  }),
  op({
    id: 'GetCreditNotesCreditNoteLines',
    method: 'GET',
    path: '/v1/credit_notes/{credit_note}/lines',
    params: listParams,
    run(c, params: OpParams<typeof listParams>, path) {
      const note = mustCreditNote(c.ctx, path.credit_note, 'credit_note');
      return nestedPage(note.lines.data, params, linesUrl(note.id), 'credit note line item');
    },
  }),
  op({
    id: 'PostCreditNotesIdVoid',
    method: 'POST',
    path: '/v1/credit_notes/{id}/void',
    params: {},
    run(c, _params: OpParams, path) {
      const ctx = c.ctx;
      const before = mustCreditNote(ctx, path.id);
      if (before.status === 'void')
        throw invalidRequest(
          `Credit note ${before.id} has already been voided.`,
          'id',
          'credit_note_already_voided',
        );
      if (before.refunds.length > 0)
        throw invalidRequest(
          `Credit note ${before.id} issued a refund, which cannot be taken back; it cannot be voided.`,
          'id',
        );
      const invoiceBefore = mustInvoice(ctx, before.invoice);
      const invoice = copyJson(invoiceBefore);
      if (before.type === 'pre_payment') {
        if (invoice.status !== 'open')
          throw invalidRequest(
            `Credit note ${before.id} lowered what invoice ${invoice.id} asked for, and the invoice is now ${invoice.status}; it can be voided only while the invoice is open.`,
            'id',
          );
        invoice.pre_payment_credit_notes_amount -= before.total;
        invoice.amount_due += before.total;
        invoice.amount_remaining += before.total;
      } else {
        invoice.post_payment_credit_notes_amount -= before.total;
        const credited = before.customer_balance_transaction
          ? get(ctx, 'customer_balance_transactions', before.customer_balance_transaction)
          : undefined;
        if (credited) moveBalance(c, before, -credited.amount);
      }
      const after = { ...before, status: 'void' as const, voided_at: nowSeconds(ctx) };
      put(ctx, 'credit_notes', after);
      emit(c, 'credit_note.voided', after);
      saveInvoice(c, invoiceBefore, invoice);
      return after;
    },
  }),
];
