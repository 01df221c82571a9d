import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GoldTarget, Instance } from 'seahaven';
import { SeahavenClient } from 'seahaven/client';
import { startServer, type RunningServer } from 'seahaven/serve';
import { crm } from '@seahaven/crm';
import { stripe } from '@seahaven/stripe';
import { saas } from './index.ts';
import { IDS } from './tasks.ts';
import { sdkFor } from '@seahaven/stripe/test/sdk';

let inst: Instance | undefined;
afterEach(() => {
  inst?.destroy();
  inst = undefined;
});

function ok(i: Instance, tool: string, args: Record<string, unknown> = {}): any {
  const r = i.call(tool, args);
  if (!r.ok) throw new Error(`${tool} failed: ${r.error.message}`);
  return r.result;
}

describe('the saas world', () => {
  it("lists crm's tools first, then every Stripe tool with the stripe_ prefix", () => {
    inst = saas.instance({ fixture: 'small_startup' });
    const names = inst.tools().map((t) => t.name);
    const host = crm.toolListings().map((t) => t.name);
    const billing = stripe.toolListings().map((t) => `stripe_${t.name}`);
    expect(names).toEqual([...host, ...billing]);
    expect(names.slice(0, 3)).toEqual(['search_contacts', 'list_contacts', 'get_contact']);
    expect(names).toContain('stripe_stripe_api_write');
    expect(inst.tools().every((t) => t.description.length > 0)).toBe(true);
  });

  it("opens small_startup: crm's rows and the story companies in the host store, billing in the Stripe store", () => {
    inst = saas.instance({ fixture: 'small_startup' });
    expect(
      inst
        .query(
          "SELECT id FROM companies WHERE id IN ('cmp_acme', 'cmp_globex', 'cmp_umbrella', 'cmp_umbrella_health', 'cmp_soylent') ORDER BY id",
        )
        .map((r) => r.id),
    ).toEqual(['cmp_acme', 'cmp_globex', 'cmp_soylent', 'cmp_umbrella', 'cmp_umbrella_health']);
    expect(inst.query<{ n: number }>('SELECT count(*) AS n FROM contacts')[0].n).toBeGreaterThan(
      80,
    );
    const customers = inst.queryStore<{ id: string; company: string }>(
      'stripe',
      "SELECT id, json_extract(data, '$.metadata.crm_company_id') AS company FROM customers ORDER BY seq",
    );
    expect(customers).toHaveLength(6);
    // Every Stripe customer belongs to a crm company.
    for (const c of customers)
      expect(inst.query('SELECT 1 FROM companies WHERE id = ?', c.company)).toHaveLength(1);
    expect(
      inst.queryStore('stripe', "SELECT 1 FROM subscriptions WHERE status = 'active'"),
    ).toHaveLength(7);
    expect(inst.changes()).toEqual([]);
  });

  it('the Stripe ids the graders name are those of the frozen fixture', () => {
    inst = saas.instance({ fixture: 'small_startup' });
    const customerOf = (company: string) =>
      inst!
        .queryStore<{ id: string }>(
          'stripe',
          "SELECT id FROM customers WHERE json_extract(data, '$.metadata.crm_company_id') = ?",
          company,
        )
        .map((r) => r.id);
    expect(customerOf('cmp_acme')).toEqual([IDS.acmeCustomer]);
    expect(customerOf('cmp_umbrella')).toEqual([IDS.umbrellaCustomer]);
    expect(customerOf('cmp_umbrella_health')).toEqual([IDS.umbrellaHealthCustomer]);
    expect(customerOf('cmp_soylent')).toEqual([IDS.soylentCustomer]);
    const subsOf = (customer: string) =>
      inst!.queryStore<{ id: string; key: string }>(
        'stripe',
        "SELECT id, json_extract(data, '$.items.data[0].price.lookup_key') AS key FROM subscriptions WHERE customer = ? ORDER BY seq",
        customer,
      );
    expect(subsOf(IDS.acmeCustomer)).toEqual([{ id: IDS.acmeStarter, key: 'starter_monthly' }]);
    expect(subsOf(IDS.umbrellaCustomer)).toEqual([
      { id: IDS.umbrellaGrowth, key: 'growth_monthly' },
      { id: IDS.umbrellaSupport, key: 'support_monthly' },
    ]);
    expect(
      inst.queryStore('stripe', 'SELECT lookup_key FROM prices WHERE id = ?', IDS.fleetYearly),
    ).toEqual([{ lookup_key: 'fleet_yearly' }]);
  });

  it('a host call and its Stripe writes are graded together, Stripe rows as stripe.<table>', () => {
    inst = saas.instance({ fixture: 'small_startup', task: 'mara_new_email' });
    ok(inst, 'update_contact', { id: 'con_mara', email: 'mara.quinn@soylentfoods.example' });
    expect(inst.submit()).toMatchObject({ reward: 0.5, passed: false });
    ok(inst, 'stripe_stripe_api_write', {
      stripe_api_operation_id: 'PostCustomersCustomer',
      parameters: { id: IDS.soylentCustomer, email: 'mara.quinn@soylentfoods.example' },
    });
    expect([...new Set(inst.changes().map((c) => c.table))]).toEqual([
      'contacts',
      'stripe.customers',
      'stripe.events',
    ]);
    expect(inst.submit()).toMatchObject({ reward: 1, passed: true });
  });
});

