/** Change matchers: expectations about single rows of `inst.changes()`, and counts of how many rows they cover. */
import type { Change, Grade, GradeTarget } from '../kit/index.ts';
import { describeMatch, testFields, type FieldMatch, type FieldResult } from './fields.ts';
import { RowLookup, checkTables, criterion, gradeOf, listText, pastTense, rethrowAs, rowLabel, valueAfter, valueBefore } from './grade.ts';
import { gradeChanges } from './expect.ts';
import type { ChangeMatcher, CountSpec, UnchangedRule } from './matchers.ts';

export type { ChangeFit, ChangeMatcher, CountSpec, UnchangedRule } from './matchers.ts';

const ONE: CountSpec = Object.freeze({ kind: 'count', min: 1, max: 1, text: 'exactly 1' });

function checkCount(n: number, fn: string): void {
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${fn}(n) needs a whole number n >= 0; got ${n}.`);
}

function withCount(m: ChangeMatcher, count: CountSpec): ChangeMatcher {
  if (m?.kind !== 'change') throw new TypeError(`${count.text.split(' ')[0]}(n, matcher) needs a change matcher from inserted(), updated() or deleted().`);
  return makeMatcher(m.op, m.table, m.description, m.fieldCount, count, m.fit);
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
  const count: CountSpec = Object.freeze({ kind: 'count', min: n, max: Infinity, text: `at least ${n}` });
  return matcher === undefined ? count : withCount(matcher, count);
}

function makeMatcher(op: Change['op'], table: string, description: string, fieldCount: number, count: CountSpec, fit: ChangeMatcher['fit']): ChangeMatcher {
  const m: ChangeMatcher = Object.freeze({
    kind: 'change' as const,
    op,
    table,
    description,
    count,
    fieldCount,
    name: count === ONE ? description : `${count.text} × ${description}`,
    fit,
    grade: (target: GradeTarget): Grade => gradeChanges([m], { penalty: 0 }, target),
  });
  return m;
}

function checkTable(table: unknown, fn: string): asserts table is string {
  if (typeof table !== 'string' || table === '') throw new TypeError(`${fn}(table, …) needs a table name, like ${fn}('contacts', …).`);
}

function checkMatch(match: unknown, fn: string, what: string): asserts match is FieldMatch {
  if (typeof match !== 'object' || match === null || Array.isArray(match)) throw new TypeError(`${fn}: ${what} must be an object of column → value or matcher, like { id: 'con_dana' }.`);
}

function share(fields: FieldResult[]): number {
  return fields.length === 0 ? 1 : fields.filter((f) => f.ok).length / fields.length;
}

/**
 * Expect a row inserted into `table` whose columns satisfy `match`. An insert that gets some columns right earns
 * partial credit; one that gets none right is not counted as this row.
 * @example
 * inserted('contacts', { email: 'ada@example.com', stage: 'lead', name: regex(/^Ada/) })
 */
export function inserted(table: string, match: FieldMatch = {}): ChangeMatcher {
  checkTable(table, 'inserted');
  checkMatch(match, `inserted('${table}', match)`, 'match');
  const description = `insert into ${table}${Object.keys(match).length ? ` with ${describeMatch(match)}` : ''}`;
  return makeMatcher('insert', table, description, Object.keys(match).length, ONE, (change, rows) => {
    if (change.table !== table || change.op !== 'insert') return null;
    const fields = testFields(match, (c) => valueAfter(change, c, rows));
    const score = share(fields);
    return fields.length > 0 && score === 0 ? null : { score, fields };
  });
}

/**
 * Expect an update of the row of `table` that matched `keyMatch` before the change (key or any other column), leaving
 * `fields` as given. Partial credit per field; an update of a row that does not match `keyMatch` is another row.
 * @example
 * updated('deals', { company_id: 'cmp_acme', stage: 'proposal' }, { stage: 'won' })
 */
export function updated(table: string, keyMatch: FieldMatch, fields: FieldMatch = {}): ChangeMatcher {
  checkTable(table, 'updated');
  checkMatch(keyMatch, `updated('${table}', keyMatch, fields)`, 'keyMatch');
  checkMatch(fields, `updated('${table}', keyMatch, fields)`, 'fields');
  const description = `update of ${table} where ${describeMatch(keyMatch)}${Object.keys(fields).length ? ` setting ${describeMatch(fields)}` : ''}`;
  return makeMatcher('update', table, description, Object.keys(fields).length, ONE, (change, rows) => {
    if (change.table !== table || change.op !== 'update') return null;
    if (!testFields(keyMatch, (c) => valueBefore(change, c, rows)).every((f) => f.ok)) return null;
    const results = testFields(fields, (c) => valueAfter(change, c, rows));
    return { score: share(results), fields: results };
  });
}

/**
 * Expect the row of `table` matching `keyMatch` to be deleted.
 * @example
 * deleted('contacts', { email: 'old@example.com' })
 */
export function deleted(table: string, keyMatch: FieldMatch): ChangeMatcher {
  checkTable(table, 'deleted');
  checkMatch(keyMatch, `deleted('${table}', keyMatch)`, 'keyMatch');
  const description = `delete from ${table} where ${describeMatch(keyMatch)}`;
  return makeMatcher('delete', table, description, 0, ONE, (change, rows) => {
    if (change.table !== table || change.op !== 'delete') return null;
    if (!testFields(keyMatch, (c) => valueBefore(change, c, rows)).every((f) => f.ok)) return null;
    return { score: 1, fields: [] };
  });
}

/**
 * Rows of `table` (all, or those matching `match` before or after the change) must not change. A rubric on its own,
 * and a constraint inside `expectChanges([...])`.
 * @example
 * unchanged('contacts', { id: 'con_dan' })
 */
export function unchanged(table: string, match: FieldMatch = {}): UnchangedRule {
  checkTable(table, 'unchanged');
  checkMatch(match, `unchanged('${table}', match)`, 'match');
  const scope = Object.keys(match).length ? `rows of ${table} where ${describeMatch(match)}` : `${table}`;
  const covers = (change: Change, rows: RowLookup): boolean => {
    if (change.table !== table) return false;
    if (Object.keys(match).length === 0) return true;
    const was = change.op !== 'insert' && testFields(match, (c) => valueBefore(change, c, rows)).every((f) => f.ok);
    return was || (change.op !== 'delete' && testFields(match, (c) => valueAfter(change, c, rows)).every((f) => f.ok));
  };
  const name = `${scope} unchanged`;
  return Object.freeze({
    kind: 'unchanged' as const,
    table,
    match,
    name,
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
      if (hit.length === 0) return gradeOf([criterion(name, 1, 1, `No change touched ${scope}, as required.`)]);
      const what = hit.map((c) => `${rowLabel(c)} (${pastTense(c.op)})`);
      return gradeOf([criterion(name, 0, 1, `${listText(what)} changed, but ${scope} had to stay as they were.`)]);
    },
  });
}
