/**
 * A checked search query (search.ts) as SQL over a table's search columns (search-fields.ts). Each clause becomes an
 * expression that is 1 for a match and 0 or NULL (a missing value) otherwise; a negated one is `NOT coalesce(…, 0)`,
 * so that `-clause` and OR keep the meaning of `compileSearch`'s predicates, which the search tests hold these
 * expressions to on real fixtures: a missing value fails `:`, `~` and the comparators, and `-` turns that into a match.
 *
 * `searchPlan` picks what a page reads, so that a page costs about what it shows: an AND query whose clause on an
 * indexed field (`INDEXED_FIELDS`) has few candidates reads them from that field's index, which holds them newest
 * first; an OR query of such clauses reads their candidates; any other walks the table's order index newest first and
 * stops at the page's end. The WHERE always holds the whole query, so the plan changes how fast a page comes, never
 * what is on it.
 */
import type { Ctx, SqlParam } from 'seahaven';
import { SEARCH_COLUMNS, type SearchColumn } from './search-fields.ts';
import { numberOf, textOf, type Clause, type ParsedQuery } from './search.ts';

/**
 * The fields of each table whose search column leads an index of its own, `<table>_search_<field>` on
 * `(search_<field>, created DESC, seq DESC)` (schema.sql): exact lookups that are usually selective (a customer's
 * charges, an email, a status most objects are not in), and amounts and flags that few objects reach.
 */
export const INDEXED_FIELDS: Record<string, string[]> = {
  customers: ['email', 'name', 'phone'],
  payment_intents: ['amount', 'customer', 'status'],
  charges: ['amount', 'customer', 'disputed', 'payment_intent', 'refunded', 'status'],
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
  // A clause that is NULL (a missing value) fails in WHERE as 0 does, through AND and OR alike; only NOT needs it 0.
  const parts = parsed.clauses.map((c) => {
    const expr = clauseSql(c, columns.get(c.field), args);
    return c.negated ? `NOT coalesce(${expr}, 0)` : expr;
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
  /** What a page reads FROM: the table with the index it walks, or the rows of the field indexes' candidates. */
  from: string;
  /** The WHERE text. */
  sql: string;
  /** The parameters of `from`, then of `sql`. */
  args: SqlParam[];
}

/** A clause a field's index can seek (`term` over its column), or undefined: exact values, numeric bounds, `:true`. */
function seekOf(
  table: string,
  c: Clause,
  column: SearchColumn | undefined,
): { index: string; term: string; value: SqlParam } | undefined {
  if (c.negated || column === undefined || c.value.type === 'null' || c.op === '~')
    return undefined;
  if (!INDEXED_FIELDS[table]?.includes(c.field)) return undefined;
  const index = `${table}_search_${c.field}`;
  const name = column.column;
  if (column.kind === 'number') {
    return { index, term: `${name} ${c.op === ':' ? '=' : c.op} ?`, value: numberOf(c.value)! };
  }
  if (c.op !== ':') return undefined;
  if (column.kind === 'boolean') {
    // `:false` also matches objects without the value, which the index holds as NULL: only `:true` is sought.
    const yes = c.value.type === 'boolean' ? c.value.b : textOf(c.value).toLowerCase() === 'true';
    return yes ? { index, term: `${name} = ?`, value: 1 } : undefined;
  }
  if (column.kind === 'metadata') return undefined;
  const text = textOf(c.value);
  return { index, term: `${name} = ?`, value: column.kind === 'id' ? text : text.toLowerCase() };
}

/**
 * The FROM and WHERE of a page of `parsed` over `table`, each seekable clause's candidates counted by its index alone,
 * up to `limit`. AND: the clause with the fewest, when they are at most `limit`, and the page reads its index in
 * order. OR: when every clause is seekable and their candidates are at most `limit` in all, the page reads those
 * candidates' rows and sorts them. Otherwise the page walks the order index.
 */
export function searchPlan(
  db: Pick<Ctx['db'], 'one'>,
  table: string,
  parsed: ParsedQuery,
  limit = DRIVE_LIMIT,
): SearchPlan {
  const where = searchWhere(table, parsed);
  const order: SearchPlan = { from: `${table} INDEXED BY ${table}_order`, ...where };
  const columns = new Map((SEARCH_COLUMNS[table] ?? []).map((c) => [c.field, c]));
  const seeks = parsed.clauses.map((c) => {
    const seek = seekOf(table, c, columns.get(c.field));
    if (seek === undefined) return undefined;
    const n = db.one<{ n: number }>(
      // eslint-disable-next-line seahaven/no-sql-interpolation -- the table, index and term are this module's
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} INDEXED BY ${seek.index} WHERE ${seek.term} LIMIT ?)`,
      seek.value,
      limit + 1,
    )!.n;
    return { ...seek, n };
  });
  if (parsed.conj === 'AND') {
    let best: (typeof seeks)[number];
    for (const s of seeks) if (s !== undefined && (best === undefined || s.n < best.n)) best = s;
    if (best === undefined || best.n > limit) return order;
    return {
      from: `${table} INDEXED BY ${best.index}`,
      sql: `(${best.term} AND ${where.sql})`,
      args: [best.value, ...where.args],
    };
  }
  const all = seeks.filter((s) => s !== undefined);
  if (all.length < seeks.length || all.reduce((n, s) => n + s.n, 0) > limit) return order;
  const union = all
    .map((s) => `SELECT rowid FROM ${table} INDEXED BY ${s.index} WHERE ${s.term}`)
    .join(' UNION ');
  return {
    // NOT INDEXED: the rows are found by rowid, never by walking an index.
    from: `${table} NOT INDEXED`,
    sql: `(rowid IN (${union}) AND ${where.sql})`,
    args: [...all.map((s) => s.value), ...where.args],
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
    // CASE, unlike OR in an expression, reads json_each only for the text that may hold the key.
    return `CASE WHEN coalesce(instr(${name}, ?), 0) = 0 THEN 1 ELSE NOT EXISTS (SELECT 1 FROM json_each(${name}) WHERE key = ? AND type <> 'null') END`;
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
      return `CASE WHEN instr(${name}, ?) > 0 THEN EXISTS (SELECT 1 FROM json_each(${name}) WHERE key = ? AND type = 'text' AND value = ?) ELSE 0 END`;
    case 'id':
      args.push(textOf(v));
      return `${name} = ?`;
    default:
      args.push(textOf(v).toLowerCase());
      return `${name} = ?`;
  }
}
