/**
 * Vitest helpers for world authors: a fresh instance per test, determinism checks that replay an episode, and grader
 * soundness checks.
 *
 * @example
 * import { worldTest, expectDeterministic } from 'seahaven/testing';
 * const test = worldTest(myWorld, { fixture: 'small_startup', seed: 1 });
 * test('creates a contact', ({ inst }) => { expect(inst.call('create_contact', {…}).ok).toBe(true); });
 *
 * @module seahaven/testing
 */
import { test as vitestTest, expect } from 'vitest';
import type { Instance, InstanceOptions } from '../../core/instance.ts';
import type { Task } from '../../core/task.ts';
import type { World } from '../../core/world.ts';
import { checkGrader, type CheckGraderOptions, type GraderReport } from '../rewards/check.ts';

/** The fixture a `worldTest` test receives. */
export interface WorldTestContext {
  inst: Instance;
}

/**
 * A vitest `test` whose tests each receive a fresh instance (`{ inst }`), destroyed afterwards.
 * @example
 * const test = worldTest(crm, { fixture: 'small_startup' });
 * test('search finds Dana', ({ inst }) => { expect(inst.call('search_contacts', { query: 'Dana' }).ok).toBe(true); });
 */
export function worldTest(world: World, options: InstanceOptions = {}) {
  return vitestTest.extend<WorldTestContext>({
    inst: async ({}, use) => {
      const inst = world.instance(options);
      try {
        await use(inst);
      } finally {
        inst.destroy();
      }
    },
  });
}

/** What `expectDeterministic` compares: everything an episode observed and left behind. */
export interface EpisodeRecord {
  results: unknown[];
  state: ReturnType<Instance['state']>;
  changeLog: ReturnType<Instance['changeLog']>;
  callLog: ReturnType<Instance['callLog']>;
}

/**
 * Play `episode` twice on fresh instances and assert both runs are byte-identical: results, state document, change
 * log and call log. Returns the record of the first run.
 * @example
 * expectDeterministic(crm, (inst) => [inst.call('create_contact', { name: 'Ada', email: 'ada@example.com' })], { fixture: 'small_startup', seed: 3 });
 */
export function expectDeterministic(
  world: World,
  episode: (inst: Instance) => unknown[] | void,
  options: InstanceOptions = {},
): EpisodeRecord {
  const play = (): EpisodeRecord => {
    const inst = world.instance(options);
    try {
      const results = episode(inst) ?? [];
      return { results, state: inst.state(), changeLog: inst.changeLog(), callLog: inst.callLog() };
    } finally {
      inst.destroy();
    }
  };
  const first = play();
  const second = play();
  expect(
    JSON.stringify(second),
    'a replay of the episode differs; look for time or randomness that does not come from ctx',
  ).toBe(JSON.stringify(first));
  return first;
}

/**
 * Assert a task's grader is sound (`checkGrader`): doing nothing does not pass, the gold solution scores 1, and seeded
 * random tool calls do not score 1. Warnings are allowed; errors fail with every problem and its fix.
 * @example
 * for (const task of crm.tasks) it(task.id, () => expectGraderSound(crm, task));
 */
export function expectGraderSound(
  world: World,
  task: Task | string,
  options?: CheckGraderOptions,
): GraderReport {
  const report = checkGrader(world, task, options);
  const errors = report.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `the grader of task "${report.task}" is not sound:\n${errors.map((p) => `  ${p.code} ${p.message} Fix: ${p.fix}`).join('\n')}`,
    );
  }
  return report;
}

export { vitestTest as test, expect };
