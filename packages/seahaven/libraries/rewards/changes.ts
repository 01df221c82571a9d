/** Change matchers: expectations about single rows of `inst.changes()`, and counts of how many rows they cover. */
import type { Change, Grade, GradeTarget } from '../../core/index.ts';
import { describeMatch, testFields, type FieldMatch, type FieldResult } from './fields.ts';
import {
  RowLookup,
  checkId,
  checkTables,
  criterion,
  gradeOf,
  idPart,
  listText,
  pastTense,
  rethrowAs,
  rowLabel,
  valueAfter,
  valueBefore,
} from './grade.ts';
import { gradeChanges } from './expect.ts';
import type { ChangeMatcher, CountSpec, MatcherOptions, UnchangedRule } from './matchers.ts';

export type { ChangeMatcher, CountSpec, MatcherOptions, UnchangedRule } from './matchers.ts';

const ONE: CountSpec = Object.freeze({ kind: 'count', min: 1, max: 1, text: 'exactly 1' });

function checkCount(n: number, fn: string): void {
  if (!Number.isInteger(n) || n < 0)
    throw new TypeError(`${fn}(n) needs a whole number n >= 0; got ${n}.`);
}

function withCount(m: ChangeMatcher, count: CountSpec): ChangeMatcher {
  if (m?.kind !== 'change')
    throw new TypeError(
      `${count.text.split(' ')[0]}(n, matcher) needs a change matcher from inserted(), updated() or deleted().`,
    );
  return makeMatcher(
    m.op,
    m.table,
    { description: m.description, id: m.id, label: m.label },
    m.fieldCount,
    count,
    m.fit,
  );
}

/**
 * Exactly `n`: alone, a count for `count(sql, exactly(n))`; with a matcher, that many changes must match it.
 * @example
 * expectChanges([exactly(2, updated('contacts', { company_id: 'cmp_globex', stage: 'lead' }, { stage: 'qualified' }))])
 */
export function exactly(n: number): CountSpec;
export function exactly(n: number, matcher: ChangeMatcher): ChangeMatcher;
export function exactly(n: number, matcher?: ChangeMatcher): CountSpec | ChangeMatcher {
  checkCount(n, 'exactly');
  const count: CountSpec = Object.freeze({ kind: 'count', min: n, max: n, text: `exactly ${n}` });
  return matcher === undefined ? count : withCount(matcher, count);
}

/**
 * At least `n`: alone, a count for `count(sql, atLeast(n))`; with a matcher, `n` changes must match it and further
 * changes that match it fully are tolerated.
 * @example
 * expectChanges([atLeast(1, inserted('activities', { contact_id: 'con_dana' }))])
 */
export function atLeast(n: number): CountSpec;
export function atLeast(n: number, matcher: ChangeMatcher): ChangeMatcher;
export function atLeast(n: number, matcher?: ChangeMatcher): CountSpec | ChangeMatcher {
  checkCount(n, 'atLeast');
  const count: CountSpec = Object.freeze({
    kind: 'count',
    min: n,
    max: Infinity,
    text: `at least ${n}`,
  });
  return matcher === undefined ? count : withCount(matcher, count);
}

const LABELS: Record<Change['op'], string> = {
  insert: 'insert into',
  update: 'update of',
  delete: 'delete from',
};

/** How a matcher is named: its description (with the values), its criterion id and label (without). */
function naming(
  op: Change['op'],
  table: string,
  description: string,
  options: MatcherOptions | undefined,
  fn: string,
): { description: string; id: string; label: string } {
  const id = checkId(options?.id, fn) ?? `${op}.${idPart(table)}`;
  return { description, id, label: `${LABELS[op]} ${table}` };
}

function makeMatcher(
  op: Change['op'],
  table: string,
  names: { description: string; id: string; label: string },
  fieldCount: number,
  count: CountSpec,
  fit: ChangeMatcher['fit'],
): ChangeMatcher {
  const description = names.description;
  const m: ChangeMatcher = Object.freeze({
    kind: 'change' as const,
    op,
    table,
    description,
    id: names.id,
    label: names.label,
    count,
    fieldCount,
    name: count === ONE ? description : `${count.text} × ${description}`,
    fit,
    grade: (target: GradeTarget): Grade => gradeChanges([m], { penalty: 0 }, target),
  });
  return m;
}

function checkTable(table: unknown, fn: string): asserts table is string {
  if (typeof table !== 'string' || table === '')
    throw new TypeError(`${fn}(table, …) needs a table name, like ${fn}('contacts', …).`);
}

function checkMatch(match: unknown, fn: string, what: string): asserts match is FieldMatch {
  if (typeof match !== 'object' || match === null || Array.isArray(match))
    throw new TypeError(
      `${fn}: ${what} must be an object of column → value or matcher, like { id: 'con_dana' }.`,
    );
}

function share(fields: FieldResult[]): number {
  return fields.length === 0 ? 1 : fields.filter((f) => f.ok).length / fields.length;
}

/**
 * Expect a row inserted into `table` whose columns satisfy `match`. An insert that gets some columns right earns
 * partial credit; one that gets none right is not counted as this row. Its criteria's id is `insert.<table>` unless
 * `options.id` names it.
 * @example
 * inserted('contacts', { email: 'ada@example.com', stage: 'lead', name: regex(/^Ada/) })
 * inserted('activities', { contact_id: 'con_dana', kind: 'meeting' }, { id: 'meeting_logged' })
 */
