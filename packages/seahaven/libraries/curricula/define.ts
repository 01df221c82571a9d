/**
 * Curriculum definitions: named stages of tasks ordered from easy to hard, a promotion rule (mastery gating), a review
 * share and a seed. `defineCurriculum` checks the shape; `resolveCurriculum` binds it to a world's tasks.
 */
import { createHash } from 'node:crypto';
import { DefinitionError } from '../../core/errors.ts';
import type {
  AutoStages,
  Curriculum,
  DemoteRule,
  DifficultyWeights,
  PromoteRule,
  StageSpec,
  WorldTasks,
} from '../../core/curriculum.ts';
import type { World } from '../../core/world.ts';
import { measureDifficulty } from './difficulty.ts';

// Declared in the kit, which carries curricula on its worlds but must not depend on packages/seahaven/libraries/curricula/; users import them here.
export type {
  AutoStages,
  Curriculum,
  DemoteRule,
  PromoteRule,
  StageSpec,
  WorldTasks,
} from '../../core/curriculum.ts';

export interface CurriculumSpec {
  /** `^[a-z][a-z0-9_-]{0,63}$`, unique within the world; used in URLs. */
  name: string;
  description?: string;
  /** Easiest first. */
  stages: StageSpec[] | AutoStages;
  promote: PromoteRule;
  /** Share of episodes drawn from earlier stages once past the first, in [0, 1). Default 0.2. */
  review?: number;
  /** Whole number ≥ 0. Default 0. */
  seed?: number;
  demote?: DemoteRule;
}

/** A stage bound to a world: its task ids and its promotion rule. */
export interface ResolvedStage {
  index: number;
  name: string;
  description: string;
  tasks: string[];
  promote: Required<PromoteRule>;
}

/** A curriculum bound to a world: what a run follows. Plain JSON, stored with each run. */
export interface ResolvedCurriculum {
  world: string;
  name: string;
  description: string;
  stages: ResolvedStage[];
  review: number;
  seed: number;
  demote: Required<DemoteRule> | null;
  /** sha256 of the stages, rules and seed: a resumed run must follow the same definition. */
  fingerprint: string;
}

const CURRICULUM_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

function rate(
  where: string,
  field: string,
  value: unknown,
  upper: 'inclusive' | 'exclusive',
): number {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    (upper === 'inclusive' ? value <= 1 : value < 1);
  if (!ok)
    throw new DefinitionError(
      `${where}: ${field} must be a number in [0, 1${upper === 'inclusive' ? ']' : ')'}, like 0.8; got ${JSON.stringify(value)}.`,
    );
  return value as number;
}

function count(where: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new DefinitionError(
      `${where}: ${field} must be a whole number >= 1, like 20; got ${JSON.stringify(value)}.`,
    );
  return value;
}

function promoteRule(
  where: string,
  field: string,
  rule: PromoteRule | undefined,
): Required<PromoteRule> {
  if (typeof rule !== 'object' || rule === null)
    throw new DefinitionError(
      `${where}: give ${field}, like ${field}: { successRate: 0.8, window: 20 }.`,
    );
  const window = count(where, `${field}.window`, rule.window);
  return {
    successRate: rate(where, `${field}.successRate`, rule.successRate, 'inclusive'),
    window,
    minEpisodes:
      rule.minEpisodes === undefined
        ? window
        : count(where, `${field}.minEpisodes`, rule.minEpisodes),
  };
}

function checkStageSpecs(where: string, stages: readonly StageSpec[]): void {
  if (stages.length === 0)
    throw new DefinitionError(
      `${where}: stages is empty; list at least one stage, like stages: [{ name: 'easy', tasks: ['add_lead'] }], or use autoStages(3).`,
    );
  const names = new Set<string>();
  stages.forEach((s, i) => {
    const at = `stages[${i}]`;
    if (typeof s?.name !== 'string' || s.name.trim() === '' || s.name.length > 64)
      throw new DefinitionError(
        `${where}: ${at} needs a name of 1 to 64 characters, like name: 'easy'.`,
      );
    if (names.has(s.name))
      throw new DefinitionError(
        `${where}: two stages are named "${s.name}"; stage names must be unique.`,
      );
    names.add(s.name);
    for (const key of ['tasks', 'fixtures'] as const) {
      const list = s[key];
      if (list !== undefined && (!Array.isArray(list) || list.some((x) => typeof x !== 'string')))
        throw new DefinitionError(
          `${where}: stage "${s.name}" ${key} must be an array of ${key === 'tasks' ? 'task ids' : 'fixture ids'}.`,
        );
    }
    if ((s.tasks?.length ?? 0) + (s.fixtures?.length ?? 0) === 0)
      throw new DefinitionError(
        `${where}: stage "${s.name}" is empty; give it tasks: ['<task id>', …] or fixtures: ['<fixture id>', …].`,
      );
    if (s.promote !== undefined) promoteRule(where, `stage "${s.name}" promote`, s.promote);
  });
}

