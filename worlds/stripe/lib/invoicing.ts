/**
 * Invoicing: the invoice state machine, its lines and totals, and collection, shared by the invoice and invoice item
 * endpoints and by everything that bills (subscriptions, checkout). Each function takes the invoice as an object or an
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
import type { Ctx, SqlParam } from '../../../kit/index.ts';
import { accountOf } from '../resources/account.ts';
import { createPaymentIntent, confirmPaymentIntent } from '../resources/payment-intents.ts';
import { defaultPaymentMethodOf } from '../resources/charges.ts';
import { createPrice, createProduct, livePrice, liveProduct } from '../resources/prices.ts';
import { liveCustomer, getCustomer } from './customer-lookup.ts';
import { emit, emitStored, changedAttributes, putAndEmit } from './events.ts';
import { failed, invalidRequest, isFailed, resourceMissing, type Failed } from './errors.ts';
import { DAY } from './money.ts';
import type { OpContext } from './op.ts';
import { mergeMetadata } from './params.ts';
import { get, newId, nowSeconds, put, putJson, rows, type Obj } from './store.ts';
import { resolvePaymentMethod } from './test-cards.ts';

/** How long an auto-advancing draft waits before it finalizes itself, as Stripe's one hour. */
export const AUTO_FINALIZE_DELAY = 3600;
/** Days between automatic payment retries, and how many attempts are made in all. */
export const RETRY_DAYS = 3;
export const MAX_ATTEMPTS = 4;

/** How many lines an invoice embeds in its `lines` (the rest are paged through `/lines`). */
const EMBEDDED_LINES = 10;

export interface Period {
  start: number;
  end: number;
}

export interface LineInput {
  /** A price id or object; the amount is the price times the quantity unless `amount` is given. */
  price?: string | Obj | null;
  /** The line's total in minor units (negative for a credit). */
  amount?: number | null;
  currency?: string | null;
  quantity?: number | null;
  description?: string | null;
  period?: Period | null;
  proration?: boolean;
  subscription_item?: string | null;
  subscription?: string | null;
  /** An invoice item already attached to this invoice, whose line this is. */
  invoice_item?: string | null;
  metadata?: Record<string, string> | null;
  discountable?: boolean;
}

export interface DraftInput {
  customer: string;
  subscription?: string | null;
  collection_method?: 'charge_automatically' | 'send_invoice' | null;
  days_until_due?: number | null;
  due_date?: number | null;
  billing_reason?: string | null;
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
  custom_fields?: Obj[] | null;
  statement_descriptor?: string | null;
  number?: string | null;
  automatically_finalizes_at?: number | null;
  effective_at?: number | null;
  rendering?: Obj | null;
  payment_settings?: Obj | null;
}

/** The parts of an invoice item that make it. */
export interface InvoiceItemInput {
  customer: string;
  amount?: number | null;
  currency?: string | null;
  price?: string | Obj | null;
  quantity?: number | null;
  description?: string | null;
  period?: Period | null;
  invoice?: string | null;
  subscription?: string | null;
  subscription_item?: string | null;
  proration?: boolean;
  metadata?: Record<string, string | null> | null;
  discountable?: boolean | null;
  /** The unit amount when `amount` came from a decimal unit amount times the quantity. */
  unit_amount_decimal?: string | null;
  /** Parameter names for errors (the line endpoints name fields `lines[0][…]`). */
  param?: (name: string) => string;
}

type InvoiceRef = Obj | string;

const idOf = (invoice: InvoiceRef): string => (typeof invoice === 'string' ? invoice : invoice.id);

/** A stored invoice, or Stripe's 404. */
export function mustInvoice(ctx: Ctx, id: string, param = 'invoice'): Obj {
  const invoice = get(ctx, 'invoices', id);
  if (invoice === undefined) throw resourceMissing('invoice', id, param);
  return invoice;
}

/** An invoice's lines in the order they were added. */
export function linesOf(ctx: Ctx, invoiceId: string): Obj[] {
  return rows(ctx, 'invoice_line_items', 'invoice = ?', [invoiceId], true);
}

