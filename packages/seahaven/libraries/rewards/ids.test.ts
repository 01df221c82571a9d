import { describe, expect, it } from 'vitest';
import {
  agentGrade,
  defineTask,
  defineWorld,
  withCriterionIds,
  type Grade,
  type GradeTarget,
} from '../../core/index.ts';
import { atLeast, deleted, exactly, inserted, unchanged, updated } from './changes.ts';
import { all, any, gate, sequence, weighted } from './combine.ts';
import { expectChanges, noOtherChanges } from './expect.ts';
import { count, rowWhere } from './state.ts';
import { shop, shopAfter, shopSpec } from './test-world.ts';

const ID = /^[a-z0-9][a-z0-9_.-]*$/;
const ids = (g: Grade) => g.criteria.map((c) => c.id);

/** Every id well formed and unique. */
function checkIds(g: Grade): string[] {
  const list = ids(g);
  for (const id of list) expect(id).toMatch(ID);
  expect(new Set(list).size).toBe(list.length);
  return list;
}

const restock = expectChanges([
  exactly(2, updated('items', { tag: 'fruit' }, { qty: 50 })),
  inserted('notes', { item_id: 'pear', body: 'restocked' }),
  unchanged('items', { id: 'bolt' }),
]);

describe('criterion ids', () => {
  it('come from the rubric, not from the values it looks for or what the agent did', () => {
    const idle = restock.grade(shopAfter());
    const done = restock.grade(
      shopAfter(
        ['set_item', { id: 'apple', qty: 50 }],
        ['set_item', { id: 'pear', qty: 50 }],
        ['add_note', { item_id: 'pear', body: 'restocked' }],
      ),
    );
    expect(checkIds(idle)).toEqual([
      'update.items',
      'update.items.2',
      'insert.notes',
      'unchanged.items',
      'precision_recall',
    ]);
    expect(ids(done)).toEqual(ids(idle));
    expect(done.reward).toBe(1);
    for (const id of ids(idle)) expect(id).not.toMatch(/apple|pear|bolt|50|restocked|fruit/);
  });

  it('are the same in every episode of a task, and after a fork', () => {
    const world = defineWorld({
      ...shopSpec,
      tasks: [
        defineTask({
          id: 'restock',
          fixture: 'stocked',
          prompt: 'Restock the fruit.',
          grade: restock,
        }),
      ],
    });
    const a = world.instance({ fixture: 'stocked', task: 'restock', seed: 1 });
    const b = world.instance({ fixture: 'stocked', task: 'restock', seed: 2 });
    b.call('add_note', { item_id: 'apple', body: 'x' });
    expect(ids(a.submit())).toEqual(ids(b.submit()).filter((id) => !id.startsWith('unexpected.')));
    expect(ids(b.submit())).toContain('unexpected.notes');
    expect(ids(b.fork().submit())).toEqual(ids(b.submit()));
  });

  it('of collateral changes are numbered per table, in the order of the changes', () => {
    const g = noOtherChanges().grade(
      shopAfter(
        ['add_note', { item_id: 'apple', body: 'x' }],
        ['add_note', { item_id: 'pear', body: 'y' }],
        ['set_item', { id: 'bolt', qty: 1 }],
      ),
    );
    expect(checkIds(g)).toEqual([
      'no_other_changes.items',
      'no_other_changes.notes',
      'no_other_changes.notes.2',
      'no_other_changes',
    ]);
    expect(
      ids(
        expectChanges([deleted('items', { id: 'pear' })]).grade(
          shopAfter(['set_item', { id: 'bolt', qty: 1 }]),
        ),
      ),
    ).toEqual(['delete.items', 'unexpected.items', 'precision_recall']);
  });

  it('of final-state checks name the table or the kind of check', () => {
    expect(ids(rowWhere('items', { id: 'pear' }, { qty: 20 }).grade(shopAfter()))).toEqual([
      'row.items',
    ]);
    expect(ids(count("SELECT 1 FROM notes WHERE item_id = 'pear'", 1).grade(shopAfter()))).toEqual([
      'count',
    ]);
    expect(ids(atLeast(1, inserted('notes', {})).grade(shopAfter()))).toEqual(['insert.notes']);
  });

  it('can be set by the author wherever a name can', () => {
    const pear = rowWhere('items', { id: 'pear' }, { qty: 20 }, { id: 'pear_stock' });
    const notes = count('SELECT 1 FROM notes', 3, { id: 'notes' });
    const kiwi = expectChanges(
      [
        inserted('items', { id: 'kiwi' }, { id: 'kiwi' }),
        unchanged('notes', {}, { id: 'keep_notes' }),
      ],
      { id: 'shop' },
    );
    const g = all([pear, notes, kiwi, noOtherChanges({ id: 'tidy' })], { id: 'outcome' }).grade(
      shopAfter(),
    );
    expect(checkIds(g)).toEqual([
      'outcome.pear_stock',
      'outcome.notes',
      'outcome.shop.kiwi',
      'outcome.shop.keep_notes',
      'outcome.shop.precision_recall',
      'outcome.tidy',
    ]);
    expect(() => rowWhere('items', {}, {}, { id: 'Pear Stock' })).toThrow(/id must match/);
    expect(() => all([pear], { id: '' })).toThrow(/id must match/);
    expect(() => inserted('items', {}, { id: '.x' })).toThrow(/id must match/);
  });

  it("of combinators keep their children's, under gate. and stepN., whether or not a gate opened", () => {
    const pre = unchanged('items', { id: 'bolt' });
    const then = rowWhere('items', { id: 'pear' }, { qty: 20 });
    const g = gate(pre, then);
    expect(ids(g.grade(shopAfter()))).toEqual(['gate.unchanged.items', 'row.items']);
    expect(ids(g.grade(shopAfter(['set_item', { id: 'bolt', qty: 1 }])))).toEqual([
      'gate.unchanged.items',
      'row.items',
    ]);
    expect(g.grade(shopAfter(['set_item', { id: 'bolt', qty: 1 }])).criteria[1].label).toBe(
      'locked: row of items',
    );
    const s = sequence([then, count('SELECT 1 FROM notes', 2)]);
    expect(ids(s.grade(shopAfter()))).toEqual(['step1.row.items', 'step2.count']);
    expect(ids(s.grade(shopAfter(['set_item', { id: 'pear', qty: 20 }])))).toEqual([
      'step1.row.items',
      'step2.count',
    ]);
    // Two parts with the same ids: numbered in order, in every combinator.
    for (const r of [
      all([then, then]),
      any([then, then]),
      weighted([
        [then, 1],
        [then, 2],
      ]),
    ])
      expect(checkIds(r.grade(shopAfter()))).toEqual(['row.items', 'row.items.2']);
  });

  it('are filled in for graders written as functions: c1, c2, … by place, repeats numbered', () => {
    const plain = (t: GradeTarget) => ({
      reward: 1,
      passed: true,
      criteria: [
        { name: 'first', score: 1, weight: 1, reason: 'ok' },
        { id: 'mine', name: 'second', score: 1, weight: 1, reason: 'ok' },
        { name: 'third', score: 1, weight: 0, reason: `${t.changes().length} changes` },
        { id: 'mine', name: 'fourth', score: 1, weight: 0, reason: 'ok' },
      ],
    });
    const task = defineTask({
      id: 'plain',
      fixture: 'stocked',
      prompt: 'Do anything.',
      grade: plain,
    });
    expect(ids(task.grade(shopAfter()))).toEqual(['c1', 'mine', 'c3', 'mine.2']);
    expect(ids(all([plain]).grade(shopAfter()))).toEqual(['c1', 'mine', 'c3', 'mine.2']);
    // A number some criterion has as its own id is not given to a repeat.
    expect(
      ids(
        withCriterionIds({
          reward: 1,
          passed: true,
          criteria: [
            { id: 'a', name: '', score: 1, weight: 1, reason: '' },
            { id: 'a', name: '', score: 1, weight: 1, reason: '' },
            { id: 'a.2', name: '', score: 1, weight: 1, reason: '' },
          ],
        }),
      ),
    ).toEqual(['a', 'a.3', 'a.2']);
  });

  it('reach a task grade through the kit even from a bare object grader', () => {
    const task = defineTask({
      id: 'obj',
      fixture: 'stocked',
      prompt: 'Do anything.',
      grade: {
        grade: () => ({
          reward: 0,
          passed: false,
          criteria: [{ name: 'x', score: 0, weight: 1, reason: 'no' }],
        }),
      },
    });
    expect(ids(task.grade(shop.instance({ fixture: 'stocked' })))).toEqual(['c1']);
  });
});

