/**
 * A checked search query (search.ts) as SQL over a table's search columns (search-fields.ts). Each clause becomes an
 * expression that is 0 or 1, never NULL, so that `-clause` (NOT) and OR keep the meaning of `compileSearch`'s
 * predicates, which the search tests hold these expressions to on real fixtures: a missing value fails `:`, `~` and
 * the comparators, and `-` turns that into a match.
 */
import type { SqlParam } from 'seahaven';
import { SEARCH_COLUMNS, type SearchColumn } from './search-fields.ts';
import { numberOf, textOf, type Clause, type ParsedQuery } from './search.ts';

/** The WHERE text and its parameters for a checked query over `table`. */
export function searchWhere(table: string, parsed: ParsedQuery): { sql: string; args: SqlParam[] } {
  const columns = new Map((SEARCH_COLUMNS[table] ?? []).map((c) => [c.field, c]));
  const args: SqlParam[] = [];
  const parts = parsed.clauses.map((c) => {
    const expr = `coalesce(${clauseSql(c, columns.get(c.field), args)}, 0)`;
    return c.negated ? `NOT ${expr}` : expr;
  });
  return { sql: '(' + parts.join(parsed.conj === 'OR' ? ' OR ' : ' AND ') + ')', args };
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
