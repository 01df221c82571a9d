import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { defineTool, defineWorld, z } from 'seahaven';
import { stripe, type WebhookRequest } from '../index.ts';
import { freshSdk, runDocExample, sdkFor, stripeError } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Tiered prices and plans through the official SDK: tiers shown only when expanded, Stripe's refusals, and the
// subscriptions, renewals, invoice items and previews billed by them (tier-arithmetic.test.ts holds the arithmetic
// to its laws).

const DAY = 86_400_000;

const fresh = (seed = 23) => freshSdk(seed);

type Api = ReturnType<typeof sdkFor>;

const err = stripeError;

/** The fonts price of Stripe's tiered-pricing guide, graduated, and a volume price with flat fees and a decimal. */
async function tieredPrices(s: Api) {
  const product = await s.products.create({ name: 'Fonts' });
  const graduated = await s.prices.create({
    product: product.id,
    currency: 'usd',
    recurring: { interval: 'month' },
    billing_scheme: 'tiered',
    tiers_mode: 'graduated',
    tiers: [
      { up_to: 5, unit_amount: 700 },
      { up_to: 10, unit_amount: 650 },
      { up_to: 'inf', unit_amount: 600 },
    ],
  });
  const volume = await s.prices.create({
    product: product.id,
    currency: 'usd',
    recurring: { interval: 'month' },
    billing_scheme: 'tiered',
    tiers_mode: 'volume',
    tiers: [
      { up_to: 5, unit_amount: 700, flat_amount: 1000 },
      {
        up_to: 'inf',
        unit_amount_decimal: Stripe.Decimal.from('650.5'),
        flat_amount_decimal: Stripe.Decimal.from('500'),
      },
    ],
  });
  return { product, graduated, volume };
}

async function payingCustomer(s: Api) {
  const customer = await s.customers.create({ email: 'tiers@example.com' });
  const pm = await s.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  await s.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return customer;
}

const fontTiers = [
  {
    flat_amount: null,
    flat_amount_decimal: null,
    unit_amount: 700,
    unit_amount_decimal: '700',
    up_to: 5,
  },
  {
    flat_amount: null,
    flat_amount_decimal: null,
    unit_amount: 650,
    unit_amount_decimal: '650',
    up_to: 10,
  },
  {
    flat_amount: null,
    flat_amount_decimal: null,
    unit_amount: 600,
    unit_amount_decimal: '600',
    up_to: null,
  },
];

