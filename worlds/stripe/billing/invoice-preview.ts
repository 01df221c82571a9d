/**
 * `POST /v1/invoices/create_preview`: the invoice a customer would get, built in memory from their pending items, the
 * request's `invoice_items`, or a subscription's next period (subscription-preview.ts), and never stored. It previews
 * a subscription (or a change to one, or a new one) or the request's `invoice_items`; a request with none is 400.
 */
import { previewChange } from './subscription-preview-changes.ts';
import { applyTaxes } from './invoice-taxes.ts';
import { refuseUnsupported } from './invoices.ts';
import type { PreviewParams } from './invoice-preview-params.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import {
  applyLines,
  lineForItem,
  lineObject,
  pendingItems,
  draftObject,
  type LineInput,
  type SubscriptionPreview,
} from './invoicing.ts';
import { tierLines } from './tier-lines.ts';
import { previewSubscription } from './subscription-preview.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { type OpContext } from '../lib/op.ts';
import { get, newId, type Stored } from '../lib/store.ts';
import { livePrice } from '../resources/price-model.ts';

/**
 * `create_preview`: the invoice the customer would get now — their pending items plus `invoice_items` (or, through a
 * subscription-preview.ts, a subscription's next invoice) — built in memory and never stored; its id is `upcoming_in_…`
 * and the customer balance is applied as finalization would.
 */
export function preview(
  c: OpContext,
  params: PreviewParams,
  part?: SubscriptionPreview,
): Stored<'invoices'> {
  const ctx = c.ctx;
  refuseUnsupported({
    discounts: params.discounts,
    on_behalf_of: params.on_behalf_of,
    automatic_tax: params.automatic_tax,
    issuer: params.issuer,
  });
  // Since 2025-03-31.basil a preview is of a subscription, a schedule or the given items, never of a customer as a
  // whole (what the removed GET /v1/invoices/upcoming answered).
  if (
    part === undefined &&
    !params.subscription &&
    !params.subscription_details?.items &&
    !params.schedule &&
    // Schedules are refused below; their details are read only for what the refusal names.
    !(params.schedule_details as { phases?: unknown } | null | undefined)?.phases &&
    !params.invoice_items
  )
    throw invalidRequest(
      'You must provide at least one of: `subscription`, `schedule`, `subscription_details.items`, `schedule_details.phases`, `invoice_items`.',
    );
  if (params.schedule || params.schedule_details)
    throw invalidRequest(
      'Subscription schedules are not supported by this account.',
      params.schedule ? 'schedule' : 'schedule_details',
    );
  // A change to a subscription (or a new one) is previewed on it as changed, then undone (subscription-preview-changes.ts).
  if (params.subscription_details && part === undefined)
    return previewChange(c, params, params.subscription_details, (rest, changed) =>
      preview(c, rest, changed),
    );
  const sub =
    part ??
    (params.subscription
      ? previewSubscription(c, { subscription: params.subscription, customer: params.customer })
      : undefined);
  const customerId = params.customer ?? sub?.customer;
  if (!customerId)
    throw invalidRequest('Missing required param: customer.', 'customer', 'parameter_missing');
  const customer = liveCustomer(ctx, customerId);
  const invoice: Stored<'invoices'> = draftObject(
    ctx,
    {
      customer: customer.id,
      subscription: sub?.subscription ?? null,
      currency: params.currency ?? sub?.currency,
      billing_reason: sub?.billing_reason ?? (sub ? 'upcoming' : 'manual'),
      period: sub?.period,
    },
    customer,
    `upcoming_${newId(ctx, 'in_')}`,
  );
  const overrides = new Map<string, Stored<'invoiceitems'>>();
  const extra: LineInput[] = [];
  (params.invoice_items ?? []).forEach((item, i) => {
    const param = (k: string) => `invoice_items[${i}][${k}]`;
    const price: Stored<'prices'> | null = item.price
      ? livePrice(ctx, item.price, param('price'))
      : null;
    const quantity = item.quantity ?? 1;
    let amount: number | null = item.amount ?? null;
    if (item.price_data)
      amount = Math.round(
        (item.price_data.unit_amount ?? Number(item.price_data.unit_amount_decimal ?? 0)) *
          quantity,
      );
    else if (item.unit_amount != null || item.unit_amount_decimal != null)
      amount = Math.round((item.unit_amount ?? Number(item.unit_amount_decimal)) * quantity);
    if (item.invoiceitem) {
      const existing = get(ctx, 'invoiceitems', item.invoiceitem);
      if (!existing || existing.customer !== customer.id)
        throw resourceMissing('invoiceitem', item.invoiceitem, param('invoiceitem'));
      overrides.set(existing.id, {
        ...existing,
        ...(amount !== null ? { amount } : {}),
        ...(item.description !== undefined ? { description: item.description } : {}),
        quantity,
      });
      return;
    }
    if (!price && amount === null)
      throw invalidRequest(
        'You must specify either `amount`, `price`, or `price_data`.',
        param('amount'),
        'parameter_missing',
      );
    const currency = (
      price?.currency ??
      item.price_data?.currency ??
      item.currency ??
      invoice.currency
    ).toLowerCase();
    if (currency !== invoice.currency)
      throw invalidRequest(
        `The currency of this invoice item (${currency}) must match the currency of the invoice (${invoice.currency}).`,
        param('currency'),
      );
    extra.push({
      price,
      amount,
      currency,
      quantity,
      description: item.description ?? null,
      period: item.period ?? null,
      // As given: a key set to empty (null) stays on the preview's line.
      metadata: (item.metadata ?? null) as Record<string, string> | null,
      discountable: item.discountable ?? undefined,
    });
  });
  const lines: Stored<'invoice_line_items'>[] = [];
  for (const item of pendingItems(ctx, customer.id, invoice.currency, sub?.subscription ?? null))
    lines.push(lineForItem(ctx, overrides.get(item.id) ?? item, invoice.id));
  // A subscription item on a tiered price is a line per tier, as on the invoice itself (tier-lines.ts).
  for (const line of [...(sub?.lines ?? []), ...extra])
    for (const part of tierLines(ctx, line)) lines.push(lineObject(ctx, invoice, part));
  applyLines(invoice, applyTaxes(ctx, invoice, lines, false));
  invoice.lines.url = `/v1/invoices/${invoice.id}/lines`;
  const balance = (customer.balance as number | undefined) ?? 0;
  invoice.starting_balance = balance;
  if (balance < 0)
    invoice.amount_due = Math.max(
      0,
      invoice.total - Math.min(-balance, Math.max(invoice.total, 0)),
    );
  else invoice.amount_due = Math.max(0, invoice.total + balance);
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = null;
  return invoice;
}
