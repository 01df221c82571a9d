import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';

describe('crm smoke', () => {
  it('plays a call and records the change', () => {
    const inst = crm.instance({ fixture: 'small_startup', seed: 1 });
    const r = inst.call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(r.ok).toBe(true);
    expect(inst.changes()).toHaveLength(1);
    inst.destroy();
  });
});
