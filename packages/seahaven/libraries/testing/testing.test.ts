import { describe } from 'vitest';
import { expect, expectDeterministic, expectGraderSound, worldTest } from './index.ts';
import { defineTask } from '../../core/index.ts';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';

const test = worldTest(crm, { fixture: 'small_startup', seed: 2 });

describe('worldTest', () => {
  let first: unknown;
  test('gives each test a fresh instance', ({ inst }) => {
    expect(inst.call('create_contact', { name: 'Ada', email: 'ada@example.com' }).ok).toBe(true);
    first = inst;
  });
  test('… that the previous test did not touch, and destroys the old one', ({ inst }) => {
    expect(inst).not.toBe(first);
    expect(inst.changes()).toEqual([]);
    expect(() => (first as typeof inst).changes()).toThrow(/destroyed/);
  });
});

describe('expectDeterministic', () => {
  test('passes for a world that only uses ctx', () => {
    const record = expectDeterministic(
      crm,
      (inst) => [inst.call('create_contact', { name: 'Ada', email: 'ada@example.com' })],
      { fixture: 'small_startup', seed: 4 },
    );
    expect(record.state.changes).toHaveLength(1);
  });

  test('fails for a world that reads host randomness', () => {
    let counter = 0;
    const leaky = defineWorld({
      name: 'leaky',
      version: '1',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL) STRICT;',
      // A stand-in for Math.random(): state outside ctx that differs between runs.
      tools: [
        defineTool({
          name: 'put',
          description: 'Store a value.',
          input: z.object({}),
          run: (ctx) => ctx.db.run('INSERT INTO t (v) VALUES (?)', counter++).changes,
        }),
      ],
    });
    expect(() => expectDeterministic(leaky, (inst) => [inst.call('put', {})])).toThrow(
      /replay of the episode differs/,
    );
  });
});

describe('expectGraderSound', () => {
  test('passes for a crm task', () => {
    expect(expectGraderSound(crm, 'add_lead').gold?.reward).toBe(1);
  });

  test('fails for a grader that passes when nothing was done', () => {
    const lazy = defineTask({
      id: 'lazy',
      fixture: 'small_startup',
      prompt: 'Do anything.',
      grade: () => ({ reward: 1, passed: true, criteria: [] }),
      gold: () => {},
    });
    const world = {
      ...crm,
      tasks: [lazy],
      task: (id: string) => (id === 'lazy' ? lazy : undefined),
    } as typeof crm;
    expect(() => expectGraderSound(world, lazy)).toThrow(/SH501/);
  });
});
