import { afterEach, describe, expect, it } from 'vitest';
import type { Instance } from 'seahaven';
import { crm } from './index.ts';

let inst: Instance;
afterEach(() => inst?.destroy());

describe('update_deal', () => {
  it('stamps the deal from the virtual clock and records one net change', () => {
    inst = crm.instance({ fixture: 'small_startup', clock: 'tick' });
    const r = inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'negotiation' });
    expect(r).toMatchObject({
      ok: true,
      result: {
        id: 'deal_acme_fleet',
        stage: 'negotiation',
        amount_cents: 4_800_000,
        updated_at: '2026-06-01T09:00:01.000Z',
      },
    });
    const [change, ...rest] = inst.changeLog();
    expect(rest).toEqual([]);
    expect(change).toMatchObject({
      table: 'deals',
      op: 'update',
      key: { id: 'deal_acme_fleet' },
      after: { stage: 'negotiation', updated_at: '2026-06-01T09:00:01.000Z' },
    });
    expect(Object.keys(change.after!).sort()).toEqual(['id', 'stage', 'updated_at']);
    // The next call is a second later, and so is the stamp.
    const again = inst.call('update_deal', { id: 'deal_acme_fleet', amount_cents: 5_000_000 });
    expect(again).toMatchObject({
      ok: true,
      result: {
        stage: 'negotiation',
        amount_cents: 5_000_000,
        updated_at: '2026-06-01T09:00:02.000Z',
      },
    });
  });

  it('refuses closed deals, unknown ids and empty updates, writing nothing', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    expect(inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'won' })).toMatchObject({
      ok: true,
    });
    const before = inst.changes();
    expect(inst.call('update_deal', { id: 'deal_acme_fleet', stage: 'proposal' })).toMatchObject({
      ok: false,
      error: {
        code: 'deal_closed',
        message: 'Deal deal_acme_fleet is already won; open a new deal instead.',
      },
    });
    expect(inst.call('update_deal', { id: 'deal_nope', amount_cents: 1 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(inst.call('update_deal', { id: 'deal_nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(inst.call('update_deal', { id: 'deal_globex_routes' })).toMatchObject({
      ok: false,
      error: { code: 'nothing_to_update' },
    });
    expect(inst.changes()).toEqual(before);
  });
});

/** A valid call of every tool on small_startup; the sweep below breaks one string field at a time. */
const VALID: Record<string, Record<string, unknown>> = {
  search_contacts: { query: 'dana' },
  list_contacts: { stage: 'lead', company_id: 'cmp_acme', cursor: 'con_a' },
  get_contact: { id: 'con_dana' },
  get_deal: { id: 'deal_acme_fleet' },
  get_company: { id: 'cmp_acme' },
  create_contact: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    company_id: 'cmp_acme',
    title: 'CTO',
    phone: '+1-555-0100',
    notes: 'met at a fair',
  },
  update_contact: {
    id: 'con_dana',
    name: 'Dana W',
    email: 'dana.w@example.com',
    company_id: 'cmp_globex',
    title: 'VP',
    phone: '+1',
    notes: 'x',
  },
  delete_contact: { id: 'con_lena' },
  create_company: {
    name: 'Initech',
    domain: 'initech.example',
    industry: 'software',
    employees: 10,
  },
  list_companies: { query: 'acme', cursor: 'cmp_a' },
  create_deal: {
    company_id: 'cmp_acme',
    contact_id: 'con_dana',
    title: 'Arms',
    amount_cents: 100,
    currency: 'usd',
    close_date: '2026-08-31',
  },
  update_deal: { id: 'deal_acme_fleet', stage: 'negotiation', close_date: '2026-08-31' },
  list_deals: { company_id: 'cmp_acme', contact_id: 'con_dana', cursor: 'deal_a' },
  log_activity: {
    contact_id: 'con_dana',
    deal_id: 'deal_acme_fleet',
    kind: 'call',
    subject: 'Hello',
    body: 'Talked.',
  },
  pipeline_summary: { company_id: 'cmp_acme' },
};

