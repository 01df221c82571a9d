/** Tasks: a fixture, a prompt for the agent, a grader over the outcome, and a gold solution. */
import { DefinitionError } from './errors.ts';

/** One criterion of a grade. */
export interface Criterion {
  name: string;
  score: number;
  weight: number;
  reason: string;
}

/** What grading returns. */
export interface Grade {
  reward: number;
  passed: boolean;
  criteria: Criterion[];
}

/** What a grader may look at: the net changes and read-only queries of the final state. */
export interface GradeTarget {
  changes(): import('./capture.ts').Change[];
  query<T = import('./values.ts').Row>(sql: string, ...params: unknown[]): T[];
}

/** Anything that grades: a rubric from `seahaven/rewards`, or a function. */
export type Grader = ((target: GradeTarget) => Grade) | { grade(target: GradeTarget): Grade };

/** A harness handle the gold solution plays through. */
export interface GoldTarget extends GradeTarget {
  call(tool: string, args?: Record<string, unknown>): { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } };
}

/**
 * Call a tool in a gold solution and return its result. A failed call means the gold solution is broken, so it throws
 * with the tool's name and the world's error code and message.
 * @example
 * gold(inst) { const company = goldCall<{ id: string }>(inst, 'create_company', { name: 'Acme' }); }
 */
export function goldCall<T = import('./values.ts').Row>(inst: GoldTarget, tool: string, args: Record<string, unknown> = {}): T {
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
  /** Grade an instance's outcome. Pure: the same state gives the same grade. */
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
  if (typeof spec?.id !== 'string' || !TASK_ID.test(spec.id)) throw new DefinitionError(`${where}: the id must match ${TASK_ID}, like "add_lead".`);
  if (typeof spec.fixture !== 'string' || spec.fixture === '') throw new DefinitionError(`${where}: name the fixture the task starts from, e.g. fixture: 'small_startup'.`);
  if (typeof spec.prompt !== 'string' || spec.prompt.trim() === '') throw new DefinitionError(`${where}: the prompt is empty; tell the agent what to do.`);
  const grader = spec.grade;
  if (typeof grader !== 'function' && typeof (grader as { grade?: unknown })?.grade !== 'function') {
    throw new DefinitionError(`${where}: grade must be a rubric from seahaven/rewards (e.g. expectChanges([...])) or a function (target) => Grade.`);
  }
  if (spec.gold !== undefined && typeof spec.gold !== 'function') throw new DefinitionError(`${where}: gold must be a function (inst) => void that solves the task through inst.call().`);
  const grade = typeof grader === 'function' ? grader : (t: GradeTarget) => grader.grade(t);
  return Object.freeze({ ...spec, grader, grade });
}
