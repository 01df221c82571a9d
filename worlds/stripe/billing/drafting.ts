/**
 * Drafting an invoice: the draft object for a customer (or a subscription's period), its lines, and what a preview
 * contributes; a draft is stored once it is complete.
 */
import { applyTaxes, type ItemRates } from './invoice-taxes.ts';
import { customerTaxIdsOf } from '../resources/tax-ids.ts';
import { type Ctx } from 'seahaven';
import { accountOf } from '../resources/account.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { putAndEmit } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { DAY } from '../lib/money.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata } from '../lib/params.ts';
import type {
  InvoiceCustomField,
  InvoicePaymentSettings,
  InvoiceRendering,
} from '../lib/objects.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import {
  resolvePrice,
  newInvoiceItem,
  lineForItem,
  lineOfItem,
  pendingItems,
} from './invoice-item-model.ts';
import { AUTO_FINALIZE_DELAY, requireDraft } from './invoice-states.ts';
import { idOf, linesOf, mustInvoice, refreshInvoice, type InvoiceRef } from './invoice-store.ts';
import {
  type LineInput,
  type Period,
  priceAmount,
  pricingOf,
  decimalOf,
  applyLines,
} from './invoice-totals.ts';
import { tierLines } from './tier-lines.ts';

export type { LineInput };

export interface DraftInput {
  customer: string;
  subscription?: string | null;
  collection_method?: 'charge_automatically' | 'send_invoice' | null;
  days_until_due?: number | null;
  due_date?: number | null;
  billing_reason?: Stored<'invoices'>['billing_reason'];
  period?: Period | null;
  description?: string | null;
  metadata?: Record<string, string | null> | null;
  auto_advance?: boolean | null;
  currency?: string | null;
  /** Pull the customer's pending invoice items in (default true). */
  pending_invoice_items?: boolean;
  /** The subscription's metadata, shown under `parent.subscription_details`. */
  subscription_metadata?: Record<string, string> | null;
  lines?: LineInput[];
  default_payment_method?: string | null;
  footer?: string | null;
  custom_fields?: InvoiceCustomField[] | null;
  statement_descriptor?: string | null;
  number?: string | null;
  automatically_finalizes_at?: number | null;
  effective_at?: number | null;
  rendering?: InvoiceRendering | null;
  payment_settings?: InvoicePaymentSettings | null;
  /** Tax rate objects for the lines without their own (invoice-taxes.ts). */
  default_tax_rates?: Stored<'tax_rates'>[];
  /** The subscription's items with their `tax_rates`, by id, when it is not stored yet. */
  item_tax_rates?: ItemRates;
}

export { idOf, linesOf, mustInvoice, refreshInvoice, type InvoiceRef };

/** The customer fields of an invoice. */
type CustomerDetails = Pick<
  Stored<'invoices'>,
  | 'customer_address'
  | 'customer_email'
  | 'customer_name'
  | 'customer_phone'
  | 'customer_shipping'
  | 'customer_tax_exempt'
>;

/** The customer details an invoice copies while it is a draft (frozen at finalization). */
export function customerDetails(customer: Stored<'customers'>): CustomerDetails {
  return {
    customer_address: customer.address ?? null,
    customer_email: customer.email ?? null,
    customer_name: customer.name ?? null,
    customer_phone: customer.phone ?? null,
    customer_shipping: customer.shipping ?? null,
    customer_tax_exempt: customer.tax_exempt ?? 'none',
  };
}

