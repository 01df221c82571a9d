import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type Stripe from 'stripe';
import type { Instance, ToolAnnotations } from 'seahaven';
import { createMcpHttpHandler } from 'seahaven/internal/transports/mcp/index';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';

// The tools of Stripe's MCP server: the listing (and what an MCP client's tools/list receives) matches mcp-tools.json,
// every tool runs against an empty account, a tool call changes the state exactly as the same SDK call does, and
// Stripe's errors read as the hosted server's.

type Row = { name: string; type: string; required: boolean; default?: unknown };
type TableTool = { name: string; annotations: ToolAnnotations; arguments: Row[] };
const table = JSON.parse(readFileSync(new URL('../mcp-tools.json', import.meta.url), 'utf8')) as {
  tools: TableTool[];
};

/** A tool listing in the table's terms: its name, annotations, and each argument's type, requiredness and default. */
function asRow(t: { name: string; annotations?: unknown; inputSchema: unknown }): TableTool {
  const s = t.inputSchema as {
    properties?: Record<string, { type?: string; default?: unknown }>;
    required?: string[];
  };
  return {
    name: t.name,
    annotations: t.annotations as ToolAnnotations,
    arguments: Object.entries(s.properties ?? {}).map(([name, v]) => ({
      name,
      type: v.type!,
      required: (s.required ?? []).includes(name),
      ...(v.default !== undefined ? { default: v.default } : {}),
    })),
  };
}

