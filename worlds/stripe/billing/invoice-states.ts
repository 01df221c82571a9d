/**
 * The invoice's state machine, in one place: the statuses an invoice moves between (`INVOICE_TRANSITIONS`, as data),
 * the check every endpoint makes before it moves one (`canMove`), and the move itself (`moveInvoice`), which refuses
 * a transition the table does not list. Also the timing of auto-advance: when a draft finalizes itself and how
 * payments are retried.
 */
import { invalidRequest } from '../lib/errors.ts';
import type { Stored } from '../lib/store.ts';

/** 400 unless the invoice is a draft (only drafts change their lines). */
export function requireDraft(invoice: Stored<'invoices'>, param?: string): void {
  if (invoice.status !== 'draft') {
    throw invalidRequest(
      `You can only modify draft invoices; invoice ${invoice.id} is ${invoice.status}.`,
      param,
      'invoice_not_editable',
    );
  }
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';

/**
 * Where each status may go: a draft is finalized (`open`, or `paid` at once when nothing is due); an open invoice is
 * paid, voided or marked uncollectible; an uncollectible one can still be paid or voided; `paid` and `void` are final.
 */
export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> = {
  draft: ['open', 'paid'],
  open: ['paid', 'void', 'uncollectible'],
  uncollectible: ['paid', 'void'],
  paid: [],
  void: [],
};

/** Whether an invoice in `from` may move to `to`. */
export function canMove(from: string | null, to: InvoiceStatus): boolean {
  return from !== null && (INVOICE_TRANSITIONS[from as InvoiceStatus] ?? []).includes(to);
}

/** Set an invoice's status; a move the table does not allow is a bug in the caller, which checked `canMove`. */
export function moveInvoice(
  invoice: { id: string; status: string | null },
  to: InvoiceStatus,
): void {
  if (!canMove(invoice.status, to))
    throw new Error(
      `invoice ${invoice.id}: ${invoice.status} → ${to} is not a transition of INVOICE_TRANSITIONS`,
    );
  invoice.status = to;
}

/** How long an auto-advancing draft waits before it finalizes itself, as Stripe's one hour. */
export const AUTO_FINALIZE_DELAY = 3600;

/** Days between automatic payment retries, and how many attempts are made in all. */
export const RETRY_DAYS = 3;

export const MAX_ATTEMPTS = 4;