/** The amount `quantity` units of `price` come to: per unit (with `transform_quantity`) or by tiers. */
export function priceAmount(price: Obj, quantity: number): number {
  if (price.billing_scheme === 'tiered' && Array.isArray(price.tiers)) {
    const tiers: Obj[] = price.tiers;
    const unit = (t: Obj) => (t.unit_amount ?? Number(t.unit_amount_decimal ?? 0)) as number;
    const flat = (t: Obj) => (t.flat_amount ?? Number(t.flat_amount_decimal ?? 0)) as number;
    if (price.tiers_mode === 'volume') {
      const tier =
        tiers.find((t) => t.up_to === null || quantity <= t.up_to) ?? tiers[tiers.length - 1];
      return Math.round(unit(tier) * quantity + (quantity > 0 ? flat(tier) : 0));
    }
    let total = 0;
    let below = 0;
    for (const t of tiers) {
      if (quantity <= below) break;
      const top = t.up_to === null ? quantity : Math.min(quantity, t.up_to);
      total += unit(t) * (top - below) + flat(t);
      below = top;
    }
    return Math.round(total);
  }
  const per = price.unit_amount ?? Number(price.unit_amount_decimal ?? 0);
  const tq = price.transform_quantity;
  if (tq?.divide_by) {
    const units = quantity / tq.divide_by;
    return Math.round(per * (tq.round === 'down' ? Math.floor(units) : Math.ceil(units)));
  }
  return Math.round(per * quantity);
}

/** The `pricing` hash of an item or line: the price it came from, and the unit amount. */
function pricingOf(price: Obj | null, unitDecimal: string | null): Obj {
  return price
    ? {
        price_details: { price: price.id, product: price.product },
        type: 'price_details',
        unit_amount_decimal: unitDecimal,
      }
    : { type: 'price_details', unit_amount_decimal: unitDecimal };
}

/** A decimal string for a unit amount, without float noise. */
function decimalOf(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(12)));
}

function resolvePrice(ctx: Ctx, price: string | Obj | null | undefined, param: string): Obj | null {
  if (price === undefined || price === null) return null;
  return typeof price === 'string' ? livePrice(ctx, price, param) : price;
}

/**
 * The price behind `price_data` (an item's or a line's own price): a one-off, inactive price of the named product, or
 * of a product made from `product_data`, stored like any price so the item's `pricing` can name it.
 */
export function inlinePrice(c: OpContext, data: Obj, param: string): Obj {
  let productId: string;
  if (data.product) productId = liveProduct(c.ctx, data.product, `${param}[product]`).id;
  else if (data.product_data) productId = createProduct(c, data.product_data).id;
  else
    throw invalidRequest(
      `Missing required param: ${param}[product].`,
      `${param}[product]`,
      'parameter_missing',
    );
  if ((data.unit_amount ?? null) === null && (data.unit_amount_decimal ?? null) === null) {
    throw invalidRequest(
      `Missing required param: ${param}[unit_amount].`,
      `${param}[unit_amount]`,
      'parameter_missing',
    );
  }
  return createPrice(
    c,
    {
      currency: data.currency,
      unit_amount: data.unit_amount,
      unit_amount_decimal: data.unit_amount_decimal,
      tax_behavior: data.tax_behavior,
      active: false,
    },
    productId,
  );
}

/**
 * The price item parameters name — `pricing[price]`, the older `price`, or `price_data` — at most one of them; or
 * undefined. Invoice items take one-time prices only. `name` turns a field into its parameter name for errors.
 */
export function priceFromParams(
  c: OpContext,
  params: Record<string, any>,
  name: (n: string) => string = (n) => n,
): Obj | undefined {
  const given = (['pricing', 'price', 'price_data'] as const).filter(
    (k) =>
      params[k] !== undefined && params[k] !== null && !(k === 'pricing' && !params.pricing.price),
  );
  if (given.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${given.join(', ')}.`,
      name(given[1]),
    );
  if (given.length === 0) return undefined;
  const param = name(given[0] === 'pricing' ? 'pricing[price]' : given[0]);
  const price =
    given[0] === 'price_data'
      ? inlinePrice(c, params.price_data, param)
      : livePrice(c.ctx, given[0] === 'pricing' ? params.pricing.price : params.price, param);
  if (price.type === 'recurring') {
    throw invalidRequest(
      `The price specified (${price.id}) is set to \`type=recurring\` but this field only accepts prices with \`type=one_time\`.`,
      param,
    );
  }
  return price;
}

/** An amount in whole minor units from a `unit_amount_decimal` and a quantity. */
export function decimalAmount(unit: string, quantity: number): number {
  return Math.round(Number(unit) * quantity);
}

