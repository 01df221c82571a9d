/** Final-state checks: rubrics that read the state an episode ended in through `query`, whatever path led there. */
import type { GradeTarget, JsonValue, Row } from '../../core/index.ts';
import type { CountSpec } from './matchers.ts';
import {
  describeMatch,
  describeMisses,
  isFieldMatcher,
  testFields,
  type FieldMatch,
} from './fields.ts';
import { quoteIdent } from '../../core/schema.ts';
import {
  GraderError,
  OfflineQuery,
  checkId,
  criterion,
  gradeOf,
  idPart,
  keyText,
  rubric,
  type Rubric,
} from './grade.ts';

export interface RowWhereOptions {
  /** Name of the criterion. Default: `<table> where <where>`. */
  name?: string;
  /** Id of the criterion. Default: `row.<table>`. */
  id?: string;
}

function isScalar(v: unknown): v is string | number | null {
  return v === null || typeof v === 'string' || typeof v === 'number';
}

function tableColumns(
  target: GradeTarget,
  table: string,
  where: string,
): { columns: string[]; pk: string[] } {
  const info = target.query<{ name: string; pk: number }>(
    'SELECT name, pk FROM pragma_table_info(?) ORDER BY cid',
    table,
  );
  if (info.length === 0)
    throw new GraderError(
      `${where}: there is no table "${table}"; check the name against the world's schema.`,
    );
  const pk = info
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return { columns: info.map((c) => c.name), pk: pk.length ? pk : ['rowid'] };
}

/**
 * The rows of `table` matching `where` must exist and each satisfy `expect`. Plain values in `where` are compared in
 * SQL; matchers are applied to the rows read. Partial credit per field, judged on the worst matching row.
 * @example
 * rowWhere('contacts', { email: 'ada@example.com' }, { stage: 'lead', company_id: 'cmp_acme' })
 */
export function rowWhere(
  table: string,
  whereMatch: FieldMatch,
  expect: FieldMatch,
  options: RowWhereOptions = {},
): Rubric {
  const fn = `rowWhere('${table}', …)`;
  if (typeof table !== 'string' || table === '')
    throw new TypeError(
      "rowWhere(table, where, expect) needs a table name, like rowWhere('contacts', …).",
    );
  for (const [label, m] of [
    ['where', whereMatch],
    ['expect', expect],
  ] as const) {
    if (typeof m !== 'object' || m === null || Array.isArray(m))
      throw new TypeError(`${fn}: ${label} must be an object of column → value or matcher.`);
  }
  const name = options.name ?? `${table} where ${describeMatch(whereMatch)}`;
  const kind = {
    id: checkId(options.id, fn) ?? `row.${idPart(table)}`,
    label: `row of ${table}`,
    name,
  };
  const sqlParts = Object.entries(whereMatch).filter(([, v]) => !isFieldMatcher(v) && isScalar(v));
  const jsPart = Object.fromEntries(
    Object.entries(whereMatch).filter(([, v]) => isFieldMatcher(v) || !isScalar(v)),
  );
  return rubric(name, (target) => {
    const { columns, pk } = tableColumns(target, table, fn);
    for (const c of [...Object.keys(whereMatch), ...Object.keys(expect)]) {
      if (!columns.includes(c))
        throw new GraderError(
          `${fn}: ${table} has no column "${c}"; its columns are ${columns.join(', ')}.`,
        );
    }
    const sql = `SELECT ${pk.includes('rowid') ? 'rowid, ' : ''}* FROM ${quoteIdent(table)}${sqlParts.length ? ` WHERE ${sqlParts.map(([c]) => `${quoteIdent(c)} IS ?`).join(' AND ')}` : ''} ORDER BY ${pk.map(quoteIdent).join(', ')}`;
    const found = target
      .query(sql, ...sqlParts.map(([, v]) => v))
      .filter((row) => testFields(jsPart, (c) => row[c]).every((f) => f.ok));
    if (found.length === 0)
      return gradeOf([
        criterion(kind, 0, 1, `No row of ${table} has ${describeMatch(whereMatch)}.`),
      ]);
    const label = (row: Row) =>
      `${table} ${keyText(Object.fromEntries(pk.map((c) => [c, row[c] as JsonValue])))}`;
    let worst = { score: 2, row: found[0], results: testFields(expect, (c) => found[0][c]) };
    for (const row of found) {
      const results = testFields(expect, (c) => row[c]);
      const score = results.length === 0 ? 1 : results.filter((r) => r.ok).length / results.length;
      if (score < worst.score) worst = { score, row, results };
    }
    if (worst.score >= 1) {
      const one = found.length === 1;
      const who = one
        ? label(found[0])
        : `All ${found.length} rows of ${table} where ${describeMatch(whereMatch)}`;
      const what =
        Object.keys(expect).length === 0
          ? `${one ? 'exists' : 'exist'}, as required`
          : `${one ? 'has' : 'have'} ${describeMatch(expect)} as expected`;
      return gradeOf([criterion(kind, 1, 1, `${who} ${what}.`)]);
    }
    const right = worst.results.filter((r) => r.ok).length;
    return gradeOf([
      criterion(
        kind,
        worst.score,
        1,
        `${label(worst.row)} has ${describeMisses(worst.results)}; ${right} of ${worst.results.length} fields right.`,
      ),
    ]);
  });
}