/**
 * Define a curriculum: stages easiest first, promotion when the rolling success rate over `window` outcomes of the
 * current stage reaches `successRate` (after at least `minEpisodes`), a `review` share of episodes from earlier stages,
 * and a seed. Shapes are checked here; task and fixture ids when the world is defined (or the curriculum first used).
 * @example
 * const basics = defineCurriculum({
 *   name: 'basics',
 *   stages: [{ name: 'easy', tasks: ['add_note'] }, { name: 'hard', fixtures: ['crowded'] }],
 *   promote: { successRate: 0.8, window: 20 },
 *   review: 0.2,
 *   seed: 7,
 * });
 */
export function defineCurriculum(spec: CurriculumSpec): Curriculum {
  const where = `defineCurriculum(${JSON.stringify(spec?.name)})`;
  if (typeof spec?.name !== 'string' || !CURRICULUM_NAME.test(spec.name))
    throw new DefinitionError(`${where}: the name must match ${CURRICULUM_NAME}, like "basics".`);
  const stages = spec.stages;
  if (isAutoStages(stages)) {
    if (!Number.isSafeInteger(stages.count) || stages.count < 1)
      throw new DefinitionError(`${where}: autoStages(count) needs a whole number >= 1.`);
  } else if (!Array.isArray(stages)) {
    throw new DefinitionError(
      `${where}: stages must be an array of { name, tasks?, fixtures? } or autoStages(n).`,
    );
  } else {
    checkStageSpecs(where, stages);
  }
  const promote = promoteRule(where, 'promote', spec.promote);
  const review = spec.review === undefined ? 0.2 : rate(where, 'review', spec.review, 'exclusive');
  const seed = spec.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new DefinitionError(
      `${where}: seed must be a whole number >= 0; got ${JSON.stringify(spec.seed)}.`,
    );
  let demote: Required<DemoteRule> | null = null;
  if (spec.demote !== undefined) {
    if (typeof spec.demote !== 'object' || spec.demote === null)
      throw new DefinitionError(`${where}: demote must be { successRate, window? }.`);
    const successRate = rate(where, 'demote.successRate', spec.demote.successRate, 'inclusive');
    if (successRate >= promote.successRate)
      throw new DefinitionError(
        `${where}: demote.successRate (${successRate}) must be below promote.successRate (${promote.successRate}), or runs would bounce between stages.`,
      );
    demote = {
      successRate,
      window:
        spec.demote.window === undefined
          ? promote.window
          : count(where, 'demote.window', spec.demote.window),
    };
  }
  const frozenStages = isAutoStages(stages)
    ? stages
    : Object.freeze(stages.map((s) => Object.freeze({ ...s })));
  const curriculum: Curriculum = {
    name: spec.name,
    description: spec.description ?? '',
    stages: frozenStages,
    promote: Object.freeze(promote),
    review,
    seed,
    demote: demote && Object.freeze(demote),
    check: (world) => {
      if (!isAutoStages(frozenStages))
        stageTasks(`${where} in world "${world.name}"`, frozenStages, world);
      else if (world.tasks.length < frozenStages.count)
        throw new DefinitionError(
          `${where}: autoStages(${frozenStages.count}) needs at least ${frozenStages.count} tasks; world "${world.name}" has ${world.tasks.length}.`,
        );
    },
  };
  return Object.freeze(curriculum);
}

function isAutoStages(value: unknown): value is AutoStages {
  return (
    typeof value === 'object' && value !== null && (value as AutoStages).kind === 'auto-stages'
  );
}

/** Task ids of each stage, checked: known ids, non-empty stages, each task in one stage. */
function stageTasks(where: string, stages: readonly StageSpec[], world: WorldTasks): string[][] {
  const taskIds = world.tasks.map((t) => t.id);
  const stageOf = new Map<string, string>();
  return stages.map((s) => {
    const ids: string[] = [];
    for (const id of s.tasks ?? []) {
      if (!taskIds.includes(id))
        throw new DefinitionError(
          `${where}: stage "${s.name}" lists task "${id}", which the world does not have; its tasks are ${taskIds.join(', ') || '(none)'}.`,
        );
      if (!ids.includes(id)) ids.push(id);
    }
    for (const f of s.fixtures ?? []) {
      if (!Object.hasOwn(world.fixtures, f))
        throw new DefinitionError(
          `${where}: stage "${s.name}" lists fixture "${f}", which the world does not have; its fixtures are ${Object.keys(world.fixtures).join(', ') || '(none)'}.`,
        );
      const onFixture = world.tasks.filter((t) => t.fixture === f).map((t) => t.id);
      if (onFixture.length === 0)
        throw new DefinitionError(
          `${where}: stage "${s.name}" lists fixture "${f}", but no task starts from it; add a task with fixture: '${f}' or list task ids instead.`,
        );
      for (const id of onFixture) if (!ids.includes(id)) ids.push(id);
    }
    for (const id of ids) {
      const other = stageOf.get(id);
      if (other !== undefined)
        throw new DefinitionError(
          `${where}: task "${id}" is in stages "${other}" and "${s.name}"; put each task in one stage (review already replays earlier stages).`,
        );
      stageOf.set(id, s.name);
    }
    return ids;
  });
}