/** A new draft invoice object for `customer`, not yet stored and without lines (previews show one unstored). */
export function draftObject(
  ctx: Ctx,
  input: DraftInput,
  customer: Stored<'customers'>,
  id = newId(ctx, 'in_'),
): Stored<'invoices'> {
  const now = nowSeconds(ctx);
  const collection = input.collection_method ?? 'charge_automatically';
  if (collection === 'send_invoice' && input.days_until_due == null && input.due_date == null) {
    throw invalidRequest(
      'Invoices with collection_method send_invoice need days_until_due or due_date.',
      'days_until_due',
    );
  }
  if (
    collection === 'charge_automatically' &&
    (input.days_until_due != null || input.due_date != null)
  ) {
    throw invalidRequest(
      'days_until_due and due_date can only be set when collection_method is send_invoice.',
      input.days_until_due != null ? 'days_until_due' : 'due_date',
    );
  }
  const currency = (input.currency ?? customer.currency ?? 'usd').toLowerCase();
  const subscription = input.subscription ?? null;
  const autoAdvance = input.auto_advance ?? subscription !== null;
  const account = accountOf(ctx);
  const invoice: Stored<'invoices'> = {
    id,
    object: 'invoice',
    account_country: account.country ?? 'US',
    account_name: account.business_profile?.name ?? null,
    account_tax_ids: null,
    amount_due: 0,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: autoAdvance,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: autoAdvance
      ? (input.automatically_finalizes_at ?? now + AUTO_FINALIZE_DELAY)
      : null,
    billing_reason: input.billing_reason ?? (subscription ? 'subscription' : 'manual'),
    collection_method: collection,
    created: now,
    currency,
    custom_fields: input.custom_fields ?? null,
    customer: customer.id,
    customer_account: null,
    ...customerDetails(customer),
    customer_tax_ids: customerTaxIdsOf(ctx, customer.id),
    default_payment_method: input.default_payment_method ?? null,
    default_source: null,
    default_tax_rates: input.default_tax_rates ?? [],
    description: input.description ?? null,
    discounts: [],
    due_date:
      collection === 'send_invoice'
        ? (input.due_date ?? now + (input.days_until_due as number) * DAY)
        : null,
    effective_at: input.effective_at ?? null,
    ending_balance: null,
    footer: input.footer ?? customer.invoice_settings?.footer ?? null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [], has_more: false, total_count: 0, url: '' },
    livemode: false,
    metadata: mergeMetadata({}, input.metadata),
    next_payment_attempt: null,
    number: input.number ?? null,
    on_behalf_of: null,
    parent: subscription
      ? {
          quote_details: null,
          subscription_details: {
            metadata: { ...(input.subscription_metadata ?? {}) },
            subscription,
          },
          type: 'subscription_details',
        }
      : null,
    payment_settings: input.payment_settings ?? {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
    },
    payments: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: '/v1/invoice_payments',
    },
    period_end: input.period?.end ?? now,
    period_start: input.period?.start ?? now,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: input.rendering ?? {
      amount_tax_display: null,
      pdf: { page_size: 'auto' },
      template: null,
      template_version: null,
    },
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: input.statement_descriptor ?? null,
    status: 'draft',
    status_transitions: {
      finalized_at: null,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: 0,
    subtotal_excluding_tax: 0,
    test_clock: customer.test_clock ?? null,
    total: 0,
    total_discount_amounts: [],
    total_excluding_tax: 0,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  return invoice;
}

/** Create a draft invoice (`invoice.created`); see the module comment. */
export function createDraftInvoice(c: OpContext, input: DraftInput): Stored<'invoices'> {
  return putAndEmit(c, 'invoices', buildDraft(c, input), 'invoice.created');
}

/** A new draft with its lines and totals, its lines and invoice items stored; the draft itself is the caller's to store. */
export function buildDraft(c: OpContext, input: DraftInput): Stored<'invoices'> {
  const ctx = c.ctx;
  const customer = liveCustomer(ctx, input.customer);
  const invoice = draftObject(ctx, input, customer);
  const currency = invoice.currency as string;
  const subscription = invoice.parent?.subscription_details?.subscription ?? null;
  // The draft is stored once its lines are in, by the caller: nothing reads it while they are added, and a first copy
  // without them would only be overwritten. Its row's `seq` is the same either way (lines take no invoice rows).
  if (input.pending_invoice_items !== false) {
    for (const item of pendingItems(ctx, customer.id, currency, subscription)) {
      const attached = { ...item, invoice: invoice.id };
      put(ctx, 'invoiceitems', attached);
      put(ctx, 'invoice_line_items', lineForItem(ctx, attached, invoice.id));
    }
  }
  for (const line of input.lines ?? []) addLine(c, invoice, line);
  return applyLines(
    invoice,
    applyTaxes(ctx, invoice, linesOf(ctx, invoice.id), true, input.item_tax_rates),
  );
}

/**
 * Add a line to `invoice`, a draft its caller holds (just read, or being built by `buildDraft`) and stores afterwards
 * with its lines and totals.
 */
