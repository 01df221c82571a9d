/**
 * Grading a state document offline: the changes an episode made, as `inst.state()` or a served session's `state()`
 * returns them, graded without the instance. Graders that look only at the changes (`expectChanges` and its matchers,
 * or a function over `changes()`) grade it exactly as they grade the live instance; one that reads the database is
 * refused with an error naming the matcher that read it.
 */
import type { Change, Grade, GradeTarget, Grader, Task } from '../../core/index.ts';
import { AuthorError, brandErrorClass } from '../../core/errors.ts';
import { OfflineQuery, rubric, toRubric } from './grade.ts';

/** What `gradeState` grades: a state document, or anything carrying its `changes` (and, if any, its `task`). */
export interface GradableState {
  changes: readonly Change[];
  task?: string;
}

/**
 * A grader met a state document but needs the database (code `needs_database`): `matcher` names the part that read
 * it, `reads` what it read.
 */
export class NeedsDatabaseError extends AuthorError<'needs_database'> {
  /** The matcher or rubric that read the database (its description or name). */
  readonly matcher: string;
  /** What it read: a query, or a column of a changed row that the change does not carry. */
  readonly reads: string;
  constructor(message: string, matcher: string, reads: string) {
    super('needs_database', message);
    this.name = 'NeedsDatabaseError';
    this.matcher = matcher;
    this.reads = reads;
  }
}
brandErrorClass(NeedsDatabaseError, 'NeedsDatabaseError');

function isTask(x: unknown): x is Task {
  return (
    x !== null &&
    typeof x === 'object' &&
    typeof (x as Task).id === 'string' &&
    typeof (x as Task).prompt === 'string' &&
    'grader' in x
  );
}

/**
 * Grade a state document (what `inst.state()`, `env.state()` or OpenEnv's `/state` returns) with a task's grader,
 * without the instance: the same grade `inst.submit()` gave that state, for graders built from the changes alone. A
 * grader that reads the database (`rowWhere`, `count`, a matcher naming a column an update did not touch, a function
 * calling `query`) throws a `NeedsDatabaseError` naming it; grade a live instance instead (`inst.submit()`, or the
 * `grade` step of a served session).
 * @example
 * const doc = inst.state(); // saved with the episode, say as JSON
 * gradeState(crm.task('add_lead')!, doc).reward; // what inst.submit() said
 */
export function gradeState(task: Task | Grader, state: GradableState): Grade {
  const label = isTask(task) ? `the grader of task "${task.id}"` : 'the grader';
  if (state === null || typeof state !== 'object' || !Array.isArray(state.changes)) {
    throw new TypeError(
      "gradeState(task, state): state must be a state document with its changes array, as inst.state() or a session's state() returns it.",
    );
  }
  if (isTask(task) && typeof state.task === 'string' && state.task !== task.id) {
    throw new TypeError(
      `gradeState(task, state): the state is of an episode of task "${state.task}", not "${task.id}"; grade it with that task.`,
    );
  }
  const raw = isTask(task) ? task.grader : task;
  // A function is named for what it is (an inline `grade: (t) => …` is called "grade").
  const grader =
    typeof raw === 'function'
      ? rubric(
          raw.name && raw.name !== 'grade' ? `function ${raw.name}` : 'its grading function',
          raw,
        )
      : toRubric(raw);
  const changes = state.changes;
  const target: GradeTarget = {
    // Fresh objects on every read, as an instance's changes() gives them, so no grader can alter the document.
    changes: () => structuredClone(changes) as Change[],
    query(sql: string): never {
      throw new OfflineQuery(`query ${sql.replace(/\s+/g, ' ').trim()}`);
    },
  };
  try {
    return grader.grade(target);
  } catch (e) {
    if (!(e instanceof OfflineQuery)) throw e;
    const part = e.part ?? grader.name;
    throw new NeedsDatabaseError(
      `gradeState: ${label} cannot grade a state document: ${part} reads the database (${e.what}), and a state document holds only the changes. ` +
        'Grade a live instance instead: inst.submit() in process, or the grade step (env.grade()) of a served session.',
      part,
      e.what,
    );
  }
}
