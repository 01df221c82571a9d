import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  graduatedSlices,
  rounded,
  scaled,
  tieredAmount,
  tierIndexOf,
  volumeSlices,
} from '../billing/tiers.ts';
import type { PriceTier } from '../lib/objects.ts';

// The arithmetic of tiered prices (billing/tiers.ts), by property: against a reference written out unit by unit, in
// integer thousandths of a minor unit, and by the laws graduated and volume pricing keep. tiers.test.ts drives the same
// arithmetic through the SDK.

/** A tier as the generator makes it: amounts in thousandths of a minor unit, so the reference is integer arithmetic. */
interface Drawn {
  upTo: number | null;
  unitMilli: number | null;
  flatMilli: number | null;
}

const milliDecimal = (m: number): string =>
  m % 1000 === 0 ? String(m / 1000) : (m / 1000).toFixed(3).replace(/0+$/, '');

function tierOf(d: Drawn): PriceTier {
  return {
    up_to: d.upTo,
    unit_amount: d.unitMilli !== null && d.unitMilli % 1000 === 0 ? d.unitMilli / 1000 : null,
    unit_amount_decimal: d.unitMilli === null ? null : milliDecimal(d.unitMilli),
    flat_amount: d.flatMilli !== null && d.flatMilli % 1000 === 0 ? d.flatMilli / 1000 : null,
    flat_amount_decimal: d.flatMilli === null ? null : milliDecimal(d.flatMilli),
  };
}

/** 1 to 5 tiers with ascending bounds (the last unbounded) and at least one amount each. */
const drawnTiers = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 0, maxLength: 4 }),
    fc.array(
      fc.record({
        unitMilli: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
        flatMilli: fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }),
      }),
      { minLength: 5, maxLength: 5 },
    ),
  )
  .map(([bounds, amounts]) => {
    const ups = [...bounds.sort((a, b) => a - b), null];
    return ups.map((upTo, i) => ({
      upTo,
      unitMilli: amounts[i].unitMilli ?? (amounts[i].flatMilli === null ? 0 : null),
      flatMilli: amounts[i].flatMilli,
    }));
  });

/** Stripe's line rounding of an amount in thousandths: to the nearest whole minor unit, a half up. */
const roundMilli = (milli: number) => Math.floor((milli + 500) / 1000);

/**
 * Graduated, unit by unit: each unit at the rate of the tier it falls in; each tier reached is a line of its units and
 * a line of its flat amount, each rounded.
 */
function referenceGraduated(tiers: Drawn[], quantity: number): number {
  const units = new Map<number, number>();
  for (let unit = 1; unit <= quantity; unit++) {
    const i = tiers.findIndex((t) => t.upTo === null || unit <= t.upTo);
    units.set(i, (units.get(i) ?? 0) + (tiers[i].unitMilli ?? 0));
  }
  let total = 0;
  for (const [i, milli] of units) total += roundMilli(milli) + roundMilli(tiers[i].flatMilli ?? 0);
  return total;
}

/** Volume: every unit at the rate of the tier the whole quantity falls in, and that tier's flat amount. */
function referenceVolume(tiers: Drawn[], quantity: number): number {
  if (quantity === 0) return 0;
  const t = tiers.find((x) => x.upTo === null || quantity <= x.upTo)!;
  return roundMilli((t.unitMilli ?? 0) * quantity) + roundMilli(t.flatMilli ?? 0);
}

