import { describe, expect, it } from 'vitest';
import { atLeast, deleted, exactly, inserted, unchanged, updated } from './changes.ts';
import { expectChanges, noOtherChanges } from './expect.ts';
import { within } from './fields.ts';
import { shop, shopAfter } from './test-world.ts';

const restock = expectChanges([updated('items', { id: 'pear' }, { qty: 20 })]);

describe('expectChanges', () => {
  it('gives full marks for exactly the expected change and reports precision and recall', () => {
    const g = restock.grade(shopAfter(['set_item', { id: 'pear', qty: 20 }]));
    expect(g).toMatchObject({ reward: 1, passed: true });
    expect(g.criteria.at(-1)).toMatchObject({ name: 'precision and recall', weight: 0 });
    expect(g.criteria.at(-1)!.reason).toBe(
      'No change outside the expected and allowed ones. Rows: recall 1/1, precision 1/1; fields: recall 1/1, precision 1/1.',
    );
  });

  it('an extra unrelated update lowers the reward, and its reason names the row and the columns', () => {
    const g = restock.grade(
      shopAfter(
        ['set_item', { id: 'pear', qty: 20 }],
        ['set_item', { id: 'bolt', price: 0.1, tag: 'sale' }],
      ),
    );
    expect(g.reward).toBe(0.5);
    expect(g.passed).toBe(false);
    const extra = g.criteria.find((c) => c.name === 'unexpected change: items bolt')!;
    expect(extra).toMatchObject({ score: 0, weight: 1 });
    expect(extra.reason).toBe(
      'items bolt was updated (price and tag), which no expected change or allow rule covers.',
    );
    expect(g.criteria.at(-1)!.reason).toBe(
      'Rows: recall 1/1, precision 1/2; fields: recall 1/1, precision 1/3.',
    );
  });

  it('charges each collateral change, inserts and deletes included, with a configurable penalty', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['add_item', { id: 'kiwi', name: 'Kiwi' }],
      ['remove_item', { id: 'bolt' }],
    );
    const g = restock.grade(inst);
    expect(g.reward).toBeCloseTo(1 / 3, 10);
    expect(g.criteria.map((c) => c.reason)).toEqual(
      expect.arrayContaining([
        'items bolt was deleted, which no expected change or allow rule covers.',
        'items kiwi was inserted, which no expected change or allow rule covers.',
      ]),
    );
    expect(
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], { penalty: 0.5 }).grade(inst)
        .reward,
    ).toBe(0.5);
    expect(
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], { penalty: 0 }).grade(inst),
    ).toMatchObject({ reward: 1, passed: true });
  });

  it('tolerates changes that allow covers, by table name or by matcher', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['add_note', { item_id: 'pear', body: 'restocked' }],
    );
    expect(
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], { allow: ['notes'] }).grade(
        inst,
      ),
    ).toMatchObject({ reward: 1, passed: true });
    expect(
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], {
        allow: [inserted('notes', { item_id: 'pear' })],
      }).grade(inst).reward,
    ).toBe(1);
    // An allow matcher must match fully.
    expect(
      expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], {
        allow: [inserted('notes', { item_id: 'pear', body: 'x' })],
      }).grade(inst).reward,
    ).toBe(0.5);
    const noted = expectChanges([updated('items', { id: 'pear' }, { qty: 20 })], {
      allow: ['notes'],
    }).grade(inst);
    expect(noted.criteria.at(-1)!.reason).toContain('1 further change was tolerated');
  });

  it('counts cascaded deletes as changes, so a delete that takes children along needs them allowed', () => {
    const inst = shopAfter(['remove_item', { id: 'apple' }]);
    expect(expectChanges([deleted('items', { id: 'apple' })]).grade(inst).reward).toBeCloseTo(
      1 / 3,
      10,
    );
    expect(
      expectChanges([deleted('items', { id: 'apple' })], {
        allow: [deleted('notes', { item_id: 'apple' })],
      }).grade(inst).reward,
    ).toBe(1);
  });

  it('assigns one to one by best total fit, whatever the order of the expectations', () => {
    const inst = shopAfter(
      ['add_item', { id: 'a', name: 'A', qty: 1, tag: 'x' }],
      ['add_item', { id: 'b', name: 'B', qty: 1, tag: 'y' }],
    );
    // The first expectation fits both rows equally; greedily giving it row a would leave the second with nothing.
    const e1 = inserted('items', { qty: 1 });
    const e2 = inserted('items', { qty: 1, tag: 'x' });
    for (const list of [
      [e1, e2],
      [e2, e1],
    ]) {
      const g = expectChanges(list).grade(inst);
      expect(g).toMatchObject({ reward: 1, passed: true });
      expect(g.criteria.find((c) => c.name.includes('tag'))!.reason).toMatch(
        /^items a was inserted/,
      );
    }
  });

  it('pairs to maximise the reward: with a penalty, covering every change beats one perfect pair', () => {
    const inst = shopAfter(
      ['add_item', { id: 'x', name: 'N', qty: 1, price: 2, tag: 'x' }],
      ['add_item', { id: 'y', name: 'M', qty: 9, tag: 'x' }],
    );
    const a = inserted('items', { name: 'N', qty: 1, price: 2, tag: 'x' });
    const b = inserted('items', { qty: 1, tag: 'y' });
    // x fits a fully and b by half; y fits only a, by a quarter.
    // Penalised: x→b, y→a earns (0.5 + 0.25) / 2, where x→a would leave y as collateral: 1 / 3.
    expect(expectChanges([a, b]).grade(inst).reward).toBe(0.375);
    // Without a penalty collateral costs nothing, so x→a and b missing earns more: 1 / 2.
    expect(expectChanges([a, b], { penalty: 0 }).grade(inst).reward).toBe(0.5);
  });

  it('matches a row only once even when two expectations want it', () => {
    const inst = shopAfter(['add_item', { id: 'a', name: 'A' }]);
    const g = expectChanges([
      inserted('items', { name: 'A' }),
      inserted('items', { name: 'A' }),
    ]).grade(inst);
    expect(g.reward).toBe(0.5);
    expect(g.criteria[1].reason).toBe(
      'Expected insert into items with name = "A", but only 1 matching change was made and each counts once.',
    );
  });

  it('exactly(0, m) forbids a change even if allow would tolerate it', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['set_item', { id: 'bolt', qty: 0 }],
    );
    const g = expectChanges(
      [
        updated('items', { id: 'pear' }, { qty: 20 }),
        exactly(0, updated('items', { tag: 'hardware' })),
      ],
      { allow: ['items'] },
    ).grade(inst);
    expect(g.reward).toBe(0.5);
    expect(g.criteria.some((c) => c.name === 'unexpected change: items bolt')).toBe(true);
  });

  it('atLeast(0, m) makes a change optional', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['add_note', { item_id: 'pear', body: 'x' }],
    );
    expect(
      expectChanges([
        updated('items', { id: 'pear' }, { qty: within(10, 30) }),
        atLeast(0, inserted('notes')),
      ]).grade(inst).reward,
    ).toBe(1);
    expect(
      expectChanges([
        updated('items', { id: 'pear' }, { qty: within(10, 30) }),
        atLeast(0, inserted('notes')),
      ]).grade(shopAfter(['set_item', { id: 'pear', qty: 20 }])).reward,
    ).toBe(1);
  });

  it('takes unchanged() rules as constraints', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['add_note', { item_id: 'apple', body: 'x' }],
    );
    const g = expectChanges(
      [updated('items', { id: 'pear' }, { qty: 20 }), unchanged('notes', { item_id: 'apple' })],
      { allow: ['notes'] },
    ).grade(inst);
    expect(g.reward).toBe(0.5);
    expect(g.criteria[1].reason).toMatch(/^notes 3 \(inserted\) changed/);
  });

  it('gives nothing to an agent that did nothing, and full marks for doing nothing when nothing is expected', () => {
    expect(restock.grade(shop.instance())).toMatchObject({ reward: 0, passed: false });
    expect(expectChanges([]).grade(shop.instance())).toMatchObject({ reward: 1, passed: true });
    expect(
      noOtherChanges({ allow: ['notes'] }).grade(
        shopAfter(['add_note', { item_id: 'pear', body: 'x' }]),
      ),
    ).toMatchObject({ reward: 1, passed: true });
    expect(
      noOtherChanges().grade(shopAfter(['add_note', { item_id: 'pear', body: 'x' }])),
    ).toMatchObject({ reward: 0, passed: false });
  });

  it('is pure: the same state gives the same grade, also on a fork', () => {
    const inst = shopAfter(
      ['set_item', { id: 'pear', qty: 20 }],
      ['add_item', { id: 'kiwi', name: 'Kiwi' }],
    );
    const first = JSON.stringify(restock.grade(inst));
    expect(JSON.stringify(restock.grade(inst))).toBe(first);
    expect(JSON.stringify(restock.grade(inst.fork()))).toBe(first);
  });

  it('throws a GraderError naming a misspelt table or column instead of silently never matching', () => {
    const inst = shopAfter(
      ['add_item', { id: 'kiwi', name: 'Kiwi' }],
      ['set_item', { id: 'pear', qty: 1 }],
    );
    expect(() => expectChanges([inserted('itemz', {})]).grade(inst)).toThrow(
      /expectChanges: there is no table "itemz"; the tables are items, notes\./,
    );
    expect(() => expectChanges([], { allow: ['notez'] }).grade(inst)).toThrow(/no table "notez"/);
    expect(() => expectChanges([inserted('items', { nmae: 'Kiwi' })]).grade(inst)).toThrow(
      /items has no column "nmae"; its columns are id, name, qty, price, tag, seen_at\./,
    );
    expect(() => expectChanges([updated('items', { tgа: 'fruit' }, {})]).grade(inst)).toThrow(
      /items has no column "tgа"/,
    );
    expect(() => unchanged('itemz').grade(inst)).toThrow(
      /unchanged\('itemz'\): there is no table "itemz"/,
    );
  });

  it('refuses entries that are not change matchers', () => {
    expect(() => expectChanges([{ grade: () => null } as never])).toThrow(
      /entry 0 is not a change matcher/,
    );
    expect(() => expectChanges([], { allow: [3 as never] })).toThrow(/allow\[0\]/);
    expect(() => expectChanges([], { penalty: -1 })).toThrow(/penalty/);
  });
});
