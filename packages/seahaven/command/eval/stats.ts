/**
 * pass^k: the chance that k trials of a task, drawn without replacement from the n trials run, all succeed,
 * C(successes, k) / C(n, k), averaged over tasks. Computed as exact fractions (bigints), so "2 of 4 → pass^2 = 1/6"
 * is exactly that, and only turned into a float for the report.
 */

/** A fraction in lowest terms, the denominator positive. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function fraction(num: bigint, den: bigint): Fraction {
  if (den === 0n) throw new RangeError('a fraction needs a denominator other than 0');
  const g = gcd(num, den) || 1n;
  const sign = den < 0n ? -1n : 1n;
  return { num: (sign * num) / g, den: (sign * den) / g };
}

export function add(a: Fraction, b: Fraction): Fraction {
  return fraction(a.num * b.den + b.num * a.den, a.den * b.den);
}

/** C(n, k), exactly; 0 when k > n. */
export function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let out = 1n;
  const m = Math.min(k, n - k);
  for (let i = 1; i <= m; i++) out = (out * BigInt(n - m + i)) / BigInt(i);
  return out;
}

/** pass^k of one task: C(successes, k) / C(trials, k). `k` must be between 1 and `trials`. */
export function passHatK(successes: number, trials: number, k: number): Fraction {
  if (!Number.isInteger(k) || k < 1 || k > trials)
    throw new RangeError(`pass^${k} needs 1 ≤ k ≤ trials (${trials})`);
  if (successes < 0 || successes > trials)
    throw new RangeError(`successes (${successes}) must be between 0 and trials (${trials})`);
  return fraction(choose(successes, k), choose(trials, k));
}

/** The mean of fractions, exactly. */
export function meanOf(values: readonly Fraction[]): Fraction {
  if (values.length === 0) throw new RangeError('the mean of no values is undefined');
  const sum = values.reduce((s, v) => add(s, v), fraction(0n, 1n));
  return fraction(sum.num, sum.den * BigInt(values.length));
}

export function toNumber(f: Fraction): number {
  return Number(f.num) / Number(f.den);
}

/** `"1/6"`, or `"1"` for a whole number. */
export function toText(f: Fraction): string {
  return f.den === 1n ? String(f.num) : `${f.num}/${f.den}`;
}

/** pass^1 … pass^K of one task, keyed `"1"`…`"K"`, as numbers and as exact fractions. */
export function passCurve(
  successes: number,
  trials: number,
): { pass_k: Record<string, number>; pass_k_exact: Record<string, string> } {
  const pass_k: Record<string, number> = {};
  const pass_k_exact: Record<string, string> = {};
  for (let k = 1; k <= trials; k++) {
    const f = passHatK(successes, trials, k);
    pass_k[k] = toNumber(f);
    pass_k_exact[k] = toText(f);
  }
  return { pass_k, pass_k_exact };
}

/**
 * pass^k over tasks: for each k up to the fewest trials any task had, the mean over tasks of that task's pass^k.
 * Tasks with more trials than others still count with their own C(successes, k) / C(trials, k).
 */
export function overallCurve(tasks: readonly { successes: number; trials: number }[]): {
  pass_k: Record<string, number>;
  pass_k_exact: Record<string, string>;
} {
  const pass_k: Record<string, number> = {};
  const pass_k_exact: Record<string, string> = {};
  const counted = tasks.filter((t) => t.trials > 0);
  if (counted.length === 0) return { pass_k, pass_k_exact };
  const most = Math.min(...counted.map((t) => t.trials));
  for (let k = 1; k <= most; k++) {
    const f = meanOf(counted.map((t) => passHatK(t.successes, t.trials, k)));
    pass_k[k] = toNumber(f);
    pass_k_exact[k] = toText(f);
  }
  return { pass_k, pass_k_exact };
}