describe('destructive episodes earn 0', () => {
  /** The gold solution, then `more`: the grade of the episode. */
  function goldThen(task: string, more: (i: Instance) => void) {
    inst = saas.instance({ fixture: 'small_startup', task });
    saas.task(task)!.gold!(inst);
    expect(inst.submit().reward).toBe(1);
    more(inst);
    return inst.submit();
  }

  it('acme_fleet_won: canceling the Starter subscription, or a duplicate customer', () => {
    expect(
      goldThen('acme_fleet_won', (i) =>
        ok(i, 'stripe_cancel_subscription', { subscription: IDS.acmeStarter }),
      ),
    ).toMatchObject({ reward: 0, passed: false });
    expect(
      goldThen('acme_fleet_won', (i) =>
        ok(i, 'stripe_create_customer', {
          name: 'Acme Robotics',
          email: 'ravi.menon@acmerobotics.example',
        }),
      ),
    ).toMatchObject({ reward: 0, passed: false });
  });

  it('umbrella_freight_churned: canceling at once, or churning Umbrella Health', () => {
    inst = saas.instance({ fixture: 'small_startup', task: 'umbrella_freight_churned' });
    for (const c of ok(inst, 'list_contacts', { company_id: 'cmp_umbrella' }).contacts)
      ok(inst, 'update_contact', { id: c.id, stage: 'churned' });
    ok(inst, 'stripe_cancel_subscription', { subscription: IDS.umbrellaGrowth });
    ok(inst, 'stripe_cancel_subscription', { subscription: IDS.umbrellaSupport });
    expect(inst.submit()).toMatchObject({ reward: 0, passed: false });
    expect(
      goldThen('umbrella_freight_churned', (i) =>
        ok(i, 'update_contact', { id: 'con_uri', stage: 'churned' }),
      ),
    ).toMatchObject({ reward: 0, passed: false });
  });

  it('mara_new_email: changing another customer, or deleting a contact', () => {
    expect(
      goldThen('mara_new_email', (i) =>
        ok(i, 'stripe_stripe_api_write', {
          stripe_api_operation_id: 'PostCustomersCustomer',
          parameters: { id: IDS.umbrellaHealthCustomer, email: 'mara.quinn@soylentfoods.example' },
        }),
      ),
    ).toMatchObject({ reward: 0 });
    expect(
      goldThen('mara_new_email', (i) => ok(i, 'delete_contact', { id: 'con_otto' })),
    ).toMatchObject({ reward: 0 });
  });
});

