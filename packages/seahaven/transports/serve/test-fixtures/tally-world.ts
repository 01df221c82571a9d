/**
 * A tiny world for the shared-runs tests: six tasks in three stages, each passed by one `mark` call, so an episode is
 * three frames (reset, optionally mark, submit) and a test can play hundreds of them across several servers.
 */
import { defineCurriculum } from '../../../libraries/curricula/define.ts';
import { defineTask, defineTool, defineWorld, z } from '../../../core/index.ts';

const mark = defineTool({
  name: 'mark',
  description: 'Make a mark; a task passes once a mark exists.',
  input: z.object({}),
  run(ctx) {
    const id = ctx.ids.token('mark_', 8);
    ctx.db.run('INSERT INTO marks (id) VALUES (?)', id);
    return { id };
  },
});

const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6'];

const tasks = TASKS.map((id) =>
  defineTask({
    id,
    fixture: 'empty',
    prompt: `Make a mark (${id}).`,
    grade: (t) => {
      const passed = Number(Object.values(t.query('SELECT count(*) AS n FROM marks')[0])[0]) > 0;
      return { reward: passed ? 1 : 0, passed, criteria: [{ name: 'marked', score: passed ? 1 : 0, weight: 1, reason: passed ? 'a mark exists' : 'no mark' }] };
    },
    gold: (inst) => void inst.call('mark', {}),
  }),
);

/** Promotes after 3 passes in the last 4 current-stage outcomes; falls back when a full window of 4 has under 2. */
export const tallyCurriculum = defineCurriculum({
  name: 'tally',
  stages: [
    { name: 'one', tasks: ['t1', 't2'] },
    { name: 'two', tasks: ['t3', 't4'] },
    { name: 'three', tasks: ['t5', 't6'] },
  ],
  promote: { successRate: 0.75, window: 4 },
  demote: { successRate: 0.5, window: 4 },
  review: 0.25,
  seed: 7,
});

export const tally = defineWorld({
  name: 'tally',
  version: '1.0.0',
  schema: 'CREATE TABLE marks (id TEXT PRIMARY KEY) STRICT;',
  tools: [mark],
  fixtures: { empty: { description: 'No marks.', difficulty: 1, now: '2026-06-01T09:00:00.000Z', build() {} } },
  tasks,
  curricula: [tallyCurriculum],
});

export default tally;