describe('tiered prices through the SDK', () => {
  it('tiers appear only when expand[] names them: price, list, search, plan, subscription item, event', async () => {
    const { inst, s } = fresh();
    const { product, graduated, volume } = await tieredPrices(s);
    expect(graduated).toMatchObject({
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      unit_amount: null,
      unit_amount_decimal: null,
      transform_quantity: null,
    });
    expect('tiers' in graduated).toBe(false);
    expect('tiers' in (await s.prices.retrieve(graduated.id))).toBe(false);
    const shown = await s.prices.retrieve(graduated.id, { expand: ['tiers'] });
    expect(plain(shown.tiers)).toEqual(fontTiers);
    expect(shapeDifferences('price', plain(graduated))).toEqual([]);
    // That expanded tiers are as the SDK declares them is checked by the conformance story (conformance/story.ts).
    expect(
      plain((await s.prices.retrieve(volume.id, { expand: ['tiers', 'product'] })).tiers),
    ).toEqual([
      {
        flat_amount: 1000,
        flat_amount_decimal: '1000',
        unit_amount: 700,
        unit_amount_decimal: '700',
        up_to: 5,
      },
      {
        flat_amount: 500,
        flat_amount_decimal: '500',
        unit_amount: null,
        unit_amount_decimal: '650.5',
        up_to: null,
      },
    ]);

    const listed = await s.prices.list({ product: product.id });
    expect(listed.data.map((p) => 'tiers' in p)).toEqual([false, false]);
    const found = await s.prices.search({ query: `product:'${product.id}'` });
    expect(found.data.map((p) => 'tiers' in p)).toEqual([false, false]);
    const expanded = await s.prices.list({ product: product.id, expand: ['data.tiers'] });
    expect(expanded.data.map((p) => p.tiers?.length)).toEqual([2, 3]);
    const plan = await s.plans.retrieve(graduated.id);
    expect(plan).toMatchObject({ object: 'plan', billing_scheme: 'tiered', amount: null });
    expect('tiers' in plan).toBe(false);
    const planTiers = await s.plans.retrieve(graduated.id, { expand: ['tiers'] });
    expect(plain(planTiers.tiers)).toEqual(fontTiers);
    expect(
      (await s.plans.list({ product: product.id, expand: ['data.tiers'] })).data.map(
        (p) => p.tiers?.length,
      ),
    ).toEqual([2, 3]);
    // A price that is not tiered has none to show.
    const flat = await s.prices.create({ product: product.id, currency: 'usd', unit_amount: 10 });
    expect((await s.prices.retrieve(flat.id, { expand: ['tiers'] })).tiers).toEqual([]);

    const customer = await payingCustomer(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: graduated.id, quantity: 2 }],
    });
    expect('tiers' in sub.items.data[0].price).toBe(false);
    const withTiers = await s.subscriptions.retrieve(sub.id, {
      expand: ['items.data.price.tiers'],
    });
    expect(plain(withTiers.items.data[0].price.tiers)).toEqual(fontTiers);
    // An included list shows its prices as replies do: a customer's subscriptions.
    const owner = await s.customers.retrieve(customer.id, { expand: ['subscriptions'] });
    const [listedSub] = (owner as Stripe.Customer).subscriptions!.data;
    expect('tiers' in listedSub.items.data[0].price).toBe(false);
    // Events carry the object as a reply shows it by default.
    const created = (await s.events.list({ type: 'price.created' })).data;
    expect(created.some((e) => 'tiers' in (e.data.object as object))).toBe(false);
    expect(inst.query('SELECT count(*) AS n FROM prices')).toEqual([{ n: 3 }]);
  });

  it('webhooks deliver the event as GET /v1/events shows it: no tiers on its prices', async () => {
    const host = defineWorld({
      name: 'tier_host',
      version: '1.0.0',
      schema: 'CREATE TABLE received (n INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;',
      tools: [
        defineTool({
          name: 'count_received',
          description: 'How many webhook deliveries the host has received.',
          input: z.object({}),
          run: (ctx) => ctx.db.one('SELECT count(*) AS n FROM received'),
        }),
      ],
      worlds: {
        stripe: {
          world: stripe,
          prefix: 'stripe_',
          http: true,
          receive(ctx, message) {
            ctx.db.run('INSERT INTO received (body) VALUES (?)', (message as WebhookRequest).body);
            return { status: 200 };
          },
        },
      },
    });
    const inst = host.instance();
    try {
      const s = sdkFor(inst);
      await s.webhookEndpoints.create({
        url: 'seahaven://host/stripe',
        enabled_events: ['price.created', 'plan.created', 'customer.subscription.created'],
      });
      const { graduated } = await tieredPrices(s);
      const customer = await payingCustomer(s);
      await s.subscriptions.create({
        customer: customer.id,
        items: [{ price: graduated.id, quantity: 3 }],
      });
      const bodies = (inst.query('SELECT body FROM received ORDER BY n') as { body: string }[]).map(
        (r) => JSON.parse(r.body) as Stripe.Event,
      );
      expect(bodies.map((e) => e.type)).toEqual([
        'price.created',
        'plan.created',
        'price.created',
        'plan.created',
        'customer.subscription.created',
      ]);
      for (const e of bodies) expect(JSON.stringify(e)).not.toContain('"tiers"');
      const sub = bodies[4].data.object as Stripe.Subscription;
      expect(sub.items.data[0].price).toMatchObject({ id: graduated.id, tiers_mode: 'graduated' });
    } finally {
      inst.destroy();
    }
  });

  it('a subscription bills by its tiers, at creation and at each renewal; lines as Stripe shows them', async () => {
    const { inst, s } = fresh();
    const { graduated, volume } = await tieredPrices(s);
    const customer = await payingCustomer(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [
        { price: graduated.id, quantity: 12 },
        { price: volume.id, quantity: 7 },
      ],
      expand: ['latest_invoice'],
    });
    // Graduated 12: 5 × 700 + 5 × 650 + 2 × 600 = 7950. Volume 7: 7 × 650.5 = 4553.5 → 4554, plus 500 flat.
    const first = sub.latest_invoice as Stripe.Invoice;
    expect(first).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_create',
      subtotal: 13004,
      total: 13004,
      amount_paid: 13004,
    });
    // As Stripe shows a tiered item: a line per tier reached for its units at the tier's unit amount, and one for its
    // flat amount (every tier reached, in graduated mode; the tier's, when it has one, in volume mode).
    const shown = (lines: Stripe.InvoiceLineItem[]) =>
      lines.map((l) => [
        l.pricing?.price_details?.price,
        l.quantity,
        l.amount,
        l.description,
        l.pricing?.unit_amount_decimal == null ? null : String(l.pricing.unit_amount_decimal),
      ]);
    expect(shown(first.lines.data)).toEqual([
      [graduated.id, 5, 3500, '5 × Fonts (Tier 1 at $7.00 / month)', '700'],
      [graduated.id, 0, 0, 'Fonts (Tier 1 at $0.00 / month)', null],
      [graduated.id, 5, 3250, '5 × Fonts (Tier 2 at $6.50 / month)', '650'],
      [graduated.id, 0, 0, 'Fonts (Tier 2 at $0.00 / month)', null],
      [graduated.id, 2, 1200, '2 × Fonts (Tier 3 at $6.00 / month)', '600'],
      [graduated.id, 0, 0, 'Fonts (Tier 3 at $0.00 / month)', null],
      [volume.id, 7, 4554, '7 × Fonts (Tier 2 at $6.505 / month)', '650.5'],
      [volume.id, 0, 500, 'Fonts (Tier 2 at $5.00 / month)', null],
    ]);
    const items = sub.items.data.map((i) => i.id);
    expect(
      first.lines.data.map((l) => l.parent?.subscription_item_details?.subscription_item),
    ).toEqual([...Array(6).fill(items[0]), items[1], items[1]]);
    expect(shapeDifferences('invoice', plain(first))).toEqual([]);
    const paged = await s.invoices.listLineItems(first.id, { limit: 3 });
    expect(paged.data.map((l) => l.amount)).toEqual([3500, 0, 3250]);

    // Down to 5 on the volume item, a boundary: 5 × 700 + 1000 = 4500 from the next period on.
    const volumeItem = sub.items.data.find((i) => i.price.id === volume.id)!;
    await s.subscriptionItems.update(volumeItem.id, { quantity: 5, proration_behavior: 'none' });
    const preview = await s.invoices.createPreview({ subscription: sub.id });
    expect(preview).toMatchObject({ subtotal: 12450, amount_due: 12450 });

    inst.advanceClock(31 * DAY);
    const renewed = await s.subscriptions.retrieve(sub.id);
    const cycle = await s.invoices.retrieve(renewed.latest_invoice as string);
    expect(cycle).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_cycle',
      total: 12450,
      amount_paid: 12450,
    });
    expect(shown(cycle.lines.data).slice(6)).toEqual([
      [volume.id, 5, 3500, '5 × Fonts (Tier 1 at $7.00 / month)', '700'],
      [volume.id, 0, 1000, 'Fonts (Tier 1 at $10.00 / month)', null],
    ]);
    expect(cycle.lines.data.reduce((n, l) => n + l.amount, 0)).toBe(12450);
    expect((await s.charges.list({ customer: customer.id })).data.map((ch) => ch.amount)).toEqual([
      12450, 13004,
    ]);
  });

  it('a test clock renews a tiered item by its tiers; a quantity of 0 reaches no tier and bills 0', async () => {
    const { s } = fresh();
    const { graduated, volume } = await tieredPrices(s);
    const frozen = 1_798_761_600; // 2027-01-01
    const clock = await s.testHelpers.testClocks.create({ frozen_time: frozen });
    const customer = await s.customers.create({ test_clock: clock.id });
    const pm = await s.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const sub = await s.subscriptions.create({
      customer: customer.id,
      default_payment_method: pm.id,
      items: [
        { price: graduated.id, quantity: 10 },
        { price: volume.id, quantity: 0 },
      ],
    });
    // 10 sits on the boundary of the second tier: 5 × 700 + 5 × 650. The volume item's 0 is one line of 0.
    const first = await s.invoices.retrieve(sub.latest_invoice as string);
    expect(first.total).toBe(6750);
    expect(first.lines.data.filter((l) => l.quantity! > 0).map((l) => l.description)).toEqual([
      '5 × Fonts (Tier 1 at $7.00 / month)',
      '5 × Fonts (Tier 2 at $6.50 / month)',
    ]);
    expect(
      first.lines.data
        .filter((l) => l.pricing?.price_details?.price === volume.id)
        .map((l) => [l.quantity, l.amount]),
    ).toEqual([[0, 0]]);
    let ticking = await s.testHelpers.testClocks.advance(clock.id, {
      frozen_time: frozen + 32 * 86_400,
    });
    while (ticking.status !== 'ready') ticking = await s.testHelpers.testClocks.retrieve(clock.id);
    const invoices = (await s.invoices.list({ subscription: sub.id })).data;
    expect(invoices.map((i) => [i.billing_reason, i.total, i.status])).toEqual([
      ['subscription_cycle', 6750, 'paid'],
      ['subscription_create', 6750, 'paid'],
    ]);
    expect(invoices[0].lines.data).toHaveLength(first.lines.data.length);
  });

  it('previews a quantity change on a tiered item, and invoice items take a one-time tiered price', async () => {
    const { inst, s } = fresh();
    const { graduated } = await tieredPrices(s);
    const customer = await payingCustomer(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: graduated.id, quantity: 3 }],
    });
    expect((await s.invoices.retrieve(sub.latest_invoice as string)).total).toBe(2100);
    const before = inst.changes().length;
    const preview = await s.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: sub.items.data[0].id, quantity: 11 }],
        proration_behavior: 'none',
      },
    });
    // 5 × 700 + 5 × 650 + 1 × 600, a line per tier as on the invoice.
    expect(preview.total).toBe(7350);
    expect(preview.lines.data.map((l) => [l.quantity, l.amount])).toEqual([
      [5, 3500],
      [0, 0],
      [5, 3250],
      [0, 0],
      [1, 600],
      [0, 0],
    ]);
    expect(inst.changes().length).toBe(before);

    const oneTime = await s.prices.create({
      product_data: { name: 'Setup' },
      currency: 'usd',
      billing_scheme: 'tiered',
      tiers_mode: 'volume',
      tiers: [
        { up_to: 2, flat_amount: 5000 },
        { up_to: 'inf', unit_amount: 2000 },
      ],
    });
    expect(oneTime.type).toBe('one_time');
    const invoice = await s.invoices.create({ customer: customer.id });
    const two = await s.invoiceItems.create({
      customer: customer.id,
      invoice: invoice.id,
      pricing: { price: oneTime.id },
      quantity: 2,
    });
    expect(two.amount).toBe(5000);
    const three = await s.invoiceItems.update(two.id, { quantity: 3 });
    expect(three.amount).toBe(6000);
    expect((await s.invoices.retrieve(invoice.id)).total).toBe(6000);
    const previewed = await s.invoices.createPreview({
      customer: customer.id,
      invoice_items: [{ price: oneTime.id, quantity: 1 }],
    });
    expect(previewed.lines.data.map((l) => l.amount)).toContain(5000);
  });

  it("refuses tiers Stripe refuses, with Stripe's param names, and stores nothing", async () => {
    const { inst, s } = fresh();
    const product = await s.products.create({ name: 'Seats' });
    const before = inst.changes().length;
    const base = {
      product: product.id,
      currency: 'usd',
      recurring: { interval: 'month' as const },
      billing_scheme: 'tiered' as const,
      tiers_mode: 'graduated' as const,
    };
    const cases: [Stripe.PriceCreateParams, string, RegExp][] = [
      [
        {
          ...base,
          tiers: [
            { up_to: 10, unit_amount: 5 },
            { up_to: 5, unit_amount: 4 },
            { up_to: 'inf', unit_amount: 3 },
          ],
        },
        'tiers[1][up_to]',
        /ascending order/,
      ],
      [
        {
          ...base,
          tiers: [
            { up_to: 5, unit_amount: 5 },
            { up_to: 5, unit_amount: 4 },
            { up_to: 'inf', unit_amount: 3 },
          ],
        },
        'tiers[1][up_to]',
        /ascending order/,
      ],
      [
        {
          ...base,
          tiers: [
            { up_to: 5, unit_amount: 5 },
            { up_to: 10, unit_amount: 4 },
          ],
        },
        'tiers[1][up_to]',
        /last tier must have `up_to` set to `inf`/,
      ],
      [
        {
          ...base,
          tiers: [
            { up_to: 'inf', unit_amount: 5 },
            { up_to: 'inf', unit_amount: 4 },
          ],
        },
        'tiers[0][up_to]',
        /Only the last tier/,
      ],
      [{ ...base, tiers: [{ up_to: 0, unit_amount: 5 }] }, 'tiers[0][up_to]', /positive integer/],
      [
        {
          ...base,
          tiers: [
            { up_to: 5, unit_amount: 5, unit_amount_decimal: Stripe.Decimal.from('5') },
            { up_to: 'inf', unit_amount: 4 },
          ],
        },
        'tiers[0][unit_amount]',
        /only specify one of these parameters: unit_amount, unit_amount_decimal/,
      ],
      [
        {
          ...base,
          tiers: [
            { up_to: 5, unit_amount: 5 },
            { up_to: 'inf', flat_amount: 100, flat_amount_decimal: Stripe.Decimal.from('100') },
          ],
        },
        'tiers[1][flat_amount]',
        /only specify one of these parameters: flat_amount, flat_amount_decimal/,
      ],
      [
        { ...base, tiers: [{ up_to: 5, unit_amount: 5 }, { up_to: 'inf' }] },
        'tiers',
        /An entry in the tiers array is missing an amount/,
      ],
      [
        { ...base, unit_amount: 500, tiers: [{ up_to: 'inf', unit_amount: 5 }] },
        'unit_amount',
        /cannot be set when billing_scheme is tiered/,
      ],
      [
        {
          ...base,
          transform_quantity: { divide_by: 10, round: 'up' },
          tiers: [{ up_to: 'inf', unit_amount: 5 }],
        },
        'tiers',
        /only specify one of these parameters: tiers, transform_quantity/,
      ],
      [{ ...base }, 'tiers', /Missing required param: tiers/],
      [
        { ...base, tiers_mode: undefined, tiers: [{ up_to: 'inf', unit_amount: 5 }] },
        'tiers_mode',
        /Missing required param: tiers_mode/,
      ],
      [
        {
          product: product.id,
          currency: 'usd',
          unit_amount: 5,
          tiers: [{ up_to: 'inf', unit_amount: 5 }],
        },
        'tiers',
        /only be set when billing_scheme is tiered/,
      ],
      [
        { product: product.id, currency: 'usd', unit_amount: 5, tiers_mode: 'volume' },
        'tiers_mode',
        /only be set when billing_scheme is tiered/,
      ],
    ];
    for (const [params, param, message] of cases) {
      const e = await err(s.prices.create(params));
      expect(e, param).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param });
      expect(e.message).toMatch(message);
    }
    expect(
      await err(
        s.prices.create({
          ...base,
          tiers: [{ unit_amount: 5 } as unknown as Stripe.PriceCreateParams.Tier],
        }),
      ),
    ).toMatchObject({ code: 'parameter_missing', param: 'tiers[0][up_to]' });

    // The plans endpoint names its amount `amount` and its transform `transform_usage`.
    const plan = {
      product: product.id,
      currency: 'usd',
      interval: 'month' as const,
      billing_scheme: 'tiered' as const,
      tiers_mode: 'volume' as const,
      tiers: [{ up_to: 'inf' as const, unit_amount: 5 }],
    };
    expect(await err(s.plans.create({ ...plan, amount: 100 }))).toMatchObject({
      param: 'amount',
    });
    const usage = await err(
      s.plans.create({ ...plan, transform_usage: { divide_by: 2, round: 'up' } }),
    );
    expect(usage).toMatchObject({ param: 'tiers' });
    expect(usage.message).toMatch(/tiers, transform_usage/);
    expect(inst.changes().length).toBe(before);
    expect(inst.query('SELECT count(*) AS n FROM prices')).toEqual([{ n: 0 }]);
    expect(
      inst.query(
        "SELECT count(*) AS n FROM events WHERE type IN ('price.created', 'plan.created')",
      ),
    ).toEqual([{ n: 0 }]);
    // The same tiers, in order, are a price.
    const ok = await s.plans.create({ ...plan, expand: ['tiers'] });
    expect(ok.tiers).toHaveLength(1);
  });

  it("runs docs/stripe.md's tiered price example as written", async () => {
    const { s } = fresh();
    const printed = await runDocExample('tiers-example', s);
    expect(printed).toEqual([
      [700, 650, 600],
      [7950, 'subscription_create'],
      [
        '5 × Fonts (Tier 1 at $7.00 / month)',
        '5 × Fonts (Tier 2 at $6.50 / month)',
        '2 × Fonts (Tier 3 at $6.00 / month)',
      ],
    ]);
  });
});
