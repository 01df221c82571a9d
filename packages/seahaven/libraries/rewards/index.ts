/**
 * Reward helpers: grade what an episode changed, not the path it took. Matchers describe expected row changes
 * (`inserted`, `updated`, `deleted`, `unchanged`) with field matchers (`exact`, `any`, `oneOf`, `regex`, `approx`,
 * `within`, `isoBetween`, `where`) and counts (`exactly`, `atLeast`); `expectChanges` assigns them one to one to the
 * actual changes, gives partial credit per field and, by default, charges for every change nobody asked for.
 * `rowWhere` and `count` check the final state. `all`, `any`, `weighted`, `gate` and `sequence` combine rubrics. Every
 * rubric returns `{ reward, passed, criteria: [{ id, name, score, weight, reason, label }] }` and can be a task's `grade`;
 * `agentGrade` (from `seahaven`) is what an agent may see of it.
 * `checkGrader` proves a grader against a do-nothing agent, the gold solution and seeded chaos agents.
 * `gradeState` grades a saved state document offline, for graders that read only the changes.
 *
 * @example
 * import { defineTask } from 'seahaven';
 * import { expectChanges, inserted, regex } from 'seahaven/rewards';
 * const addLead = defineTask({
 *   id: 'add_lead', fixture: 'small_startup', prompt: 'Add Ada Lovelace (ada@example.com) as a lead.',
 *   grade: expectChanges([inserted('contacts', { email: 'ada@example.com', name: regex(/^Ada/), stage: 'lead' })]),
 *   gold: (inst) => { inst.call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' }); },
 * });
 *
 * @module seahaven/rewards
 */
export {
  exact,
  anything,
  oneOf,
  regex,
  approx,
  within,
  isoBetween,
  where,
  type FieldMatcher,
  type FieldSpec,
  type FieldMatch,
} from './fields.ts';
export {
  inserted,
  updated,
  deleted,
  unchanged,
  exactly,
  atLeast,
  type ChangeMatcher,
  type UnchangedRule,
  type CountSpec,
  type MatcherOptions,
} from './changes.ts';
export {
  expectChanges,
  noOtherChanges,
  type Expectation,
  type Allowance,
  type ExpectOptions,
} from './expect.ts';
export { rowWhere, count, type RowWhereOptions, type CountOptions } from './state.ts';
export {
  all,
  any,
  weighted,
  gate,
  sequence,
  type CombineOptions,
  type RubricPart,
} from './combine.ts';
export { rubric, explain, GraderError, type Rubric } from './grade.ts';
export { gradeState, NeedsDatabaseError, type GradableState } from './offline.ts';
export {
  checkGrader,
  graderFindings,
  GRADER_CHECKS,
  type GraderReport,
  type GraderProblem,
  type GraderFinding,
  type GraderCheckCode,
  type CheckGraderOptions,
  type ChaosOutcome,
  type Severity,
} from './check.ts';
export { runChaos, type ChaosOptions, type ChaosRun, type ChaosTarget } from './chaos.ts';
