import { describe, expect, it } from 'vitest';
import { copyJson } from '../lib/clone.ts';

describe('copyJson', () => {
  const obj = {
    id: 'sub_1',
    items: { object: 'list', data: [{ id: 'si_1', price: { unit_amount: 1000 } }, null] },
    metadata: {},
    '10': 'an integer key',
    cancel_at: null,
    note: undefined,
    active: true,
  };

  it('answers what structuredClone does for JSON data: the same members in the same key order', () => {
    const copy = copyJson(obj);
    expect(copy).toStrictEqual(structuredClone(obj));
    expect(Object.keys(copy)).toEqual(Object.keys(structuredClone(obj)));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(obj));
  });

  it('shares no object or array with its argument', () => {
    const copy = copyJson(obj);
    copy.items.data[0]!.price.unit_amount = 2500;
    copy.items.data.push(null);
    copy.metadata = { changed: 'yes' };
    expect(obj.items.data[0]!.price.unit_amount).toBe(1000);
    expect(obj.items.data).toHaveLength(2);
    expect(obj.metadata).toEqual({});
    expect(copy.items).not.toBe(obj.items);
  });
});