/**
 * Change an invoice item (pending, or on a draft) by update parameters: `amount`, a price (`pricing[price]`, `price`,
 * `price_data`), `unit_amount_decimal`, `quantity`, `description`, `discountable`, `period`, `metadata`. Stores it
 * and rewrites its line (no event: Stripe has none for an updated invoice item); the invoice's totals are the
 * caller's to refresh (refreshInvoice), with the event it owes.
 */
export function updateInvoiceItem(
  c: OpContext,
  before: Obj,
  params: Record<string, any>,
  name: (n: string) => string = (n) => n,
): Obj {
  const ctx = c.ctx;
  const after = structuredClone(before);
  const price = priceFromParams(c, params, name);
  if (price && params.amount != null)
    throw invalidRequest(
      'You may only specify one of these parameters: amount, price.',
      name('amount'),
    );
  if (price && price.currency !== after.currency) {
    throw invalidRequest(
      `The currency of the price (${price.currency}) must match the invoice item's currency (${after.currency}).`,
      name(params.pricing ? 'pricing[price]' : 'price'),
    );
  }
  const quantity: number = params.quantity ?? after.quantity;
  const currentPrice = after.pricing?.price_details?.price
    ? get(ctx, 'prices', after.pricing.price_details.price)
    : undefined;
  if (price) {
    after.amount = priceAmount(price, quantity);
    after.pricing = pricingOf(
      price,
      price.unit_amount_decimal ?? (price.unit_amount != null ? String(price.unit_amount) : null),
    );
  } else if (params.amount != null) {
    // A plain amount replaces the price: the item is now that amount.
    after.amount = params.amount;
    after.pricing = pricingOf(null, decimalOf(quantity ? params.amount / quantity : params.amount));
  } else if (params.unit_amount_decimal != null) {
    after.amount = decimalAmount(params.unit_amount_decimal, quantity);
    after.pricing = pricingOf(null, params.unit_amount_decimal);
  } else if (params.quantity != null) {
    after.amount = currentPrice
      ? priceAmount(currentPrice, quantity)
      : decimalAmount(after.pricing?.unit_amount_decimal ?? '0', quantity);
  }
  after.quantity = quantity;
  after.quantity_decimal = String(quantity);
  after.net_amount = after.amount;
  if (params.description !== undefined) after.description = params.description;
  if (params.discountable !== undefined && params.discountable !== null)
    after.discountable = params.discountable;
  if (params.period) after.period = { end: params.period.end, start: params.period.start };
  if (params.metadata !== undefined)
    after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length === 0) return before;
  put(ctx, 'invoiceitems', after);
  const line = lineOfItem(ctx, after);
  if (line) put(ctx, 'invoice_line_items', lineForItem(ctx, after, after.invoice, line.id));
  return after;
}

/** Build, store and announce an invoice item (`invoiceitem.created`). Checks the invoice it joins, if any. */
export function createInvoiceItem(c: OpContext, input: InvoiceItemInput): Obj {
  return newInvoiceItem(c, input, null);
}

/**
 * `createInvoiceItem`, where `draft` is the invoice `input.invoice` names when the caller holds it already: a draft
 * `buildDraft` is building, not stored yet, or one `addInvoiceLine` has just read. The item's line is stored,
 * but the invoice is not refreshed: its holder stores it once, with all its lines.
 */
