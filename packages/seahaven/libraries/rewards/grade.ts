/** Rubrics and grades: the shape every reward helper returns, and how rows are named in reasons. */
import type {
  Change,
  Criterion,
  Grade,
  GradeDraft,
  GradeTarget,
  Grader,
  JsonValue,
  Row,
} from '../../core/index.ts';
import { AuthorError, brandErrorClass } from '../../core/errors.ts';
import { quoteIdent } from '../../core/schema.ts';
import { withCriterionIds } from '../../core/task.ts';
import { show } from './fields.ts';

/** Something that grades an instance's outcome; usable directly as a task's `grade`. */
export interface Rubric {
  readonly name: string;
  grade(target: GradeTarget): Grade;
}

/** An author mistake found while grading (a misspelt column, a query that does not run); code `invalid_grader`. */
export class GraderError extends AuthorError<'invalid_grader'> {
  constructor(message: string) {
    super('invalid_grader', message);
    this.name = 'GraderError';
  }
}
brandErrorClass(GraderError, 'GraderError');

/**
 * @internal Thrown by a grade target that has no database (what `gradeState` grades) when a grader reads it: `what`
 * says what was read, `part` names the innermost matcher or rubric that read it, once one has.
 */
export class OfflineQuery extends Error {
  readonly what: string;
  readonly part: string | undefined;
  constructor(what: string, part?: string) {
    super(`${part ?? 'a grader'} reads the database (${what})`);
    this.name = 'OfflineQuery';
    this.what = what;
    this.part = part;
  }

  /** This error named after `part`, unless a part inside it was named already. */
  by(part: string): OfflineQuery {
    return this.part === undefined ? new OfflineQuery(this.what, part) : this;
  }
}

/** Rethrow `e`, an `OfflineQuery` named after `part` if nothing inside named it. */
export function rethrowAs(part: string, e: unknown): never {
  throw e instanceof OfflineQuery ? e.by(part) : e;
}

const EPSILON = 1e-12;

/** Clamp to [0, 1] and snap float noise at the ends, so a perfect outcome is exactly 1 and a null one exactly 0. */
export function tidy(x: number): number {
  if (!Number.isFinite(x) || x < EPSILON) return 0;
  return x > 1 - EPSILON ? 1 : x;
}

/** Whether a score counts as full marks. */
export function full(score: number): boolean {
  return score >= 1 - EPSILON;
}

/** The weighted mean of the criteria; 1 when nothing carries weight (nothing was asked, nothing went wrong). */
export function weightedMean(criteria: readonly Criterion[]): number {
  let sum = 0;
  let weights = 0;
  for (const c of criteria) {
    sum += c.weight * c.score;
    weights += c.weight;
  }
  return weights === 0 ? 1 : tidy(sum / weights);
}

/** A grade from criteria: reward is their weighted mean; passed means every weighted criterion scored full marks. */
export function gradeOf(criteria: Criterion[]): Grade {
  const reward = weightedMean(criteria);
  const passed = criteria.every((c) => c.weight === 0 || full(c.score));
  return { reward, passed, criteria };
}

/** What a criterion checks, apart from how it scored: its id, its label (no targets) and its name (with them). */
export interface CriterionKind {
  id: string;
  label: string;
  name: string;
}

/** One criterion, with its score tidied. */
export function criterion(
  kind: CriterionKind,
  score: number,
  weight: number,
  reason: string,
): Criterion {
  return { id: kind.id, name: kind.name, score: tidy(score), weight, reason, label: kind.label };
}

/** A table name as a piece of a criterion id: lower case, characters an id cannot hold as `_`. */
export function idPart(text: string): string {
  const part = text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .replace(/^[^a-z0-9]+/, '');
  return part === '' ? 'x' : part;
}

