import { describe, expect, it } from 'vitest';
import { changedAttributes } from '../lib/events.ts';

// `changedAttributes` settles most attributes by walking them, and serializes only what the walk leaves open: what it
// answers must be what comparing every attribute's JSON answers.

/** The attributes whose JSON differs, with their old values: the definition the walk must agree with. */
function byJson(before: Record<string, unknown>, after: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(after))
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = before[k] ?? null;
  return out;
}

/** A small deterministic stream (xorshift), so a failure names its seed. */
function stream(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const SCALARS: unknown[] = [
  0,
  -0,
  1,
  2.5,
  NaN,
  Infinity,
  '',
  'a',
  'b',
  true,
  false,
  null,
  undefined,
];

function value(r: () => number, depth: number): unknown {
  const pick = r();
  if (depth <= 0 || pick < 0.5) return SCALARS[Math.floor(r() * SCALARS.length)];
  if (pick < 0.7) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth - 1));
  if (pick < 0.75) return new Date(0);
  if (pick < 0.78) return { toJSON: () => 'x' };
  const o: Record<string, unknown> = {};
  for (const k of ['x', 'y', 'z']) if (r() < 0.7) o[k] = value(r, depth - 1);
  return o;
}

/** `v` with some members changed, dropped, added or reordered (or `v` itself). */
function mutate(r: () => number, v: unknown): unknown {
  const pick = r();
  if (pick < 0.4) return v;
  if (pick < 0.55) return value(r, 2);
  if (Array.isArray(v)) return r() < 0.5 ? v.map((m) => mutate(r, m)) : [...v, value(r, 1)];
  if (v !== null && typeof v === 'object' && !(v instanceof Date) && !('toJSON' in v)) {
    const entries = Object.entries(v).map(([k, m]) => [k, mutate(r, m)] as const);
    if (r() < 0.2) entries.reverse();
    if (r() < 0.2) entries.pop();
    return Object.fromEntries(entries);
  }
  return r() < 0.5 ? v : value(r, 1);
}

describe('changedAttributes', () => {
  it('names exactly the attributes whose JSON changed, with their old values', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = stream(seed);
      const before: Record<string, unknown> = {};
      for (let i = 0; i < 6; i++) before[`k${i}`] = value(r, 3);
      const after = mutate(r, before) as Record<string, unknown>;
      const target = after !== null && typeof after === 'object' ? after : {};
      expect(changedAttributes(before, target), `seed ${seed}`).toStrictEqual(
        byJson(before, target),
      );
    }
  });
});
