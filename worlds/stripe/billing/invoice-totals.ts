/**
 * An invoice's totals, pure: the amount of a price for a quantity, a line's pricing, and the totals and embedded
 * `lines` an invoice shows for its lines. Nothing here reads or writes the database.
 */
import type { LineItemPricing } from '../lib/objects.ts';
import type { Stored } from '../lib/store.ts';

type Price = Stored<'prices'>;

/** What an amount is computed from: a stored price, or the same fields of an inline `price_data`. */
type Priced = Partial<
  Pick<
    Price,
    | 'billing_scheme'
    | 'tiers'
    | 'tiers_mode'
    | 'unit_amount'
    | 'unit_amount_decimal'
    | 'transform_quantity'
  >
>;
import { totalTaxes } from './invoice-taxes.ts';
import { tieredAmount } from './tiers.ts';

/** How many lines an invoice embeds in its `lines` (the rest are paged through `/lines`). */
const EMBEDDED_LINES = 10;

export interface Period {
  start: number;
  end: number;
}

/** The amount `quantity` units of `price` come to: per unit (with `transform_quantity`) or by tiers (tiers.ts). */
export function priceAmount(price: Priced, quantity: number): number {
  if (price.billing_scheme === 'tiered' && Array.isArray(price.tiers))
    return tieredAmount(price.tiers_mode ?? 'graduated', price.tiers, quantity);
  const per = price.unit_amount ?? Number(price.unit_amount_decimal ?? 0);
  const tq = price.transform_quantity;
  if (tq?.divide_by) {
    const units = quantity / tq.divide_by;
    return Math.round(per * (tq.round === 'down' ? Math.floor(units) : Math.ceil(units)));
  }
  return Math.round(per * quantity);
}

/** The `pricing` hash of an item or line: the price it came from, and the unit amount. */
export function pricingOf(price: Price | null, unitDecimal: string | null): LineItemPricing {
  return price
    ? {
        price_details: { price: price.id, product: price.product },
        type: 'price_details' as const,
        unit_amount_decimal: unitDecimal,
      }
    : { type: 'price_details' as const, unit_amount_decimal: unitDecimal };
}

/** A decimal string for a unit amount, without float noise. */
export function decimalOf(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(12)));
}

/** An amount in whole minor units from a `unit_amount_decimal` and a quantity. */
export function decimalAmount(unit: string, quantity: number): number {
  return Math.round(Number(unit) * quantity);
}

/** Set an invoice's embedded `lines` and, while it is a draft, its totals from `lines` (all of them, in order). */
export function applyLines(
  invoice: Stored<'invoices'>,
  lines: Stored<'invoice_line_items'>[],
): Stored<'invoices'> {
  // Stripe counts an invoice's lines on the list it embeds, beyond the SDK's list type.
  const embedded = {
    object: 'list' as const,
    data: lines.slice(0, EMBEDDED_LINES),
    has_more: lines.length > EMBEDDED_LINES,
    total_count: lines.length,
    url: `/v1/invoices/${invoice.id}/lines`,
  };
  invoice.lines = embedded;
  if (invoice.status !== 'draft') return invoice;
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  // Taxes (invoice-taxes.ts): inclusive ones are inside the lines' amounts, exclusive ones add to the total.
  const taxes = totalTaxes(lines);
  const taxed = (behavior: string) =>
    taxes.filter((t) => t.tax_behavior === behavior).reduce((sum, t) => sum + t.amount, 0);
  const total = subtotal + taxed('exclusive');
  invoice.subtotal = subtotal;
  invoice.subtotal_excluding_tax = subtotal - taxed('inclusive');
  invoice.total = total;
  invoice.total_excluding_tax = subtotal - taxed('inclusive');
  invoice.total_taxes = taxes;
  invoice.amount_due = Math.max(0, total);
  invoice.amount_remaining = invoice.amount_due - invoice.amount_paid;
  if (invoice.parent === null && lines.length > 0 && invoice.billing_reason === 'manual') {
    invoice.period_start = Math.min(invoice.created, ...lines.map((l) => l.period.start));
    invoice.period_end = Math.max(invoice.created, ...lines.map((l) => l.period.end));
  }
  return invoice;
}

/** A line to add to a draft (drafting.ts `addLine`), as billing code gives it. */
export interface LineInput {
  /** A price id or object; the amount is the price times the quantity unless `amount` is given. */
  price?: string | Stored<'prices'> | null;
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
  /** The unit amount the line's pricing shows, when not its price's (a tier's, tier-lines.ts). */
  unit_amount_decimal?: string | null;
}