export function inserted(
  table: string,
  match: FieldMatch = {},
  options?: MatcherOptions,
): ChangeMatcher {
  checkTable(table, 'inserted');
  checkMatch(match, `inserted('${table}', match)`, 'match');
  const description = `insert into ${table}${Object.keys(match).length ? ` with ${describeMatch(match)}` : ''}`;
  return makeMatcher(
    'insert',
    table,
    naming('insert', table, description, options, `inserted('${table}', match, options)`),
    Object.keys(match).length,
    ONE,
    (change, rows) => {
      if (change.table !== table || change.op !== 'insert') return null;
      const fields = testFields(match, (c) => valueAfter(change, c, rows));
      const score = share(fields);
      return fields.length > 0 && score === 0 ? null : { score, fields };
    },
  );
}

/**
 * Expect an update of the row of `table` that matched `keyMatch` before the change (key or any other column), leaving
 * `fields` as given. Partial credit per field; an update of a row that does not match `keyMatch` is another row. Its
 * criteria's id is `update.<table>` unless `options.id` names it.
 * @example
 * updated('deals', { company_id: 'cmp_acme', stage: 'proposal' }, { stage: 'won' })
 */
export function updated(
  table: string,
  keyMatch: FieldMatch,
  fields: FieldMatch = {},
  options?: MatcherOptions,
): ChangeMatcher {
  checkTable(table, 'updated');
  checkMatch(keyMatch, `updated('${table}', keyMatch, fields)`, 'keyMatch');
  checkMatch(fields, `updated('${table}', keyMatch, fields)`, 'fields');
  const description = `update of ${table} where ${describeMatch(keyMatch)}${Object.keys(fields).length ? ` setting ${describeMatch(fields)}` : ''}`;
  return makeMatcher(
    'update',
    table,
    naming('update', table, description, options, `updated('${table}', keyMatch, fields, options)`),
    Object.keys(fields).length,
    ONE,
    (change, rows) => {
      if (change.table !== table || change.op !== 'update') return null;
      if (!testFields(keyMatch, (c) => valueBefore(change, c, rows)).every((f) => f.ok))
        return null;
      const results = testFields(fields, (c) => valueAfter(change, c, rows));
      return { score: share(results), fields: results };
    },
  );
}

/**
 * Expect the row of `table` matching `keyMatch` to be deleted. Its criteria's id is `delete.<table>` unless `options.id`
 * names it.
 * @example
 * deleted('contacts', { email: 'old@example.com' })
 */
export function deleted(
  table: string,
  keyMatch: FieldMatch,
  options?: MatcherOptions,
): ChangeMatcher {
  checkTable(table, 'deleted');
  checkMatch(keyMatch, `deleted('${table}', keyMatch)`, 'keyMatch');
  const description = `delete from ${table} where ${describeMatch(keyMatch)}`;
  return makeMatcher(
    'delete',
    table,
    naming('delete', table, description, options, `deleted('${table}', keyMatch, options)`),
    0,
    ONE,
    (change, rows) => {
      if (change.table !== table || change.op !== 'delete') return null;
      if (!testFields(keyMatch, (c) => valueBefore(change, c, rows)).every((f) => f.ok))
        return null;
      return { score: 1, fields: [] };
    },
  );
}

/**
 * Rows of `table` (all, or those matching `match` before or after the change) must not change. A rubric on its own,
 * and a constraint inside `expectChanges([...])`. Its criterion's id is `unchanged.<table>` unless `options.id` names it.
 * @example
 * unchanged('contacts', { id: 'con_dan' })
 */
export function unchanged(
  table: string,
  match: FieldMatch = {},
  options?: MatcherOptions,
): UnchangedRule {
  checkTable(table, 'unchanged');
  checkMatch(match, `unchanged('${table}', match)`, 'match');
  const kind = {
    id:
      checkId(options?.id, `unchanged('${table}', match, options)`) ?? `unchanged.${idPart(table)}`,
    label: Object.keys(match).length ? `rows of ${table} unchanged` : `${table} unchanged`,
  };
  const scope = Object.keys(match).length
    ? `rows of ${table} where ${describeMatch(match)}`
    : `${table}`;
  const covers = (change: Change, rows: RowLookup): boolean => {
    if (change.table !== table) return false;
    if (Object.keys(match).length === 0) return true;
    const was =
      change.op !== 'insert' &&
      testFields(match, (c) => valueBefore(change, c, rows)).every((f) => f.ok);
    return (
      was ||
      (change.op !== 'delete' &&
        testFields(match, (c) => valueAfter(change, c, rows)).every((f) => f.ok))
    );
  };
  const name = `${scope} unchanged`;
  const named = { ...kind, name };
  return Object.freeze({
    kind: 'unchanged' as const,
    table,
    match,
    name,
    id: kind.id,
    covers,
    grade(target: GradeTarget): Grade {
      checkTables(target, [table], `unchanged('${table}')`);
      const rows = new RowLookup(target);
      let hit: Change[];
      try {
        hit = target.changes().filter((c) => covers(c, rows));
      } catch (e) {
        return rethrowAs(name, e);
      }
      if (hit.length === 0)
        return gradeOf([criterion(named, 1, 1, `No change touched ${scope}, as required.`)]);
      const what = hit.map((c) => `${rowLabel(c)} (${pastTense(c.op)})`);
      return gradeOf([
        criterion(named, 0, 1, `${listText(what)} changed, but ${scope} had to stay as they were.`),
      ]);
    },
  });
}
