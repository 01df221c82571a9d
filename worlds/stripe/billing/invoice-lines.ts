/**
 * An invoice's lines: listed in the order they were added; on a draft, added, removed and changed in bulk or one at a
 * time. A one-off line is its invoice item seen from the invoice, so changing the line changes the item (and
 * `remove_lines` either deletes the item or, with `behavior=unassign`, sends it back to pending). A subscription's line
 * takes only description, metadata, period and discountable; its amount follows the subscription.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import {
  addInvoiceLine,
  inlinePrice,
  linesOf,
  mustInvoice,
  refreshInvoice,
  requireDraft,
  updateInvoiceItem,
} from './invoicing.ts';
import { limitOf, listOf } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import { mergeMetadata, p } from '../lib/params.ts';
import { get, put, remove, type Obj, type Stored } from '../lib/store.ts';
import { copyJson } from '../lib/clone.ts';

const period = p.obj({ start: p.int().req(), end: p.int().req() });
const discounts = p.arr(
  p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() }),
);
const priceData = p.obj({
  currency: p.string().req(),
  product: p.string(),
  product_data: p.obj({
    name: p.string().req(),
    description: p.string(),
    images: p.arr(p.string()),
    metadata: p.metadata(),
    tax_code: p.string(),
    unit_label: p.string(12),
  }),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  unit_amount: p.int(),
  unit_amount_decimal: p.decimal(),
});

/** The fields a line takes, on add, update and bulk update. */
const lineFields = {
  amount: p.int(),
  description: p.string(),
  discountable: p.bool(),
  discounts,
  metadata: p.metadata(),
  period,
  price_data: priceData,
  pricing: p.obj({ price: p.string() }),
  quantity: p.int(0),
  quantity_decimal: p.decimal(),
  tax_amounts: p.arr(p.any()),
  tax_rates: p.arr(p.string()),
};

/** Refuse what this account has no model for (line discounts, tax amounts and rates). */
function refuseUnsupported(line: Obj, name: (k: string) => string): void {
  for (const k of ['discounts', 'tax_amounts', 'tax_rates']) {
    if (Array.isArray(line[k]) && line[k].length > 0)
      throw invalidRequest(`${k} on invoice lines are not supported by this account.`, name(k));
  }
  if (line.quantity_decimal != null && line.quantity == null)
    throw invalidRequest(
      'quantity_decimal is not supported by this account; pass a whole quantity.',
      name('quantity_decimal'),
    );
}

/** A line of the invoice, or Stripe's 404. */
function mustLine(c: OpContext, invoice: Stored<'invoices'>, id: string, param: string): Obj {
  const line = get(c.ctx, 'invoice_line_items', id);
  if (!line || line.invoice !== invoice.id) throw resourceMissing('invoice line item', id, param);
  return line;
}

/** Change one line of a draft (through its invoice item when it has one); returns the line as stored. */
function updateLine(c: OpContext, line: Obj, params: Obj, name: (k: string) => string): Obj {
  refuseUnsupported(params, name);
  const itemId = line.parent?.invoice_item_details?.invoice_item;
  if (itemId) {
    const item = get(c.ctx, 'invoiceitems', itemId);
    if (!item) throw resourceMissing('invoiceitem', itemId, name('id'));
    updateInvoiceItem(c, item, params, name);
    return get(c.ctx, 'invoice_line_items', line.id) as Obj;
  }
  for (const k of ['amount', 'price_data', 'pricing', 'quantity']) {
    if (params[k] !== undefined)
      throw invalidRequest(
        `The ${k} of a subscription's line follows its subscription; update the subscription instead.`,
        name(k),
      );
  }
  const after = copyJson(line);
  if (params.description !== undefined) after.description = params.description;
  if (params.discountable != null) after.discountable = params.discountable;
  if (params.period) after.period = { end: params.period.end, start: params.period.start };
  if (params.metadata !== undefined)
    after.metadata = mergeMetadata(line.metadata ?? {}, params.metadata);
  put(c.ctx, 'invoice_line_items', after);
  return after;
}

/** `invoice_metadata` of the bulk line endpoints, merged into the invoice. */
function applyInvoiceMetadata(
  c: OpContext,
  invoiceId: string,
  metadata: Obj | null | undefined,
): void {
  if (metadata === undefined) return;
  const invoice = mustInvoice(c.ctx, invoiceId);
  put(c.ctx, 'invoices', { ...invoice, metadata: mergeMetadata(invoice.metadata ?? {}, metadata) });
}

/** Refresh the draft and announce it as `invoice.updated` against `before`. */
function finish(c: OpContext, before: Obj): Obj {
  const after = refreshInvoice(c.ctx, before.id);
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length > 0) emit(c, 'invoice.updated', after, changed);
  return after;
}

