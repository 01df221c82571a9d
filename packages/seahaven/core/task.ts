/** Tasks: a fixture, a prompt for the agent, a grader over the outcome, and a gold solution. */
import { DefinitionError } from './errors.ts';

/** One criterion of a grade. */
export interface Criterion {
  /**
   * Short and stable across episodes of the same task, unique within the grade, `^[a-z0-9][a-z0-9_.-]*$`: what the
   * criterion checks (`insert.contacts`, `update.deals.2`, `no_other_changes`), never the values it checks for.
   */
  id: string;
  /** What the criterion checks, in words, with its targets (values, ids, counts): for the trainer, not the agent. */
  name: string;
  score: number;
  weight: number;
  /** Why it scored what it did, with its targets: for the trainer, not the agent. */
  reason: string;
  /** What the criterion checks without its targets (`insert into contacts`), as the agent view shows it. Default: the id. */
  label?: string;
}

/** What grading returns. */
export interface Grade {
  reward: number;
  passed: boolean;
  criteria: Criterion[];
}

/** A criterion as a grader written as a function may return it: without an id, the kit numbers it `c1`, `c2`, …. */
export type CriterionDraft = Omit<Criterion, 'id'> & { id?: string };

/** A grade as a grader written as a function may return it: criteria without ids are numbered by the kit. */
export interface GradeDraft {
  reward: number;
  passed: boolean;
  criteria: CriterionDraft[];
}

/** What an agent may see of a criterion: what it checks, without the targets, and how it scored. */
export interface AgentCriterion {
  id: string;
  label: string;
  score: number;
  weight: number;
}

/** What an agent may see of a grade (`agentGrade`): the same reward and `passed`, criteria without names or reasons. */
export interface AgentGrade {
  reward: number;
  passed: boolean;
  criteria: AgentCriterion[];
}

/** The pattern of a criterion id. */
export const CRITERION_ID = /^[a-z0-9][a-z0-9_.-]*$/;

/**
 * The grade with every criterion carrying an id, unique within the grade: a criterion without one is numbered by its
 * place (`c1`, `c2`, …), and a repeated id gets `.2`, `.3`, … in order, so the same rubric numbers the same way in
 * every episode. A grade whose ids are already complete and unique is returned as it is.
 * @example
 * withCriterionIds({ reward: 1, passed: true, criteria: [{ name: 'hello written', score: 1, weight: 1, reason: 'found' }] }).criteria[0].id; // 'c1'
 */
export function withCriterionIds(grade: Grade | GradeDraft): Grade {
  const criteria = grade?.criteria;
  if (!Array.isArray(criteria)) return grade as Grade;
  const seen = new Set<string>();
  let complete = true;
  for (const c of criteria) {
    if (typeof c?.id !== 'string' || seen.has(c.id)) {
      complete = false;
      break;
    }
    seen.add(c.id);
  }
  if (complete) return grade as Grade;
  return {
    ...grade,
    criteria: uniqueIds(
      criteria.map((c, i) =>
        typeof c?.id === 'string' ? c : { ...c, id: `c${i + 1}` },
      ) as Criterion[],
    ),
  };
}

/** The criteria with repeated ids made unique: the second `a` becomes `a.2` (or the next number no criterion has). */
export function uniqueIds(criteria: Criterion[]): Criterion[] {
  const given = new Set(criteria.map((c) => c.id));
  if (given.size === criteria.length) return criteria;
  const used = new Set<string>();
  const next = new Map<string, number>();
  return criteria.map((c) => {
    if (!used.has(c.id)) {
      used.add(c.id);
      return c;
    }
    let n = next.get(c.id) ?? 2;
    // A number some criterion has as its own id is skipped, so no id changes because of a repeat before it.
    while (used.has(`${c.id}.${n}`) || given.has(`${c.id}.${n}`)) n++;
    next.set(c.id, n + 1);
    const id = `${c.id}.${n}`;
    used.add(id);
    return { ...c, id };
  });
}

/**
 * What an agent may see of a grade: the reward and `passed` as they are, and each criterion's id, label, score and
 * weight, without the name and reason, which carry the values, ids and counts the grader looks for. Served sessions
 * answer `grade` and `submit` with this unless they present the server's grader token.
 * @example
 * agentGrade(inst.submit()); // { reward: 0, passed: false, criteria: [{ id: 'insert.contacts', label: 'insert into contacts', score: 0, weight: 1 }, …] }
 */
