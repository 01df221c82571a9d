/** Field matchers: what a column's value must be. A plain value in a match object means `exact(value)`. */
import type { JsonValue } from '../../core/index.ts';

const BRAND = Symbol.for('seahaven.rewards.field');

/** A test on one column value, with the phrase that explains it in reasons ("is one of …"). */
export interface FieldMatcher {
  readonly [BRAND]: true;
  /** How the expectation reads after the column name, e.g. `= "lead"` or `is between 1 and 5`. */
  readonly text: string;
  /** Whether `value` satisfies the matcher; `undefined` means the column is absent. */
  test(value: JsonValue | undefined): boolean;
}

/** A field matcher, or a plain value that must be equal. */
export type FieldSpec = FieldMatcher | JsonValue;

/** Column name → what its value must be. */
export type FieldMatch = Readonly<Record<string, FieldSpec>>;

function fieldMatcher(text: string, test: (value: JsonValue | undefined) => boolean): FieldMatcher {
  return Object.freeze({ [BRAND]: true as const, text, test });
}

/** Whether `x` is a field matcher (as opposed to a plain value). */
export function isFieldMatcher(x: unknown): x is FieldMatcher {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}

/** A plain value as `exact(value)`; a matcher as itself. */
export function toFieldMatcher(spec: FieldSpec): FieldMatcher {
  return isFieldMatcher(spec) ? spec : exact(spec);
}

/** Render a value for a reason: JSON, shortened. */
export function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 60 ? text.slice(0, 57) + '…' : text;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (
    a === null ||
    b === null ||
    a === undefined ||
    b === undefined ||
    typeof a !== 'object' ||
    typeof b !== 'object'
  )
    return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as JsonValue[]).length &&
      a.every((v, i) => sameJson(v, (b as JsonValue[])[i]))
    );
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b as object).sort();
  return (
    ka.length === kb.length &&
    ka.every(
      (k, i) =>
        k === kb[i] &&
        sameJson((a as Record<string, JsonValue>)[k], (b as Record<string, JsonValue>)[k]),
    )
  );
}

/** Integers beyond ±2^53 arrive as decimal strings; numeric matchers accept them. */
function asNumber(value: JsonValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return null;
}

/**
 * The value must equal `expected` (deep JSON equality; `1` and `"1"` differ).
 * @example
 * inserted('contacts', { stage: exact('lead') }) // same as { stage: 'lead' }
 */
export function exact(expected: JsonValue): FieldMatcher {
  return fieldMatcher(`= ${show(expected)}`, (v) => sameJson(v, expected));
}

/**
 * Any value, null included, as long as the column exists.
 * Called with an array of rubrics instead, `any` is the combinator (see `combine.ts`).
 * @example
 * inserted('activities', { contact_id: 'con_dana', body: anything() })
 */
export function anything(): FieldMatcher {
  return fieldMatcher('is any value', (v) => v !== undefined);
}

/**
 * The value must equal one of `values`.
 * @example
 * inserted('activities', { kind: oneOf(['call', 'meeting']) })
 */
export function oneOf(values: readonly JsonValue[]): FieldMatcher {
  if (!Array.isArray(values) || values.length === 0)
    throw new TypeError("oneOf(values) needs a non-empty array, like oneOf(['call', 'meeting']).");
  const list = [...values];
  return fieldMatcher(`is one of ${show(list)}`, (v) => list.some((x) => sameJson(v, x)));
}

/**
 * The value must be a string matching `pattern` (a RegExp, or a string compiled without flags).
 * @example
 * inserted('activities', { subject: regex(/contract signed/i) })
 */
export function regex(pattern: RegExp | string): FieldMatcher {
  const re = typeof pattern === 'string' ? new RegExp(pattern) : pattern;
  // A global or sticky RegExp keeps lastIndex between tests, which would make grading depend on call order.
  const stable = re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re;
  return fieldMatcher(`matches ${String(stable)}`, (v) => typeof v === 'string' && stable.test(v));
}