export const invoiceLinesOps = [
  op({
    id: 'GetInvoicesInvoiceLines',
    method: 'GET',
    path: '/v1/invoices/{invoice}/lines',
    params: { limit: p.int(), starting_after: p.string(), ending_before: p.string() },
    run(c, params, path) {
      const invoice = mustInvoice(c.ctx, path.invoice);
      const limit = limitOf(params.limit);
      if (params.starting_after && params.ending_before) {
        throw invalidRequest(
          'Received both starting_after and ending_before parameters. Please pass in only one.',
          'starting_after',
        );
      }
      const all = linesOf(c.ctx, invoice.id);
      const url = `/v1/invoices/${invoice.id}/lines`;
      const cursor = params.starting_after ?? params.ending_before;
      if (!cursor) return listOf(all.slice(0, limit), url, all.length > limit);
      const at = all.findIndex((l) => l.id === cursor);
      if (at < 0)
        throw resourceMissing(
          'invoice line item',
          cursor,
          params.starting_after ? 'starting_after' : 'ending_before',
        );
      if (params.starting_after)
        return listOf(all.slice(at + 1, at + 1 + limit), url, all.length > at + 1 + limit);
      const from = Math.max(0, at - limit);
      return listOf(all.slice(from, at), url, from > 0);
    },
  }),
  op({
    id: 'PostInvoicesInvoiceLinesLineItemId',
    method: 'POST',
    path: '/v1/invoices/{invoice}/lines/{line_item_id}',
    params: lineFields,
    run(c, params, path) {
      const before = mustInvoice(c.ctx, path.invoice);
      const line = mustLine(c, before, path.line_item_id, 'line_item_id');
      requireDraft(before);
      const after = updateLine(c, line, params, (k) => k);
      finish(c, before);
      return after;
    },
  }),
  op({
    id: 'PostInvoicesInvoiceAddLines',
    method: 'POST',
    path: '/v1/invoices/{invoice}/add_lines',
    params: {
      lines: p.arr(p.obj({ ...lineFields, invoice_item: p.string() })).req(),
      invoice_metadata: p.metadata(),
    },
    run(c, params, path) {
      const before = mustInvoice(c.ctx, path.invoice);
      requireDraft(before);
      if (params.lines.length === 0)
        throw invalidRequest('Missing required param: lines.', 'lines', 'parameter_missing');
      params.lines.forEach((line: Obj, i: number) => {
        const name = (k: string) => `lines[${i}][${k}]`;
        refuseUnsupported(line, name);
        if (line.invoice_item) {
          const item = get(c.ctx, 'invoiceitems', line.invoice_item);
          if (!item || item.customer !== before.customer)
            throw resourceMissing('invoiceitem', line.invoice_item, name('invoice_item'));
          if (item.invoice)
            throw invalidRequest(
              `The invoice item ${item.id} is already on invoice ${item.invoice}.`,
              name('invoice_item'),
            );
          addInvoiceLine(c, before.id, { invoice_item: item.id });
          const { invoice_item: _unused, ...changes } = line;
          if (Object.keys(changes).length > 0)
            updateInvoiceItem(c, get(c.ctx, 'invoiceitems', item.id) as Obj, changes, name);
          return;
        }
        const given = (['pricing', 'price_data'] as const).filter(
          (k) => line[k] != null && !(k === 'pricing' && !line.pricing.price),
        );
        if (given.length > 1)
          throw invalidRequest(
            'You may only specify one of these parameters: pricing, price_data.',
            name(given[1]),
          );
        if (given.length === 0 && line.amount == null)
          throw invalidRequest(
            'You must specify either `amount`, `pricing[price]`, or `price_data`.',
            name('amount'),
            'parameter_missing',
          );
        if (given.length > 0 && line.amount != null)
          throw invalidRequest(
            `You may only specify one of these parameters: amount, ${given[0]}.`,
            name('amount'),
          );
        const price =
          given[0] === 'price_data'
            ? inlinePrice(c, line.price_data, name('price_data'))
            : given[0] === 'pricing'
              ? line.pricing.price
              : null;
        addInvoiceLine(c, before.id, {
          price,
          amount: line.amount,
          quantity: line.quantity,
          description: line.description,
          period: line.period,
          metadata: mergeMetadata({}, line.metadata),
          discountable: line.discountable ?? undefined,
        });
      });
      applyInvoiceMetadata(c, before.id, params.invoice_metadata);
      return finish(c, before);
    },
  }),
  op({
    id: 'PostInvoicesInvoiceRemoveLines',
    method: 'POST',
    path: '/v1/invoices/{invoice}/remove_lines',
    params: {
      lines: p
        .arr(p.obj({ behavior: p.enum('delete', 'unassign').req(), id: p.string().req() }))
        .req(),
      invoice_metadata: p.metadata(),
    },
    run(c, params, path) {
      const ctx = c.ctx;
      const before = mustInvoice(ctx, path.invoice);
      requireDraft(before);
      params.lines.forEach((entry: Obj, i: number) => {
        const line = mustLine(c, before, entry.id, `lines[${i}][id]`);
        remove(ctx, 'invoice_line_items', line.id);
        const itemId = line.parent?.invoice_item_details?.invoice_item;
        const item = itemId ? get(ctx, 'invoiceitems', itemId) : undefined;
        if (!item) return;
        if (entry.behavior === 'unassign') {
          const pending = { ...item, invoice: null };
          put(ctx, 'invoiceitems', pending);
        } else {
          remove(ctx, 'invoiceitems', item.id);
          emit(c, 'invoiceitem.deleted', item);
        }
      });
      applyInvoiceMetadata(c, before.id, params.invoice_metadata);
      return finish(c, before);
    },
  }),
  op({
    id: 'PostInvoicesInvoiceUpdateLines',
    method: 'POST',
    path: '/v1/invoices/{invoice}/update_lines',
    params: {
      lines: p.arr(p.obj({ ...lineFields, id: p.string().req() })).req(),
      invoice_metadata: p.metadata(),
    },
    run(c, params, path) {
      const before = mustInvoice(c.ctx, path.invoice);
      requireDraft(before);
      params.lines.forEach((entry: Obj, i: number) => {
        const name = (k: string) => `lines[${i}][${k}]`;
        const line = mustLine(c, before, entry.id, name('id'));
        const { id: _id, ...changes } = entry;
        updateLine(c, line, changes, name);
      });
      applyInvoiceMetadata(c, before.id, params.invoice_metadata);
      return finish(c, before);
    },
  }),
];
