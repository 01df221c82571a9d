/**
 * Seeded tool arguments from a JSON Schema, for the random agents of the determinism smoke (`seahaven check`) and of
 * `checkGrader`'s chaos agent. Strings that earlier results contained (ids above all) are reused half the time, so the
 * agent reaches existing rows instead of only missing ones.
 */
import type { Rng } from './random.ts';

type Schema = Record<string, unknown>;

/** What the agent has seen so far: strings and id-like integers from results. */
export interface SeenValues {
  strings: string[];
  integers: number[];
}

const WORDS = ['alpha', 'Ada', 'north', 'Acme', 'lead', 'renewal', 'pilot', 'note', 'blue', 'x'];
const MAX_SEEN = 256;

/** Remember strings and id integers found in a result (bounded, oldest dropped first). */
export function rememberValues(value: unknown, seen: SeenValues, key = ''): void {
  if (typeof value === 'string') {
    if (value.length <= 80 && !seen.strings.includes(value)) seen.strings.push(value);
    if (seen.strings.length > MAX_SEEN) seen.strings.shift();
  } else if (typeof value === 'number') {
    if (
      Number.isInteger(value) &&
      (key === 'id' || key.endsWith('_id')) &&
      !seen.integers.includes(value)
    )
      seen.integers.push(value);
    if (seen.integers.length > MAX_SEEN) seen.integers.shift();
  } else if (Array.isArray(value)) {
    for (const v of value) rememberValues(v, seen, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) rememberValues(v, seen, k);
  }
}

// A tiny regular-expression generator: literals, escapes, classes with ranges, groups with alternation, quantifiers.
type Node =
  | { kind: 'chars'; options: string }
  | { kind: 'seq'; items: { node: Node; min: number; max: number }[] }
  | { kind: 'alt'; options: Node[] };

const CLASS_ESCAPES: Record<string, string> = {
  d: '0123456789',
  w: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
  s: ' ',
};

function parsePattern(pattern: string): Node | null {
  let i = 0;
  const alt = (): Node | null => {
    const options: Node[] = [];
    for (;;) {
      const s = seq();
      if (!s) return null;
      options.push(s);
      if (pattern[i] !== '|') break;
      i++;
    }
    return options.length === 1 ? options[0] : { kind: 'alt', options };
  };
  const atom = (): Node | null => {
    const c = pattern[i++];
    if (c === '(') {
      if (pattern.startsWith('?:', i)) i += 2;
      else if (pattern[i] === '?') return null;
      const inner = alt();
      if (pattern[i++] !== ')') return null;
      return inner;
    }
    if (c === '[') {
      if (pattern[i] === '^') return null;
      let options = '';
      while (i < pattern.length && pattern[i] !== ']') {
        let ch = pattern[i++];
        if (ch === '\\') {
          const e = pattern[i++];
          if (CLASS_ESCAPES[e]) {
            options += CLASS_ESCAPES[e];
            continue;
          }
          ch = e;
        }
        if (pattern[i] === '-' && pattern[i + 1] !== ']' && i + 1 < pattern.length) {
          const to = pattern[i + 1];
          i += 2;
          for (let k = ch.charCodeAt(0); k <= to.charCodeAt(0); k++)
            options += String.fromCharCode(k);
        } else options += ch;
      }
      i++;
      return options ? { kind: 'chars', options } : null;
    }
    if (c === '\\') {
      const e = pattern[i++];
      return { kind: 'chars', options: CLASS_ESCAPES[e] ?? (/[A-Za-z]/.test(e) ? 'a' : e) };
    }
    if (c === '.') return { kind: 'chars', options: 'abc' };
    return { kind: 'chars', options: c };
  };
  const seq = (): Node | null => {
    const items: { node: Node; min: number; max: number }[] = [];
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      if (pattern[i] === '^' || pattern[i] === '$') {
        i++;
        continue;
      }
      const node = atom();
      if (!node) return null;
      let [min, max] = [1, 1];
      const q = /^(?:\?|\*|\+|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
      if (q) {
        i += q[0].length;
        if (q[0] === '?') [min, max] = [0, 1];
        else if (q[0] === '*') [min, max] = [0, 4];
        else if (q[0] === '+') [min, max] = [1, 4];
        else {
          min = Number(q[1]);
          max = q[2] === undefined ? min : q[3] ? Number(q[3]) : min + 4;
        }
        if (pattern[i] === '?') i++;
      }
      items.push({ node, min, max });
    }
    return { kind: 'seq', items };
  };
  const node = alt();
  return node && i === pattern.length ? node : null;
}

