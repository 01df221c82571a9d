/**
 * Invoice items: one-off charges (or credits) for a customer. An item without an invoice is pending and joins the
 * customer's next invoice that takes pending items; one on a draft is that draft's line (invoicing.ts keeps the two
 * in step). Once its invoice is finalized an item is frozen. The price comes from `pricing[price]` (API versions from
 * 2025-03-31 on), the older `price`, an inline `price_data`, or `amount` with `currency`.
 */
import { taxRatesFor } from './invoice-taxes.ts';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import {
  createInvoiceItem,
  decimalAmount,
  lineOfItem,
  mustInvoice,
  priceFromParams,
  refreshInvoice,
  updateInvoiceItem,
} from './invoicing.ts';
import { listPage } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, p } from '../lib/params.ts';
import { get, remove, type Stored } from '../lib/store.ts';
import type { Ctx, SqlParam } from 'seahaven';

const period = p.obj({ start: p.int().req(), end: p.int().req() });
const priceData = p.obj({
  currency: p.string().req(),
  product: p.string().req(),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  unit_amount: p.int(),
  unit_amount_decimal: p.decimal(),
});

/** What create and update share. */
const writable = {
  amount: p.int(),
  description: p.string(),
  discountable: p.bool(),
  metadata: p.metadata(),
  period,
  price: p.string(),
  price_data: priceData,
  pricing: p.obj({ price: p.string() }),
  quantity: p.int(0),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  tax_code: p.string(),
  unit_amount_decimal: p.decimal(),
};

function mustItem(ctx: Ctx, id: string, param = 'invoiceitem'): Stored<'invoiceitems'> {
  const item = get(ctx, 'invoiceitems', id);
  if (item === undefined) throw resourceMissing('invoiceitem', id, param);
  return item;
}

/** 400 unless the item may still change: pending, or on a draft. */
function requireEditable(ctx: Ctx, item: Stored<'invoiceitems'>, verb: string): void {
  if (!item.invoice) return;
  const invoice = get(ctx, 'invoices', item.invoice);
  if (invoice && invoice.status !== 'draft') {
    throw invalidRequest(
      `You can only ${verb} invoice items that are pending or on a draft invoice; ${item.id} is on invoice ${invoice.id}, which is ${invoice.status}.`,
      undefined,
      'invoice_not_editable',
    );
  }
}

export const invoiceItemsOps = [
  op({
    id: 'PostInvoiceitems',
    method: 'POST',
    path: '/v1/invoiceitems',
    params: {
      ...writable,
      currency: p.string(),
      customer: p.string().req(),
      customer_account: p.string(),
      invoice: p.string(),
      subscription: p.string(),
      tax_rates: p.arr(p.string()),
      discounts: p.arr(
        p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
      ),
    },
    run(c, params) {
      if (params.discounts?.length)
        throw invalidRequest(
          'Discounts on invoice items are not supported in this account.',
          'discounts',
        );
      const price = priceFromParams(c, params);
      const quantity = params.quantity ?? 1;
      let amount: number | undefined = params.amount ?? undefined;
      if (price && amount !== undefined)
        throw invalidRequest(
          'You may only specify one of these parameters: amount, price.',
          'amount',
        );
      if (params.unit_amount_decimal !== undefined && params.unit_amount_decimal !== null) {
        if (price || amount !== undefined)
          throw invalidRequest(
            'You may only specify one of these parameters: amount, price, unit_amount_decimal.',
            'unit_amount_decimal',
          );
        amount = decimalAmount(params.unit_amount_decimal, quantity);
      }
      if (params.subscription) {
        const sub = get(c.ctx, 'subscriptions', params.subscription);
        if (!sub) throw resourceMissing('subscription', params.subscription, 'subscription');
        if (sub.customer !== params.customer)
          throw invalidRequest(
            `The subscription ${sub.id} belongs to another customer.`,
            'subscription',
          );
      }
      const invoiceBefore = params.invoice ? get(c.ctx, 'invoices', params.invoice) : undefined;
      const item = createInvoiceItem(c, {
        customer: params.customer,
        amount,
        currency: params.currency,
        price,
        quantity,
        description: params.description,
        period: params.period,
        invoice: params.invoice,
        subscription: params.subscription,
        metadata: params.metadata,
        discountable: params.discountable,
        unit_amount_decimal: params.unit_amount_decimal,
        tax_rates: taxRatesFor(c.ctx, params.tax_rates, 'tax_rates'),
      });
      if (invoiceBefore) invoiceUpdated(c, invoiceBefore);
      return item;
    },
  }),
  op({
    id: 'GetInvoiceitemsInvoiceitem',
    method: 'GET',
    path: '/v1/invoiceitems/{invoiceitem}',
    params: {},
    run: (c, _params, path) => mustItem(c.ctx, path.invoiceitem),
  }),
  op({
    id: 'PostInvoiceitemsInvoiceitem',
    method: 'POST',
    path: '/v1/invoiceitems/{invoiceitem}',
    params: {
      ...writable,
      tax_rates: p.arr(p.string()),
      discounts: p.arr(
        p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
      ),
    },
    run(c, params, path) {
      const ctx = c.ctx;
      const before = mustItem(ctx, path.invoiceitem);
      requireEditable(ctx, before, 'update');
      if (params.discounts?.length)
        throw invalidRequest(
          'Discounts on invoice items are not supported in this account.',
          'discounts',
        );
      const invoiceBefore = before.invoice ? mustInvoice(ctx, before.invoice) : undefined;
      const after = updateInvoiceItem(c, before, params);
      if (invoiceBefore) invoiceUpdated(c, invoiceBefore);
      return after;
    },
  }),
  op({
    id: 'DeleteInvoiceitemsInvoiceitem',
    method: 'DELETE',
    path: '/v1/invoiceitems/{invoiceitem}',
    params: {},
    run(c, _params, path) {
      const ctx = c.ctx;
      const item = mustItem(ctx, path.invoiceitem);
      requireEditable(ctx, item, 'delete');
      const line = lineOfItem(ctx, item);
      remove(ctx, 'invoiceitems', item.id);
      emit(c, 'invoiceitem.deleted', item);
      if (line && item.invoice) {
        const invoiceBefore = mustInvoice(ctx, item.invoice);
        remove(ctx, 'invoice_line_items', line.id);
        invoiceUpdated(c, invoiceBefore);
      }
      return { id: item.id, object: 'invoiceitem', deleted: true };
    },
  }),
  op({
    id: 'GetInvoiceitems',
    method: 'GET',
    path: '/v1/invoiceitems',
    params: {
      ...listParams,
      customer: p.string(),
      customer_account: p.string(),
      invoice: p.string(),
      pending: p.bool(),
    },
    run(c, params) {
      const where: [string, ...SqlParam[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      if (params.invoice) where.push(['invoice = ?', params.invoice]);
      if (params.pending === true) where.push(['invoice IS NULL']);
      if (params.pending === false) where.push(['invoice IS NOT NULL']);
      return listPage(c.ctx, 'invoiceitems', params, {
        url: '/v1/invoiceitems',
        what: 'invoiceitem',
        where,
      });
    },
  }),
];

/** A draft's totals after its items changed, announced as `invoice.updated` against the invoice as it was. */
function invoiceUpdated(c: OpContext, before: Stored<'invoices'>): void {
  const after = refreshInvoice(c.ctx, before.id);
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length > 0) emit(c, 'invoice.updated', after, changed);
}
