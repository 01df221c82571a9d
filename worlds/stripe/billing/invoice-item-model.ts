/**
 * The invoice item model: pending items of a customer, the items behind an invoice's one-off lines, and the price a
 * line names (by id, or made inline from `price_data`).
 */
import { taxRatesFor } from './invoice-taxes.ts';
import { type Ctx, type SqlParam } from 'seahaven';
import { createProduct, liveProduct } from '../resources/price-fields.ts';
import { createPrice, livePrice } from '../resources/price-model.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { changedAttributes, putAndEmit } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Obj, type Stored } from '../lib/store.ts';
import { mustInvoice, linesOf, refreshInvoice } from './invoice-store.ts';
import { requireDraft } from './invoice-states.ts';
import { type Period, priceAmount, pricingOf, decimalOf, decimalAmount } from './invoice-totals.ts';
import { copyJson } from '../lib/clone.ts';

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
  /** Tax rate objects (invoice-taxes.ts `taxRatesFor`); none means the invoice's defaults apply. */
  tax_rates?: Obj[] | null;
  /** The unit amount when `amount` came from a decimal unit amount times the quantity. */
  unit_amount_decimal?: string | null;
  /** Parameter names for errors (the line endpoints name fields `lines[0][…]`). */
  param?: (name: string) => string;
}

export function resolvePrice(
  ctx: Ctx,
  price: string | Obj | null | undefined,
  param: string,
): Obj | null {
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
  const after = copyJson(before);
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
  if (params.tax_rates !== undefined)
    after.tax_rates = taxRatesFor(ctx, params.tax_rates, name('tax_rates'));
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length === 0) return before;
  put(ctx, 'invoiceitems', after);
  const line = lineOfItem(ctx, after);
  if (line) put(ctx, 'invoice_line_items', lineForItem(ctx, after, after.invoice, line.id));
  return after;
}

/** Build, store and announce an invoice item (`invoiceitem.created`). Checks the invoice it joins, if any. */
export function createInvoiceItem(c: OpContext, input: InvoiceItemInput): Stored<'invoiceitems'> {
  return newInvoiceItem(c, input, null);
}

/**
 * `createInvoiceItem`, where `draft` is the invoice `input.invoice` names when the caller holds it already: a draft
 * `buildDraft` is building, not stored yet, or one `addInvoiceLine` has just read. The item's line is stored,
 * but the invoice is not refreshed: its holder stores it once, with all its lines.
 */
export function newInvoiceItem(
  c: OpContext,
  input: InvoiceItemInput,
  draft: Stored<'invoices'> | null,
): Obj {
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
  const item: Stored<'invoiceitems'> = {
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
    tax_rates: input.tax_rates ?? [],
    test_clock: customer.test_clock ?? null,
  };
  putAndEmit(c, 'invoiceitems', item, 'invoiceitem.created');
  if (invoice) {
    put(ctx, 'invoice_line_items', lineForItem(ctx, item, invoice.id));
    if (!draft) refreshInvoice(ctx, invoice.id);
  }
  return item;
}

/** The line an attached invoice item shows as. `id` keeps an existing line's id. */
export function lineForItem(
  ctx: Ctx,
  item: Stored<'invoiceitems'>,
  invoiceId: string,
  id?: string,
): Stored<'invoice_line_items'> {
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
    pricing: copyJson(item.pricing),
    quantity: item.quantity,
    quantity_decimal: item.quantity_decimal,
    subscription,
    subtotal: item.amount,
    taxes: [],
  };
}

/** The line of an attached invoice item, if it has one. */
export function lineOfItem(
  ctx: Ctx,
  item: Stored<'invoiceitems'>,
): Stored<'invoice_line_items'> | undefined {
  if (!item.invoice) return undefined;
  return linesOf(ctx, item.invoice).find(
    (l) => l.parent?.invoice_item_details?.invoice_item === item.id,
  );
}

/**
 * Pending invoice items of the customer that a new invoice takes in, in its currency. A subscription's invoice takes the
 * subscription's items and those of no subscription, which go to the customer's next subscription invoice; the items of
 * another subscription wait for that one's. An invoice of no subscription takes the items of none.
 */
export function pendingItems(
  ctx: Ctx,
  customer: string,
  currency: string,
  subscription: string | null,
): Obj[] {
  const args: SqlParam[] = [customer];
  return rows(ctx, 'invoiceitems', 'customer = ? AND invoice IS NULL', args, true).filter((ii) => {
    const own = ii.parent?.subscription_details?.subscription ?? null;
    return ii.currency === currency && (own === subscription || own === null);
  });
}