function fresh(seed = 1) {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

/** The result of a tool call that must succeed. */
function ok(inst: Instance, name: string, args: Record<string, unknown> = {}): any {
  const r = inst.call(name, args);
  if (!r.ok) throw new Error(`${name} failed: ${r.error.message}`);
  return r.result;
}

/** The message of a tool call that must fail. */
function fails(inst: Instance, name: string, args: Record<string, unknown>): string {
  const r = inst.call(name, args);
  if (r.ok) throw new Error(`${name} succeeded: ${JSON.stringify(r.result).slice(0, 200)}`);
  return r.error.message;
}

/**
 * The state changes of an instance, as JSON. An event records the Idempotency-Key its request carried, and the SDK
 * sends one with every POST while a tool has none; that is the transport, not the account, so it is blanked.
 */
function changesOf(inst: Instance): string {
  return JSON.stringify(inst.changes()).replace(
    /\\"idempotency_key\\":(\\"[^\\]*\\"|null)/g,
    '\\"idempotency_key\\":null',
  );
}

/** A succeeded $20 payment with `card`, through the generic write tool. */
function pay(inst: Instance, card = 'pm_card_visa', amount = 2000) {
  return ok(inst, 'stripe_api_write', {
    stripe_api_operation_id: 'PostPaymentIntents',
    parameters: { amount, currency: 'usd', confirm: true, payment_method: card },
  });
}

/** A customer paying by card, a monthly price, and a subscription to it, all through tools. */
function subscribed(inst: Instance) {
  const customer = ok(inst, 'create_customer', { name: 'Sam', email: 'sam@example.com' });
  const pm = ok(inst, 'stripe_api_write', {
    stripe_api_operation_id: 'PostPaymentMethodsPaymentMethodAttach',
    parameters: { id: 'pm_card_visa', customer: customer.id },
  });
  ok(inst, 'stripe_api_write', {
    stripe_api_operation_id: 'PostCustomersCustomer',
    parameters: { id: customer.id, invoice_settings: { default_payment_method: pm.id } },
  });
  const product = ok(inst, 'create_product', { name: 'Pro' });
  const monthly = ok(inst, 'create_price', {
    product: product.id,
    unit_amount: 3000,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const yearly = ok(inst, 'create_price', {
    product: product.id,
    unit_amount: 30000,
    currency: 'usd',
    recurring: { interval: 'year' },
  });
  const sub = ok(inst, 'stripe_api_write', {
    stripe_api_operation_id: 'PostSubscriptions',
    parameters: { customer: customer.id, items: [{ price: monthly.id }] },
  });
  return { customer, product, monthly, yearly, sub };
}

describe('tool listing', () => {
  it('names, annotations, argument names, types, requiredness and defaults match mcp-tools.json (29 tools)', () => {
    const listed = stripe.toolListings().map(asRow);
    expect(listed).toHaveLength(29);
    expect(listed.map((t) => t.name).sort()).toEqual(table.tools.map((t) => t.name).sort());
    const byName = new Map(listed.map((t) => [t.name, t]));
    for (const t of table.tools) expect(byName.get(t.name), t.name).toEqual(t);
  });

  it("the annotations follow Stripe's toolkit: reads are read-only, cancel_subscription alone is destructive", () => {
    const readOnly = table.tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      table.tools
        .map((t) => t.name)
        .filter((n) =>
          /^(list_|retrieve_|get_|search_|fetch_)|^stripe_api_(search|details|read)$/.test(n),
        )
        .sort(),
    );
    expect(table.tools.filter((t) => t.annotations.destructiveHint).map((t) => t.name)).toEqual([
      'cancel_subscription',
    ]);
    for (const t of table.tools) {
      expect(Object.keys(t.annotations).sort(), t.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
        'title',
      ]);
      expect(t.annotations.title, t.name).toMatch(/^[A-Z][^.]{2,40}$/);
    }
    expect(new Set(table.tools.map((t) => t.annotations.title)).size).toBe(29);
  });

  it("an MCP client's tools/list receives exactly the table: names, input schemas and annotations", async () => {
    const mcp = createMcpHttpHandler({ world: stripe });
    const client = new Client({ name: 'stripe-tools-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp?fixture=empty&seed=1'), {
          fetch: (url, init) => mcp(new Request(url, init)),
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(stripe.toolListings().map((t) => t.name));
      expect(tools.map(asRow)).toEqual(table.tools);
      // The whole JSON Schema arrives as the world derives it, not only the parts the table spells out.
      const schemas = new Map(stripe.toolListings().map((t) => [t.name, t.inputSchema]));
      for (const t of tools) expect(t.inputSchema, t.name).toEqual(schemas.get(t.name));
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});

describe('the named tools', () => {
  it('account, balance, customers', () => {
    const { inst } = fresh();
    expect(ok(inst, 'get_stripe_account_info')).toMatchObject({ object: 'account' });
    expect(ok(inst, 'retrieve_balance')).toMatchObject({ object: 'balance' });
    const c = ok(inst, 'create_customer', { name: 'Jane', email: 'jane@example.com' });
    ok(inst, 'create_customer', { name: 'Joe', email: 'joe@example.com' });
    expect(c).toMatchObject({ object: 'customer', name: 'Jane', email: 'jane@example.com' });
    expect(ok(inst, 'list_customers', {}).data).toHaveLength(2);
    expect(
      ok(inst, 'list_customers', { email: 'jane@example.com' }).data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([c.id]);
    expect(ok(inst, 'list_customers', { limit: 1 })).toMatchObject({
      object: 'list',
      has_more: true,
    });
  });

  it('coupons: percent or amount off, currency only with an amount', () => {
    const { inst } = fresh();
    expect(ok(inst, 'create_coupon', { name: 'Ten', percent_off: 10 })).toMatchObject({
      object: 'coupon',
      percent_off: 10,
      currency: null,
      duration: 'once',
    });
    expect(
      ok(inst, 'create_coupon', {
        name: 'Five',
        amount_off: 500,
        duration: 'repeating',
        duration_in_months: 3,
      }),
    ).toMatchObject({
      amount_off: 500,
      currency: 'usd',
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect(
      ok(inst, 'list_coupons', { limit: 10 }).data.map((x: { name: string }) => x.name),
    ).toEqual(['Five', 'Ten']);
  });

  it('products and prices', () => {
    const { inst } = fresh();
    const prod = ok(inst, 'create_product', { name: 'Mug', description: 'A blue mug' });
    expect(prod).toMatchObject({ object: 'product', name: 'Mug', description: 'A blue mug' });
    const price = ok(inst, 'create_price', {
      product: prod.id,
      unit_amount: 1500,
      currency: 'USD',
    });
    expect(price).toMatchObject({
      object: 'price',
      product: prod.id,
      unit_amount: 1500,
      currency: 'usd',
      recurring: null,
      type: 'one_time',
    });
    expect(
      ok(inst, 'create_price', {
        product: prod.id,
        unit_amount: 900,
        currency: 'usd',
        recurring: { interval: 'month' },
      }),
    ).toMatchObject({ type: 'recurring', recurring: { interval: 'month' } });
    expect(ok(inst, 'list_products', {}).data).toHaveLength(1);
    expect(ok(inst, 'list_prices', { product: prod.id }).data).toHaveLength(2);
  });

  it('invoices: create (sent for payment), add an item, finalize, list', () => {
    const { inst } = fresh();
    const c = ok(inst, 'create_customer', { name: 'Ivy' });
    const prod = ok(inst, 'create_product', { name: 'Audit' });
    const price = ok(inst, 'create_price', {
      product: prod.id,
      unit_amount: 25000,
      currency: 'usd',
    });
    const inv = ok(inst, 'create_invoice', { customer: c.id, days_until_due: 30 });
    expect(inv).toMatchObject({
      object: 'invoice',
      customer: c.id,
      status: 'draft',
      collection_method: 'send_invoice',
    });
    expect(
      ok(inst, 'create_invoice_item', { customer: c.id, price: price.id, invoice: inv.id }),
    ).toMatchObject({ object: 'invoiceitem', invoice: inv.id, amount: 25000 });
    const fin = ok(inst, 'finalize_invoice', { invoice: inv.id });
    expect(fin).toMatchObject({ id: inv.id, status: 'open', amount_due: 25000 });
    expect(fin.hosted_invoice_url).toEqual(expect.any(String));
    expect(
      ok(inst, 'list_invoices', { customer: c.id }).data.map((x: { id: string }) => x.id),
    ).toEqual([inv.id]);
  });

  it('payment links, with and without a redirect', () => {
    const { inst } = fresh();
    const prod = ok(inst, 'create_product', { name: 'Ticket' });
    const price = ok(inst, 'create_price', {
      product: prod.id,
      unit_amount: 5000,
      currency: 'usd',
    });
    expect(ok(inst, 'create_payment_link', { price: price.id, quantity: 2 })).toMatchObject({
      object: 'payment_link',
      active: true,
      url: expect.any(String),
    });
    expect(
      ok(inst, 'create_payment_link', {
        price: price.id,
        quantity: 1,
        redirect_url: 'https://example.com/thanks',
      }),
    ).toMatchObject({
      after_completion: { type: 'redirect', redirect: { url: 'https://example.com/thanks' } },
    });
  });

  it('payments, refunds and disputes', () => {
    const { inst } = fresh();
    const c = ok(inst, 'create_customer', { name: 'Pat' });
    const pi = ok(inst, 'stripe_api_write', {
      stripe_api_operation_id: 'PostPaymentIntents',
      parameters: {
        amount: 3000,
        currency: 'usd',
        confirm: true,
        payment_method: 'pm_card_visa',
        customer: c.id,
      },
    });
    expect(pi).toMatchObject({ status: 'succeeded' });
    expect(
      ok(inst, 'list_payment_intents', { customer: c.id }).data.map((x: { id: string }) => x.id),
    ).toEqual([pi.id]);
    expect(
      ok(inst, 'create_refund', {
        payment_intent: pi.id,
        amount: 1000,
        reason: 'requested_by_customer',
      }),
    ).toMatchObject({ object: 'refund', amount: 1000, status: 'succeeded', payment_intent: pi.id });
    const disputed = pay(inst, 'pm_card_createDispute', 5000);
    const list = ok(inst, 'list_disputes', { payment_intent: disputed.id });
    expect(list.data).toHaveLength(1);
    const du = list.data[0];
    expect(ok(inst, 'list_disputes', {}).data).toHaveLength(1);
    const upd = ok(inst, 'update_dispute', {
      dispute: du.id,
      evidence: { uncategorized_text: 'The customer received the goods.' },
    });
    expect(upd).toMatchObject({
      id: du.id,
      evidence: { uncategorized_text: 'The customer received the goods.' },
    });
    expect(du.status).toBe('needs_response');
    expect(ok(inst, 'update_dispute', { dispute: du.id, submit: true }).status).not.toBe(
      'needs_response',
    );
  });

  it('subscriptions: list, update, cancel', () => {
    const { inst } = fresh();
    const { customer, monthly, yearly, sub } = subscribed(inst);
    expect(sub).toMatchObject({ status: 'active' });
    expect(
      ok(inst, 'list_subscriptions', { customer: customer.id, status: 'active' }).data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([sub.id]);
    expect(ok(inst, 'list_subscriptions', { price: monthly.id }).data).toHaveLength(1);
    const item = sub.items.data[0].id;
    const up = ok(inst, 'update_subscription', {
      subscription: sub.id,
      proration_behavior: 'none',
      items: [{ id: item, price: yearly.id, quantity: 2 }],
    });
    expect(up.items.data[0]).toMatchObject({ id: item, quantity: 2, price: { id: yearly.id } });
    expect(ok(inst, 'cancel_subscription', { subscription: sub.id })).toMatchObject({
      id: sub.id,
      status: 'canceled',
    });
    expect(ok(inst, 'list_subscriptions', { customer: customer.id }).data).toEqual([]);
    expect(
      ok(inst, 'list_subscriptions', { customer: customer.id, status: 'all' }).data,
    ).toHaveLength(1);
  });

  it("search_stripe_resources: resource before the colon, Stripe's query after", () => {
    const { inst } = fresh();
    const c = ok(inst, 'create_customer', { name: 'Jane', email: 'jane@example.com' });
    ok(inst, 'create_customer', { name: 'Joe', email: 'joe@example.com' });
    const found = ok(inst, 'search_stripe_resources', {
      query: 'customers:email:"jane@example.com"',
    });
    expect(found).toMatchObject({ object: 'search_result' });
    expect(found.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const pi = pay(inst);
    expect(
      ok(inst, 'search_stripe_resources', { query: 'payment_intents:status:"succeeded"' }).data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([pi.id]);
    expect(fails(inst, 'search_stripe_resources', { query: 'coupons:name:"x"' })).toMatch(
      /must start with a resource/,
    );
  });

  it('fetch_stripe_resources: the kind of object from the id prefix', () => {
    const { inst } = fresh();
    const { customer, product, monthly, sub } = subscribed(inst);
    const pi = pay(inst);
    const refund = ok(inst, 'create_refund', { payment_intent: pi.id });
    for (const obj of [customer, product, monthly, sub, pi, refund, sub.items.data[0]])
      expect(ok(inst, 'fetch_stripe_resources', { id: obj.id }), obj.id).toMatchObject({
        id: obj.id,
        object: obj.object,
      });
    expect(ok(inst, 'fetch_stripe_resources', { id: pi.latest_charge })).toMatchObject({
      object: 'charge',
    });
    expect(ok(inst, 'fetch_stripe_resources', { id: sub.latest_invoice })).toMatchObject({
      object: 'invoice',
    });
    expect(fails(inst, 'fetch_stripe_resources', { id: 'cus_nope' })).toMatch(
      /^Stripe API error: No such customer: 'cus_nope'/,
    );
    expect(fails(inst, 'fetch_stripe_resources', { id: 'zz_1' })).toMatch(/Known prefixes: .*cus_/);
  });

  it('search_stripe_documentation answers from the bundled notes', () => {
    const { inst } = fresh();
    const r = ok(inst, 'search_stripe_documentation', {
      question: 'How do I refund a payment?',
      language: 'node',
    });
    expect(r.results[0].title).toBe('Refunds');
    expect(
      ok(inst, 'search_stripe_documentation', {
        question: 'subscription proration',
        search_only_api_ref: true,
      }).results.every((x: { title: string }) => x.title !== 'Subscriptions'),
    ).toBe(true);
    expect(ok(inst, 'search_stripe_documentation', { question: 'zzzz' }).results).toEqual([]);
  });
});

describe('the generic tools', () => {
  it('stripe_api_search ranks operations by the words of the request', () => {
    const { inst } = fresh();
    const ids = (q: string) =>
      ok(inst, 'stripe_api_search', { query: q }).operations.map(
        (o: { operation_id: string }) => o.operation_id,
      ) as string[];
    expect(ids('create a customer')[0]).toBe('PostCustomers');
    expect(ids('refund a payment').slice(0, 3)).toContain('PostRefunds');
    expect(ids('list invoice items')[0]).toBe('GetInvoiceitems');
    expect(ids('cancel subscription')[0]).toBe('DeleteSubscriptionsSubscriptionExposedId');
    expect(ids('finalize invoice')[0]).toBe('PostInvoicesInvoiceFinalize');
    expect(ids('zzzz qqqq')).toEqual([]);
    expect(ok(inst, 'stripe_api_search', { query: 'delete customer' }).operations[0]).toEqual({
      operation_id: 'DeleteCustomersCustomer',
      method: 'DELETE',
      path: '/v1/customers/{customer}',
    });
  });

  it('stripe_api_details shows method, path and parameters', () => {
    const { inst } = fresh();
    const d = ok(inst, 'stripe_api_details', { stripe_api_operation_id: 'PostCustomersCustomer' });
    expect(d).toMatchObject({
      operation_id: 'PostCustomersCustomer',
      method: 'POST',
      path: '/v1/customers/{customer}',
      tool: 'stripe_api_write',
      path_parameters: [{ name: 'customer', pass_as: ['id', 'customer'] }],
    });
    expect(d.parameters.email).toEqual({ type: 'string', required: false });
    expect(d.parameters.expand).toMatchObject({ type: 'array' });
    expect(
      ok(inst, 'stripe_api_details', { stripe_api_operation_id: 'PostPrices' }).parameters.currency,
    ).toEqual({ type: 'string', required: true });
    expect(fails(inst, 'stripe_api_details', { stripe_api_operation_id: 'GetNothing' })).toMatch(
      /Unknown stripe_api_operation_id "GetNothing".*stripe_api_search/,
    );
  });

  it('stripe_api_read runs GET operations; path parameters by name or as id', () => {
    const { inst } = fresh();
    const c = ok(inst, 'create_customer', { name: 'Ann' });
    expect(
      ok(inst, 'stripe_api_read', {
        stripe_api_operation_id: 'GetCustomersCustomer',
        parameters: { id: c.id },
      }),
    ).toMatchObject({ id: c.id, name: 'Ann' });
    expect(
      ok(inst, 'stripe_api_read', {
        stripe_api_operation_id: 'GetCustomersCustomer',
        parameters: { customer: c.id },
      }),
    ).toMatchObject({ id: c.id });
    // Out-of-range limits are clamped, as Stripe's server does.
    expect(
      ok(inst, 'stripe_api_read', {
        stripe_api_operation_id: 'GetCustomers',
        parameters: { limit: 500 },
      }).data,
    ).toHaveLength(1);
    expect(ok(inst, 'stripe_api_read', { stripe_api_operation_id: 'GetBalance' })).toMatchObject({
      object: 'balance',
    });
    expect(
      fails(inst, 'stripe_api_read', { stripe_api_operation_id: 'PostCustomers', parameters: {} }),
    ).toMatch(/POST operation.*stripe_api_write.*stripe_api_search/);
    expect(
      fails(inst, 'stripe_api_read', {
        stripe_api_operation_id: 'GetCustomersCustomer',
        parameters: {},
      }),
    ).toMatch(/path parameter "customer"/);
    expect(fails(inst, 'stripe_api_read', { stripe_api_operation_id: 'Nope' })).toMatch(
      /stripe_api_search/,
    );
  });

  it('stripe_api_write runs POST and DELETE operations', () => {
    const { inst } = fresh();
    const c = ok(inst, 'stripe_api_write', {
      stripe_api_operation_id: 'PostCustomers',
      parameters: { name: 'Bo', metadata: { tier: 'gold' } },
    });
    expect(c).toMatchObject({ object: 'customer', name: 'Bo', metadata: { tier: 'gold' } });
    expect(
      ok(inst, 'stripe_api_write', {
        stripe_api_operation_id: 'PostCustomersCustomer',
        parameters: { id: c.id, email: 'bo@example.com' },
      }),
    ).toMatchObject({ email: 'bo@example.com' });
    expect(
      ok(inst, 'stripe_api_write', {
        stripe_api_operation_id: 'DeleteCustomersCustomer',
        parameters: { id: c.id },
      }),
    ).toEqual({ id: c.id, object: 'customer', deleted: true });
    expect(
      fails(inst, 'stripe_api_write', { stripe_api_operation_id: 'GetCustomers', parameters: {} }),
    ).toMatch(/GET operation.*stripe_api_read/);
  });
});

describe('errors', () => {
  it("a Stripe error reads as the hosted server's, with a hint naming the operation", () => {
    const { inst } = fresh();
    const r = inst.call('finalize_invoice', { invoice: 'in_nope' });
    expect(r).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Stripe API error: No such invoice: 'in_nope'/) },
    });
    if (r.ok) return;
    expect(r.error.message.split('\n')[1]).toBe(
      'Use stripe_api_details with stripe_api_operation_id: "PostInvoicesInvoiceFinalize" to see all required and optional parameters.',
    );
    expect(
      fails(inst, 'stripe_api_write', {
        stripe_api_operation_id: 'PostCustomers',
        parameters: { nme: 'x' },
      }),
    ).toMatch(
      /^Stripe API error: .*nme.*\nUse stripe_api_details with stripe_api_operation_id: "PostCustomers"/,
    );
    expect(fails(inst, 'create_refund', { payment_intent: 'pi_nope' })).toMatch(
      /^Stripe API error: .*\nUse stripe_api_details with stripe_api_operation_id: "PostRefunds"/,
    );
  });
});

describe('a tool call changes the state as the SDK call does', () => {
  /** Set up the same way on two instances of one seed, then act by tool on one and by SDK on the other. */
  async function same<T>(
    setup: (s: Stripe) => Promise<T>,
    tool: (t: T) => [string, Record<string, unknown>],
    sdk: (s: Stripe, t: T) => Promise<unknown>,
  ) {
    const a = fresh(5);
    const b = fresh(5);
    const ta = await setup(a.s);
    const tb = await setup(b.s);
    const [name, args] = tool(ta);
    ok(a.inst, name, args);
    await sdk(b.s, tb);
    expect(changesOf(a.inst)).toBe(changesOf(b.inst));
  }
  const none = async () => null;
  const catalog = async (s: Stripe) => {
    const customer = await s.customers.create({ name: 'Kim' });
    const product = await s.products.create({ name: 'Plan' });
    const price = await s.prices.create({
      product: product.id,
      unit_amount: 2000,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const one = await s.prices.create({ product: product.id, unit_amount: 500, currency: 'usd' });
    return { customer, product, price, one };
  };
  const subscription = async (s: Stripe) => {
    const c = await catalog(s);
    const pm = await s.paymentMethods.attach('pm_card_visa', { customer: c.customer.id });
    await s.customers.update(c.customer.id, {
      invoice_settings: { default_payment_method: pm.id },
    });
    const sub = await s.subscriptions.create({
      customer: c.customer.id,
      items: [{ price: c.price.id }],
    });
    return { ...c, sub };
  };

  it('create_customer', () =>
    same(
      none,
      () => ['create_customer', { name: 'Jane', email: 'jane@example.com' }],
      (s) => s.customers.create({ name: 'Jane', email: 'jane@example.com' }),
    ));
  it('create_product', () =>
    same(
      none,
      () => ['create_product', { name: 'Mug', description: 'Blue' }],
      (s) => s.products.create({ name: 'Mug', description: 'Blue' }),
    ));
  it('create_coupon', () =>
    same(
      none,
      () => ['create_coupon', { name: 'Off', amount_off: 300, duration: 'forever' }],
      (s) =>
        s.coupons.create({ name: 'Off', amount_off: 300, currency: 'usd', duration: 'forever' }),
    ));
  it('create_price', () =>
    same(
      (s) => s.products.create({ name: 'Mug' }),
      (p) => [
        'create_price',
        { product: p.id, unit_amount: 1200, currency: 'usd', recurring: { interval: 'year' } },
      ],
      (s, p) =>
        s.prices.create({
          product: p.id,
          unit_amount: 1200,
          currency: 'usd',
          recurring: { interval: 'year' },
        }),
    ));
  it('create_invoice', () =>
    same(
      catalog,
      (c) => ['create_invoice', { customer: c.customer.id, days_until_due: 14 }],
      (s, c) =>
        s.invoices.create({
          customer: c.customer.id,
          collection_method: 'send_invoice',
          days_until_due: 14,
        }),
    ));
  it('create_invoice_item and finalize_invoice', () => {
    const draft = async (s: Stripe) => {
      const c = await catalog(s);
      const inv = await s.invoices.create({
        customer: c.customer.id,
        collection_method: 'send_invoice',
        days_until_due: 7,
      });
      await s.invoiceItems.create({
        customer: c.customer.id,
        pricing: { price: c.one.id },
        invoice: inv.id,
      });
      return { ...c, inv };
    };
    return Promise.all([
      same(
        draft,
        (d) => [
          'create_invoice_item',
          { customer: d.customer.id, price: d.one.id, invoice: d.inv.id },
        ],
        (s, d) =>
          s.invoiceItems.create({
            customer: d.customer.id,
            pricing: { price: d.one.id },
            invoice: d.inv.id,
          }),
      ),
      same(
        draft,
        (d) => ['finalize_invoice', { invoice: d.inv.id }],
        (s, d) => s.invoices.finalizeInvoice(d.inv.id),
      ),
    ]);
  });
  it('create_payment_link', () =>
    same(
      catalog,
      (c) => [
        'create_payment_link',
        { price: c.one.id, quantity: 3, redirect_url: 'https://example.com/done' },
      ],
      (s, c) =>
        s.paymentLinks.create({
          line_items: [{ price: c.one.id, quantity: 3 }],
          after_completion: { type: 'redirect', redirect: { url: 'https://example.com/done' } },
        }),
    ));
  it('create_refund', () =>
    same(
      (s) =>
        s.paymentIntents.create({
          amount: 4000,
          currency: 'usd',
          confirm: true,
          payment_method: 'pm_card_visa',
        }),
      (pi) => ['create_refund', { payment_intent: pi.id, amount: 1500, reason: 'duplicate' }],
      (s, pi) => s.refunds.create({ payment_intent: pi.id, amount: 1500, reason: 'duplicate' }),
    ));
  it('update_dispute', () =>
    same(
      async (s) => {
        const pi = await s.paymentIntents.create({
          amount: 4000,
          currency: 'usd',
          confirm: true,
          payment_method: 'pm_card_createDispute',
        });
        return (await s.disputes.list({ payment_intent: pi.id })).data[0];
      },
      (d) => [
        'update_dispute',
        {
          dispute: d.id,
          evidence: { duplicate_charge_explanation: 'Two different orders.' },
          submit: true,
        },
      ],
      (s, d) =>
        s.disputes.update(d.id, {
          evidence: { duplicate_charge_explanation: 'Two different orders.' },
          submit: true,
        }),
    ));
  it('update_subscription', () =>
    same(
      subscription,
      (c) => [
        'update_subscription',
        {
          subscription: c.sub.id,
          proration_behavior: 'always_invoice',
          items: [{ id: c.sub.items.data[0].id, quantity: 3 }],
        },
      ],
      (s, c) =>
        s.subscriptions.update(c.sub.id, {
          proration_behavior: 'always_invoice',
          items: [{ id: c.sub.items.data[0].id, quantity: 3 }],
        }),
    ));
  it('cancel_subscription', () =>
    same(
      subscription,
      (c) => ['cancel_subscription', { subscription: c.sub.id }],
      (s, c) => s.subscriptions.cancel(c.sub.id),
    ));
  it('stripe_api_write', () =>
    same(
      catalog,
      (c) => [
        'stripe_api_write',
        {
          stripe_api_operation_id: 'PostCustomersCustomer',
          parameters: { id: c.customer.id, email: 'kim@example.com', metadata: { a: '1' } },
        },
      ],
      (s, c) =>
        s.customers.update(c.customer.id, { email: 'kim@example.com', metadata: { a: '1' } }),
    ));
});
