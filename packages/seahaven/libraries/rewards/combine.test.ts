import { describe, expect, it } from 'vitest';
import type { GradeTarget } from '../../core/index.ts';
import { inserted, updated } from './changes.ts';
import { all, any, gate, sequence, weighted } from './combine.ts';
import { expectChanges } from './expect.ts';
import { count, rowWhere } from './state.ts';
import { shopAfter } from './test-world.ts';

const pearRestocked = rowWhere('items', { id: 'pear' }, { qty: 20 });
const pearNoted = count("SELECT 1 FROM notes WHERE item_id = 'pear'", 1);
const kiwiAdded = expectChanges([inserted('items', { id: 'kiwi', name: 'Kiwi', qty: 5 })], {
  allow: ['items', 'notes'],
});
const sum = (cs: { weight: number }[]) => cs.reduce((s, c) => s + c.weight, 0);

describe('all', () => {
  it('averages its parts; passed only when every part passed; child weights are rescaled to their share', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const g = all([pearRestocked, pearNoted]).grade(inst);
    expect(g).toMatchObject({ reward: 0.5, passed: false });
    expect(g.criteria.map((c) => c.weight)).toEqual([0.5, 0.5]);
    expect(
      all([pearRestocked, pearNoted]).grade(
        shopAfter(
          ['set_item', { id: 'pear', qty: 20 }],
          ['add_note', { item_id: 'pear', body: 'x' }],
        ),
      ),
    ).toMatchObject({ reward: 1, passed: true });
  });

  it('accepts plain grading functions', () => {
    const fixed = (_t: GradeTarget) => ({
      reward: 0.25,
      passed: false,
      criteria: [{ name: 'fixed', score: 0.25, weight: 1, reason: 'Always a quarter.' }],
    });
    expect(
      all([fixed, pearRestocked]).grade(shopAfter(['set_item', { id: 'pear', qty: 20 }])).reward,
    ).toBe(0.625);
    expect(() => all([])).toThrow(/non-empty/);
    expect(() => all([42 as never])).toThrow(/entry 0 is not a rubric/);
  });
});

describe('any', () => {
  it('takes the best part; the others stay as weight-0 explanations', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const g = any([pearNoted, pearRestocked]).grade(inst);
    expect(g).toMatchObject({ reward: 1, passed: true });
    expect(g.criteria.map((c) => [c.name, c.weight])).toEqual([
      [pearNoted.name, 0],
      [pearRestocked.name, 1],
    ]);
    expect(any([pearNoted, kiwiAdded]).grade(inst)).toMatchObject({ reward: 0, passed: false });
  });
});

describe('weighted', () => {
  it('weights parts and gives partial credit in proportion', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const g = weighted([
      [pearRestocked, 3],
      [pearNoted, 1],
    ]).grade(inst);
    expect(g).toMatchObject({ reward: 0.75, passed: false });
    expect(sum(g.criteria)).toBeCloseTo(1, 12);
    expect(
      weighted([
        [pearRestocked, 1],
        [pearNoted, 0],
      ]).grade(inst),
    ).toMatchObject({ reward: 1, passed: true });
    expect(() => weighted([[pearNoted, 0]])).toThrow(/at least one weight/);
    expect(() => weighted([[pearNoted, -1]])).toThrow(/weight >= 0/);
  });
});

describe('gate', () => {
  it('gives nothing until the precondition passes, and then what the rest earns', () => {
    const noted = shopAfter(['add_item', { id: 'kiwi', name: 'Kiwi', qty: 5 }]);
    const closed = gate(pearNoted, kiwiAdded).grade(noted);
    expect(closed).toMatchObject({ reward: 0, passed: false });
    expect(closed.criteria[0].name).toMatch(/^gate: /);
    expect(
      closed.criteria.filter((c) => c.name.startsWith('locked: ')).every((c) => c.weight === 0),
    ).toBe(true);

    const open = gate(pearNoted, kiwiAdded).grade(
      shopAfter(
        ['add_item', { id: 'kiwi', name: 'Kiwi', qty: 4 }],
        ['add_note', { item_id: 'pear', body: 'x' }],
      ),
    );
    expect(open.reward).toBeCloseTo(2 / 3, 10);
    expect(open.passed).toBe(false);
  });
});

describe('sequence', () => {
  it('credits steps in order: a later step counts only once the earlier ones pass', () => {
    const steps = sequence([
      pearRestocked,
      pearNoted,
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], { allow: ['notes'] }),
    ]);
    // Step 2 is done but step 1 is not: only step 1's partial credit (none) counts.
    const outOfOrder = steps.grade(shopAfter(['add_note', { item_id: 'pear', body: 'x' }]));
    expect(outOfOrder).toMatchObject({ reward: 0, passed: false });
    expect(outOfOrder.criteria.filter((c) => c.name.includes('(locked)'))).toHaveLength(3);

    const twoSteps = steps.grade(shopAfter(['set_item', { id: 'pear', qty: 20 }]));
    expect(twoSteps.reward).toBeCloseTo(1 / 3, 10);
    const done = steps.grade(
      shopAfter(
        ['set_item', { id: 'pear', qty: 20 }],
        ['add_note', { item_id: 'pear', body: 'x' }],
      ),
    );
    expect(done).toMatchObject({ reward: 1, passed: true });
    expect(done.criteria[0].name).toMatch(/^step 1: /);
  });
});
