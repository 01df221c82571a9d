import { describe, expect, it } from 'vitest';
import { choose, meanOf, overallCurve, passCurve, passHatK, toText } from './stats.ts';

describe('pass^k', () => {
  it('is C(successes, k) / C(trials, k), exactly', () => {
    // 2 of 4: pass^1 = 2/4, pass^2 = C(2,2)/C(4,2) = 1/6, pass^3 = 0.
    expect(toText(passHatK(2, 4, 1))).toBe('1/2');
    expect(toText(passHatK(2, 4, 2))).toBe('1/6');
    expect(toText(passHatK(2, 4, 3))).toBe('0');
    // 3 of 5: pass^2 = 3/10, pass^3 = 1/10.
    expect(toText(passHatK(3, 5, 2))).toBe('3/10');
    expect(toText(passHatK(3, 5, 3))).toBe('1/10');
    expect(toText(passHatK(5, 5, 5))).toBe('1');
    expect(passCurve(2, 4)).toEqual({
      pass_k: { 1: 0.5, 2: 1 / 6, 3: 0, 4: 0 },
      pass_k_exact: { 1: '1/2', 2: '1/6', 3: '0', 4: '0' },
    });
  });

  it('stays exact where floats would not: C(60, 30) is past 2^53', () => {
    expect(choose(60, 30)).toBe(118264581564861424n);
    expect(toText(passHatK(59, 60, 30))).toBe('1/2');
  });

  it('averages over tasks, each with its own trials, up to the fewest trials', () => {
    expect(
      overallCurve([
        { successes: 2, trials: 4 },
        { successes: 4, trials: 4 },
        { successes: 0, trials: 4 },
      ]).pass_k_exact,
    ).toEqual({ 1: '1/2', 2: '7/18', 3: '1/3', 4: '1/3' });
    expect(
      Object.keys(
        overallCurve([
          { successes: 1, trials: 2 },
          { successes: 3, trials: 3 },
        ]).pass_k,
      ),
    ).toEqual(['1', '2']);
    expect(toText(meanOf([passHatK(1, 2, 1), passHatK(1, 3, 1)]))).toBe('5/12');
  });

  it('refuses a k it cannot compute', () => {
    expect(() => passHatK(1, 2, 3)).toThrow(/1 ≤ k ≤ trials/);
    expect(() => passHatK(3, 2, 1)).toThrow(/between 0 and trials/);
  });
});
