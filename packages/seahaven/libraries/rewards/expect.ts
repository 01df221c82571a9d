/**
 * `expectChanges`: grade the net changeset against a list of expected row changes. Expected rows are assigned one to
 * one to actual changes (best total fit), each earns the share of its fields that are right, and every change nobody
 * expected or allowed costs a penalty of its own (collateral damage), named in its reason.
 */
import type { Change, Criterion, Grade, GradeTarget } from '../../core/index.ts';
import type { ChangeFit, ChangeMatcher, UnchangedRule } from './matchers.ts';
import { describeMisses } from './fields.ts';
import { maxAssignment } from './assign.ts';
import { uniqueIds } from '../../core/task.ts';
import {
  RowLookup,
  checkId,
  checkTables,
  criterion,
  full,
  gradeOf,
  idPart,
  keyText,
  listText,
  pastTense,
  prefixed,
  rethrowAs,
  rowLabel,
  rubric,
  writtenColumns,
  type Rubric,
} from './grade.ts';

/** An entry of `expectChanges`: an expected change, or a rule that some rows stay as they are. */
export type Expectation = ChangeMatcher | UnchangedRule;

/** A change that is tolerated without being expected: a table name, or a change matcher it must match fully. */
export type Allowance = ChangeMatcher | string;

export interface ExpectOptions {
  /** Changes that are tolerated: they neither earn nor cost anything. Default: none. */
  allow?: readonly Allowance[];
  /** Weight of each change nobody expected or allowed, against 1 per expected row. Default 1; 0 ignores them. */
  penalty?: number;
  /** Name of the rubric. Default `expected changes`. */
  name?: string;
  /**
   * Id of the rubric: its criteria's ids start with `<id>.`. Default: none, so they read `insert.contacts`,
   * `unexpected.deals`, `precision_recall`.
   */
  id?: string;
}

/** How the criteria of collateral changes and the summary are named. */
interface Collateral {
  /** The id of an unexpected change's criterion is `<base>.<table>`. */
  base: string;
  summary: { id: string; label: string; name: string };
  /** Put before every id. */
  prefix?: string;
}

const EXPECTED: Collateral = {
  base: 'unexpected',
  summary: { id: 'precision_recall', label: 'precision and recall', name: 'precision and recall' },
};

interface Slot {
  matcher: ChangeMatcher;
  /** Index of the matcher among the expectations. */
  source: number;
  nth: number;
}

/**
 * Grade the changes against `expected`; by default every other change lowers the reward.
 * @example
 * expectChanges([
 *   updated('contacts', { id: 'con_dana' }, { stage: 'customer' }),
 *   inserted('activities', { contact_id: 'con_dana', kind: 'meeting' }),
 * ], { allow: ['companies'] })
 */
export function expectChanges(
  expected: readonly Expectation[],
  options: ExpectOptions = {},
): Rubric {
  return changesRubric(expected, options, {
    ...EXPECTED,
    prefix: checkId(options.id, 'expectChanges(expected, options)'),
  });
}

function changesRubric(
  expected: readonly Expectation[],
  options: ExpectOptions,
  collateral: Collateral,
): Rubric {
  if (!Array.isArray(expected))
    throw new TypeError(
      'expectChanges(expected) needs an array of inserted(), updated(), deleted() or unchanged() matchers.',
    );
  for (const [i, e] of expected.entries()) {
    if (e?.kind !== 'change' && e?.kind !== 'unchanged')
      throw new TypeError(
        `expectChanges: entry ${i} is not a change matcher; use inserted(), updated(), deleted(), unchanged(), or exactly()/atLeast() around them.`,
      );
  }
  for (const [i, a] of (options.allow ?? []).entries()) {
    if (typeof a !== 'string' && a?.kind !== 'change')
      throw new TypeError(
        `expectChanges: allow[${i}] must be a table name or a change matcher like updated('deals', {}, {}).`,
      );
  }
  const penalty = options.penalty ?? 1;
  if (!(penalty >= 0) || !Number.isFinite(penalty))
    throw new TypeError(
      `expectChanges: penalty must be a finite number >= 0; got ${options.penalty}.`,
    );
  const list = [...expected];
  const opts = { allow: [...(options.allow ?? [])], penalty, collateral };
  return rubric(options.name ?? 'expected changes', (target) => gradeChanges(list, opts, target));
}

