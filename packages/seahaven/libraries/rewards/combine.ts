/**
 * Combinators: build one rubric from several. Child criteria are passed through with their weights rescaled to the
 * child's share of the parent's reward, so the criteria of a grade still explain where its reward came from. Their ids
 * stay as the children gave them, under the prefix of the combinator's place for `gate` (`gate.`) and `sequence`
 * (`step1.`, `step2.`, …), and of its `id` when one is set; repeats are numbered (`.2`), so every id is unique.
 */
import type { Criterion, Grade, Grader } from '../../core/index.ts';
import { uniqueIds } from '../../core/task.ts';
import { anything, type FieldMatcher } from './fields.ts';
import { checkId, full, prefixed, rubric, tidy, toRubric, type Rubric } from './grade.ts';

/** What a combinator takes: a rubric, or any grader (a function or an object with `grade`). */
export type RubricPart = Rubric | Grader;

export interface CombineOptions {
  /** Name of the combined rubric. */
  name?: string;
  /** Id of the combined rubric: its criteria's ids start with `<id>.`. Default: none. */
  id?: string;
}

/** The combined criteria: under the rubric's id, if it has one, and each id unique. */
function finish(criteria: Criterion[], id: string | undefined): Criterion[] {
  return uniqueIds(prefixed(criteria, id));
}

function rubrics(parts: readonly RubricPart[], fn: string): Rubric[] {
  if (!Array.isArray(parts) || parts.length === 0)
    throw new TypeError(`${fn}([...]) needs a non-empty array of rubrics.`);
  return parts.map((p, i) => {
    try {
      return toRubric(p);
    } catch {
      throw new TypeError(
        `${fn}: entry ${i} is not a rubric; pass rubrics from seahaven/rewards or functions (target) => Grade.`,
      );
    }
  });
}

/** How a combinator names a child's criteria: `id` before their ids, `label` before their names and labels. */
interface Place {
  id?: string;
  label: string;
}

const AS_IS: Place = { label: '' };

/** The child's criteria, reweighted so they sum to `share` (weight-0 criteria stay informational). */
function scaled(grade: Grade, share: number, place = AS_IS): Criterion[] {
  const total = grade.criteria.reduce((s, c) => s + c.weight, 0);
  return placed(grade, place, (c) => (total === 0 ? 0 : tidy((c.weight / total) * share)));
}

function informational(grade: Grade, place = AS_IS): Criterion[] {
  return placed(grade, place, () => 0);
}

function placed(grade: Grade, place: Place, weight: (c: Criterion) => number): Criterion[] {
  return prefixed(grade.criteria, place.id, place.label).map((c) => ({
    ...c,
    name: place.label + c.name,
    weight: weight(c),
  }));
}

/**
 * Every part counts equally; passed when every part passed.
 * @example
 * all([expectChanges([inserted('contacts', { email: 'ada@example.com' })]), count('SELECT 1 FROM contacts', 90)])
 */
export function all(parts: readonly RubricPart[], options: CombineOptions = {}): Rubric {
  return weighted(
    rubrics(parts, 'all').map((r) => [r, 1] as const),
    { name: options.name ?? 'all', id: checkId(options.id, 'all(parts, options)') },
  );
}

/**
 * The best part counts; passed when any part passed. With no arguments, `any()` is the field matcher that accepts
 * any value (see `anything`).
 * @example
 * any([rowWhere('contacts', { id: 'con_dana' }, { stage: 'customer' }), rowWhere('contacts', { id: 'con_dana' }, { stage: 'churned' })])
 */
export function any(): FieldMatcher;
export function any(parts: readonly RubricPart[], options?: CombineOptions): Rubric;
export function any(
  parts?: readonly RubricPart[],
  options: CombineOptions = {},
): Rubric | FieldMatcher {
  if (parts === undefined) return anything();
  const list = rubrics(parts, 'any');
  const id = checkId(options.id, 'any(parts, options)');
  return rubric(options.name ?? 'any', (target) => {
    const grades = list.map((r) => r.grade(target));
    let best = 0;
    grades.forEach((g, i) => {
      if (
        g.reward > grades[best].reward ||
        (g.reward === grades[best].reward && g.passed && !grades[best].passed)
      )
        best = i;
    });
    const criteria = grades.flatMap((g, i) => (i === best ? g.criteria : informational(g)));
    return {
      reward: grades[best].reward,
      passed: grades.some((g) => g.passed),
      criteria: finish(criteria, id),
    };
  });
}