function newInvoiceItem(c: OpContext, input: InvoiceItemInput, draft: Obj | null): Obj {
  const ctx = c.ctx;
  const name = input.param ?? ((n: string) => n);
  const customer = liveCustomer(ctx, input.customer, name('customer'));
  const price = resolvePrice(ctx, input.price, name('price'));
  const hasAmount = input.amount !== undefined && input.amount !== null;
  if (!price && !hasAmount)
    throw invalidRequest(
      'You must specify either `amount`, `price`, or `price_data`.',
      name('amount'),
      'parameter_missing',
    );
  const quantity = input.quantity ?? 1;
  let currency: string;
  if (price) {
    if (input.currency && input.currency.toLowerCase() !== price.currency) {
      throw invalidRequest(
        `The currency of the price (${price.currency}) does not match the currency given (${input.currency.toLowerCase()}).`,
        name('currency'),
      );
    }
    currency = price.currency;
  } else {
    if (!input.currency)
      throw invalidRequest(
        'Missing required param: currency.',
        name('currency'),
        'parameter_missing',
      );
    currency = input.currency.toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalidRequest(
        `Invalid currency: ${input.currency}.`,
        name('currency'),
        'parameter_invalid_string',
      );
  }
  // With a price, an explicit amount is the line's own figure (a prorated share of the price, say).
  const amount = hasAmount ? (input.amount as number) : priceAmount(price as Obj, quantity);
  const unit = price
    ? (price.unit_amount_decimal ??
      (price.unit_amount !== null && price.unit_amount !== undefined
        ? String(price.unit_amount)
        : null))
    : (input.unit_amount_decimal ?? decimalOf(quantity ? amount / quantity : amount));
  let invoice: Obj | null = null;
  if (input.invoice) {
    invoice = draft ?? mustInvoice(ctx, input.invoice, name('invoice'));
    if (invoice.customer !== customer.id)
      throw invalidRequest(
        `The invoice ${invoice.id} belongs to customer ${invoice.customer}, not ${customer.id}.`,
        name('invoice'),
      );
    requireDraft(invoice, name('invoice'));
    if (invoice.currency !== currency)
      throw invalidRequest(
        `The currency of this invoice item (${currency}) must match the currency of the invoice (${invoice.currency}).`,
        name('currency'),
      );
  }
  const now = nowSeconds(ctx);
  const subscription = input.subscription ?? null;
  const item: Obj = {
    id: newId(ctx, 'ii_'),
    object: 'invoiceitem',
    amount,
    currency,
    customer: customer.id,
    customer_account: null,
    date: now,
    description: input.description ?? price?.nickname ?? null,
    discountable: input.discountable ?? !input.proration,
    discounts: [],
    invoice: invoice?.id ?? null,
    livemode: false,
    metadata: mergeMetadata({}, input.metadata),
    net_amount: amount,
    parent: subscription
      ? {
          subscription_details: {
            subscription,
            ...(input.subscription_item ? { subscription_item: input.subscription_item } : {}),
          },
          type: 'subscription_details',
        }
      : null,
    period: input.period ?? { end: now, start: now },
    pricing: pricingOf(price, unit),
    proration: input.proration ?? false,
    quantity,
    quantity_decimal: String(quantity),
    tax_rates: [],
    test_clock: null,
  };
  putAndEmit(c, 'invoiceitems', item, 'invoiceitem.created');
  if (invoice) {
    put(ctx, 'invoice_line_items', lineForItem(ctx, item, invoice.id));
    if (!draft) refreshInvoice(ctx, invoice.id);
  }
  return item;
}

/** The line an attached invoice item shows as. `id` keeps an existing line's id. */
export function lineForItem(ctx: Ctx, item: Obj, invoiceId: string, id?: string): Obj {
  const subscription = item.parent?.subscription_details?.subscription ?? null;
  return {
    id: id ?? newId(ctx, 'il_'),
    object: 'line_item',
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    discount_amounts: [],
    discountable: item.discountable,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: { ...item.metadata },
    parent: {
      invoice_item_details: {
        invoice_item: item.id,
        proration: item.proration,
        proration_details: { credited_items: null },
        subscription,
      },
      subscription_item_details: null,
      type: 'invoice_item_details',
    },
    period: { ...item.period },
    pretax_credit_amounts: [],
    pricing: structuredClone(item.pricing),
    quantity: item.quantity,
    quantity_decimal: item.quantity_decimal,
    subscription,
    subtotal: item.amount,
    taxes: [],
  };
}

/** The line of an attached invoice item, if it has one. */
export function lineOfItem(ctx: Ctx, item: Obj): Obj | undefined {
  if (!item.invoice) return undefined;
  return linesOf(ctx, item.invoice).find(
    (l) => l.parent?.invoice_item_details?.invoice_item === item.id,
  );
}

/** 400 unless the invoice is a draft (only drafts change their lines). */
export function requireDraft(invoice: Obj, param?: string): void {
  if (invoice.status !== 'draft') {
    throw invalidRequest(
      `You can only modify draft invoices; invoice ${invoice.id} is ${invoice.status}.`,
      param,
      'invoice_not_editable',
    );
  }
}