export interface AutoStagesOptions {
  /** Stage names, easiest first (default `stage_1`, `stage_2`, …). */
  names?: string[];
  /** Score weights for measuring. */
  weights?: Partial<DifficultyWeights>;
}

/**
 * Split a world's tasks into `count` stages by measured difficulty (see `measureDifficulty`): sorted easiest first and
 * cut into runs of near-equal size, the larger ones last. With a world, the stages are measured now; without one
 * (`autoStages(3)`), when the curriculum is first used with its world.
 * @example
 * defineCurriculum({ name: 'auto', stages: autoStages(3, { names: ['easy', 'medium', 'hard'] }), promote: { successRate: 0.8, window: 20 } });
 */
export function autoStages(world: World, count: number, options?: AutoStagesOptions): StageSpec[];
export function autoStages(count: number, options?: AutoStagesOptions): AutoStages;
export function autoStages(
  a: World | number,
  b?: number | AutoStagesOptions,
  c?: AutoStagesOptions,
): StageSpec[] | AutoStages {
  if (typeof a === 'number') {
    const options = (b ?? {}) as AutoStagesOptions;
    checkNames(a, options.names);
    return Object.freeze({
      kind: 'auto-stages',
      count: a,
      ...(options.names ? { names: [...options.names] } : {}),
      ...(options.weights ? { weights: { ...options.weights } } : {}),
    });
  }
  return measuredStages(a, b as number, c ?? {});
}

function checkNames(n: number, names: readonly string[] | undefined): void {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new DefinitionError(
      `autoStages: count must be a whole number >= 1; got ${JSON.stringify(n)}.`,
    );
  if (names !== undefined && names.length !== n)
    throw new DefinitionError(`autoStages: give ${n} names (one per stage); got ${names.length}.`);
}

function measuredStages(world: World, n: number, options: AutoStagesOptions): StageSpec[] {
  checkNames(n, options.names);
  const measured = measureDifficulty(world, { weights: options.weights });
  const unmeasured = measured.filter((d) => d.score === null);
  if (unmeasured.length > 0)
    throw new DefinitionError(
      `autoStages: world "${world.name}" has tasks that cannot be measured (${unmeasured.map((d) => `${d.task}: ${d.problem}`).join('; ')}); give them a gold solution or list stages by hand.`,
    );
  if (measured.length < n)
    throw new DefinitionError(
      `autoStages: ${n} stages need at least ${n} tasks; world "${world.name}" has ${measured.length}.`,
    );
  const base = Math.floor(measured.length / n),
    extra = measured.length % n;
  const stages: StageSpec[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const size = base + (i >= n - extra ? 1 : 0);
    stages.push({
      name: options.names?.[i] ?? `stage_${i + 1}`,
      tasks: measured.slice(at, at + size).map((d) => d.task),
    });
    at += size;
  }
  return stages;
}

/**
 * Bind a curriculum to a world: expand fixtures to their tasks, measure automatic stages, and fingerprint the result.
 * @example
 * const resolved = resolveCurriculum(world, basics);
 * resolved.stages.map((s) => s.tasks);
 */
export function resolveCurriculum(world: World, curriculum: Curriculum): ResolvedCurriculum {
  const where = `defineCurriculum(${JSON.stringify(curriculum.name)}) in world "${world.name}"`;
  curriculum.check(world);
  const specs = isAutoStages(curriculum.stages)
    ? measuredStages(world, curriculum.stages.count, {
        names: curriculum.stages.names as string[] | undefined,
        weights: curriculum.stages.weights,
      })
    : curriculum.stages;
  const ids = stageTasks(where, specs, world);
  const stages: ResolvedStage[] = specs.map((s, index) => ({
    index,
    name: s.name,
    description: s.description ?? '',
    tasks: ids[index],
    promote: s.promote
      ? promoteRule(where, `stage "${s.name}" promote`, s.promote)
      : { ...curriculum.promote },
  }));
  const demote = curriculum.demote && { ...curriculum.demote };
  for (const s of stages) {
    if (demote && demote.successRate >= s.promote.successRate)
      throw new DefinitionError(
        `${where}: demote.successRate (${demote.successRate}) must be below stage "${s.name}" promote.successRate (${s.promote.successRate}), or runs would bounce between stages.`,
      );
  }
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        stages: stages.map((s) => [s.name, s.tasks, s.promote]),
        review: curriculum.review,
        seed: curriculum.seed,
        demote,
      }),
    )
    .digest('hex');
  return {
    world: world.name,
    name: curriculum.name,
    description: curriculum.description,
    stages,
    review: curriculum.review,
    seed: curriculum.seed,
    demote,
    fingerprint,
  };
}