/**
 * Nothing may change except what `allow` covers. Its criteria are `no_other_changes` (the summary) and
 * `no_other_changes.<table>` for each change nobody allowed; `options.id` stands in for `no_other_changes`.
 * @example
 * all([rowWhere('contacts', { id: 'con_dana' }, { stage: 'customer' }), noOtherChanges({ allow: ['contacts'] })])
 */
export function noOtherChanges(options: Omit<ExpectOptions, 'penalty'> = {}): Rubric {
  // Its criteria are named after it: `no_other_changes` (the summary) and `no_other_changes.<table>` per change.
  const base = checkId(options.id, 'noOtherChanges(options)') ?? 'no_other_changes';
  return changesRubric(
    [],
    { ...options, name: options.name ?? 'no other changes' },
    { base, summary: { id: base, label: 'no other changes', name: 'precision and recall' } },
  );
}

/** @internal The grading behind `expectChanges` and the matchers' own `grade`. */
export function gradeChanges(
  expected: readonly Expectation[],
  options: { allow?: readonly Allowance[]; penalty: number; collateral?: Collateral },
  target: GradeTarget,
): Grade {
  const naming = options.collateral ?? EXPECTED;
  checkTables(
    target,
    [
      ...expected.map((e) => e.table),
      ...(options.allow ?? []).map((a) => (typeof a === 'string' ? a : a.table)),
    ],
    'expectChanges',
  );
  const changes = target.changes();
  const rows = new RowLookup(target);
  const matchers = expected.filter((e): e is ChangeMatcher => e.kind === 'change');
  const rules = expected.filter((e): e is UnchangedRule => e.kind === 'unchanged');

  const fits: (ChangeFit | null)[][] = matchers.map((m) => changes.map((c) => fitOf(m, c, rows)));
  const slots: Slot[] = [];
  matchers.forEach((matcher, source) => {
    for (let nth = 0; nth < matcher.count.min; nth++) slots.push({ matcher, source, nth });
  });

  // Only changes some expectation could be assigned to enter the assignment; the rest are judged afterwards.
  const candidates = changes.map((_, j) => j).filter((j) => fits.some((row) => row[j] !== null));
  const value = slots.map((s) =>
    candidates.map((j) => {
      const f = fits[s.source][j];
      // A pair is worth its score plus the penalty it saves by not leaving the change as collateral, so the assignment
      // maximises what the agent earns; the tiny bonus still pairs a zero-score update with its row when nothing is saved.
      return f === null ? null : f.score + options.penalty + 1e-6;
    }),
  );
  const picked = maxAssignment(value).map((col) => (col < 0 ? -1 : candidates[col]));
  const taken = new Set(picked.filter((j) => j >= 0));

  const criteria: Criterion[] = [];
  let fieldsExpected = 0;
  let fieldsRight = 0;
  let fieldsChecked = 0;
  slots.forEach((slot, i) => {
    const m = slot.matcher;
    const kind = {
      id: m.id,
      label: m.label,
      name:
        m.count.min > 1 ? `${m.description} (${slot.nth + 1} of ${m.count.min})` : m.description,
    };
    fieldsExpected += m.fieldCount;
    const j = picked[i];
    if (j < 0) {
      criteria.push(criterion(kind, 0, 1, missingReason(m, changes, fits[slot.source], taken)));
      return;
    }
    const change = changes[j];
    const fit = fits[slot.source][j]!;
    const right = fit.fields.filter((f) => f.ok).length;
    fieldsRight += right;
    fieldsChecked += fit.fields.length;
    criteria.push(criterion(kind, fit.score, 1, fitReason(change, fit)));
  });

  for (const rule of rules) criteria.push(...rule.grade(target).criteria);

  const collateral: Change[] = [];
  let tolerated = 0;
  changes.forEach((change, j) => {
    if (taken.has(j)) return;
    const fullFit = (k: number) => {
      const f = fits[k][j];
      return f !== null && full(f.score);
    };
    const forbidden = matchers.some((m, k) => m.count.max === 0 && fullFit(k));
    const extra = matchers.some((m, k) => m.count.max === Infinity && fullFit(k));
    const allowed = (options.allow ?? []).some((a) =>
      typeof a === 'string' ? a === change.table : isFull(fitOf(a, change, rows)),
    );
    if (!forbidden && (extra || allowed)) tolerated++;
    else collateral.push(change);
  });
  let collateralColumns = 0;
  for (const change of collateral) {
    const cols = writtenColumns(change);
    collateralColumns += cols.length;
    if (options.penalty > 0) {
      const detail = change.op === 'update' ? ` (${listText(cols)})` : '';
      const kind = {
        id: `${naming.base}.${idPart(change.table)}`,
        label: `unexpected change to ${change.table}`,
        name: `unexpected change: ${rowLabel(change)}`,
      };
      criteria.push(
        criterion(
          kind,
          0,
          options.penalty,
          `${rowLabel(change)} was ${pastTense(change.op)}${detail}, which no expected change or allow rule covers.`,
        ),
      );
    }
  }

  if (options.penalty > 0 || slots.length > 1) {
    const rowsFound = picked.filter((j) => j >= 0).length;
    const okChanges = changes.length - collateral.length;
    const fieldsWritten = fieldsChecked + collateralColumns;
    const summary = `Rows: recall ${rowsFound}/${slots.length}, precision ${okChanges}/${changes.length}; fields: recall ${fieldsRight}/${fieldsExpected}, precision ${fieldsRight}/${fieldsWritten}${tolerated ? `; ${tolerated} further change${tolerated === 1 ? ' was' : 's were'} tolerated` : ''}.`;
    const precision = changes.length === 0 ? 1 : okChanges / changes.length;
    criteria.push(
      criterion(
        naming.summary,
        precision,
        0,
        collateral.length === 0 && options.penalty > 0
          ? `No change outside the expected and allowed ones. ${summary}`
          : summary,
      ),
    );
  }
  return gradeOf(uniqueIds(prefixed(criteria, naming.prefix)));
}

