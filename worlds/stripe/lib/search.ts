/**
 * Stripe's search query language, parsed by hand (a scanner over the characters and a recursive-descent parser over
 * clauses) and checked against the searchable fields. Search pages run it as SQL over the tables' search columns
 * (search-sql.ts); `compileSearch` makes the same query a predicate over objects, which defines what a query means
 * and which the SQL is tested against.
 *
 *   query   := clause (conj clause)*          conj := AND | OR | whitespace (an implicit AND); AND/OR any case
 *   clause  := ['-'] field op value             at most 10 clauses; AND and OR never mix in one query
 *   field   := name ('.' name)* | metadata '[' quoted ']'
 *   op      := ':' | '~' | '>' | '<' | '>=' | '<='
 *   value   := 'single' | "double" (backslash escapes) | number | null | true | false
 *
 * Matching rules, chosen where Stripe's documentation is silent and kept the same for every resource:
 * - `id` fields (references such as `customer`, `product`) match exactly, case-sensitively.
 * - `token` fields (statuses, currencies, card last4, postal codes) match exactly, ignoring case; no substring.
 * - `string` fields (email, name, phone, description, …) match exactly or by `~` substring (at least 3
 *   characters), both ignoring case.
 * - `number` fields (amounts, unix times) take `:` and the comparators; `boolean` fields take true/false.
 * - `metadata['key']` values match exactly as stored (case-sensitive); `metadata['key']:null` matches objects
 *   without the key, and `-metadata['key']:null` those with it. `field:null` likewise for any field.
 * Every mistake is a 400 `invalid_request_error` on `query` that names what is wrong and at which character.
 */
import { invalidRequest } from './errors.ts';
import { idOf, kindOf, readPath, type FieldSpec } from './search-fields.ts';

export { SEARCH_FIELDS, type FieldSpec } from './search-fields.ts';

export const MAX_CLAUSES = 10;

export type Operator = ':' | '~' | '>' | '<' | '>=' | '<=';

export type Value =
  | { type: 'string'; text: string }
  | { type: 'number'; text: string; n: number }
  | { type: 'null' }
  | { type: 'boolean'; b: boolean };

export interface Clause {
  negated: boolean;
  field: string;
  /** The key of `metadata['key']`. */
  key?: string;
  op: Operator;
  value: Value;
  /** Where the clause starts in the query (0-based). */
  at: number;
}

export interface ParsedQuery {
  conj: 'AND' | 'OR';
  clauses: Clause[];
}

