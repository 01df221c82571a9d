/**
 * The shapes of change expectations: what `inserted`, `updated`, `deleted` and `unchanged` (changes.ts) build and
 * `expectChanges` (expect.ts) grades.
 */
import type { Change } from '../../core/index.ts';
import type { FieldMatch, FieldResult } from './fields.ts';
import type { RowLookup, Rubric } from './grade.ts';

/** How many actual changes one expectation stands for. */
export interface CountSpec {
  readonly kind: 'count';
  readonly min: number;
  /** `Infinity` for `atLeast`. */
  readonly max: number;
  readonly text: string;
}

/** How well one actual change fits an expectation: the share of expected fields it got right. */
export interface ChangeFit {
  score: number;
  fields: FieldResult[];
}

/** An expected insert, update or delete of one row; also a rubric on its own ("such a change happened"). */
export interface ChangeMatcher extends Rubric {
  readonly kind: 'change';
  readonly op: Change['op'];
  readonly table: string;
  /** The expectation in words, e.g. `update of contacts where id = "con_dana" setting stage = "customer"`. */
  readonly description: string;
  /** The id of its criteria: `update.contacts` unless the author set one; never a value it looks for. */
  readonly id: string;
  /** The expectation without its values, e.g. `update of contacts`. */
  readonly label: string;
  readonly count: CountSpec;
  /** How many columns the expectation checks on the changed row (key matches not included). */
  readonly fieldCount: number;
  /** @internal How `change` fits, or null when it cannot be this row at all (other table or op, key match fails). */
  fit(change: Change, rows: RowLookup): ChangeFit | null;
}

/** Options of a change matcher or `unchanged`. */
export interface MatcherOptions {
  /** The id of its criteria. Default: from the operation and table, like `insert.contacts`. */
  id?: string;
}

/** A constraint that rows of a table stay as they were. */
export interface UnchangedRule extends Rubric {
  readonly kind: 'unchanged';
  readonly table: string;
  readonly match: FieldMatch;
  /** The id of its criterion: `unchanged.contacts` unless the author set one. */
  readonly id: string;
  /** @internal Whether `change` touches a row this rule protects. */
  covers(change: Change, rows: RowLookup): boolean;
}
