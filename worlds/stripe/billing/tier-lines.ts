/**
 * A subscription item's period on a tiered price as Stripe's invoices show it: not one line but one per tier the
 * quantity reaches, `5 × Fonts (Tier 1 at $7.00 / month)` for the units the tier bills at its unit amount, and beside
 * it `Fonts (Tier 1 at $10.00 / month)`, quantity 0, for its flat amount (in graduated mode for every tier reached,
 * in volume mode when the tier has one). Each line is rounded on its own (tiers.ts), so the lines add up to what
 * the item comes to.
 */
import type { Ctx } from 'seahaven';
import { get, type Stored } from '../lib/store.ts';
import type { LineInput } from './invoice-totals.ts';
import { formatMoney } from './subscription-periods.ts';
import { tierSlices } from './tiers.ts';

/** `$6.505` for a unit amount of `"650.5"` minor units: whole cents as formatMoney writes them, else every digit. */
function formatUnit(decimal: string | null, currency: string): string {
  const d = decimal ?? '0';
  if (/^\d+$/.test(d)) return formatMoney(Number(d), currency);
  const [whole, frac] = d.split('.');
  const digits = whole.padStart(3, '0');
  const major = `${digits.slice(0, -2).replace(/^0+(?=\d)/, '')}.${digits.slice(-2)}${frac}`;
  return formatMoney(0, currency).replace('0.00', major);
}

/**
 * The lines of `input`: the tier lines when it is a subscription item's full period on a tiered price (no amount of
 * its own, not a proration, a quantity that reaches a tier), else `input` alone.
 */
export function tierLines(ctx: Ctx, input: LineInput): LineInput[] {
  const price = (
    typeof input.price === 'string' ? get(ctx, 'prices', input.price) : input.price
  ) as Stored<'prices'> | null | undefined;
  if (
    !price ||
    price.billing_scheme !== 'tiered' ||
    !price.tiers ||
    !input.subscription_item ||
    input.proration ||
    input.amount != null
  )
    return [input];
  const mode = price.tiers_mode ?? 'graduated';
  const slices = tierSlices(mode, price.tiers, input.quantity ?? 1);
  if (slices.length === 0) return [input];
  const name =
    (price.product && get(ctx, 'products', price.product)?.name) ||
    price.nickname ||
    'Subscription item';
  const r = price.recurring;
  const every =
    !r || r.interval_count === 1
      ? (r?.interval ?? 'unit')
      : `every ${r.interval_count} ${r.interval}s`;
  const lines: LineInput[] = [];
  for (const s of slices) {
    const tier = price.tiers[s.tier];
    const at = (amount: string | null) =>
      `${name} (Tier ${s.tier + 1} at ${formatUnit(amount, price.currency)} / ${every})`;
    lines.push({
      ...input,
      quantity: s.quantity,
      amount: s.unitAmount,
      description: `${s.quantity} × ${at(tier.unit_amount_decimal)}`,
      unit_amount_decimal: tier.unit_amount_decimal ?? '0',
    });
    if (mode === 'graduated' || tier.flat_amount_decimal !== null)
      lines.push({
        ...input,
        quantity: 0,
        amount: s.flatAmount,
        description: at(tier.flat_amount_decimal),
        unit_amount_decimal: null,
      });
  }
  return lines;
}