/** The criteria with `prefix.` before each id and `labelPrefix` before each label (a combinator's or an author's id). */
export function prefixed(
  criteria: readonly Criterion[],
  prefix: string | undefined,
  labelPrefix = '',
): Criterion[] {
  if (prefix === undefined && labelPrefix === '') return [...criteria];
  return criteria.map((c) => ({
    ...c,
    id: prefix === undefined ? c.id : `${prefix}.${c.id}`,
    label: labelPrefix + (c.label ?? c.id),
  }));
}

/** Check a rubric's `id` option: undefined, or a criterion id. */
export function checkId(id: unknown, fn: string): string | undefined {
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9_.-]*$/.test(id)) {
    throw new TypeError(
      `${fn}: id must match /^[a-z0-9][a-z0-9_.-]*$/, like 'insert.contacts' or 'welcome_email'; got ${JSON.stringify(id)}.`,
    );
  }
  return id;
}

/**
 * Wrap a grading function as a rubric. Criteria the function returns without an id are numbered `c1`, `c2`, … and
 * repeated ids made unique, as the kit does for a task's grade.
 */
export function rubric(name: string, grade: (target: GradeTarget) => Grade | GradeDraft): Rubric {
  return Object.freeze({
    name,
    grade(target: GradeTarget): Grade {
      try {
        return withCriterionIds(grade(target));
      } catch (e) {
        // Graded from a state document, a read of the database is named after the rubric that made it.
        return rethrowAs(name, e);
      }
    },
  });
}

/** A rubric from anything the kit accepts as a grader (a function or an object with `grade`). */
export function toRubric(grader: Grader | Rubric): Rubric {
  if (typeof grader === 'function') return rubric(grader.name || 'custom grader', grader);
  if (grader && typeof (grader as Rubric).grade === 'function') {
    const g = grader as Rubric;
    return rubric(typeof g.name === 'string' ? g.name : 'custom grader', (t) => g.grade(t));
  }
  throw new TypeError('expected a rubric from seahaven/rewards or a function (target) => Grade.');
}

/** How a key reads in reasons: `con_dana` for one column, `(a=1, b=2)` for several. */
export function keyText(key: Row): string {
  const entries = Object.entries(key);
  if (entries.length === 1) {
    const v = entries[0][1];
    return typeof v === 'string' ? v : show(v);
  }
  return `(${entries.map(([k, v]) => `${k}=${typeof v === 'string' ? v : show(v)}`).join(', ')})`;
}

/** How a changed row reads in reasons: `contacts con_dana`. */
export function rowLabel(change: Pick<Change, 'table' | 'key'>): string {
  return `${change.table} ${keyText(change.key)}`;
}

/** `inserted`, `updated` or `deleted`. */
export function pastTense(op: Change['op']): string {
  return op === 'insert' ? 'inserted' : `${op}d`;
}

/** The columns a change wrote: every column of an inserted or deleted row, the changed ones of an update. */
export function writtenColumns(change: Change): string[] {
  if (change.op !== 'update')
    return Object.keys((change.op === 'insert' ? change.after : change.before) ?? {});
  // Updates repeat the key beside the changed columns; a key column counts only if it changed itself.
  const before = change.before ?? {};
  return Object.keys(change.after ?? {}).filter(
    (k) => !Object.hasOwn(change.key, k) || before[k] !== change.after![k],
  );
}

/** `a, b and c`, or `a, b and 3 more` past `max`. */
export function listText(items: readonly string[], max = 4): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Reads rows of the final state by primary key, once each, for matchers that name columns a change did not carry. */
export class RowLookup {
  private readonly cache = new Map<string, Row | null>();
  private readonly target: GradeTarget;
  constructor(target: GradeTarget) {
    this.target = target;
  }

