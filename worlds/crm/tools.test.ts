import { afterEach, describe, expect, it } from 'vitest';
import type { Instance } from '../../kit/index.ts';
import { crm } from './index.ts';

let inst: Instance;
afterEach(() => inst?.destroy());

describe('update_deal', () => {
  it('stamps the deal from the virtual clock and records one net change', () => {
    inst = crm.instance({ fixture: 'small_startup', clock: 'tick' });
    const r = inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'negotiation' });
    expect(r).toMatchObject({ ok: true, result: { id: 'deal_acme_fleet', stage: 'negotiation', amount_cents: 4_800_000, updated_at: '2026-06-01T09:00:01.000Z' } });
    const [change, ...rest] = inst.changeLog();
    expect(rest).toEqual([]);
    expect(change).toMatchObject({ table: 'deals', op: 'update', key: { id: 'deal_acme_fleet' }, after: { stage: 'negotiation', updated_at: '2026-06-01T09:00:01.000Z' } });
    expect(Object.keys(change.after!).sort()).toEqual(['id', 'stage', 'updated_at']);
    // The next call is a second later, and so is the stamp.
    const again = inst.call('update_deal', { id: 'deal_acme_fleet', amount_cents: 5_000_000 });
    expect(again).toMatchObject({ ok: true, result: { stage: 'negotiation', amount_cents: 5_000_000, updated_at: '2026-06-01T09:00:02.000Z' } });
  });

  it('refuses closed deals, unknown ids and empty updates, writing nothing', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    expect(inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'won' })).toMatchObject({ ok: true });
    const before = inst.changes();
    expect(inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'proposal' })).toMatchObject({ ok: false, error: { code: 'deal_closed', message: 'Deal deal_acme_fleet is already won; open a new deal instead.' } });
    expect(inst.call('update_deal', { id: 'deal_nope', amount_cents: 1 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(inst.call('update_deal', { id: 'deal_nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(inst.call('update_deal', { id: 'deal_globex_routes' })).toMatchObject({ ok: false, error: { code: 'nothing_to_update' } });
    expect(inst.changes()).toEqual(before);
  });
});