export function agentGrade(grade: Grade): AgentGrade {
  const g = withCriterionIds(grade);
  return {
    reward: g.reward,
    passed: g.passed,
    criteria: g.criteria.map((c) => ({
      id: c.id,
      label: typeof c.label === 'string' && c.label !== '' ? c.label : c.id,
      score: c.score,
      weight: c.weight,
    })),
  };
}

/** What a grader may look at: the net changes and read-only queries of the final state. */
export interface GradeTarget {
  changes(): import('./capture.ts').Change[];
  query<T = import('./values.ts').Row>(sql: string, ...params: unknown[]): T[];
}

/**
 * Anything that grades: a rubric from `seahaven/rewards`, or a function. A function may leave criterion ids out; the
 * kit numbers them where the grade is produced (`task.grade`).
 */
export type Grader =
  | ((target: GradeTarget) => Grade | GradeDraft)
  | { grade(target: GradeTarget): Grade | GradeDraft };

/** A harness handle the gold solution plays through. */
export interface GoldTarget extends GradeTarget {
  call(
    tool: string,
    args?: Record<string, unknown>,
  ):
    | { ok: true; result: unknown }
    | { ok: false; error: { code: string; message: string; details?: unknown } };
}

/**
 * Call a tool in a gold solution and return its result. A failed call means the gold solution is broken, so it throws
 * with the tool's name and the world's error code and message.
 * @example
 * gold(inst) { const company = goldCall<{ id: string }>(inst, 'create_company', { name: 'Acme' }); }
 */
export function goldCall<T = import('./values.ts').Row>(
  inst: GoldTarget,
  tool: string,
  args: Record<string, unknown> = {},
): T {
  const r = inst.call(tool, args);
  if (!r.ok) throw new Error(`gold: ${tool} failed with ${r.error.code}: ${r.error.message}`);
  return r.result as T;
}

export interface TaskSpec {
  /** `^[a-z0-9][a-z0-9_.-]*$`, unique within the world. */
  id: string;
  /** The fixture the task starts from. */
  fixture: string;
  /** What the agent is asked to do. */
  prompt: string;
  grade: Grader;
  /** A reference solution, played through tool calls. */
  gold?: (inst: GoldTarget) => void;
  /** Declared difficulty (1 = easiest). */
  difficulty?: number;
  tags?: string[];
}

export interface Task extends Readonly<Omit<TaskSpec, 'grade'>> {
  readonly grader: Grader;
  /** Grade an instance's outcome. Pure: the same state gives the same grade, every criterion with its id. */
  grade(target: GradeTarget): Grade;
}

const TASK_ID = /^[a-z0-9][a-z0-9_.-]{0,127}$/;

/**
 * Define a task.
 * @example
 * defineTask({ id: 'add_lead', fixture: 'small_startup', prompt: 'Add ada@example.com as a lead.',
 *   grade: expectChanges([inserted('contacts', { email: 'ada@example.com' })]),
 *   gold: (inst) => { inst.call('create_contact', { email: 'ada@example.com', name: 'Ada' }); } });
 */
export function defineTask(spec: TaskSpec): Task {
  const where = `defineTask(${JSON.stringify(spec?.id)})`;
  if (typeof spec?.id !== 'string' || !TASK_ID.test(spec.id))
    throw new DefinitionError(`${where}: the id must match ${TASK_ID}, like "add_lead".`);
  if (typeof spec.fixture !== 'string' || spec.fixture === '')
    throw new DefinitionError(
      `${where}: name the fixture the task starts from, e.g. fixture: 'small_startup'.`,
    );
  if (typeof spec.prompt !== 'string' || spec.prompt.trim() === '')
    throw new DefinitionError(`${where}: the prompt is empty; tell the agent what to do.`);
  const grader = spec.grade;
  if (
    typeof grader !== 'function' &&
    typeof (grader as { grade?: unknown })?.grade !== 'function'
  ) {
    throw new DefinitionError(
      `${where}: grade must be a rubric from seahaven/rewards (e.g. expectChanges([...])) or a function (target) => Grade.`,
    );
  }
  if (spec.gold !== undefined && typeof spec.gold !== 'function')
    throw new DefinitionError(
      `${where}: gold must be a function (inst) => void that solves the task through inst.call().`,
    );
  const grade =
    typeof grader === 'function'
      ? (t: GradeTarget) => withCriterionIds(grader(t))
      : (t: GradeTarget) => withCriterionIds(grader.grade(t));
  return Object.freeze({ ...spec, grader, grade });
}
