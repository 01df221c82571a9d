import { describe, expect, it } from 'vitest';
import { defineTask } from '../../core/task.ts';
import { defineWorld } from '../../core/world.ts';
import { crm } from '../../../../worlds/crm/index.ts';
import { difficultyScore, measureDifficulty } from './difficulty.ts';
import { notesWorld } from './test-fixtures/notes-world.ts';

describe('measureDifficulty', () => {
  it('replays gold solutions and measures calls, rows, tables, tools and fixture size', () => {
    const table = measureDifficulty(notesWorld());
    expect(table.map((d) => d.task)).toEqual([
      'add_note',
      'add_tag',
      'archive_one',
      'tagged_note',
      'finalize_drafts',
      'archive_old',
    ]);
    const byId = Object.fromEntries(table.map((d) => [d.task, d]));
    expect(byId.tagged_note).toMatchObject({
      fixture: 'empty',
      declared: 2,
      calls: 2,
      failedCalls: 0,
      rowsChanged: 2,
      tablesTouched: 2,
      distinctTools: 2,
      goldPassed: true,
      problem: null,
    });
    // 1 add_tag + 1 find_notes + 6 tag_note calls; 6 notes retagged + 1 tag created.
    expect(byId.finalize_drafts).toMatchObject({
      calls: 8,
      rowsChanged: 7,
      tablesTouched: 2,
      distinctTools: 3,
    });
    expect(byId.archive_old).toMatchObject({
      calls: 13,
      rowsChanged: 11,
      tablesTouched: 1,
      distinctTools: 2,
    });
    for (const d of table) {
      expect(d.fixtureBytes).toBeGreaterThan(0);
      expect(d.score).toBeCloseTo(
        difficultyScore({
          calls: d.calls!,
          rowsChanged: d.rowsChanged!,
          tablesTouched: d.tablesTouched!,
          distinctTools: d.distinctTools!,
          fixtureBytes: d.fixtureBytes,
        }),
        12,
      );
    }
  });

  it('documents its score', () => {
    expect(
      difficultyScore({
        calls: 2,
        rowsChanged: 2,
        tablesTouched: 2,
        distinctTools: 2,
        fixtureBytes: 0,
      }),
    ).toBe(7);
    expect(
      difficultyScore({
        calls: 0,
        rowsChanged: 0,
        tablesTouched: 0,
        distinctTools: 0,
        fixtureBytes: 262_144,
      }),
    ).toBe(1);
    expect(
      difficultyScore(
        { calls: 1, rowsChanged: 4, tablesTouched: 0, distinctTools: 0, fixtureBytes: 0 },
        { rowsChanged: 1 },
      ),
    ).toBe(5);
  });

  it('reads fixture size from the frozen sidecar', () => {
    const world = defineWorld({
      name: 'crm-probe',
      version: '1.0.0',
      schema: crm.schema,
      tools: [...crm.tools],
      fixtures: crm.fixtures,
      fixturesDir: crm.fixturesDir!,
      tasks: [
        defineTask({
          id: 'lead',
          fixture: 'big_co',
          prompt: 'Add ada@example.com as a lead.',
          grade: () => ({ reward: 1, passed: true, criteria: [] }),
          gold: (inst) => {
            inst.call('create_contact', { name: 'Ada', email: 'ada@example.com' });
          },
        }),
      ],
    });
    const [d] = measureDifficulty(world);
    expect(d.fixtureBytes).toBeGreaterThan(1_000_000);
    expect(d.declared).toBe(3);
    expect(d.calls).toBe(1);
  });

  it('puts tasks it cannot measure last and says why', () => {
    const base = notesWorld();
    const world = defineWorld({
      name: 'notes2',
      version: '1.0.0',
      schema: base.schema,
      tools: [...base.tools],
      fixtures: base.fixtures,
      tasks: [
        defineTask({
          id: 'nogold',
          fixture: 'empty',
          prompt: 'x',
          grade: () => ({ reward: 0, passed: false, criteria: [] }),
        }),
        defineTask({
          id: 'throws',
          fixture: 'empty',
          prompt: 'x',
          grade: () => ({ reward: 0, passed: false, criteria: [] }),
          gold: () => {
            throw new Error('boom');
          },
        }),
        defineTask({
          id: 'fails',
          fixture: 'empty',
          prompt: 'x',
          grade: () => ({ reward: 0, passed: false, criteria: [] }),
          gold: (inst) => {
            inst.call('archive_note', { id: 'nope' });
          },
        }),
      ],
    });
    const table = measureDifficulty(world);
    expect(table.map((d) => [d.task, d.problem])).toEqual([
      ['fails', null],
      ['nogold', 'no gold solution'],
      ['throws', 'gold solution threw: boom'],
    ]);
    expect(table[0]).toMatchObject({ calls: 1, failedCalls: 1, goldPassed: false });
    expect(() => measureDifficulty(world, { tasks: ['missing'] })).toThrow(
      /no task "missing"; its tasks are nogold, throws, fails/,
    );
  });
});