describe('agentGrade', () => {
  it('keeps reward, passed, ids, scores and weights, and drops names and reasons', () => {
    const inst = shopAfter(
      ['set_item', { id: 'apple', qty: 50 }],
      ['add_note', { item_id: 'bolt', body: 'loose' }],
    );
    const full = restock.grade(inst);
    const view = agentGrade(full);
    expect(view.reward).toBe(full.reward);
    expect(view.passed).toBe(full.passed);
    expect(view.criteria).toEqual(
      full.criteria.map((c) => ({ id: c.id, label: c.label, score: c.score, weight: c.weight })),
    );
    expect(view.criteria.map((c) => c.label)).toEqual([
      'update of items',
      'update of items',
      'insert into notes',
      'rows of items unchanged',
      'unexpected change to notes',
      'precision and recall',
    ]);
    const text = JSON.stringify(view);
    for (const target of [
      'apple',
      'pear',
      'bolt',
      '50',
      'restocked',
      'fruit',
      'loose',
      'Rows:',
      'exactly',
      'as expected',
    ])
      expect(text).not.toContain(target);
    expect(Object.keys(view).sort()).toEqual(['criteria', 'passed', 'reward']);
  });

  it('labels a criterion without a label by its id', () => {
    const view = agentGrade(
      withCriterionIds({
        reward: 0.5,
        passed: false,
        criteria: [
          { name: 'Ada written', score: 0, weight: 1, reason: 'no Ada' },
          { id: 'tone', name: 'polite to Ada', score: 1, weight: 1, reason: 'yes' },
        ],
      }),
    );
    expect(view).toEqual({
      reward: 0.5,
      passed: false,
      criteria: [
        { id: 'c1', label: 'c1', score: 0, weight: 1 },
        { id: 'tone', label: 'tone', score: 1, weight: 1 },
      ],
    });
  });
});
