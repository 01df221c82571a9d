/**
 * Tax rates on invoices: which rates a line is taxed at, and the tax each comes to. A line from an invoice item is
 * taxed at the item's `tax_rates`, else at the invoice's `default_tax_rates` (as Stripe applies them); every other
 * line at the invoice's defaults. Tax is reckoned per line and rate and rounded to the currency's minor unit there
 * (Stripe's default line-item rounding), half away from zero: an exclusive rate adds `amount × percentage` on top of
 * the line; inclusive rates are inside it, the line's net being `amount / (1 + Σ inclusive percentages)` and each
 * inclusive tax `net × percentage`. The lines' `taxes` are what invoice-totals.ts sums into the invoice's totals.
 */
import type { Ctx } from 'seahaven';
import { invalidRequest } from '../lib/errors.ts';
import type { LineItemTax } from '../lib/objects.ts';
import { get, put, type Stored } from '../lib/store.ts';
import { copyJson } from '../lib/clone.ts';

type TaxRate = Stored<'tax_rates'>;
type Line = Stored<'invoice_line_items'>;

/** What a line's tax is reckoned from: a rate's id, whether it is inclusive, and its percentage. */
type Rate = Pick<TaxRate, 'id' | 'inclusive' | 'percentage'> &
  Partial<Pick<TaxRate, 'effective_percentage'>>;

/** A line's tax for one rate, in the shape of a line item's `taxes` entries and an invoice's `total_taxes`. */
export interface LineTax {
  amount: number;
  tax_behavior: 'exclusive' | 'inclusive';
  tax_rate_details: { tax_rate: string };
  taxability_reason: LineItemTax['taxability_reason'];
  taxable_amount: number;
  type: 'tax_rate_details';
}

/** Half away from zero, so a credit's tax mirrors the charge's. */
function roundMinor(x: number): number {
  const r = Math.round(Math.abs(x) + 1e-9);
  return x < 0 ? -r : r;
}

const percentOf = (rate: Rate): number => Number(rate.effective_percentage ?? rate.percentage ?? 0);

/** The taxes of a line of `amount` at `rates`, in the rates' order. */
export function taxesFor(amount: number, rates: Rate[]): LineTax[] {
  const inclusive = rates.filter((r) => r.inclusive === true);
  const inclusivePercent = inclusive.reduce((sum, r) => sum + percentOf(r), 0);
  const net = amount / (1 + inclusivePercent / 100);
  const inclusiveTax = new Map(
    inclusive.map((r) => [r.id, roundMinor((net * percentOf(r)) / 100)]),
  );
  const taxable = amount - [...inclusiveTax.values()].reduce((a, b) => a + b, 0);
  return rates.map((r): LineTax => ({
    amount: inclusiveTax.get(r.id) ?? roundMinor((taxable * percentOf(r)) / 100),
    tax_behavior: r.inclusive === true ? 'inclusive' : 'exclusive',
    tax_rate_details: { tax_rate: r.id },
    // Manual tax rates carry no Stripe Tax reasoning.
    taxability_reason: 'not_available',
    taxable_amount: taxable,
    type: 'tax_rate_details',
  }));
}

/** The tax rates `ids` name, as objects; each must exist and be active. `param` names the parameter in errors. */
export function taxRatesFor(ctx: Ctx, ids: unknown, param: string): TaxRate[] {
  // An empty string (how the SDKs send an empty list) clears them.
  if (ids === undefined || ids === null || ids === '') return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
    throw invalidRequest(`Invalid array: ${param} must be a list of tax rate ids.`, param);
  const seen = new Set<string>();
  return (ids as string[]).map((id, i) => {
    const rate = get(ctx, 'tax_rates', id);
    if (rate === undefined)
      throw invalidRequest(`No such tax rate: '${id}'`, `${param}[${i}]`, 'resource_missing');
    if (!rate.active)
      throw invalidRequest(
        `Tax rate ${id} is archived (active: false); archived tax rates cannot be applied to new items. Use an active rate.`,
        `${param}[${i}]`,
      );
    if (seen.has(id))
      throw invalidRequest(`Tax rate ${id} is given more than once.`, `${param}[${i}]`);
    seen.add(id);
    return rate;
  });
}

/**
 * Subscription items not stored yet (a new subscription's first invoice is drafted before it is), by id, with their
 * `tax_rates`.
 */
export type ItemRates = Record<string, { tax_rates?: TaxRate[] | null }>;

/** The rates a line is taxed at on `invoice`: its invoice item's or subscription item's own, else the invoice's defaults. */
function ratesOfLine(
  ctx: Ctx,
  invoice: Stored<'invoices'>,
  line: Line,
  itemRates: ItemRates,
): TaxRate[] {
  const itemId = line.parent?.invoice_item_details?.invoice_item;
  const subItemId = line.parent?.subscription_item_details?.subscription_item;
  const item =
    typeof itemId === 'string'
      ? get(ctx, 'invoiceitems', itemId)
      : typeof subItemId === 'string'
        ? (itemRates[subItemId] ?? get(ctx, 'subscription_items', subItemId))
        : undefined;
  if (item && Array.isArray(item.tax_rates) && item.tax_rates.length > 0) return item.tax_rates;
  return Array.isArray(invoice.default_tax_rates) ? invoice.default_tax_rates : [];
}

/**
 * Set each line's `taxes` for a draft `invoice` (a finalized invoice's lines keep theirs), storing the lines whose
 * taxes changed unless `store` is false (a preview); `itemRates` names subscription items not stored yet. Returns
 * `lines`.
 */
export function applyTaxes(
  ctx: Ctx,
  invoice: Stored<'invoices'>,
  lines: Line[],
  store = true,
  itemRates: ItemRates = {},
): Line[] {
  if (invoice.status !== 'draft') return lines;
  for (const line of lines) {
    const taxes = taxesFor(line.amount, ratesOfLine(ctx, invoice, line, itemRates));
    if (JSON.stringify(taxes) === JSON.stringify(line.taxes ?? [])) continue;
    line.taxes = taxes;
    if (store) put(ctx, 'invoice_line_items', line);
  }
  return lines;
}

/** The invoice's `total_taxes`: the lines' taxes summed by rate and behaviour, in the order they first appear. */
export function totalTaxes(lines: Line[]): LineTax[] {
  const byRate = new Map<string, LineTax>();
  for (const line of lines)
    for (const t of (line.taxes ?? []) as LineTax[]) {
      const key = `${t.tax_rate_details?.tax_rate}|${t.tax_behavior}`;
      const sum = byRate.get(key);
      if (sum) {
        sum.amount += t.amount;
        sum.taxable_amount += t.taxable_amount;
      } else byRate.set(key, copyJson(t));
    }
  return [...byRate.values()];
}