function addLine(c: OpContext, invoice: Stored<'invoices'>, input: LineInput): void {
  const ctx = c.ctx;
  const invoiceId = invoice.id as string;
  requireDraft(invoice);
  if (input.invoice_item) {
    const item = get(ctx, 'invoiceitems', input.invoice_item);
    if (!item) throw resourceMissing('invoiceitem', input.invoice_item, 'invoice_item');
    if (item.invoice && item.invoice !== invoiceId)
      throw invalidRequest(
        `The invoice item ${item.id} is already on invoice ${item.invoice}.`,
        'invoice_item',
      );
    if (lineOfItem(ctx, { ...item, invoice: invoiceId })) return;
    const attached = { ...item, invoice: invoiceId };
    put(ctx, 'invoiceitems', attached);
    put(ctx, 'invoice_line_items', lineForItem(ctx, attached, invoiceId));
    return;
  }
  if (!input.subscription_item) {
    newInvoiceItem(
      c,
      {
        customer: invoice.customer,
        amount: input.amount,
        currency: input.currency ?? invoice.currency,
        price: input.price,
        quantity: input.quantity,
        description: input.description,
        period: input.period,
        invoice: invoiceId,
        subscription:
          input.subscription ?? invoice.parent?.subscription_details?.subscription ?? null,
        proration: input.proration,
        metadata: input.metadata,
      },
      invoice,
    );
    return;
  }
  // A subscription item on a tiered price is a line per tier (tier-lines.ts).
  for (const line of tierLines(ctx, input))
    put(ctx, 'invoice_line_items', lineObject(ctx, invoice, line));
}

/**
 * A line built from a line input, not stored: a subscription line for a `subscription_item`, otherwise a line of an
 * invoice item (`invoice_item` names it, or a placeholder id when a preview shows an item that does not exist).
 */
export function lineObject(
  ctx: Ctx,
  invoice: Stored<'invoices'>,
  input: LineInput,
): Stored<'invoice_line_items'> {
  const price = resolvePrice(ctx, input.price, 'price');
  const quantity = input.quantity ?? 1;
  const amount = input.amount ?? (price ? priceAmount(price, quantity) : 0);
  const subscription =
    input.subscription ?? invoice.parent?.subscription_details?.subscription ?? null;
  const now = nowSeconds(ctx);
  const unit =
    input.unit_amount_decimal !== undefined
      ? input.unit_amount_decimal
      : price
        ? (price.unit_amount_decimal ??
          (price.unit_amount != null ? String(price.unit_amount) : null))
        : decimalOf(quantity ? amount / quantity : amount);
  const proration = input.proration ?? false;
  const parent = input.subscription_item
    ? {
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration,
          proration_details: { credited_items: null },
          subscription,
          subscription_item: input.subscription_item,
        },
        type: 'subscription_item_details' as const,
      }
    : {
        invoice_item_details: {
          invoice_item: input.invoice_item ?? newId(ctx, 'ii_'),
          proration,
          proration_details: { credited_items: null },
          subscription,
        },
        subscription_item_details: null,
        type: 'invoice_item_details' as const,
      };
  return {
    id: newId(ctx, 'il_'),
    object: 'line_item',
    amount,
    currency: price?.currency ?? input.currency ?? invoice.currency,
    description: input.description ?? null,
    discount_amounts: [],
    discountable: input.discountable ?? !proration,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: { ...(input.metadata ?? {}) },
    parent,
    period: input.period ?? { end: now, start: now },
    pretax_credit_amounts: [],
    pricing: pricingOf(price, unit),
    quantity,
    quantity_decimal: String(quantity),
    subscription,
    subtotal: amount,
    taxes: [],
  };
}

/** What a subscription preview contributes to `create_preview`: whose invoice, and its lines. */
export interface SubscriptionPreview {
  customer: string;
  subscription: string | null;
  period?: Period | null;
  billing_reason?: Stored<'invoices'>['billing_reason'];
  currency?: string | null;
  lines: LineInput[];
}

/** Add a line to a draft and return the refreshed invoice; see the module comment. */
export function addInvoiceLine(
  c: OpContext,
  invoice: InvoiceRef,
  input: LineInput,
): Stored<'invoices'> {
  addLine(c, mustInvoice(c.ctx, idOf(invoice)), input);
  return refreshInvoice(c.ctx, idOf(invoice));
}
