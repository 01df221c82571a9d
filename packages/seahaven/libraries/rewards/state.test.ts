import { describe, expect, it } from 'vitest';
import { atLeast, exactly } from './changes.ts';
import { regex, within } from './fields.ts';
import { GraderError } from './grade.ts';
import { count, rowWhere } from './state.ts';
import { shop, shopAfter } from './test-world.ts';

describe('rowWhere', () => {
  it('checks the final state of the row found by its columns, naming the row', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const g = rowWhere('items', { name: 'Pear' }, { qty: 20, tag: 'fruit' }).grade(inst);
    expect(g).toMatchObject({ reward: 1, passed: true });
    expect(g.criteria[0]).toMatchObject({ name: 'items where name = "Pear"', weight: 1 });
    expect(g.criteria[0].reason).toBe('items pear has qty = 20, tag = "fruit" as expected.');
  });

  it('gives partial credit per field on the worst matching row', () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const g = rowWhere(
      'items',
      { tag: 'fruit' },
      { qty: within(5, 30), price: within(0, 0.6) },
    ).grade(inst);
    // apple (10, 0.5) passes both; pear (20, 0.75) misses the price.
    expect(g.reward).toBe(0.5);
    expect(g.criteria[0].reason).toBe(
      'items pear has price is 0.75 (expected is between 0 and 0.6); 1 of 2 fields right.',
    );
  });

  it('scores 0 when no row matches, and takes matchers and null in where', () => {
    const inst = shop.instance();
    expect(rowWhere('items', { name: 'Mango' }, { qty: 1 }).grade(inst).criteria[0]).toMatchObject({
      score: 0,
      reason: 'No row of items has name = "Mango".',
    });
    expect(
      rowWhere('items', { name: regex(/^B/), seen_at: null }, { qty: 100 }).grade(inst).reward,
    ).toBe(1);
    expect(rowWhere('items', { tag: 'fruit' }, {}).grade(inst).criteria[0].reason).toBe(
      'All 2 rows of items where tag = "fruit" exist, as required.',
    );
  });

  it('throws a GraderError that names a misspelt column or table', () => {
    const inst = shop.instance();
    expect(() => rowWhere('items', { nmae: 'Pear' }, {}).grade(inst)).toThrow(GraderError);
    expect(() => rowWhere('items', { nmae: 'Pear' }, {}).grade(inst)).toThrow(
      /items has no column "nmae"; its columns are id, name, qty, price, tag, seen_at/,
    );
    expect(() => rowWhere('itemz', {}, {}).grade(inst)).toThrow(/no table "itemz"/);
  });
});

describe('count', () => {
  it('counts the rows a query returns against a number, exactly() or atLeast()', () => {
    const inst = shopAfter(['add_note', { item_id: 'pear', body: 'soft' }]);
    expect(count('SELECT 1 FROM notes', 3).grade(inst)).toMatchObject({ reward: 1, passed: true });
    expect(
      count('SELECT 1 FROM notes WHERE item_id = ?', exactly(2), { params: ['apple'] }).grade(inst)
        .reward,
    ).toBe(1);
    expect(count('SELECT 1 FROM notes', atLeast(4)).grade(inst)).toMatchObject({
      reward: 0,
      passed: false,
    });
    expect(count('SELECT 1 FROM notes', atLeast(4)).grade(inst).criteria[0].reason).toBe(
      'The query returned 3 rows, expected at least 4.',
    );
  });

  it('refuses SELECT count(*), which always returns one row, and reports queries that do not run', () => {
    expect(() => count('SELECT count(*) FROM notes', 3)).toThrow(/select the rows instead/);
    expect(() => count('DELETE FROM notes', 0)).toThrow(/SELECT query/);
    expect(() => count('SELECT 1 FROM nope', 0).grade(shop.instance())).toThrow(
      /count\(\): the query does not run: no such table: nope/,
    );
  });
});