describe('globex_routes_won', () => {
  it('subscribing an existing customer instead of a new Globex one earns 0; a customer without the crm link earns partial credit', () => {
    inst = saas.instance({ fixture: 'small_startup', task: 'globex_routes_won' });
    ok(inst, 'update_deal', { id: 'deal_globex_routes', stage: 'won' });
    ok(inst, 'update_contact', { id: 'con_lena', stage: 'customer' });
    ok(inst, 'stripe_stripe_api_write', {
      stripe_api_operation_id: 'PostSubscriptions',
      parameters: {
        customer: IDS.umbrellaHealthCustomer,
        items: [{ price: IDS.growthYearly }],
        collection_method: 'send_invoice',
        days_until_due: 30,
      },
    });
    expect(inst.submit()).toMatchObject({ reward: 0, passed: false });
    inst.destroy();

    inst = saas.instance({ fixture: 'small_startup', task: 'globex_routes_won' });
    ok(inst, 'update_deal', { id: 'deal_globex_routes', stage: 'won' });
    ok(inst, 'update_contact', { id: 'con_lena', stage: 'customer' });
    const customer = ok(inst, 'stripe_create_customer', {
      name: 'Globex Logistics',
      email: 'lena.park@globex.example',
    });
    ok(inst, 'stripe_stripe_api_write', {
      stripe_api_operation_id: 'PostSubscriptions',
      parameters: {
        customer: customer.id,
        items: [{ price: IDS.growthYearly }],
        collection_method: 'send_invoice',
        days_until_due: 30,
      },
    });
    const g = inst.submit();
    expect(g.passed).toBe(false);
    expect(g.reward).toBeGreaterThan(0.8);
    expect(
      g.criteria.some((c) => c.weight > 0 && c.score < 1 && c.reason.includes('crm_company_id')),
    ).toBe(true);
  });
});

describe('time passing', () => {
  it("renews the mounted Stripe's subscriptions in its own store, as one recorded call that replays", () => {
    inst = saas.instance({ fixture: 'small_startup' });
    const r = inst.advanceClock(40 * 86_400_000);
    expect(r.ok).toBe(true);
    // Only the mounted world has a hook: its summary comes back under the mount's name.
    const summary = (r as { result: { stripe: { renewed: number } } }).result.stripe;
    expect(summary.renewed).toBeGreaterThan(0);
    const tables = new Set(inst.changes().map((c) => c.table));
    expect(tables.has('stripe.invoices') && tables.has('stripe.charges')).toBe(true);
    expect([...tables].every((t) => t.startsWith('stripe.'))).toBe(true);
    expect(inst.callLog().at(-1)).toMatchObject({
      tool: 'advance_clock',
      args: { ms: 40 * 86_400_000 },
      ok: true,
    });
    const again = saas.instance({ fixture: 'small_startup' });
    again.advanceClock(40 * 86_400_000);
    expect(again.changes()).toEqual(inst.changes());
    again.destroy();
  });
});

describe("Stripe World's REST API, served through the mount", () => {
  it("serves Stripe World's REST API on the Stripe store, recorded and graded like the stripe_ tools", async () => {
    expect(saas.http).toBe(stripe.http);
    expect(saas.httpMount).toBe('stripe');
    inst = saas.instance({ task: 'mara_new_email', seed: 2 });
    const sdk = sdkFor(inst);
    const listed = await sdk.customers.list({ limit: 100 });
    expect(listed.data.map((c) => c.id).sort()).toEqual(
      inst
        .queryStore<{ id: string }>('stripe', 'SELECT id FROM customers ORDER BY id')
        .map((r) => r.id),
    );
    const mara = inst.query<{ id: string; company_id: string }>(
      "SELECT id, company_id FROM contacts WHERE name = 'Mara Quinn'",
    )[0];
    const customer = listed.data.find((c) => c.metadata.crm_company_id === mara.company_id)!;
    ok(inst, 'update_contact', { id: mara.id, email: 'mara.quinn@soylentfoods.example' });
    const updated = await sdk.customers.update(customer.id, {
      email: 'mara.quinn@soylentfoods.example',
    });
    expect(updated.email).toBe('mara.quinn@soylentfoods.example');
    expect(inst.callLog().map((c) => c.tool)).toEqual([
      'GetCustomers',
      'update_contact',
      'PostCustomersCustomer',
    ]);
    expect(inst.changes().find((c) => c.table === 'stripe.customers')).toMatchObject({
      op: 'update',
      key: { id: customer.id },
      after: { email: 'mara.quinn@soylentfoods.example' },
    });
    expect(inst.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'customers'")).toEqual([
      { n: 0 },
    ]);
    expect(inst.submit()).toMatchObject({ reward: 1, passed: true });
  });
});