describe('agent mistakes get specific errors, never internal ones', () => {
  it('every tool has a valid example call', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    expect(Object.keys(VALID).sort()).toEqual(
      inst
        .tools()
        .map((t) => t.name)
        .sort(),
    );
    for (const [tool, args] of Object.entries(VALID)) {
      const probe = crm.instance({ fixture: 'small_startup' });
      expect(probe.call(tool, args), tool).toMatchObject({ ok: true });
      probe.destroy();
    }
  });

  it('an empty id or a 50 KB value in any string field is invalid_arguments naming the limit, and writes nothing', () => {
    inst = crm.instance({ fixture: 'small_startup', logger: (line) => expect.fail(line) });
    const huge = 'x'.repeat(50_000);
    for (const t of inst.tools()) {
      type Prop = { type?: string; enum?: unknown[]; pattern?: string; maxLength?: number };
      const props = (t.inputSchema as { properties: Record<string, Prop & { anyOf?: Prop[] }> })
        .properties;
      for (const [field, prop] of Object.entries(props)) {
        const schema = prop.anyOf?.find((s) => s.type === 'string') ?? prop;
        if (schema.type !== 'string') continue;
        // Every string the agent sends is bounded: by a length limit, an enum or a pattern.
        expect(
          schema.maxLength ?? schema.enum ?? schema.pattern,
          `${t.name}.${field}`,
        ).toBeDefined();
        for (const value of ['', huge]) {
          const before = inst.changes();
          const r = inst.call(t.name, { ...VALID[t.name], [field]: value });
          const where = `${t.name}.${field} = ${value.length} chars`;
          // Free text may be empty (a contact's title, notes); an id, a cursor, a query or a name may not.
          if (
            value === '' &&
            r.ok &&
            !/(^|_)id$|^cursor$|^query$|^name$|^email$|^subject$/.test(field)
          ) {
            inst.destroy();
            inst = crm.instance({ fixture: 'small_startup', logger: (line) => expect.fail(line) });
            continue;
          }
          expect(r.ok, where).toBe(false);
          if (r.ok) continue;
          expect(r.error.code, where).toBe('invalid_arguments');
          expect(
            (r.error.details!.violations as { path: string }[]).map((v) => v.path),
            where,
          ).toContain(field);
          if (value === huge && schema.maxLength !== undefined)
            expect(r.error.message, where).toContain(
              `expected string to have <=${schema.maxLength} characters`,
            );
          expect(inst.changes(), where).toEqual(before);
        }
      }
    }
  });

  it('search_contacts with a 50 KB query (D6) names the limit', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    const r = inst.call('search_contacts', { query: 'ab'.repeat(25_000) });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'invalid_arguments',
        message:
          'Invalid arguments for search_contacts: query: Too big: expected string to have <=200 characters',
        details: {
          violations: [
            { path: 'query', message: 'Too big: expected string to have <=200 characters' },
          ],
        },
      },
    });
    expect(inst.tools().find((t) => t.name === 'search_contacts')!.inputSchema).toMatchObject({
      properties: { query: { maxLength: 200 } },
    });
  });

  it('create_contact and update_contact with company_id "" (D6) are refused as invalid arguments', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    for (const [tool, args] of [
      ['create_contact', { name: 'Ada', email: 'ada@example.com', company_id: '' }],
      ['update_contact', { id: 'con_dana', company_id: '' }],
    ] as const) {
      expect(inst.call(tool, args), tool).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_arguments',
          details: {
            violations: [
              { path: 'company_id', message: 'Too small: expected string to have >=1 characters' },
            ],
          },
        },
      });
    }
    expect(inst.changes()).toEqual([]);
  });

  it('an unknown company is not_found, saying where to find companies', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    const error = {
      code: 'not_found',
      message: 'No company has id "cmp_nope". Find ids with list_companies.',
      details: { company_id: 'cmp_nope' },
    };
    expect(
      inst.call('create_contact', {
        name: 'Ada',
        email: 'ada@example.com',
        company_id: 'cmp_nope',
      }),
    ).toEqual({ ok: false, error });
    expect(inst.call('update_contact', { id: 'con_dana', company_id: 'cmp_nope' })).toEqual({
      ok: false,
      error,
    });
    expect(
      inst.call('create_deal', { company_id: 'cmp_nope', title: 'x', amount_cents: 1 }),
    ).toEqual({ ok: false, error });
    expect(inst.changes()).toEqual([]);
    // null still takes a contact out of its company.
    expect(inst.call('update_contact', { id: 'con_dana', company_id: null })).toMatchObject({
      ok: true,
      result: { company_id: null },
    });
  });

  it('empty optional ids on create_deal and log_activity are refused instead of stored', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    expect(
      inst.call('create_deal', {
        company_id: 'cmp_acme',
        contact_id: '',
        title: 'x',
        amount_cents: 1,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', details: { violations: [{ path: 'contact_id' }] } },
    });
    expect(
      inst.call('log_activity', {
        contact_id: 'con_dana',
        deal_id: '',
        kind: 'note',
        subject: 'x',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', details: { violations: [{ path: 'deal_id' }] } },
    });
    expect(inst.changes()).toEqual([]);
  });

  it('list_companies matches % and _ literally', () => {
    inst = crm.instance({ fixture: 'small_startup' });
    expect(inst.call('list_companies', { query: '_' })).toEqual({
      ok: true,
      result: { companies: [], next_cursor: null },
    });
    expect(inst.call('list_companies', { query: 'ACME' })).toMatchObject({
      ok: true,
      result: { companies: [{ id: 'cmp_acme' }] },
    });
  });
});
