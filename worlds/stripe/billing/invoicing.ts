/**
 * Invoicing: the invoice state machine, its lines and totals, and collection, shared by the invoice and invoice item
 * endpoints and by everything that bills (subscriptions, checkout). This file is the model's face; its parts are
 * invoice-totals.ts (pure totals), invoice-states.ts (the allowed transitions, as data), drafting.ts and
 * invoice-item-model.ts (drafts, their lines and items), finalization.ts (finalize, void, uncollectible) and
 * collection.ts (payment attempts). Each function takes the invoice as an object or an
 * id and works on the stored copy, so a caller holding an older snapshot cannot write it back by mistake.
 *
 *   createDraftInvoice(c, { customer, subscription?, collection_method?, days_until_due?, billing_reason?, period?,
 *       description?, metadata?, auto_advance?, currency?, pending_invoice_items?, lines? }) → invoice
 *     A `draft` for the customer (`invoice.created`). Pending invoice items of the customer (for a subscription's
 *     invoice, those of that subscription) in the invoice's currency are pulled in unless `pending_invoice_items` is
 *     false; `lines` are added before the event, so its snapshot is complete.
 *   addInvoiceLine(c, invoice, { price?, amount?, currency?, quantity?, description?, period, proration?,
 *       subscription_item?, subscription?, invoice_item?, metadata? }) → invoice
 *     One more line on a draft; the invoice's totals and embedded `lines` are recomputed and the invoice is returned.
 *     A `subscription_item` line is a subscription line; an `invoice_item` line shows that (attached) item; anything
 *     else becomes a new invoice item attached to the invoice, as Stripe backs one-off lines. `amount` is the line's
 *     total (negative for credits); without it, the price times the quantity. No event: the caller's own write says
 *     what happened (`invoice.created` after building, `invoice.updated` from the line endpoints).
 *   finalizeInvoice(c, invoice) → invoice
 *     `draft` → `open`: number `<invoice_prefix>-0001` (the customer's `next_invoice_sequence`), the customer balance
 *     applied, hosted and PDF urls, `invoice.finalized`. A zero amount due is `paid` at once (`invoice.paid`). It does
 *     not collect; see `payInvoice` and the auto-advance note below.
 *   createFinalizedInvoice(c, input) → invoice
 *     createDraftInvoice then finalizeInvoice, with the same events, the draft announced but never stored.
 *   payInvoice(c, invoice, { off_session?, payment_method?, paid_out_of_band? }) → invoice | Failed
 *     Collect an `open` (or `uncollectible`) invoice — a draft is finalized first — by a payment intent on the given
 *     payment method, the invoice's default or the customer's. A decline is a 402 `Failed` whose writes are kept: the
 *     invoice stays `open` with `attempt_count` one higher.
 *   voidInvoice(c, invoice) → invoice; markUncollectible(c, invoice) → invoice
 *   collectDueInvoices(c): what the passing of time does to invoices (auto-finalizing drafts, retrying payments);
 *     for a clock hook to call.
 *   createInvoiceItem(c, input) → invoiceitem; priceAmount(price, quantity) → amount; mustInvoice, linesOf.
 *
 * Auto-advance, a modelling choice: an invoice with `auto_advance` is finalized at `automatically_finalizes_at` (an
 * hour after creation) and, when it charges automatically, collected at finalization rather than an hour later, so
 * one call shows the outcome; a decline schedules `next_payment_attempt` three days on, up to four attempts. Both
 * happen only when something runs `collectDueInvoices` or the finalize endpoint; the library calls never collect by
 * themselves.
 *
 * Totals: `subtotal` and `total` are the sum of the lines (no tax, no discounts); `amount_due` is the total after the
 * customer balance (a credit lowers it, a debt raises it), applied at finalization and recorded as
 * `starting_balance`/`ending_balance` and a customer balance transaction of type `applied_to_invoice`.
 */
export { decimalAmount, applyLines } from './invoice-totals.ts';
export { requireDraft } from './invoice-states.ts';
export {
  type LineInput,
  mustInvoice,
  linesOf,
  refreshInvoice,
  draftObject,
  createDraftInvoice,
  lineObject,
  type SubscriptionPreview,
  addInvoiceLine,
} from './drafting.ts';
export {
  inlinePrice,
  priceFromParams,
  updateInvoiceItem,
  createInvoiceItem,
  lineForItem,
  lineOfItem,
  pendingItems,
} from './invoice-item-model.ts';
export {
  finalizeInvoice,
  voidInvoice,
  markUncollectible,
  createFinalizedInvoice,
} from './finalization.ts';
export { payInvoice, collectDueInvoices, attemptQuietly } from './collection.ts';