/** Set an invoice's embedded `lines` and, while it is a draft, its totals from `lines` (all of them, in order). */
export function applyLines(invoice: Obj, lines: Obj[]): Obj {
  invoice.lines = {
    object: 'list',
    data: lines.slice(0, EMBEDDED_LINES),
    has_more: lines.length > EMBEDDED_LINES,
    total_count: lines.length,
    url: `/v1/invoices/${invoice.id}/lines`,
  };
  if (invoice.status !== 'draft') return invoice;
  const subtotal = lines.reduce((sum, l) => sum + (l.amount as number), 0);
  invoice.subtotal = subtotal;
  invoice.subtotal_excluding_tax = subtotal;
  invoice.total = subtotal;
  invoice.total_excluding_tax = subtotal;
  invoice.amount_due = Math.max(0, subtotal);
  invoice.amount_remaining = invoice.amount_due - invoice.amount_paid;
  if (invoice.parent === null && lines.length > 0 && invoice.billing_reason === 'manual') {
    invoice.period_start = Math.min(invoice.created, ...lines.map((l) => l.period.start as number));
    invoice.period_end = Math.max(invoice.created, ...lines.map((l) => l.period.end as number));
  }
  return invoice;
}

/** Recompute an invoice's embedded lines and totals from its stored lines, store it, and return it. */
export function refreshInvoice(ctx: Ctx, invoiceId: string): Obj {
  const invoice = applyLines(mustInvoice(ctx, invoiceId), linesOf(ctx, invoiceId));
  put(ctx, 'invoices', invoice);
  return invoice;
}

/** The customer details an invoice copies while it is a draft (frozen at finalization). */
function customerDetails(customer: Obj): Obj {
  return {
    customer_address: customer.address ?? null,
    customer_email: customer.email ?? null,
    customer_name: customer.name ?? null,
    customer_phone: customer.phone ?? null,
    customer_shipping: customer.shipping ?? null,
    customer_tax_exempt: customer.tax_exempt ?? 'none',
  };
}

/** Pending invoice items of the customer that a new invoice takes in: same currency, and the same subscription. */
export function pendingItems(
  ctx: Ctx,
  customer: string,
  currency: string,
  subscription: string | null,
): Obj[] {
  const args: SqlParam[] = [customer];
  return rows(ctx, 'invoiceitems', 'customer = ? AND invoice IS NULL', args, true).filter(
    (ii) =>
      ii.currency === currency &&
      (ii.parent?.subscription_details?.subscription ?? null) === subscription,
  );
}

