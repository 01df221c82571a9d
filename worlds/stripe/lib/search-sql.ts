/**
 * A checked search query (search.ts) as SQL over a table's search columns (search-fields.ts). Each clause becomes an
 * expression that is 0 or 1, never NULL, so that `-clause` (NOT) and OR keep the meaning of `compileSearch`'s
 * predicates, which the search tests hold these expressions to on real fixtures: a missing value fails `:`, `~` and
 * the comparators, and `-` turns that into a match.
 *
 * `searchPlan` picks the index a page reads, so that a page costs about what it shows: a query of clauses joined by
 * AND whose exact clause on an indexed field (`INDEXED_FIELDS`) has few candidates reads them from that field's
 * index, which holds them newest first; any other walks the table's order index newest first and stops at the page's
 * end. Either way the WHERE is the same, so the plan changes how fast a page comes, never what is on it.
 */
import type { Ctx, SqlParam } from 'seahaven';
import { SEARCH_COLUMNS, type SearchColumn } from './search-fields.ts';
import { numberOf, textOf, type Clause, type ParsedQuery } from './search.ts';

/**
 * The fields of each table whose search column leads an index of its own, `<table>_search_<field>` on
 * `(search_<field>, created DESC, seq DESC)` (schema.sql): exact lookups that are usually selective (a customer's
 * charges, an email, a status most objects are not in).
 */
export const INDEXED_FIELDS: Record<string, string[]> = {
  customers: ['email', 'name', 'phone'],
  payment_intents: ['customer', 'status'],
  charges: ['customer', 'payment_intent', 'status'],
  invoices: ['customer', 'number', 'status', 'subscription'],
  subscriptions: ['status'],
};

/**
 * How many candidates a field's index may hold for a page to be read from it: each candidate is tested on its row,
 * a few microseconds. With more, the order index, whose entries carry every search column, is walked instead.
 */
export const DRIVE_LIMIT = 2000;

/** The WHERE text and its parameters for a checked query over `table`. */
export function searchWhere(table: string, parsed: ParsedQuery): { sql: string; args: SqlParam[] } {
  const columns = new Map((SEARCH_COLUMNS[table] ?? []).map((c) => [c.field, c]));
  const args: SqlParam[] = [];
  const parts = parsed.clauses.map((c) => {
    const expr = `coalesce(${clauseSql(c, columns.get(c.field), args)}, 0)`;
    return c.negated ? `NOT ${expr}` : expr;
  });
  if (parsed.conj === 'AND') {
    // A bound on `created` also as a bare comparison, which SQLite can seek by in either index (both hold `created`
    // after their first columns, or first); with AND, it selects the same rows as the clause it repeats.
    for (const c of parsed.clauses) {
      if (c.negated || c.field !== 'created' || c.value.type === 'null' || c.op === '~') continue;
      parts.push(`created ${c.op === ':' ? '=' : c.op} ?`);
      args.push(numberOf(c.value)!);
    }
  }
  return { sql: '(' + parts.join(parsed.conj === 'OR' ? ' OR ' : ' AND ') + ')', args };
}

export interface SearchPlan {
  /** The index the page reads (`INDEXED BY`). */
  index: string;
  /** The WHERE text and its parameters. */
  sql: string;
  args: SqlParam[];
}

/**
 * The index and WHERE of a page of `parsed` over `table`: the field index with the fewest candidates among the
 * query's exact clauses (counted up to `limit` by their index alone), when that is at most `limit`; else the order
 * index. Only AND queries read a field's index: with OR, a row may match by a clause no index holds.
 */
export function searchPlan(
  db: Pick<Ctx['db'], 'one'>,
  table: string,
  parsed: ParsedQuery,
  limit = DRIVE_LIMIT,
): SearchPlan {
  const where = searchWhere(table, parsed);
  const order: SearchPlan = { index: `${table}_order`, ...where };
  const indexed = INDEXED_FIELDS[table];
  if (parsed.conj !== 'AND' || indexed === undefined) return order;
  const columns = new Map((SEARCH_COLUMNS[table] ?? []).map((c) => [c.field, c]));
  let best: { index: string; column: string; value: SqlParam; n: number } | undefined;
  for (const c of parsed.clauses) {
    const column = columns.get(c.field);
    if (c.negated || c.op !== ':' || c.value.type === 'null' || column === undefined) continue;
    if (!indexed.includes(c.field)) continue;
    const value = column.kind === 'id' ? textOf(c.value) : textOf(c.value).toLowerCase();
    const index = `${table}_search_${c.field}`;
    const n = db.one<{ n: number }>(
      // eslint-disable-next-line seahaven/no-sql-interpolation -- the table, index and column are search-fields.ts's names
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} INDEXED BY ${index} WHERE ${column.column} = ? LIMIT ?)`,
      value,
      limit + 1,
    )!.n;
    if (best === undefined || n < best.n) best = { index, column: column.column, value, n };
  }
  if (best === undefined || best.n > limit) return order;
  return {
    index: best.index,
    sql: `(${best.column} = ? AND ${where.sql})`,
    args: [best.value, ...where.args],
  };
}

/** One clause (already checked by `checkSearch`) as SQL; `column` is undefined for `created`, the table's own column. */
function clauseSql(c: Clause, column: SearchColumn | undefined, args: SqlParam[]): string {
  const name = column?.column ?? 'created';
  const kind = column?.kind ?? 'number';
  const v = c.value;
  if (v.type === 'null') {
    if (kind !== 'metadata') return `${name} IS NULL`;
    // Text that does not hold the key's JSON at all cannot have it: json_each reads only the rest.
    args.push(JSON.stringify(c.key!) + ':', c.key!);
    return `(instr(${name}, ?) = 0 OR NOT EXISTS (SELECT 1 FROM json_each(${name}) WHERE key = ? AND type <> 'null'))`;
  }
  if (c.op === '~') {
    args.push(textOf(v).toLowerCase());
    return `instr(${name}, ?) > 0`;
  }
  if (c.op !== ':') {
    args.push(numberOf(v)!);
    return `${name} ${c.op} ?`;
  }
  switch (kind) {
    case 'number':
      args.push(numberOf(v)!);
      return `${name} = ?`;
    case 'boolean':
      args.push(v.type === 'boolean' ? Number(v.b) : Number(textOf(v).toLowerCase() === 'true'));
      return `coalesce(${name}, 0) = ?`;
    case 'metadata':
      // The pair's JSON text (`"key":"value"`, as JSON.stringify wrote the column) finds the candidates cheaply;
      // json_each confirms them.
      args.push(JSON.stringify(c.key!) + ':' + JSON.stringify(textOf(v)), c.key!, textOf(v));
      return `(instr(${name}, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(${name}) WHERE key = ? AND type = 'text' AND value = ?))`;
    case 'id':
      args.push(textOf(v));
      return `${name} = ?`;
    default:
      args.push(textOf(v).toLowerCase());
      return `${name} = ?`;
  }
}
