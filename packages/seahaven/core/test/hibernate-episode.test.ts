import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { kitWorld } from './test-world.ts';

const episode = [
  ['create_contact', { name: 'Ada Lovelace', email: 'ada@engine.example', company_id: 'cmp_acme' }],
  ['update_deal', { id: 'deal_acme_fleet', stage: 'negotiation' }],
  ['search_contacts', { query: 'Ada' }],
  ['delete_contact', { id: 'con_dan' }],
] as const;

describe('hibernation', () => {
  it('a fixture instance opens its connection on first use only', () => {
    const inst = crm.instance({ fixture: 'small_startup' });
    expect(inst.awake).toBe(false);
    expect(inst.tools()).toHaveLength(crm.tools.length);
    expect(inst.changes()).toEqual([]);
    expect(inst.awake).toBe(false);
    inst.call('search_contacts', { query: 'Dana' });
    expect(inst.awake).toBe(true);
    inst.destroy();
  });

  it('hibernating between calls changes nothing observable', () => {
    const plain = crm.instance({ fixture: 'small_startup', seed: 5, clock: 'tick' });
    const napping = crm.instance({ fixture: 'small_startup', seed: 5, clock: 'tick' });
    for (const [tool, args] of episode) {
      expect(napping.call(tool, args)).toEqual(plain.call(tool, args));
      napping.hibernate();
      expect(napping.awake).toBe(false);
    }
    expect(JSON.stringify(napping.state())).toBe(JSON.stringify(plain.state()));
    expect(napping.changeLog()).toEqual(plain.changeLog());
    expect(napping.query('SELECT count(*) AS n FROM contacts')).toEqual(
      plain.query('SELECT count(*) AS n FROM contacts'),
    );
  });

  it('blank instances and their sequences survive hibernation; forks of sleeping instances work', () => {
    const a = kitWorld.instance({ seed: 1 });
    a.call('stamp', {});
    a.hibernate();
    const b = a.fork();
    expect(b.awake).toBe(false);
    const ra = a.call('stamp', {});
    const rb = b.call('stamp', {});
    expect(ra).toEqual(rb);
    expect(ra.ok && (ra.result as { seq: number }).seq).toBe(2);
    b.call('add_owner', { name: 'only b' });
    expect(a.query("SELECT count(*) AS n FROM owners WHERE name = 'only b'")).toEqual([{ n: 0 }]);
  });
});