/**
 * Parts count by weight; passed when every part with weight > 0 passed.
 * @example
 * weighted([[expectChanges([updated('deals', { id: 'deal_1' }, { stage: 'won' })]), 3], [noOtherChanges(), 1]])
 */
export function weighted(
  parts: readonly (readonly [RubricPart, number])[],
  options: CombineOptions = {},
): Rubric {
  if (!Array.isArray(parts) || parts.length === 0)
    throw new TypeError(
      'weighted([[rubric, weight], ...]) needs a non-empty array of [rubric, weight] pairs.',
    );
  const list = parts.map((p, i) => {
    if (!Array.isArray(p) || p.length !== 2 || !(p[1] >= 0) || !Number.isFinite(p[1]))
      throw new TypeError(
        `weighted: entry ${i} must be [rubric, weight] with a finite weight >= 0.`,
      );
    return [rubrics([p[0]], 'weighted')[0], p[1]] as const;
  });
  const total = list.reduce((s, [, w]) => s + w, 0);
  if (total === 0) throw new TypeError('weighted: at least one weight must be > 0.');
  const id = checkId(options.id, 'weighted(parts, options)');
  return rubric(options.name ?? 'weighted', (target) => {
    let reward = 0;
    let passed = true;
    const criteria: Criterion[] = [];
    for (const [r, w] of list) {
      const g = r.grade(target);
      reward += (w / total) * g.reward;
      if (w > 0 && !g.passed) passed = false;
      criteria.push(...scaled(g, w / total));
    }
    return { reward: tidy(reward), passed, criteria: finish(criteria, id) };
  });
}

/**
 * `then` counts only once `pre` passed; otherwise the reward is 0 and the criteria say what `pre` missed.
 * @example
 * gate(unchanged('contacts', { id: 'con_dan' }), expectChanges([updated('contacts', { id: 'con_dana' }, { stage: 'customer' })]))
 */
export function gate(pre: RubricPart, then: RubricPart, options: CombineOptions = {}): Rubric {
  const [p, t] = rubrics([pre, then], 'gate');
  const id = checkId(options.id, 'gate(pre, then, options)');
  // The ids do not depend on whether the gate opened, so a criterion keeps its id in every episode.
  const gatePlace: Place = { id: 'gate', label: 'gate: ' };
  return rubric(options.name ?? `gate(${p.name})`, (target) => {
    const pg = p.grade(target);
    const tg = t.grade(target);
    if (!pg.passed)
      return {
        reward: 0,
        passed: false,
        criteria: finish(
          [...scaled(pg, 1, gatePlace), ...informational(tg, { label: 'locked: ' })],
          id,
        ),
      };
    return {
      reward: tg.reward,
      passed: tg.passed,
      criteria: finish([...informational(pg, gatePlace), ...tg.criteria], id),
    };
  });
}

/**
 * Ordered milestones: step k earns its share only once every step before it passed; the first unpassed step still earns
 * its partial score. Passed when every step passed.
 * @example
 * sequence([rowWhere('deals', { id: 'deal_1' }, { stage: 'won' }), count('SELECT 1 FROM activities WHERE deal_id = ?', 1, { params: ['deal_1'] })])
 */
export function sequence(steps: readonly RubricPart[], options: CombineOptions = {}): Rubric {
  const list = rubrics(steps, 'sequence');
  const share = 1 / list.length;
  const id = checkId(options.id, 'sequence(steps, options)');
  return rubric(options.name ?? 'sequence', (target) => {
    let reward = 0;
    let open = true;
    const criteria: Criterion[] = [];
    list.forEach((r, i) => {
      const g = r.grade(target);
      const step = `step${i + 1}`;
      if (open) {
        reward += share * g.reward;
        criteria.push(...scaled(g, share, { id: step, label: `step ${i + 1}: ` }));
        if (!g.passed || !full(g.reward)) open = false;
      } else {
        criteria.push(...informational(g, { id: step, label: `step ${i + 1} (locked): ` }));
      }
    });
    return { reward: tidy(reward), passed: open, criteria: finish(criteria, id) };
  });
}
