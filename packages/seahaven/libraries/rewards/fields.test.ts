import { describe, expect, it } from 'vitest';
import {
  anything,
  approx,
  describeMatch,
  describeMisses,
  exact,
  isFieldMatcher,
  isoBetween,
  oneOf,
  regex,
  testFields,
  toFieldMatcher,
  where,
  within,
} from './fields.ts';
import { any } from './combine.ts';

describe('field matchers', () => {
  it('exact compares JSON deeply and strictly', () => {
    expect(exact('lead').test('lead')).toBe(true);
    expect(exact('lead').test('Lead')).toBe(false);
    expect(exact(1).test('1')).toBe(false);
    expect(exact(null).test(null)).toBe(true);
    expect(exact(null).test(undefined)).toBe(false);
    expect(exact({ a: [1, { b: 2 }] }).test({ a: [1, { b: 2 }] })).toBe(true);
    expect(exact({ a: [1, { b: 2 }] }).test({ a: [1, { b: 3 }] })).toBe(false);
    expect(exact([1, 2]).test([2, 1])).toBe(false);
  });

  it('plain values mean exact', () => {
    expect(isFieldMatcher('x')).toBe(false);
    expect(toFieldMatcher('x').text).toBe('= "x"');
    expect(toFieldMatcher(5).test(5)).toBe(true);
    expect(toFieldMatcher(5).test(6)).toBe(false);
  });

  it('any() accepts every present value, null included, but not an absent column', () => {
    for (const m of [anything(), any()]) {
      expect(m.test(null)).toBe(true);
      expect(m.test('')).toBe(true);
      expect(m.test(0)).toBe(true);
      expect(m.test(undefined)).toBe(false);
    }
  });

  it('oneOf accepts listed values only and refuses an empty list', () => {
    const m = oneOf(['call', 'meeting', null]);
    expect(m.test('meeting')).toBe(true);
    expect(m.test(null)).toBe(true);
    expect(m.test('email')).toBe(false);
    expect(() => oneOf([])).toThrow(/non-empty array/);
  });

  it('regex tests strings only, and a global RegExp gives the same answer every time', () => {
    const m = regex(/sign/gi);
    expect(m.test('Contract SIGNED')).toBe(true);
    expect(m.test('Contract SIGNED')).toBe(true);
    expect(m.test(42)).toBe(false);
    expect(regex('^a+$').test('aaa')).toBe(true);
    expect(m.text).toBe('matches /sign/i');
  });

  it('approx and within bound numbers, and read big integers carried as strings', () => {
    expect(approx(100, 1).test(101)).toBe(true);
    expect(approx(100, 1).test(101.5)).toBe(false);
    expect(approx(0.3).test(0.1 + 0.2)).toBe(true);
    expect(approx(9007199254740993, 2).test('9007199254740993')).toBe(true);
    expect(approx(1, 1).test('one')).toBe(false);
    expect(within(1, 5).test(1)).toBe(true);
    expect(within(1, 5).test(5)).toBe(true);
    expect(within(1, 5).test(5.01)).toBe(false);
    expect(within(1, 5).test(null)).toBe(false);
    expect(() => within(5, 1)).toThrow(/min <= max/);
    expect(() => approx(1, -1)).toThrow(/tol >= 0/);
  });

  it('isoBetween compares dates and instants, inclusive', () => {
    const m = isoBetween('2026-09-01', '2026-09-30T23:59:59.999Z');
    expect(m.test('2026-09-01')).toBe(true);
    expect(m.test('2026-09-30T12:00:00.000Z')).toBe(true);
    expect(m.test('2026-10-01')).toBe(false);
    expect(m.test('soon')).toBe(false);
    expect(m.test(20260915)).toBe(false);
    expect(() => isoBetween('2026-02-01', '2026-01-01')).toThrow(/from <= to/);
  });

  it('where runs a predicate; one that throws counts as false', () => {
    const even = where((v) => (v as number) % 2 === 0, 'an even number');
    expect(even.test(4)).toBe(true);
    expect(even.test(3)).toBe(false);
    expect(even.text).toBe('satisfies an even number');
    expect(
      where(() => {
        throw new Error('boom');
      }).test(1),
    ).toBe(false);
  });

  it('explains matches and misses by column', () => {
    expect(describeMatch({ stage: 'lead', kind: oneOf(['call']) })).toBe(
      'stage = "lead", kind is one of ["call"]',
    );
    const results = testFields(
      { stage: 'lead', qty: within(1, 2), nope: 1 },
      (c) => (({ stage: 'customer', qty: 2 }) as Record<string, string | number>)[c],
    );
    expect(results.map((r) => r.ok)).toEqual([false, true, false]);
    expect(describeMisses(results)).toBe(
      'stage is "customer" (expected = "lead"), column nope is absent (expected = 1)',
    );
  });
});