describe('tier arithmetic (billing/tiers.ts)', () => {
  const quantity = fc.integer({ min: 0, max: 150 });

  it('graduated matches the unit-by-unit reference', () => {
    fc.assert(
      fc.property(drawnTiers, quantity, (drawn, q) => {
        expect(tieredAmount('graduated', drawn.map(tierOf), q)).toBe(referenceGraduated(drawn, q));
      }),
      { numRuns: 400 },
    );
  });

  it('volume matches the reference: one tier prices every unit', () => {
    fc.assert(
      fc.property(drawnTiers, quantity, (drawn, q) => {
        const tiers = drawn.map(tierOf);
        expect(tieredAmount('volume', tiers, q)).toBe(referenceVolume(drawn, q));
        const slices = volumeSlices(tiers, q);
        expect(slices.length).toBe(q === 0 ? 0 : 1);
        if (q > 0) expect(slices[0]).toMatchObject({ tier: tierIndexOf(tiers, q), quantity: q });
      }),
      { numRuns: 400 },
    );
  });

  it('graduated is monotone in quantity and is the sum of its per-tier lines, each rounded', () => {
    fc.assert(
      fc.property(drawnTiers, quantity, (drawn, q) => {
        const tiers = drawn.map(tierOf);
        expect(tieredAmount('graduated', tiers, q + 1)).toBeGreaterThanOrEqual(
          tieredAmount('graduated', tiers, q),
        );
        const slices = graduatedSlices(tiers, q);
        expect(slices.reduce((n, s) => n + s.quantity, 0)).toBe(q);
        expect(slices.map((s) => s.tier)).toEqual(slices.map((_, i) => i));
        expect(slices.every((s) => s.quantity > 0)).toBe(true);
        for (const x of slices) {
          expect(x.unitAmount).toBe(rounded(x.unitExact));
          expect(x.flatAmount).toBe(rounded(x.flatExact));
        }
        expect(tieredAmount('graduated', tiers, q)).toBe(
          slices.reduce((n, x) => n + x.unitAmount + x.flatAmount, 0),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('both modes agree within the first tier, and a quantity of 0 comes to 0', () => {
    fc.assert(
      fc.property(drawnTiers, (drawn) => {
        const tiers = drawn.map(tierOf);
        const first = tiers[0].up_to ?? 150;
        for (const q of [1, first]) {
          expect(tieredAmount('graduated', tiers, q)).toBe(tieredAmount('volume', tiers, q));
        }
        expect(tieredAmount('graduated', tiers, 0)).toBe(0);
        expect(tieredAmount('volume', tiers, 0)).toBe(0);
      }),
    );
  });

  it("prices Stripe's documented examples, boundaries, flat-only tiers and half-cent rounding", () => {
    // docs.stripe.com/subscriptions/pricing-models/tiered-pricing: 1-5 at $7, 6-10 at $6.50, 11+ at $6.
    const fonts = [
      tierOf({ upTo: 5, unitMilli: 700_000, flatMilli: null }),
      tierOf({ upTo: 10, unitMilli: 650_000, flatMilli: null }),
      tierOf({ upTo: null, unitMilli: 600_000, flatMilli: null }),
    ];
    expect([1, 5, 6, 20, 25].map((q) => tieredAmount('volume', fonts, q))).toEqual([
      700, 3500, 3900, 12000, 15000,
    ]);
    expect([5, 6, 10, 11, 20].map((q) => tieredAmount('graduated', fonts, q))).toEqual([
      3500, 4150, 6750, 7350, 12750,
    ]);
    // A flat fee up to 100 units, then a unit price: the flat fee alone on the boundary.
    const base = [
      tierOf({ upTo: 100, unitMilli: null, flatMilli: 20_000_000 }),
      tierOf({ upTo: null, unitMilli: 40, flatMilli: null }),
    ];
    expect([0, 1, 100, 101, 130].map((q) => tieredAmount('graduated', base, q))).toEqual([
      0, 20000, 20000, 20000, 20001,
    ]);
    // 0.05 × 30 = 1.5, rounded up to 2 (Stripe's own decimal example); 0.05 × 29 = 1.45 → 1.
    const tiny = [tierOf({ upTo: null, unitMilli: 50, flatMilli: null })];
    expect(tieredAmount('volume', tiny, 30)).toBe(2);
    expect(tieredAmount('graduated', tiny, 29)).toBe(1);
    // Each tier's line is rounded on its own: half a cent in each of two tiers is a cent each.
    const halves = [
      tierOf({ upTo: 1, unitMilli: 500, flatMilli: null }),
      tierOf({ upTo: null, unitMilli: 500, flatMilli: null }),
    ];
    expect(tieredAmount('graduated', halves, 2)).toBe(2);
    expect(tieredAmount('volume', halves, 2)).toBe(1);
    expect(scaled('0.000000000001')).toBe(1n);
    expect(rounded(scaled('2.5'))).toBe(3);
    expect(() => tieredAmount('graduated', fonts, 1.5)).toThrow(RangeError);
  });
});
