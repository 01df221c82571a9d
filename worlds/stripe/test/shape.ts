/**
 * Shape checks against Stripe's own example objects, as the field names and nesting kept in
 * `worlds/stripe/reference/shapes.json` (made from Stripe's published fixtures by test/reference-build.ts): every field
 * Stripe returns must be present with the same nesting, and no field Stripe does not know may appear. A field we deliberately leave out or shape differently is listed, with a reason, in
 * `worlds/stripe/shape-exceptions.json` under the object type and its dotted path.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const SHAPES = fileURLToPath(new URL('../reference/shapes.json', import.meta.url));
const EXCEPTIONS = fileURLToPath(new URL('../shape-exceptions.json', import.meta.url));

let shapes: Record<string, Json> | undefined;

/** The shapes of Stripe's example objects, by type. */
export function referenceObjects(): Record<string, Json> {
  shapes ??= JSON.parse(readFileSync(SHAPES, 'utf8')) as Record<string, Json>;
  return shapes;
}

/** The documented exceptions: `{ "<type>": { "<dotted.path>": "<reason>" } }`. */
export function shapeExceptions(): Record<string, Record<string, string>> {
  const raw = JSON.parse(readFileSync(EXCEPTIONS, 'utf8')) as Record<
    string,
    Record<string, string> | string
  >;
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('$'))) as Record<
    string,
    Record<string, string>
  >;
}

const isObject = (v: unknown): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The differences between `actual` and Stripe's example of `type`: missing fields, unknown fields, and nesting
 * mismatches, as dotted paths. Empty when the shapes agree.
 */
export function shapeDifferences(type: string, actual: unknown): string[] {
  const expected = referenceObjects()[type];
  if (expected === undefined)
    return [
      `no reference shape of type "${type}" in reference/shapes.json; add the type to SHAPE_TYPES in test/reference-build.ts`,
    ];
  const allowed = shapeExceptions()[type] ?? {};
  const out: string[] = [];
  compare(expected, actual as Json, '', allowed, out);
  return out;
}

function compare(
  expected: Json,
  actual: Json,
  path: string,
  allowed: Record<string, string>,
  out: string[],
): void {
  if (Object.hasOwn(allowed, path || '.')) return;
  if (isObject(expected) && isObject(actual)) {
    // Metadata is the caller's own keys.
    if (path === 'metadata' || path.endsWith('.metadata')) return;
    // A list (or a polymorphic hash such as payment_method_details) is compared by envelope only.
    if (expected.object === 'list' || actual.object === 'list') return;
    for (const k of Object.keys(expected)) {
      const p = path ? `${path}.${k}` : k;
      if (Object.hasOwn(allowed, p)) continue;
      if (!Object.hasOwn(actual, k)) out.push(`missing ${p}`);
      else compare(expected[k], actual[k], p, allowed, out);
    }
    for (const k of Object.keys(actual)) {
      const p = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(expected, k) && !Object.hasOwn(allowed, p)) out.push(`unknown ${p}`);
    }
    return;
  }
  if (actual === null || expected === null) return;
  if (isObject(expected) && typeof actual === 'string') return; // an unexpanded reference
  if (typeof expected === 'string' && isObject(actual)) return; // an expanded reference
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length > 0 && actual.length > 0 && isObject(expected[0]) && isObject(actual[0]))
      compare(expected[0], actual[0], `${path}[]`, allowed, out);
    return;
  }
  if (typeof expected !== typeof actual)
    out.push(
      `type of ${path}: Stripe has ${Array.isArray(expected) ? 'array' : typeof expected}, got ${Array.isArray(actual) ? 'array' : typeof actual}`,
    );
}

/** An SDK result as the JSON the server sent: without the SDK's `lastResponse`. */
export function plain<T>(obj: T): T {
  return JSON.parse(JSON.stringify(obj, (k, v) => (k === 'lastResponse' ? undefined : v))) as T;
}