/** A new draft invoice object for `customer`, not yet stored and without lines (previews show one unstored). */
export function draftObject(
  ctx: Ctx,
  input: DraftInput,
  customer: Obj,
  id = newId(ctx, 'in_'),
): Obj {
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
  const invoice: Obj = {
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
    customer_tax_ids: [],
    default_payment_method: input.default_payment_method ?? null,
    default_source: null,
    default_tax_rates: [],
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
    test_clock: null,
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
export function createDraftInvoice(c: OpContext, input: DraftInput): Obj {
  return putAndEmit(c, 'invoices', buildDraft(c, input), 'invoice.created');
}

/**
 * `createDraftInvoice` then `finalizeInvoice`, for a caller that finalizes the draft it makes at once (billing at a
 * period boundary): the same events and the same finalized invoice, but the draft is only announced, not stored and
 * read back, since the finalized invoice replaces it within the same call.
 */
export function createFinalizedInvoice(c: OpContext, input: DraftInput): Obj {
  const draft = buildDraft(c, input);
  emit(c, 'invoice.created', draft);
  return finalizeDraft(c, draft);
}

/** A new draft with its lines and totals, its lines and invoice items stored; the draft itself is the caller's to store. */
function buildDraft(c: OpContext, input: DraftInput): Obj {
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
  return applyLines(invoice, linesOf(ctx, invoice.id));
}

/**
 * Add a line to `invoice`, a draft its caller holds (just read, or being built by `buildDraft`) and stores afterwards
 * with its lines and totals.
 */
function addLine(c: OpContext, invoice: Obj, input: LineInput): void {
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
  put(ctx, 'invoice_line_items', lineObject(ctx, invoice, input));
}

/**
 * A line built from a line input, not stored: a subscription line for a `subscription_item`, otherwise a line of an
 * invoice item (`invoice_item` names it, or a placeholder id when a preview shows an item that does not exist).
 */
export function lineObject(ctx: Ctx, invoice: Obj, input: LineInput): Obj {
  const price = resolvePrice(ctx, input.price, 'price');
  const quantity = input.quantity ?? 1;
  const amount = input.amount ?? (price ? priceAmount(price, quantity) : 0);
  const subscription =
    input.subscription ?? invoice.parent?.subscription_details?.subscription ?? null;
  const now = nowSeconds(ctx);
  const unit = price
    ? (price.unit_amount_decimal ?? (price.unit_amount != null ? String(price.unit_amount) : null))
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
        type: 'subscription_item_details',
      }
    : {
        invoice_item_details: {
          invoice_item: input.invoice_item ?? newId(ctx, 'ii_'),
          proration,
          proration_details: { credited_items: null },
          subscription,
        },
        subscription_item_details: null,
        type: 'invoice_item_details',
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
  billing_reason?: string;
  currency?: string | null;
  lines: LineInput[];
}

/**
 * Previewers for `POST /v1/invoices/create_preview` with `subscription` or `subscription_details`: the subscriptions
 * module registers one (it owns what a subscription's next invoice holds), given the request's parameters.
 */
export const invoicePreviewers: {
  subscription?: (c: OpContext, params: Record<string, any>) => SubscriptionPreview;
} = {};

/** Add a line to a draft and return the refreshed invoice; see the module comment. */
export function addInvoiceLine(c: OpContext, invoice: InvoiceRef, input: LineInput): Obj {
  addLine(c, mustInvoice(c.ctx, idOf(invoice)), input);
  return refreshInvoice(c.ctx, idOf(invoice));
}

/** The next invoice number of a customer (as stored), advancing its sequence; and the customer as it is stored now. */
function takeNumber(ctx: Ctx, customer: Obj): { number: string; customer: Obj } {
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
function applyCustomerBalance(c: OpContext, invoice: Obj, customer: Obj): void {
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
  const txn: Obj = {
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
export function finalizeInvoice(c: OpContext, invoiceRef: InvoiceRef): Obj {
  const ctx = c.ctx;
  const id = idOf(invoiceRef);
  const stored = mustInvoice(ctx, id);
  if (stored.status !== 'draft') {
    throw invalidRequest(
      "This invoice is already finalized, you can't re-finalize a non-draft invoice.",
      undefined,
      'invoice_not_editable',
    );
  }
  // Its lines and totals as its stored lines make them (`refreshInvoice`, stored with the rest by `finalizeDraft`).
  return finalizeDraft(c, applyLines(stored, linesOf(ctx, id)));
}

/** Finalize `invoice`, a draft with its lines and totals that the caller holds as its own; stores it. */
function finalizeDraft(c: OpContext, invoice: Obj): Obj {
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
  const account = accountOf(ctx).id as string;
  invoice.status = 'open';
  invoice.hosted_invoice_url = `https://invoice.stripe.com/i/${account}/test_${token}?s=ap`;
  invoice.invoice_pdf = `https://pay.stripe.com/invoice/${account}/test_${token}/pdf?s=ap`;
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
function markPaid(c: OpContext, invoice: Obj, amount: number | null, payments?: Obj[]): Obj {
  const now = nowSeconds(c.ctx);
  invoice.status = 'paid';
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

/** The invoice's payments, as embedded in it. */
function paymentsList(ctx: Ctx, invoiceId: string): Obj {
  return paymentsListOf(rows(ctx, 'invoice_payments', 'invoice = ?', [invoiceId]));
}

/** An invoice's payment records (newest first) as the list embedded in it. */
function paymentsListOf(data: Obj[]): Obj {
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: '/v1/invoice_payments',
  };
}

/**
 * The invoice's default payment record (the one its collection uses), made when first needed. `payments`: the
 * invoice's records, newest first.
 */
function defaultPayment(c: OpContext, invoice: Obj, paymentIntent: Obj, payments: Obj[]): Obj {
  const found = payments.find((p) => p.payment?.payment_intent === paymentIntent.id);
  if (found) return found;
  const record: Obj = {
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

function paymentPaid(c: OpContext, record: Obj, amount: number): Obj {
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
}

const PAYABLE = ['open', 'uncollectible'];

/** Collect an invoice; see the module comment. */
export function payInvoice(
  c: OpContext,
  invoiceRef: InvoiceRef,
  options: PayOptions = {},
): Obj | Failed {
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
  if (!PAYABLE.includes(current.status))
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
  let pm: Obj | undefined;
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
  let pi = open ? get(ctx, 'payment_intents', open.payment.payment_intent) : undefined;
  if (
    !pi ||
    !['requires_payment_method', 'requires_confirmation'].includes(pi.status) ||
    pi.amount !== invoice.amount_remaining
  ) {
    pi = createPaymentIntent(c, {
      amount: invoice.amount_remaining,
      currency: invoice.currency,
      customer: customer.deleted ? null : customer.id,
      description: 'Payment for Invoice',
      metadata: {},
    });
  }
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
  invoice.next_payment_attempt =
    invoice.auto_advance &&
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
    payment_intent: structuredClone(out),
  });
}

/** Void an open or uncollectible invoice (`invoice.voided`); credit taken from the customer balance goes back. */
export function voidInvoice(c: OpContext, invoiceRef: InvoiceRef): Obj {
  const ctx = c.ctx;
  const before = mustInvoice(ctx, idOf(invoiceRef));
  if (!PAYABLE.includes(before.status)) {
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
  const invoice = structuredClone(before);
  invoice.status = 'void';
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
    const pi = get(ctx, 'payment_intents', record.payment.payment_intent);
    if (
      pi &&
      ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)
    ) {
      const canceled = {
        ...pi,
        status: 'canceled',
        canceled_at: nowSeconds(ctx),
        cancellation_reason: 'void_invoice',
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
function restoreBalance(c: OpContext, invoice: Obj): void {
  const moved = (invoice.ending_balance ?? invoice.starting_balance) - invoice.starting_balance;
  if (!moved) return;
  const customer = getCustomer(c.ctx, invoice.customer);
  if (customer.deleted) return;
  const end = (customer.balance as number) - moved;
  const txn: Obj = {
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
export function markUncollectible(c: OpContext, invoiceRef: InvoiceRef): Obj {
  const ctx = c.ctx;
  const before = mustInvoice(ctx, idOf(invoiceRef));
  if (before.status !== 'open') {
    throw invalidRequest(
      `You can only mark an open invoice as uncollectible; invoice ${before.id} is ${before.status}.`,
      undefined,
      'invoice_not_editable',
    );
  }
  const invoice = structuredClone(before);
  invoice.status = 'uncollectible';
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
 * What time does to invoices, up to the world clock: auto-advancing drafts whose `automatically_finalizes_at` has
 * passed are finalized (and collected, if they charge automatically), and open invoices whose
 * `next_payment_attempt` has come are charged again. Declines are recorded, never thrown.
 */
export function collectDueInvoices(c: OpContext): void {
  const ctx = c.ctx;
  const now = nowSeconds(ctx);
  for (const draft of rows(ctx, 'invoices', "status = 'draft'", [], true)) {
    if (
      !draft.auto_advance ||
      draft.automatically_finalizes_at === null ||
      draft.automatically_finalizes_at > now
    )
      continue;
    const open = finalizeInvoice(c, draft);
    if (open.status === 'open' && open.collection_method === 'charge_automatically')
      attemptQuietly(c, open);
  }
  for (const open of rows(ctx, 'invoices', "status = 'open'", [], true)) {
    if (
      open.collection_method !== 'charge_automatically' ||
      !open.auto_advance ||
      open.next_payment_attempt === null ||
      open.next_payment_attempt > now
    )
      continue;
    attemptQuietly(c, open);
  }
}

/** A payment attempt whose failure is only recorded (a background collection has no caller to answer). */
export function attemptQuietly(c: OpContext, invoice: Obj): Obj {
  try {
    const out = payInvoice(c, invoice, { off_session: true });
    return isFailed(out) ? mustInvoice(c.ctx, invoice.id) : out;
  } catch (e) {
    // Nothing to charge (no payment method): Stripe counts the attempt and waits for the next one.
    const current = structuredClone(mustInvoice(c.ctx, invoice.id));
    if (current.status !== 'open') throw e;
    current.attempt_count += 1;
    current.attempted = true;
    current.next_payment_attempt =
      current.attempt_count < MAX_ATTEMPTS ? nowSeconds(c.ctx) + RETRY_DAYS * DAY : null;
    put(c.ctx, 'invoices', current);
    emit(c, 'invoice.payment_failed', current);
    return current;
  }
}