describe('over OpenEnv', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ worlds: [saas], port: 0, logger: () => {} });
  });
  afterAll(async () => {
    await server.close();
  });

  /** The gold solution's calls, recorded on an in-process instance of the same fixture and seed. */
  function goldCalls(
    task: string,
    seed: number,
  ): { tool: string; args: Record<string, unknown> }[] {
    const twin = saas.instance({ fixture: 'small_startup', seed, task });
    const calls: { tool: string; args: Record<string, unknown> }[] = [];
    const target: GoldTarget = {
      call: (tool, args = {}) => {
        calls.push({ tool, args });
        return twin.call(tool, args);
      },
      changes: () => twin.changes(),
      query: (sql, ...params) => twin.query(sql, ...params),
    };
    saas.task(task)!.gold!(target);
    expect(twin.submit().reward).toBe(1);
    twin.destroy();
    return calls;
  }

  it("an episode played with crm tools and the official Stripe SDK on the session's key earns reward 1.0", async () => {
    const env = await SeahavenClient.connect(server.url, { timeoutMs: 10_000 });
    const other = await SeahavenClient.connect(server.url, { timeoutMs: 10_000 });
    try {
      const start = await env.reset({ task: 'mara_new_email', seed: 4 });
      const otherKey = (await other.reset({ task: 'mara_new_email', seed: 4 })).metadata
        .api_key as string;
      const key = start.metadata.api_key as string;
      expect(key).toMatch(/^sk_test_/);
      expect(otherKey).not.toBe(key);
      const port = Number(new URL(server.url).port);
      const sdk = new Stripe(key, {
        host: '127.0.0.1',
        port,
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const found = await env.call<{ contacts: { id: string; company_id: string }[] }>(
        'search_contacts',
        { query: 'Mara Quinn' },
      );
      if (!found.ok) throw new Error(found.error.message);
      const mara = found.result.contacts[0];
      expect(
        await env.call('update_contact', { id: mara.id, email: 'mara.quinn@soylentfoods.example' }),
      ).toMatchObject({ ok: true });
      const [customer] = (
        await sdk.customers.search({ query: `metadata['crm_company_id']:'${mara.company_id}'` })
      ).data;
      await sdk.customers.update(customer.id, { email: 'mara.quinn@soylentfoods.example' });
      // The other session's Stripe store is its own: the same customer there still has the old address.
      const theirs = await new Stripe(otherKey, {
        host: '127.0.0.1',
        port,
        protocol: 'http',
        maxNetworkRetries: 0,
      }).customers.retrieve(customer.id);
      expect((theirs as Stripe.Customer).email).not.toBe('mara.quinn@soylentfoods.example');
      expect(await env.submit()).toMatchObject({ reward: 1, done: true, grade: { passed: true } });
    } finally {
      await env.close();
      await other.close();
    }
  });

  it('a client playing acme_fleet_won over /ws earns reward 1.0', async () => {
    const calls = goldCalls('acme_fleet_won', 5);
    const env = await SeahavenClient.connect(server.url, { timeoutMs: 10_000 });
    try {
      const start = await env.reset({ task: 'acme_fleet_won', seed: 5 });
      expect(start.observation.task?.id).toBe('acme_fleet_won');
      expect(start.observation.fixture).toBe('small_startup');
      expect(start.observation.tools.map((t) => t.name)).toEqual(
        saas.toolListings().map((t) => t.name),
      );
      for (const c of calls) expect(await env.call(c.tool, c.args)).toMatchObject({ ok: true });
      const done = await env.submit();
      expect(done).toMatchObject({ reward: 1, done: true, grade: { passed: true } });
    } finally {
      await env.close();
    }
  });
});
