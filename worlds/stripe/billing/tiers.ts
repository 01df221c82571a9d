/**
 * Tiered pricing, pure: what a quantity of a price with `billing_scheme=tiered` comes to. A tier covers the units
 * from the previous tier's `up_to` plus one up to its own `up_to` (the last one, `up_to: null`, every unit beyond);
 * it charges its unit amount per unit and its flat amount once. In `graduated` mode each tier the quantity reaches
 * bills the units that fall in it, plus its flat amount; in `volume` mode the one tier the whole quantity falls in
 * bills every unit, plus its flat amount. No tier is reached by a quantity of 0, which comes to 0 in both modes.
 *
 * Amounts are decimal strings of minor units with up to 12 decimal places (`unit_amount_decimal`), so the arithmetic
 * is exact: in units of 10⁻¹² of a minor unit, as bigints. Stripe rounds by invoice line, and shows a tiered price's
 * line per tier: the tier's units at its unit amount, and its flat amount (tier-lines.ts). So each of those is rounded
 * to the nearest whole minor unit, a half up (0.05 × 30 = 1.5 → 2), and the amount is their sum.
 */
import type { PriceTier } from '../lib/objects.ts';

export type TiersMode = 'graduated' | 'volume';

/** 10¹²: the exact amounts here count trillionths of a minor unit. */
const SCALE = 10n ** 12n;

/** A decimal string of minor units (`"0.05"`, `"12"`) in trillionths of a minor unit. */
export function scaled(decimal: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d{0,12}))?$/.exec(decimal);
  if (!m || (m[2] === '' && (m[3] ?? '') === ''))
    throw new RangeError(`not a decimal with at most 12 places: ${decimal}`);
  const whole = BigInt(m[2] || '0') * SCALE;
  const frac = BigInt((m[3] ?? '').padEnd(12, '0') || '0');
  return m[1] === '-' ? -(whole + frac) : whole + frac;
}

/** An exact amount rounded to whole minor units, a half away from zero. */
export function rounded(exact: bigint): number {
  const sign = exact < 0n ? -1n : 1n;
  const abs = exact * sign;
  return Number(((abs + SCALE / 2n) / SCALE) * sign);
}

/** A tier's unit amount, exactly (`unit_amount_decimal` holds it to 12 places; neither set is 0). */
export function unitOf(tier: PriceTier): bigint {
  if (tier.unit_amount_decimal !== null) return scaled(tier.unit_amount_decimal);
  return tier.unit_amount === null ? 0n : BigInt(tier.unit_amount) * SCALE;
}

/** A tier's flat amount, exactly. */
export function flatOf(tier: PriceTier): bigint {
  if (tier.flat_amount_decimal !== null) return scaled(tier.flat_amount_decimal);
  return tier.flat_amount === null ? 0n : BigInt(tier.flat_amount) * SCALE;
}

/** The part of a quantity one tier bills: which tier, how many of the units, and what they come to. */
export interface TierSlice {
  /** The tier's index in `tiers`. */
  tier: number;
  /** The units it bills. */
  quantity: number;
  /** Its unit amount times those units, in trillionths of a minor unit. */
  unitExact: bigint;
  /** Its flat amount, in trillionths of a minor unit. */
  flatExact: bigint;
  /** `unitExact` in whole minor units, rounded as a line is. */
  unitAmount: number;
  /** `flatExact` in whole minor units, rounded as a line is. */
  flatAmount: number;
}

function slice(tiers: readonly PriceTier[], tier: number, quantity: number): TierSlice {
  const unitExact = unitOf(tiers[tier]) * BigInt(quantity);
  const flatExact = flatOf(tiers[tier]);
  return {
    tier,
    quantity,
    unitExact,
    flatExact,
    unitAmount: rounded(unitExact),
    flatAmount: rounded(flatExact),
  };
}

/** The index of the tier `quantity` falls in (the first whose `up_to` it does not pass), or -1 for a quantity of 0. */
export function tierIndexOf(tiers: readonly PriceTier[], quantity: number): number {
  if (quantity <= 0) return -1;
  const i = tiers.findIndex((t) => t.up_to === null || quantity <= t.up_to);
  return i === -1 ? tiers.length - 1 : i;
}

/** What each tier bills of `quantity` in graduated mode, in tier order: only the tiers the quantity reaches. */
export function graduatedSlices(tiers: readonly PriceTier[], quantity: number): TierSlice[] {
  const slices: TierSlice[] = [];
  let below = 0;
  for (let i = 0; i < tiers.length && quantity > below; i++) {
    const t = tiers[i];
    const top = t.up_to === null || i === tiers.length - 1 ? quantity : Math.min(quantity, t.up_to);
    slices.push(slice(tiers, i, top - below));
    below = top;
  }
  return slices;
}

/** What `quantity` bills in volume mode: every unit in the one tier it falls in (none for 0). */
export function volumeSlices(tiers: readonly PriceTier[], quantity: number): TierSlice[] {
  const i = tierIndexOf(tiers, quantity);
  return i === -1 ? [] : [slice(tiers, i, quantity)];
}

/** The slices of a whole `quantity` (at least 0) under `mode`. */
export function tierSlices(
  mode: TiersMode,
  tiers: readonly PriceTier[],
  quantity: number,
): TierSlice[] {
  if (!Number.isSafeInteger(quantity) || quantity < 0)
    throw new RangeError(`a tiered price bills a whole quantity of at least 0, not ${quantity}`);
  return mode === 'volume' ? volumeSlices(tiers, quantity) : graduatedSlices(tiers, quantity);
}

/** What `quantity` units of a tiered price come to, in whole minor units: its slices' rounded amounts, summed. */
export function tieredAmount(
  mode: TiersMode,
  tiers: readonly PriceTier[],
  quantity: number,
): number {
  return tierSlices(mode, tiers, quantity).reduce((sum, s) => sum + s.unitAmount + s.flatAmount, 0);
}