/** How `change` fits `m`; a read of the database it needs, graded from a state document, names the matcher. */
function fitOf(m: ChangeMatcher, change: Change, rows: RowLookup): ChangeFit | null {
  try {
    return m.fit(change, rows);
  } catch (e) {
    return rethrowAs(m.description, e);
  }
}

function isFull(fit: ChangeFit | null): boolean {
  return fit !== null && full(fit.score);
}

function fitReason(change: Change, fit: ChangeFit): string {
  const label = rowLabel(change);
  const verb = pastTense(change.op);
  if (full(fit.score)) {
    const what = fit.fields.map((f) => `${f.column} ${f.matcher.text}`);
    return `${label} was ${verb} as expected${what.length ? ` with ${listText(what, 6)}` : ''}.`;
  }
  const right = fit.fields.filter((f) => f.ok).length;
  return `${label} was ${verb}, but ${describeMisses(fit.fields)}; ${right} of ${fit.fields.length} fields right.`;
}

function missingReason(
  m: ChangeMatcher,
  changes: readonly Change[],
  fits: readonly (ChangeFit | null)[],
  taken: ReadonlySet<number>,
): string {
  const same = changes.filter((c) => c.table === m.table && c.op === m.op);
  const fitting = fits.filter((f) => f !== null).length;
  if (same.length === 0)
    return `Expected ${m.description}, but no row of ${m.table} was ${pastTense(m.op)}.`;
  if (fitting > 0 && [...fits.keys()].every((j) => fits[j] === null || taken.has(j))) {
    return `Expected ${m.description}, but only ${fitting} matching change${fitting === 1 ? ' was' : 's were'} made and each counts once.`;
  }
  return `Expected ${m.description}, but the ${m.op}s of ${m.table} (${listText(same.map((c) => keyText(c.key)))}) do not match it.`;
}