function fail(query: string, at: number, what: string): never {
  const shown = query.length > 200 ? `${query.slice(0, 200)}…` : query;
  throw invalidRequest(
    `Invalid search query: ${what} at character ${at + 1} of "${shown}".`,
    'query',
  );
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?\d+(?:\.\d+)?(?![A-Za-z0-9_.])/y;
const WORD = /[A-Za-z0-9_.@+-]+/y;

/** The query's clauses and how they are joined; throws Stripe's 400 for anything it cannot read. */
export function parseSearch(query: string): ParsedQuery {
  let i = 0;
  const n = query.length;
  const ws = () => {
    const start = i;
    while (i < n && /\s/.test(query[i])) i++;
    return i > start;
  };
  const match = (re: RegExp): string | null => {
    re.lastIndex = i;
    const m = re.exec(query);
    if (!m) return null;
    i += m[0].length;
    return m[0];
  };
  const quoted = (): string => {
    const q = query[i];
    const start = i;
    i++;
    let out = '';
    while (i < n && query[i] !== q) {
      if (query[i] === '\\' && i + 1 < n) i++;
      out += query[i];
      i++;
    }
    if (i >= n) fail(query, start, `unterminated string (a ${q} is never closed)`);
    i++;
    return out;
  };

  const field = (): { field: string; key?: string } => {
    const start = i;
    const first = match(NAME);
    if (first === null)
      fail(
        query,
        start,
        query[i] === undefined
          ? 'expected a field name, found the end of the query'
          : `expected a field name, found '${query[i]}'`,
      );
    let name = first;
    if (name === 'metadata' && query[i] === '[') {
      i++;
      if (query[i] !== '"' && query[i] !== "'")
        fail(query, i, `expected a quoted metadata key after 'metadata[', as in metadata['key']`);
      const key = quoted();
      if (query[i] !== ']') fail(query, i, `expected ']' after the metadata key`);
      i++;
      return { field: 'metadata', key };
    }
    while (query[i] === '.') {
      i++;
      const part = match(NAME);
      if (part === null) fail(query, i, `expected a field name after '.'`);
      name += `.${part}`;
    }
    return { field: name };
  };

  const operator = (): Operator => {
    const c = query[i];
    if (c === ':' || c === '~') {
      i++;
      return c;
    }
    if (c === '>' || c === '<') {
      i++;
      if (query[i] === '=') {
        i++;
        return `${c}=`;
      }
      return c;
    }
    if (c === '=') fail(query, i, `'=' is not an operator; use ':' for an exact match`);
    fail(
      query,
      i,
      c === undefined || /\s/.test(c)
        ? `expected an operator (: ~ > < >= <=) after the field name`
        : `expected an operator (: ~ > < >= <=), found '${c}'`,
    );
  };

  const value = (): Value => {
    const start = i;
    const c = query[i];
    if (c === undefined || /\s/.test(c)) fail(query, start, 'expected a value after the operator');
    if (c === '"' || c === "'") return { type: 'string', text: quoted() };
    const num = match(NUMBER);
    if (num !== null) return { type: 'number', text: num, n: Number(num) };
    const word = match(WORD);
    if (word === 'null') return { type: 'null' };
    if (word === 'true' || word === 'false') return { type: 'boolean', b: word === 'true' };
    if (word !== null) fail(query, start, `string values must be quoted, as in "${word}"`);
    fail(query, start, `unexpected '${c}' where a value belongs`);
  };

  const clause = (): Clause => {
    const at = i;
    let negated = false;
    if (query[i] === '-') {
      negated = true;
      i++;
    }
    if (query[i] === '(' || query[i] === ')')
      fail(query, i, 'parentheses are not supported; join clauses with either AND or OR');
    const f = field();
    const op = operator();
    return { negated, ...f, op, value: value(), at };
  };

  ws();
  if (i >= n) fail(query, 0, 'the query is empty');
  const clauses: Clause[] = [clause()];
  let conj: 'AND' | 'OR' | undefined;
  let conjAt = 0;
  while (true) {
    const spaced = ws();
    if (i >= n) break;
    if (!spaced) fail(query, i, `expected a space, AND or OR after a clause, found '${query[i]}'`);
    let word: 'AND' | 'OR' = 'AND';
    const at = i;
    const kw = /(AND|OR)(?=\s|$)/iy;
    kw.lastIndex = i;
    const m = kw.exec(query);
    if (m) {
      word = m[1].toUpperCase() as 'AND' | 'OR';
      i += m[0].length;
      ws();
      if (i >= n) fail(query, at, `${word} must be followed by a clause`);
    }
    if (conj !== undefined && conj !== word)
      fail(
        query,
        at,
        `AND and OR cannot be combined in one query (${conj} at character ${conjAt + 1}, ${word} here)`,
      );
    if (conj === undefined) {
      conj = word;
      conjAt = at;
    }
    clauses.push(clause());
    if (clauses.length > MAX_CLAUSES)
      fail(
        query,
        clauses[clauses.length - 1].at,
        `a query can have at most ${MAX_CLAUSES} clauses`,
      );
  }
  return { conj: conj ?? 'AND', clauses };
}

const isNull = (v: unknown) => v === null || v === undefined;

/** Compile one clause to a predicate, checking that its field, operator and value fit together. */
function compileClause(
  query: string,
  c: Clause,
  fields: Record<string, FieldSpec>,
): (o: object) => boolean {
  const spec = fields[c.field];
  if (spec === undefined) {
    fail(
      query,
      c.at + (c.negated ? 1 : 0),
      `'${c.field}' is not a searchable field here; search by ${Object.keys(fields).sort().join(', ')}`,
    );
  }
  const kind = kindOf(spec);
  const read = typeof spec === 'string' ? (o: object) => readPath(o, c.field) : spec.read;
  const where: (what: string) => never = (what) => fail(query, c.at, what);
  if (kind === 'metadata' && c.key === undefined)
    where(`metadata is searched by key, as in metadata['key']:'value'`);
  const v = c.value;

  if (v.type === 'null') {
    if (c.op !== ':') where(`null can only be matched with ':', as in ${c.field}:null`);
    if (kind === 'metadata') {
      const key = c.key as string;
      return (o) => {
        const metadata = readPath(o, 'metadata');
        return isNull(
          metadata && typeof metadata === 'object'
            ? (metadata as Record<string, unknown>)[key]
            : undefined,
        );
      };
    }
    return (o) => isNull(read(o));
  }
  if (c.op === '~') {
    if (kind !== 'string')
      where(
        `'${c.field}' does not support substring matching with '~'; use ':' for an exact match`,
      );
    if (v.type !== 'string' && v.type !== 'number') where(`'~' takes a quoted string`);
    const needle = v.text.toLowerCase();
    if (needle.length < 3)
      where(
        `substring matching with '~' needs at least 3 characters, got ${JSON.stringify(v.text)}`,
      );
    return (o) => {
      const got = read(o);
      return typeof got === 'string' && got.toLowerCase().includes(needle);
    };
  }
  if (c.op !== ':') {
    if (kind !== 'number')
      where(`'${c.field}' does not support the '${c.op}' comparator; only numeric fields do`);
    const want = numberOf(v);
    if (want === undefined) where(`'${c.op}' compares numbers; '${c.field}' needs a number`);
    const cmp = c.op;
    return (o) => {
      const got = read(o);
      if (typeof got !== 'number') return false;
      return cmp === '>'
        ? got > want
        : cmp === '<'
          ? got < want
          : cmp === '>='
            ? got >= want
            : got <= want;
    };
  }
  switch (kind) {
    case 'number': {
      const want = numberOf(v);
      if (want === undefined)
        where(`'${c.field}' is numeric; give a number, as in ${c.field}:1000`);
      return (o) => read(o) === want;
    }
    case 'boolean': {
      const b =
        v.type === 'boolean'
          ? v.b
          : v.type === 'string' && /^(true|false)$/i.test(v.text)
            ? v.text.toLowerCase() === 'true'
            : undefined;
      if (b === undefined) where(`'${c.field}' is true or false`);
      return (o) => Boolean(read(o)) === b;
    }
    case 'metadata': {
      const want = textOf(v);
      return (o) => {
        const metadata = readPath(o, 'metadata');
        const got =
          metadata && typeof metadata === 'object'
            ? (metadata as Record<string, unknown>)[c.key as string]
            : undefined;
        return typeof got === 'string' && got === want;
      };
    }
    case 'id': {
      const want = textOf(v);
      return (o) => idOf(read(o)) === want;
    }
    default: {
      const want = textOf(v).toLowerCase();
      return (o) => {
        const got = read(o);
        return (
          (typeof got === 'string' || typeof got === 'number') && String(got).toLowerCase() === want
        );
      };
    }
  }
}

/** The number a clause compares with, or undefined for a value that is not one. */
export function numberOf(v: Value): number | undefined {
  if (v.type === 'number') return v.n;
  if (v.type === 'string' && /^-?\d+(\.\d+)?$/.test(v.text.trim())) return Number(v.text);
  return undefined;
}

/** The text a clause matches. */
export function textOf(v: Value): string {
  if (v.type === 'string' || v.type === 'number') return v.text;
  if (v.type === 'boolean') return String(v.b);
  return '';
}

/** A predicate for `query` over objects with the searchable `fields`; throws Stripe's 400 for a bad query. */
export function compileSearch(
  query: string,
  fields: Record<string, FieldSpec> | undefined,
): (o: object) => boolean {
  if (!fields) throw invalidRequest('This resource cannot be searched.');
  const parsed = parseSearch(query);
  const tests = parsed.clauses.map((c) => {
    const test = compileClause(query, c, fields);
    return c.negated ? (o: object) => !test(o) : test;
  });
  return parsed.conj === 'OR' ? (o) => tests.some((t) => t(o)) : (o) => tests.every((t) => t(o));
}

/**
 * `query` parsed and checked against the searchable `fields` (each clause's field, operator and value fit together);
 * throws Stripe's 400 as `compileSearch` does. search-sql.ts turns what it returns into SQL.
 */
export function checkSearch(
  query: string,
  fields: Record<string, FieldSpec> | undefined,
): ParsedQuery {
  if (!fields) throw invalidRequest('This resource cannot be searched.');
  const parsed = parseSearch(query);
  for (const c of parsed.clauses) compileClause(query, c, fields);
  return parsed;
}