/**
 * The value must be a number within `tolerance` of `expected` (inclusive). Default tolerance: 1e-9.
 * @example
 * updated('deals', { id: 'deal_1' }, { amount_cents: approx(10_800_000, 1) })
 */
export function approx(expected: number, tolerance = 1e-9): FieldMatcher {
  if (!Number.isFinite(expected) || !Number.isFinite(tolerance) || tolerance < 0)
    throw new TypeError(
      `approx(n, tol) needs finite numbers and tol >= 0; got approx(${expected}, ${tolerance}).`,
    );
  return fieldMatcher(`≈ ${expected} (± ${tolerance})`, (v) => {
    const n = asNumber(v);
    return n !== null && Math.abs(n - expected) <= tolerance;
  });
}

/**
 * The value must be a number from `min` to `max`, both inclusive.
 * @example
 * inserted('companies', { employees: within(50, 100) })
 */
export function within(min: number, max: number): FieldMatcher {
  if (!(min <= max))
    throw new TypeError(`within(min, max) needs min <= max; got within(${min}, ${max}).`);
  return fieldMatcher(`is between ${min} and ${max}`, (v) => {
    const n = asNumber(v);
    return n !== null && n >= min && n <= max;
  });
}

/**
 * The value must be an ISO-8601 date or instant from `from` to `to`, both inclusive.
 * @example
 * updated('deals', { id: 'deal_1' }, { close_date: isoBetween('2026-09-01', '2026-09-30') })
 */
export function isoBetween(from: string, to: string): FieldMatcher {
  const lo = Date.parse(from);
  const hi = Date.parse(to);
  if (Number.isNaN(lo) || Number.isNaN(hi) || lo > hi)
    throw new TypeError(
      `isoBetween(from, to) needs two ISO-8601 dates with from <= to; got isoBetween(${show(from)}, ${show(to)}).`,
    );
  return fieldMatcher(`is between ${from} and ${to}`, (v) => {
    if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return false;
    const t = Date.parse(v);
    return !Number.isNaN(t) && t >= lo && t <= hi;
  });
}

/**
 * The value must satisfy `predicate`; `label` is how reasons name the check. A predicate that throws counts as false.
 * @example
 * inserted('contacts', { email: where((v) => typeof v === 'string' && v.endsWith('.example'), 'an .example address') })
 */
export function where(
  predicate: (value: JsonValue | undefined) => boolean,
  label?: string,
): FieldMatcher {
  if (typeof predicate !== 'function')
    throw new TypeError('where(fn) needs a function (value) => boolean.');
  const name = label ?? (predicate.name || 'a custom check');
  return fieldMatcher(`satisfies ${name}`, (v) => {
    try {
      return predicate(v) === true;
    } catch {
      return false;
    }
  });
}

/** The outcome of testing one column. */
export interface FieldResult {
  column: string;
  ok: boolean;
  actual: JsonValue | undefined;
  matcher: FieldMatcher;
}

/** Test every column of `match` against a row read through `valueOf`. */
export function testFields(
  match: FieldMatch,
  valueOf: (column: string) => JsonValue | undefined,
): FieldResult[] {
  const out: FieldResult[] = [];
  for (const [column, spec] of Object.entries(match)) {
    const matcher = toFieldMatcher(spec);
    const actual = valueOf(column);
    out.push({ column, ok: matcher.test(actual), actual, matcher });
  }
  return out;
}

/** `col = "x", other is one of […]`: the expectation of a match object in words. */
export function describeMatch(match: FieldMatch): string {
  const parts = Object.entries(match).map(
    ([column, spec]) => `${column} ${toFieldMatcher(spec).text}`,
  );
  return parts.length === 0 ? 'any row' : parts.join(', ');
}

/** `stage is "lead" (expected = "customer")` for each failed field. */
export function describeMisses(results: readonly FieldResult[]): string {
  return results
    .filter((r) => !r.ok)
    .map((r) =>
      r.actual === undefined
        ? `column ${r.column} is absent (expected ${r.matcher.text})`
        : `${r.column} is ${show(r.actual)} (expected ${r.matcher.text})`,
    )
    .join(', ');
}
