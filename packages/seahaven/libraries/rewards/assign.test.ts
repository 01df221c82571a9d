import { describe, expect, it } from 'vitest';
import { maxAssignment } from './assign.ts';

/** Every assignment by brute force, for checking optimality on small cases. */
function bestTotal(value: (number | null)[][]): number {
  const n = value.length;
  const m = value[0]?.length ?? 0;
  let best = 0;
  const used = new Array<boolean>(m).fill(false);
  const go = (i: number, total: number) => {
    if (i === n) {
      best = Math.max(best, total);
      return;
    }
    go(i + 1, total);
    for (let j = 0; j < m; j++) {
      const v = value[i][j];
      if (v === null || used[j]) continue;
      used[j] = true;
      go(i + 1, total + v);
      used[j] = false;
    }
  };
  go(0, 0);
  return best;
}

describe('maxAssignment', () => {
  it('beats greedy: takes the pairing with the best total', () => {
    // Greedy would give row 0 its best column (3) and leave row 1 with nothing.
    expect(
      maxAssignment([
        [3, 2],
        [2, null],
      ]),
    ).toEqual([1, 0]);
  });

  it('leaves rows unassigned when nothing may pair, and handles more rows than columns', () => {
    expect(maxAssignment([[null], [1], [2]])).toEqual([-1, -1, 0]);
    expect(maxAssignment([[null, null]])).toEqual([-1]);
    expect(maxAssignment([])).toEqual([]);
  });

  it('is optimal and one to one on seeded random matrices', () => {
    let s = 7;
    const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(rand() * 4);
      const m = 1 + Math.floor(rand() * 5);
      const value = Array.from({ length: n }, () =>
        Array.from({ length: m }, () => (rand() < 0.3 ? null : 1 + Math.round(rand() * 4) / 4)),
      );
      const got = maxAssignment(value);
      const cols = got.filter((j) => j >= 0);
      expect(new Set(cols).size).toBe(cols.length);
      const total = got.reduce((t, j, i) => t + (j >= 0 ? (value[i][j] as number) : 0), 0);
      expect(total).toBeCloseTo(bestTotal(value), 9);
    }
  });

  it('breaks ties the same way every time', () => {
    const value = [
      [1, 1, 1],
      [1, 1, 1],
    ];
    expect(maxAssignment(value)).toEqual(maxAssignment(value));
  });
});
