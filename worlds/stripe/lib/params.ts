/**
 * Request parameters as Stripe checks them. Form bodies arrive as strings (decoded by `qs` in face.ts); each operation
 * declares its parameters with `p.*`, and `validate` coerces them by type and answers mistakes as Stripe does:
 * unknown → `parameter_unknown`, missing → `parameter_missing`, wrong type → `parameter_invalid_integer` and friends.
 * An empty string means "unset" (`description=` sets null, `metadata[k]=` deletes a key, `metadata=` clears all).
 */
import { StripeError } from './errors.ts';

export type Spec =
  | { kind: 'string'; required?: boolean; max?: number }
  | { kind: 'integer'; required?: boolean; min?: number; max?: number }
  | { kind: 'number'; required?: boolean; min?: number; max?: number }
  | { kind: 'decimal'; required?: boolean }
  | { kind: 'boolean'; required?: boolean }
  | { kind: 'enum'; required?: boolean; values: readonly string[] }
  | { kind: 'object'; required?: boolean; fields: Record<string, Spec> }
  | { kind: 'array'; required?: boolean; item: Spec }
  | { kind: 'metadata'; required?: boolean }
  | { kind: 'range'; required?: boolean }
  | { kind: 'any'; required?: boolean };

type Req<S extends Spec> = S & { required: true };

function make<S extends Spec>(s: S): S & { req(): Req<S> } {
  return Object.assign(s, { req: () => ({ ...s, required: true }) as Req<S> });
}

/** Parameter specs. `.req()` makes one required. */
export const p = {
  string: (max = 5000) => make({ kind: 'string' as const, max }),
  int: (min?: number, max?: number) => make({ kind: 'integer' as const, min, max }),
  num: (min?: number, max?: number) => make({ kind: 'number' as const, min, max }),
  decimal: () => make({ kind: 'decimal' as const }),
  bool: () => make({ kind: 'boolean' as const }),
  enum: <V extends string>(...values: V[]) => make({ kind: 'enum' as const, values }),
  obj: <F extends Record<string, Spec>>(fields: F) => make({ kind: 'object' as const, fields }),
  arr: <I extends Spec>(item: I) => make({ kind: 'array' as const, item }),
  metadata: () => make({ kind: 'metadata' as const }),
  /** A unix time or a range `{gt, gte, lt, lte}` (list filters such as `created`). */
  range: () => make({ kind: 'range' as const }),
  any: () => make({ kind: 'any' as const }),
};

/** A list filter's range as `validate` answers it: a bare unix time is `eq`. */
export interface Range {
  eq?: number;
  gt?: number | null;
  gte?: number | null;
  lt?: number | null;
  lte?: number | null;
}

/**
 * The value `validate` answers for a parameter of spec `S`. An array's items are typed as given: an empty item
 * (`items[0]=`) coerces to null, which no operation takes.
 */
export type ParamValue<S extends Spec> = S extends { kind: 'string' | 'decimal' }
  ? string
  : S extends { kind: 'integer' | 'number' }
    ? number
    : S extends { kind: 'boolean' }
      ? boolean
      : S extends { kind: 'enum'; values: readonly (infer V)[] }
        ? V
        : S extends { kind: 'object'; fields: infer F extends Record<string, Spec> }
          ? ParamsOf<F>
          : S extends { kind: 'array'; item: infer I extends Spec }
            ? ParamValue<I>[]
            : S extends { kind: 'metadata' }
              ? Record<string, string | null>
              : S extends { kind: 'range' }
                ? Range
                : unknown;

type RequiredKeys<F> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];

/**
 * The parameters `validate` answers for `fields`, as an operation's run reads them: a required one is present, any
 * other may be absent or null (set to empty: unset).
 */
export type ParamsOf<F extends Record<string, Spec>> = {
  [K in RequiredKeys<F>]: ParamValue<F[K]>;
} & { [K in Exclude<keyof F, RequiredKeys<F>>]?: ParamValue<F[K]> | null };

/** What an operation's run reads: the parameters it declares, and the `expand[]` op.ts adds to every endpoint. */
export type OpParams<F extends Record<string, Spec> = Record<never, Spec>> = ParamsOf<F> & {
  expand?: string[] | null;
};

/** The parameters every list endpoint takes. */
export const listParams = {
  limit: p.int(),
  starting_after: p.string(),
  ending_before: p.string(),
  created: p.range(),
  expand: p.arr(p.string()),
};

/** The parameters every search endpoint takes. */
export const searchParams = {
  query: p.string().req(),
  limit: p.int(),
  page: p.string(),
  expand: p.arr(p.string()),
};

function invalid(code: string, message: string, param: string): StripeError {
  return new StripeError(400, { type: 'invalid_request_error', code, message, param });
}

/** `a[b][c]` from a path. */
function nameOf(path: string[]): string {
  return path.length === 0
    ? ''
    : path[0] +
        path
          .slice(1)
          .map((k) => `[${k}]`)
          .join('');
}

/**
 * Check and coerce `input` (from qs) against `fields`. Returns the coerced object; `null` marks a field set to empty
 * (unset). Throws Stripe's 400s.
 */
export function validate(
  fields: Record<string, Spec>,
  input: unknown,
  path: string[] = [],
): Record<string, unknown> {
  if (input === undefined || input === '') input = {};
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalid('parameter_invalid_object', `Invalid object`, nameOf(path) || 'body');
  }
  const out: Record<string, unknown> = {};
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(fields, key))
      throw invalid(
        'parameter_unknown',
        `Received unknown parameter: ${nameOf([...path, key])}`,
        nameOf([...path, key]),
      );
  }
  // Most of an endpoint's fields are absent from a request: those cost a lookup, and only a field that is there (or
  // missing but required) gets its path.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const spec = fields[key];
    const raw = record[key];
    if (raw === undefined) {
      if (spec.required) {
        const here = [...path, key];
        throw invalid(
          'parameter_missing',
          `Missing required param: ${nameOf(here)}.`,
          nameOf(here),
        );
      }
      continue;
    }
    const here = [...path, key];
    out[key] = coerce(spec, raw, here);
    if (out[key] === null && spec.required)
      throw invalid('parameter_missing', `Missing required param: ${nameOf(here)}.`, nameOf(here));
  }
  return out;
}