export interface CountOptions {
  /** Values for the `?` placeholders of the query. */
  params?: readonly unknown[];
  /** Name of the criterion. Default: the query. */
  name?: string;
  /** Id of the criterion. Default: `count`. */
  id?: string;
}

/**
 * The query must return `n` rows (a number, `exactly(n)` or `atLeast(n)`). It counts the rows returned, so select
 * the rows themselves (`SELECT 1 FROM … WHERE …`), not `count(*)`.
 * @example
 * count("SELECT 1 FROM deals WHERE stage = 'negotiation' AND close_date < '2026-06-01'", 0)
 */
export function count(sql: string, n: number | CountSpec, options: CountOptions = {}): Rubric {
  if (typeof sql !== 'string' || !/^\s*(select|with|values)\b/i.test(sql))
    throw new TypeError(
      'count(sql, n) needs a SELECT query whose rows are counted, like count("SELECT 1 FROM contacts WHERE stage = \'lead\'", 3).',
    );
  if (/^\s*select\s+count\s*\(/i.test(sql)) {
    throw new TypeError(
      `count(sql, n) counts the rows a query returns, so ${JSON.stringify(sql.slice(0, 40))}… would always give 1; select the rows instead: SELECT 1 FROM … WHERE ….`,
    );
  }
  const spec: CountSpec =
    typeof n === 'number' ? { kind: 'count', min: n, max: n, text: `exactly ${n}` } : n;
  if (spec?.kind !== 'count' || !Number.isInteger(spec.min) || spec.min < 0)
    throw new TypeError('count(sql, n): n must be a whole number >= 0, exactly(n) or atLeast(n).');
  const short = sql.replace(/\s+/g, ' ').trim();
  const name = options.name ?? `count of ${short.length > 80 ? short.slice(0, 77) + '…' : short}`;
  const params = [...(options.params ?? [])];
  const kind = {
    id: checkId(options.id, 'count(sql, n, options)') ?? 'count',
    label: 'count of matching rows',
    name,
  };
  return rubric(name, (target) => {
    let got: number;
    try {
      got = target.query(sql, ...params).length;
    } catch (e) {
      if (e instanceof OfflineQuery) throw e;
      throw new GraderError(
        `count(): the query does not run: ${(e as Error).message}. Query: ${short}`,
      );
    }
    const ok = got >= spec.min && got <= spec.max;
    const rowsText = `${got} row${got === 1 ? '' : 's'}`;
    return gradeOf([
      criterion(
        kind,
        ok ? 1 : 0,
        1,
        ok
          ? `The query returned ${rowsText}, ${spec.text} as expected.`
          : `The query returned ${rowsText}, expected ${spec.text}.`,
      ),
    ]);
  });
}