  /** The current row with this key, or null if it is gone or its table is not readable through `query`. */
  current(table: string, key: Row): Row | null {
    const id = table + '\u0000' + JSON.stringify(key);
    let row = this.cache.get(id);
    if (row === undefined) {
      row = null;
      const cols = Object.keys(key);
      if (cols.length > 0 && !table.includes('.')) {
        try {
          const rows = this.target.query(
            `SELECT * FROM ${quoteIdent(table)} WHERE ${cols.map((c) => `${quoteIdent(c)} = ?`).join(' AND ')}`,
            ...cols.map((c) => key[c] as unknown),
          );
          row = rows[0] ?? null;
        } catch (e) {
          // Without a database the row cannot be read at all, which must not pass for a row that is gone.
          if (e instanceof OfflineQuery) throw e;
          row = null;
        }
      }
      this.cache.set(id, row);
    }
    return row;
  }
}

/** A misspelt column would otherwise just never match; fail loudly so `checkGrader` reports it (SH508). */
function noSuchColumn(table: string, column: string, row: Row): never {
  throw new GraderError(
    `${table} has no column "${column}"; its columns are ${Object.keys(row).join(', ')}.`,
  );
}

/** The value of `column` in a changed row as it was before the change; undefined for an inserted row. */
export function valueBefore(
  change: Change,
  column: string,
  rows: RowLookup,
): JsonValue | undefined {
  if (change.op === 'insert') return undefined;
  if (change.before && Object.hasOwn(change.before, column)) return change.before[column];
  if (Object.hasOwn(change.key, column)) return change.key[column];
  if (change.op === 'delete') return noSuchColumn(change.table, column, change.before ?? {});
  // Columns an update left alone read the same before and after.
  return currentValue(change, column, rows);
}

/** The value of `column` in a changed row as it is after the change; undefined for a deleted row. */
export function valueAfter(change: Change, column: string, rows: RowLookup): JsonValue | undefined {
  if (change.op === 'delete') return undefined;
  if (change.after && Object.hasOwn(change.after, column)) return change.after[column];
  if (Object.hasOwn(change.key, column)) return change.key[column];
  if (change.op === 'insert') return noSuchColumn(change.table, column, change.after ?? {});
  return currentValue(change, column, rows);
}

function currentValue(change: Change, column: string, rows: RowLookup): JsonValue | undefined {
  let row: Row | null;
  try {
    row = rows.current(change.table, change.key);
  } catch (e) {
    if (e instanceof OfflineQuery)
      throw new OfflineQuery(
        `column "${column}" of ${rowLabel(change)}, which the change does not carry`,
      );
    throw e;
  }
  if (row === null) return undefined;
  return Object.hasOwn(row, column) ? row[column] : noSuchColumn(change.table, column, row);
}

/** Throw a GraderError naming any of `tables` the database does not have (tables of composed worlds are skipped). */
export function checkTables(target: GradeTarget, tables: Iterable<string>, where: string): void {
  const wanted = [...new Set(tables)].filter((t) => !t.includes('.'));
  if (wanted.length === 0) return;
  let names: string[];
  try {
    names = target
      .query<{ name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .map((r) => r.name);
  } catch {
    return; // A target that cannot list tables is graded without the check.
  }
  for (const t of wanted) {
    if (!names.includes(t))
      throw new GraderError(
        `${where}: there is no table "${t}"; the tables are ${names.filter((n) => !n.startsWith('_')).join(', ')}.`,
      );
  }
}

/**
 * A grade as text: the reward, then one line per criterion with its score, weight and reason.
 * @example
 * console.log(explain(task.grade(inst)));
 * // reward 0.5, not passed
 * //   1.00 ×1  update of contacts where id = "con_dana" setting stage = "customer": contacts con_dana was updated as expected …
 */
export function explain(grade: Grade): string {
  const lines = [`reward ${grade.reward}, ${grade.passed ? 'passed' : 'not passed'}`];
  for (const c of grade.criteria)
    lines.push(`  ${c.score.toFixed(2)} ×${Number(c.weight.toFixed(3))}  ${c.name}: ${c.reason}`);
  return lines.join('\n');
}
