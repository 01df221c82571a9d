/**
 * An invoice as the billing files read it back: by id (Stripe's 404 when it is missing), its lines in the order they
 * were added, and its embedded lines and totals recomputed from them. Below drafting and the invoice item model, which
 * both use it.
 */
import { applyTaxes } from './invoice-taxes.ts';
import { type Ctx } from 'seahaven';
import { resourceMissing } from '../lib/errors.ts';
import { get, put, rows, type Stored } from '../lib/store.ts';
import { applyLines } from './invoice-totals.ts';

export type InvoiceRef = Stored<'invoices'> | string;

export const idOf = (invoice: InvoiceRef): string =>
  typeof invoice === 'string' ? invoice : invoice.id;

/** A stored invoice, or Stripe's 404. */
export function mustInvoice(ctx: Ctx, id: string, param = 'invoice'): Stored<'invoices'> {
  const invoice = get(ctx, 'invoices', id);
  if (invoice === undefined) throw resourceMissing('invoice', id, param);
  return invoice;
}

/** An invoice's lines in the order they were added. */
export function linesOf(ctx: Ctx, invoiceId: string): Stored<'invoice_line_items'>[] {
  return rows(ctx, 'invoice_line_items', 'invoice = ?', [invoiceId], true);
}

/** Recompute an invoice's embedded lines and totals from its stored lines, store it, and return it. */
export function refreshInvoice(ctx: Ctx, invoiceId: string): Stored<'invoices'> {
  const stored = mustInvoice(ctx, invoiceId);
  const invoice = applyLines(stored, applyTaxes(ctx, stored, linesOf(ctx, invoiceId)));
  put(ctx, 'invoices', invoice);
  return invoice;
}