function fromPattern(node: Node, rng: Rng): string {
  if (node.kind === 'chars') return node.options[rng.int(0, node.options.length - 1)];
  if (node.kind === 'alt') return fromPattern(rng.pick(node.options), rng);
  let out = '';
  for (const { node: n, min, max } of node.items) {
    const times = rng.int(min, Math.min(max, min + 8));
    for (let k = 0; k < times; k++) out += fromPattern(n, rng);
  }
  return out;
}

function randomString(schema: Schema, rng: Rng, seen: SeenValues): string {
  if (seen.strings.length > 0 && rng.chance(0.5)) return rng.pick(seen.strings);
  const day = `2026-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
  let s: string;
  if (schema.format === 'email')
    s = `${rng.pick(WORDS).toLowerCase()}${rng.int(0, 999)}@example.com`;
  else if (schema.format === 'date') s = day;
  else if (schema.format === 'date-time')
    s = `${day}T${String(rng.int(0, 23)).padStart(2, '0')}:00:00.000Z`;
  else if (typeof schema.pattern === 'string') {
    const node = parsePattern(schema.pattern);
    s = node ? fromPattern(node, rng) : rng.pick(WORDS);
  } else s = rng.chance(0.5) ? rng.pick(WORDS) : `${rng.pick(WORDS)} ${rng.int(1, 99)}`;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  while (s.length < min) s += 'x';
  return s.slice(0, max);
}

function randomNumber(schema: Schema, integer: boolean, rng: Rng, seen: SeenValues): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : 0;
  const maxDeclared =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : null;
  let lo = min < -1_000_000 ? Math.min(0, maxDeclared ?? 0) : min;
  let hi = maxDeclared ?? lo + 100;
  if (hi - lo > 10_000) hi = lo + 10_000;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (integer) {
    const fits = seen.integers.filter((n) => n >= lo && n <= hi);
    if (fits.length > 0 && rng.chance(0.3)) return rng.pick(fits);
    return rng.int(Math.ceil(lo), Math.floor(hi));
  }
  return Math.round((lo + rng.next() * (hi - lo)) * 100) / 100;
}

/** A value for `schema`, drawn from `rng`. Optional properties are included half the time. */
export function randomArgs(schema: unknown, rng: Rng, seen: SeenValues, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return null;
  const s = schema as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return rng.pick(s.enum);
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return randomArgs(rng.pick(alternatives), rng, seen, depth + 1);
  if (Array.isArray(s.allOf) && s.allOf.length > 0)
    return randomArgs(s.allOf[0], rng, seen, depth + 1);
  const type = Array.isArray(s.type) ? rng.pick(s.type as string[]) : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [key, sub] of Object.entries(
        (s.properties as Record<string, unknown> | undefined) ?? {},
      )) {
        if (required.has(key) || rng.chance(0.5)) out[key] = randomArgs(sub, rng, seen, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? Math.min(s.maxItems, min + 3) : min + 3;
      return Array.from({ length: rng.int(min, Math.max(min, max)) }, () =>
        randomArgs(s.items, rng, seen, depth + 1),
      );
    }
    case 'string':
      return randomString(s, rng, seen);
    case 'integer':
      return randomNumber(s, true, rng, seen);
    case 'number':
      return randomNumber(s, false, rng, seen);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return rng.pick(['x', 1, true, null]);
  }
}