function coerce(spec: Spec, raw: unknown, path: string[]): unknown {
  // `nameOf(path)`, the parameter as an error names it, is built only for an error.
  if (raw === '' && spec.kind !== 'string' && spec.kind !== 'metadata') return null;
  switch (spec.kind) {
    case 'any':
      return raw;
    case 'string': {
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      if (typeof raw !== 'string')
        throw invalid('parameter_invalid_string', `Invalid string: ${describe(raw)}`, nameOf(path));
      if (raw === '') return null;
      if (spec.max !== undefined && raw.length > spec.max)
        throw invalid(
          'parameter_invalid_string_too_long',
          `Invalid string: ${raw.slice(0, 20)}...; must be at most ${spec.max} characters`,
          nameOf(path),
        );
      return raw;
    }
    case 'integer': {
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && /^-?\d+$/.test(raw.trim())
            ? Number(raw)
            : Number.NaN;
      if (!Number.isSafeInteger(n))
        throw invalid(
          'parameter_invalid_integer',
          `Invalid integer: ${describe(raw)}`,
          nameOf(path),
        );
      if (spec.min !== undefined && n < spec.min)
        throw invalid(
          'parameter_invalid_integer',
          `This value must be greater than or equal to ${spec.min}.`,
          nameOf(path),
        );
      if (spec.max !== undefined && n > spec.max)
        throw invalid(
          'parameter_invalid_integer',
          `This value must be less than or equal to ${spec.max}.`,
          nameOf(path),
        );
      return n;
    }
    case 'number': {
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim())
            ? Number(raw)
            : Number.NaN;
      if (!Number.isFinite(n))
        throw invalid('parameter_invalid_float', `Invalid float: ${describe(raw)}`, nameOf(path));
      if (spec.min !== undefined && n < spec.min)
        throw invalid(
          'parameter_invalid_float',
          `This value must be greater than or equal to ${spec.min}.`,
          nameOf(path),
        );
      if (spec.max !== undefined && n > spec.max)
        throw invalid(
          'parameter_invalid_float',
          `This value must be less than or equal to ${spec.max}.`,
          nameOf(path),
        );
      return n;
    }
    case 'decimal': {
      const t = typeof raw === 'number' ? String(raw) : raw;
      if (typeof t !== 'string' || !/^-?\d+(\.\d{1,12})?$/.test(t.trim()))
        throw invalid(
          'parameter_invalid_decimal',
          `Invalid decimal: ${describe(raw)}`,
          nameOf(path),
        );
      return t.trim();
    }
    case 'boolean': {
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      throw invalid('parameter_invalid_boolean', `Invalid boolean: ${describe(raw)}`, nameOf(path));
    }
    case 'enum': {
      if (typeof raw !== 'string' || !spec.values.includes(raw)) {
        throw invalid(
          'parameter_invalid_string',
          `Invalid ${nameOf(path)}: must be one of ${spec.values.join(', ')}`,
          nameOf(path),
        );
      }
      return raw;
    }
    case 'object':
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw invalid('parameter_invalid_object', `Invalid object`, nameOf(path));
      return validate(spec.fields, raw, path);
    case 'array': {
      const items = Array.isArray(raw)
        ? raw
        : raw !== null && typeof raw === 'object' && Object.keys(raw).every((k) => /^\d+$/.test(k))
          ? Object.values(raw)
          : [raw];
      return items.map((item, i) => coerce(spec.item, item, [...path, String(i)]));
    }
    case 'metadata': {
      if (raw === '') return null;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw invalid('parameter_invalid_object', `Invalid object`, nameOf(path));
      const out: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
        if (k.length > 40)
          throw invalid(
            'parameter_invalid_string',
            `Metadata keys can have up to 40 characters; "${k}" has ${k.length}.`,
            `${nameOf(path)}[${k}]`,
          );
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
          throw invalid(
            'parameter_invalid_string',
            `Invalid metadata value for ${k}: metadata values are strings`,
            `${nameOf(path)}[${k}]`,
          );
        const text = String(v);
        if (text.length > 500)
          throw invalid(
            'parameter_invalid_string',
            `Metadata values can have up to 500 characters; the value of "${k}" has ${text.length}.`,
            `${nameOf(path)}[${k}]`,
          );
        out[k] = text === '' ? null : text;
      }
      return out;
    }
    case 'range': {
      if (typeof raw === 'string' || typeof raw === 'number')
        return { eq: coerce({ kind: 'integer' }, raw, path) };
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw invalid(
          'parameter_invalid_integer',
          `Invalid integer: ${describe(raw)}`,
          nameOf(path),
        );
      return validate(
        {
          gt: { kind: 'integer' },
          gte: { kind: 'integer' },
          lt: { kind: 'integer' },
          lte: { kind: 'integer' },
        },
        raw,
        path,
      );
    }
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? String(v);
}

/** Merge a metadata update into existing metadata: `null` for the whole update clears, a `null` value deletes a key. */
export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string | null> | null | undefined,
): Record<string, string> {
  if (update === undefined) return current;
  if (update === null) return {};
  const out = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  if (Object.keys(out).length > 50)
    throw invalid('parameter_invalid_object', 'Metadata can have up to 50 keys.', 'metadata');
  return out;
}
