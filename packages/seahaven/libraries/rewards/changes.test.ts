import { describe, expect, it } from 'vitest';
import { atLeast, deleted, exactly, inserted, unchanged, updated } from './changes.ts';
import { oneOf, within } from './fields.ts';
import { shopAfter } from './test-world.ts';

describe('inserted', () => {
  it('scores an insert by the share of fields right and names the row and the wrong field', () => {
    const inst = shopAfter(['add_item', { id: 'kiwi', name: 'Kiwi', qty: 3, tag: 'fruit' }]);
    const full = inserted('items', {
      id: 'kiwi',
      name: 'Kiwi',
      qty: within(1, 5),
      tag: oneOf(['fruit', 'exotic']),
    }).grade(inst);
    expect(full).toMatchObject({ reward: 1, passed: true });
    expect(full.criteria[0].reason).toBe(
      'items kiwi was inserted as expected with id = "kiwi", name = "Kiwi", qty is between 1 and 5 and tag is one of ["fruit","exotic"].',
    );

    const partial = inserted('items', { name: 'Kiwi', qty: 5, tag: 'fruit', price: 1 }).grade(inst);
    expect(partial.reward).toBe(0.5);
    expect(partial.passed).toBe(false);
    expect(partial.criteria[0].reason).toBe(
      'items kiwi was inserted, but qty is 3 (expected = 5), price is 0 (expected = 1); 2 of 4 fields right.',
    );
  });

  it('does not count an insert that gets no field right, nor one into another table', () => {
    const inst = shopAfter(
      ['add_item', { id: 'kiwi', name: 'Kiwi' }],
      ['add_note', { item_id: 'pear', body: 'soft' }],
    );
    const g = inserted('items', { name: 'Mango', qty: 9 }).grade(inst);
    expect(g.reward).toBe(0);
    expect(g.criteria[0].reason).toBe(
      'Expected insert into items with name = "Mango", qty = 9, but the inserts of items (kiwi) do not match it.',
    );
    expect(updated('notes', { id: 1 }, {}).grade(inst).criteria[0].reason).toBe(
      'Expected update of notes where id = 1, but no row of notes was updated.',
    );
  });

  it('refuses bad arguments with the fix', () => {
    expect(() => inserted('', {})).toThrow(/needs a table name/);
    expect(() => inserted('items', 'x' as never)).toThrow(/object of column/);
  });
});

describe('updated', () => {
  it('finds the row by columns as they were before the change, and grades the fields after it', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 0 }]);
    // qty was 4 before; the key match reads the old value, the field match the new one.
    expect(updated('items', { tag: 'fruit', qty: 4 }, { qty: 0 }).grade(inst)).toMatchObject({
      reward: 1,
      passed: true,
    });
    expect(updated('items', { qty: 0 }, { qty: 0 }).grade(inst).reward).toBe(0);
    // Columns the update left alone read from the final row.
    expect(updated('items', { id: 'pear' }, { name: 'Pear', qty: 0 }).grade(inst).reward).toBe(1);
  });

  it('gives partial credit per field and names the field that is wrong', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 2, price: 0.8 }]);
    const g = updated('items', { id: 'pear' }, { qty: 2, price: 0.9, tag: 'sale' }).grade(inst);
    expect(g.reward).toBeCloseTo(1 / 3, 10);
    expect(g.criteria[0].reason).toBe(
      'items pear was updated, but price is 0.8 (expected = 0.9), tag is "fruit" (expected = "sale"); 1 of 3 fields right.',
    );
  });

  it('does not take an update of another row for the expected one', () => {
    const inst = shopAfter(['set_item', { id: 'apple', qty: 0 }]);
    const g = updated('items', { id: 'pear' }, { qty: 0 }).grade(inst);
    expect(g.reward).toBe(0);
    expect(g.criteria[0].reason).toContain('the updates of items (apple) do not match it');
  });
});

describe('deleted', () => {
  it('matches a delete by any column of the deleted row', () => {
    const inst = shopAfter(['remove_item', { id: 'apple' }]);
    expect(deleted('items', { name: 'Apple', tag: 'fruit' }).grade(inst)).toMatchObject({
      reward: 1,
      passed: true,
    });
    expect(deleted('items', { name: 'Pear' }).grade(inst).reward).toBe(0);
    expect(deleted('notes', { body: 'crisp' }).grade(inst).reward).toBe(1);
  });
});

describe('unchanged', () => {
  it('passes when no row in scope changed and names the rows that did', () => {
    const inst = shopAfter(
      ['set_item', { id: 'bolt', qty: 1 }],
      ['add_note', { item_id: 'pear', body: 'soft' }],
    );
    expect(unchanged('items', { tag: 'fruit' }).grade(inst)).toMatchObject({
      reward: 1,
      passed: true,
    });
    const g = unchanged('items').grade(inst);
    expect(g).toMatchObject({ reward: 0, passed: false });
    expect(g.criteria[0].reason).toBe(
      'items bolt (updated) changed, but items had to stay as they were.',
    );
    // A row that enters the scope through the change is covered too.
    const moved = shopAfter(['set_item', { id: 'bolt', tag: 'fruit' }]);
    expect(unchanged('items', { tag: 'fruit' }).grade(moved).reward).toBe(0);
  });
});

describe('counts', () => {
  it('exactly(n, m) expects n matching rows and charges for the rest', () => {
    const inst = shopAfter(
      ['set_item', { id: 'apple', qty: 0 }],
      ['set_item', { id: 'pear', qty: 0 }],
    );
    const m = updated('items', { tag: 'fruit' }, { qty: 0 });
    expect(exactly(2, m).grade(inst)).toMatchObject({ reward: 1, passed: true });
    const three = exactly(3, m).grade(inst);
    expect(three.reward).toBeCloseTo(2 / 3, 10);
    expect(three.criteria.map((c) => c.name)).toContain(
      'update of items where tag = "fruit" setting qty = 0 (3 of 3)',
    );
  });

  it('atLeast(n, m) needs n and tolerates more that match fully', () => {
    const inst = shopAfter(
      ['add_note', { item_id: 'pear', body: 'a' }],
      ['add_note', { item_id: 'pear', body: 'b' }],
    );
    expect(atLeast(1, inserted('notes', { item_id: 'pear' })).grade(inst)).toMatchObject({
      reward: 1,
      passed: true,
    });
    expect(atLeast(3, inserted('notes', { item_id: 'pear' })).grade(inst).reward).toBeCloseTo(
      2 / 3,
      10,
    );
  });

  it('alone they are counts for count(sql, n), and they refuse bad numbers', () => {
    expect(exactly(2)).toMatchObject({ kind: 'count', min: 2, max: 2 });
    expect(atLeast(1)).toMatchObject({ kind: 'count', min: 1, max: Infinity });
    expect(() => exactly(-1)).toThrow(/whole number/);
    expect(() => atLeast(1, {} as never)).toThrow(/change matcher/);
  });
});
