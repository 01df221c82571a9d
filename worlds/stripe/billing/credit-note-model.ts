/**
 * A credit note as it is built: its lines from the request (invoice lines credited, or custom amounts), its totals and
 * how much of them is refunded, credited to the customer balance or taken off what the invoice still owes; and what
 * issuing one writes to the invoice and the customer's balance.
 */
import { type Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { mustInvoice, linesOf } from './invoicing.ts';
import { type OpContext } from '../lib/op.ts';
import type { CreditNoteLineItem } from '../lib/objects.ts';
import { mergeMetadata, p, type ParamsOf } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { ACCOUNT_ID } from '../resources/account.ts';
import { getCustomer } from '../resources/customers.ts';

export const linesUrl = (id: string) => `/v1/credit_notes/${id}/lines`;

const REASONS = ['duplicate', 'fraudulent', 'order_change', 'product_unsatisfactory'] as const;

const lineParam = p.obj({
  type: p.enum('invoice_line_item', 'custom_line_item').req(),
  invoice_line_item: p.string(),
  quantity: p.int(0),
  amount: p.int(0),
  description: p.string(),
  unit_amount: p.int(0),
  unit_amount_decimal: p.decimal(),
  tax_rates: p.arr(p.string()),
  tax_amounts: p.any(),
  metadata: p.metadata(),
});

/** What create and the previews take. */
export const noteParams = {
  invoice: p.string().req(),
  amount: p.int(0),
  credit_amount: p.int(0),
  refund_amount: p.int(0),
  out_of_band_amount: p.int(0),
  lines: p.arr(lineParam),
  memo: p.string(),
  metadata: p.metadata(),
  reason: p.enum(...REASONS),
  effective_at: p.int(),
  email_type: p.enum('credit_note', 'none'),
  shipping_cost: p.any(),
  refunds: p.arr(
    p.obj({
      refund: p.string(),
      amount_refunded: p.int(0),
      type: p.string(),
      payment_record_refund: p.any(),
    }),
  ),
};

export type NoteParams = ParamsOf<typeof noteParams>;

/**
 * A credit note line as the world writes it: a custom line says `invoice_line_item: null`, where the SDK's declaration
 * (objects.ts) leaves the field out.
 */
type NoteLine = Omit<CreditNoteLineItem, 'invoice_line_item'> & {
  invoice_line_item: string | null;
};

/** A credit note by id, or 404. */
export function mustCreditNote(ctx: Ctx, id: string, param = 'id'): Stored<'credit_notes'> {
  const note = get(ctx, 'credit_notes', id);
  if (!note) throw resourceMissing('credit note', id, param);
  return note;
}

/** The credit notes already issued on an invoice (void ones give back what they took). */
function issuedOn(ctx: Ctx, invoiceId: string): Stored<'credit_notes'>[] {
  return rows(ctx, 'credit_notes', 'invoice = ? AND status = ?', [invoiceId, 'issued'], true);
}

/** How much of an invoice line earlier notes have credited. */
function creditedOfLine(notes: Stored<'credit_notes'>[], lineId: string): number {
  let sum = 0;
  for (const n of notes)
    for (const l of n.lines.data) if (l.invoice_line_item === lineId) sum += l.amount;
  return sum;
}

/** The charge that paid an invoice: the payment intent of its paid invoice payment. */
export function chargeOfInvoice(
  ctx: Ctx,
  invoice: Stored<'invoices'>,
): Stored<'charges'> | undefined {
  const paid = rows(
    ctx,
    'invoice_payments',
    'invoice = ? AND status = ?',
    [invoice.id, 'paid'],
    true,
  );
  for (const record of paid) {
    const pi = record.payment?.payment_intent
      ? get(ctx, 'payment_intents', record.payment.payment_intent)
      : undefined;
    const charge =
      typeof pi?.latest_charge === 'string' ? get(ctx, 'charges', pi.latest_charge) : undefined;
    if (charge?.status === 'succeeded') return charge;
  }
  return undefined;
}

/**
 * A credit note as the parameters describe it, checked against the invoice, without writing anything. Ids are those
 * given (create takes new ones, the previews fixed placeholders), so a preview leaves the id streams alone.
 */
export function buildNote(
  c: OpContext,
  params: NoteParams,
  ids: { note: string; line: (i: number) => string },
): { note: Stored<'credit_notes'>; refund: number; credit: number } {
  const ctx = c.ctx;
  const invoice = mustInvoice(ctx, params.invoice, 'invoice');
  if (invoice.status !== 'open' && invoice.status !== 'paid') {
    throw invalidRequest(
      `You can only create a credit note on an open or paid invoice; invoice ${invoice.id} is ${invoice.status}.`,
      'invoice',
      'invoice_not_editable',
    );
  }
  const earlier = issuedOn(ctx, invoice.id);
  const invoiceLines = linesOf(ctx, invoice.id);
  const lines = (params.lines ?? []).map((given, i): NoteLine => {
    const here = `lines[${i}]`;
    const base = {
      id: ids.line(i),
      object: 'credit_note_line_item' as const,
      discount_amount: 0,
      discount_amounts: [],
      livemode: false,
      metadata: mergeMetadata({}, given.metadata),
      pretax_credit_amounts: [],
      tax_rates: [],
      taxes: [],
      type: given.type,
    };
    if (given.type === 'custom_line_item') {
      if (given.invoice_line_item)
        throw invalidRequest(
          'invoice_line_item can only be given with type invoice_line_item.',
          `${here}[invoice_line_item]`,
        );
      if (!given.description) throw parameterMissing(`${here}[description]`);
      const quantity = given.quantity ?? 1;
      const unit =
        given.unit_amount ??
        (given.unit_amount_decimal !== undefined && given.unit_amount_decimal !== null
          ? Number(given.unit_amount_decimal)
          : undefined);
      if (unit === undefined) throw parameterMissing(`${here}[unit_amount]`);
      const amount = Math.round(unit * quantity);
      return {
        ...base,
        amount,
        description: given.description,
        invoice_line_item: null,
        quantity,
        unit_amount: Math.round(unit),
        unit_amount_decimal: String(given.unit_amount_decimal ?? unit),
      };
    }
    if (!given.invoice_line_item) throw parameterMissing(`${here}[invoice_line_item]`);
    const line = invoiceLines.find((l) => l.id === given.invoice_line_item);
    if (!line)
      throw resourceMissing(
        'invoice line item',
        given.invoice_line_item,
        `${here}[invoice_line_item]`,
      );
    const lineQuantity: number = line.quantity ?? 1;
    const unit = lineQuantity ? line.amount / lineQuantity : line.amount;
    const givenQuantity = given.quantity;
    const givenAmount = given.amount;
    const hasQuantity = givenQuantity !== undefined && givenQuantity !== null;
    const hasAmount = givenAmount !== undefined && givenAmount !== null;
    if (hasQuantity && hasAmount)
      throw invalidRequest(
        'You may only specify one of these parameters: amount, quantity.',
        `${here}[amount]`,
      );
    if (hasQuantity && givenQuantity > lineQuantity)
      throw invalidRequest(
        `The quantity (${given.quantity}) is greater than the quantity of invoice line item ${line.id} (${lineQuantity}).`,
        `${here}[quantity]`,
      );
    const quantity = hasQuantity ? givenQuantity : hasAmount ? null : lineQuantity;
    const amount = hasAmount ? givenAmount : Math.round(unit * (quantity as number));
    const left = line.amount - creditedOfLine(earlier, line.id);
    if (amount > left)
      throw invalidRequest(
        `The credit note amount for invoice line item ${line.id} (${amount}) is greater than what is left to credit on it (${left}).`,
        `${here}[${hasAmount ? 'amount' : 'quantity'}]`,
      );
    return {
      ...base,
      amount,
      description: given.description ?? line.description ?? null,
      invoice_line_item: line.id,
      quantity,
      unit_amount: quantity ? Math.round(amount / quantity) : null,
      unit_amount_decimal: quantity ? String(amount / quantity) : null,
    };
  });
  const linesTotal = lines.reduce((sum, l) => sum + (l.amount as number), 0);
  let total: number;
  if (lines.length > 0) {
    if (params.amount !== undefined && params.amount !== null && params.amount !== linesTotal)
      throw invalidRequest(
        `The amount (${params.amount}) must equal the sum of the lines (${linesTotal}).`,
        'amount',
      );
    total = linesTotal;
  } else if (params.amount !== undefined && params.amount !== null) {
    total = params.amount;
  } else {
    const split =
      (params.refund_amount ?? 0) + (params.credit_amount ?? 0) + (params.out_of_band_amount ?? 0);
    if (split === 0)
      throw invalidRequest(
        'You must pass either `amount` or `lines` (or the refund, credit and out-of-band amounts) to create a credit note.',
        'amount',
        'parameter_missing',
      );
    total = split;
  }
  if (total <= 0)
    throw invalidRequest('The credit note total must be greater than zero.', 'amount');
  const preAlready = invoice.pre_payment_credit_notes_amount ?? 0;
  const postAlready = invoice.post_payment_credit_notes_amount ?? 0;
  const pre = invoice.status === 'open';
  let refund = 0;
  let credit = 0;
  let outOfBand = 0;
  if (pre) {
    for (const k of ['refund_amount', 'credit_amount', 'out_of_band_amount'] as const) {
      if (params[k])
        throw invalidRequest(
          `${k} can only be used on a paid invoice; a credit note on an open invoice lowers what it asks for.`,
          k,
        );
    }
    if (total > invoice.amount_remaining)
      throw invalidRequest(
        `The credit note total (${total}) is greater than the invoice's amount remaining (${invoice.amount_remaining}).`,
        'amount',
      );
  } else {
    const creditable = invoice.total - preAlready - postAlready;
    if (total > creditable)
      throw invalidRequest(
        `The credit note total (${total}) is greater than what is left to credit on invoice ${invoice.id} (${creditable}).`,
        'amount',
      );
    refund = params.refund_amount ?? 0;
    outOfBand = params.out_of_band_amount ?? 0;
    credit = params.credit_amount ?? Math.max(0, total - refund - outOfBand);
    if (refund + credit + outOfBand !== total) {
      throw invalidRequest(
        `The refund, credit and out-of-band amounts (${refund} + ${credit} + ${outOfBand}) must add up to the credit note total (${total}).`,
        'credit_amount',
      );
    }
    if (refund > 0) {
      const charge = chargeOfInvoice(ctx, invoice);
      if (!charge)
        throw invalidRequest(
          `Invoice ${invoice.id} was not paid by a charge, so nothing can be refunded; use credit_amount or out_of_band_amount.`,
          'refund_amount',
        );
      if (refund > charge.amount - charge.amount_refunded)
        throw invalidRequest(
          `The refund amount (${refund}) is greater than what is left to refund on charge ${charge.id} (${charge.amount - charge.amount_refunded}).`,
          'refund_amount',
        );
    }
  }
  const sequence = rows(ctx, 'credit_notes', 'invoice = ?', [invoice.id]).length + 1;
  const now = nowSeconds(ctx);
  const note: Stored<'credit_notes'> = {
    id: ids.note,
    object: 'credit_note',
    amount: total,
    amount_shipping: 0,
    created: now,
    currency: invoice.currency,
    customer: invoice.customer,
    customer_account: null,
    customer_balance_transaction: null,
    discount_amount: 0,
    discount_amounts: [],
    effective_at: params.effective_at ?? now,
    invoice: invoice.id,
    // A custom line's `invoice_line_item` is null (`NoteLine`).
    lines: {
      object: 'list',
      data: lines as CreditNoteLineItem[],
      has_more: false,
      url: linesUrl(ids.note),
    },
    livemode: false,
    memo: params.memo ?? null,
    metadata: mergeMetadata({}, params.metadata),
    number: `${invoice.number}-CN-${String(sequence).padStart(2, '0')}`,
    out_of_band_amount: outOfBand || null,
    pdf: `https://pay.stripe.com/credit_notes/${ACCOUNT_ID}/test_${ids.note.replace(/^cn_/, '')}/pdf?s=ap`,
    post_payment_amount: pre ? 0 : total,
    pre_payment_amount: pre ? total : 0,
    pretax_credit_amounts: [],
    reason: params.reason ?? null,
    refunds: [],
    shipping_cost: null,
    status: 'issued',
    subtotal: total,
    subtotal_excluding_tax: total,
    total,
    total_excluding_tax: total,
    total_taxes: [],
    type: pre ? 'pre_payment' : 'post_payment',
    voided_at: null,
  };
  return { note, refund, credit };
}

/** A `credit_note` customer balance transaction moving the balance by `amount`, with the customer's new balance. */
export function moveBalance(
  c: OpContext,
  note: Stored<'credit_notes'>,
  amount: number,
): Stored<'customer_balance_transactions'> {
  const ctx = c.ctx;
  const before = getCustomer(ctx, note.customer);
  const ending = (before.balance ?? 0) + amount;
  const txn: Stored<'customer_balance_transactions'> = {
    id: newId(ctx, 'cbtxn_'),
    object: 'customer_balance_transaction',
    amount,
    checkout_session: null,
    created: nowSeconds(ctx),
    credit_note: note.id,
    currency: note.currency,
    customer: before.id,
    customer_account: null,
    description: null,
    ending_balance: ending,
    invoice: note.invoice,
    livemode: false,
    metadata: {},
    type: 'credit_note',
  };
  put(ctx, 'customer_balance_transactions', txn);
  if (!before.deleted) {
    const after = { ...before, balance: ending, currency: before.currency ?? note.currency };
    put(ctx, 'customers', after);
    emit(c, 'customer.updated', after, changedAttributes(before, after));
  }
  return txn;
}

/** Store an invoice a note changed, and say so (`invoice.updated`, and `invoice.paid` when nothing is left to pay). */
export function saveInvoice(
  c: OpContext,
  before: Stored<'invoices'>,
  after: Stored<'invoices'>,
): void {
  put(c.ctx, 'invoices', after);
  emit(c, 'invoice.updated', after, changedAttributes(before, after));
  if (before.status !== 'paid' && after.status === 'paid') emit(c, 'invoice.paid', after);
}
