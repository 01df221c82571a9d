/**
 * Combinators: build one rubric from several. Child criteria are passed through with their weights rescaled to the
 * child's share of the parent's reward, so the criteria of a grade still explain where its reward came from.
 */
import type { Criterion, Grade, Grader } from '../kit/index.ts';
import { anything, type FieldMatcher } from './fields.ts';
import { full, rubric, tidy, toRubric, type Rubric } from './grade.ts';

/** What a combinator takes: a rubric, or any grader (a function or an object with `grade`). */
export type RubricPart = Rubric | Grader;

export interface CombineOptions {
  /** Name of the combined rubric. */
  name?: string;
}

function rubrics(parts: readonly RubricPart[], fn: string): Rubric[] {
  if (!Array.isArray(parts) || parts.length === 0) throw new TypeError(`${fn}([...]) needs a non-empty array of rubrics.`);
  return parts.map((p, i) => {
    try {
      return toRubric(p);
    } catch {
      throw new TypeError(`${fn}: entry ${i} is not a rubric; pass rubrics from seahaven/rewards or functions (target) => Grade.`);
    }
  });
}

/** The child's criteria, reweighted so they sum to `share` (weight-0 criteria stay informational). */
function scaled(grade: Grade, share: number, prefix = ''): Criterion[] {
  const total = grade.criteria.reduce((s, c) => s + c.weight, 0);
  return grade.criteria.map((c) => ({ ...c, name: prefix + c.name, weight: total === 0 ? 0 : tidy((c.weight / total) * share) }));
}

function informational(grade: Grade, prefix = ''): Criterion[] {
  return grade.criteria.map((c) => ({ ...c, name: prefix + c.name, weight: 0 }));
}

/**
 * Every part counts equally; passed when every part passed.
 * @example
 * all([expectChanges([inserted('contacts', { email: 'ada@example.com' })]), count('SELECT 1 FROM contacts', 90)])
 */
export function all(parts: readonly RubricPart[], options: CombineOptions = {}): Rubric {
  return weighted(rubrics(parts, 'all').map((r) => [r, 1] as const), { name: options.name ?? 'all' });
}

/**
 * The best part counts; passed when any part passed. With no arguments, `any()` is the field matcher that accepts
 * any value (see `anything`).
 * @example
 * any([rowWhere('contacts', { id: 'con_dana' }, { stage: 'customer' }), rowWhere('contacts', { id: 'con_dana' }, { stage: 'churned' })])
 */
export function any(): FieldMatcher;
export function any(parts: readonly RubricPart[], options?: CombineOptions): Rubric;
export function any(parts?: readonly RubricPart[], options: CombineOptions = {}): Rubric | FieldMatcher {
  if (parts === undefined) return anything();
  const list = rubrics(parts, 'any');
  return rubric(options.name ?? 'any', (target) => {
    const grades = list.map((r) => r.grade(target));
    let best = 0;
    grades.forEach((g, i) => {
      if (g.reward > grades[best].reward || (g.reward === grades[best].reward && g.passed && !grades[best].passed)) best = i;
    });
    const criteria = grades.flatMap((g, i) => (i === best ? g.criteria : informational(g)));
    return { reward: grades[best].reward, passed: grades.some((g) => g.passed), criteria };
  });
}

/**
 * Parts count by weight; passed when every part with weight > 0 passed.
 * @example
 * weighted([[expectChanges([updated('deals', { id: 'deal_1' }, { stage: 'won' })]), 3], [noOtherChanges(), 1]])
 */
export function weighted(parts: readonly (readonly [RubricPart, number])[], options: CombineOptions = {}): Rubric {
  if (!Array.isArray(parts) || parts.length === 0) throw new TypeError('weighted([[rubric, weight], ...]) needs a non-empty array of [rubric, weight] pairs.');
  const list = parts.map((p, i) => {
    if (!Array.isArray(p) || p.length !== 2 || !(p[1] >= 0) || !Number.isFinite(p[1])) throw new TypeError(`weighted: entry ${i} must be [rubric, weight] with a finite weight >= 0.`);
    return [rubrics([p[0]], 'weighted')[0], p[1]] as const;
  });
  const total = list.reduce((s, [, w]) => s + w, 0);
  if (total === 0) throw new TypeError('weighted: at least one weight must be > 0.');
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
    return { reward: tidy(reward), passed, criteria };
  });
}

/**
 * `then` counts only once `pre` passed; otherwise the reward is 0 and the criteria say what `pre` missed.
 * @example
 * gate(unchanged('contacts', { id: 'con_dan' }), expectChanges([updated('contacts', { id: 'con_dana' }, { stage: 'customer' })]))
 */
export function gate(pre: RubricPart, then: RubricPart, options: CombineOptions = {}): Rubric {
  const [p, t] = rubrics([pre, then], 'gate');
  return rubric(options.name ?? `gate(${p.name})`, (target) => {
    const pg = p.grade(target);
    const tg = t.grade(target);
    if (!pg.passed) return { reward: 0, passed: false, criteria: [...scaled(pg, 1, 'gate: '), ...informational(tg, 'locked: ')] };
    return { reward: tg.reward, passed: tg.passed, criteria: [...informational(pg, 'gate: '), ...tg.criteria] };
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
  return rubric(options.name ?? 'sequence', (target) => {
    let reward = 0;
    let open = true;
    const criteria: Criterion[] = [];
    list.forEach((r, i) => {
      const g = r.grade(target);
      const prefix = `step ${i + 1}: `;
      if (open) {
        reward += share * g.reward;
        criteria.push(...scaled(g, share, prefix));
        if (!g.passed || !full(g.reward)) open = false;
      } else {
        criteria.push(...informational(g, `step ${i + 1} (locked): `));
      }
    });
    return { reward: tidy(reward), passed: open, criteria };
  });
}
