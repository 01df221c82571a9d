import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { startServer } from 'seahaven/internal/transports/serve/server';
import { SeahavenClient } from 'seahaven/client';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Subscriptions and subscription items through the official SDK, and the billing the clock drives: renewals, trials,
// failed payments and their retries, scheduled cancellations, and Stripe's proration arithmetic.

const DAY = 86_400_000;

function fresh(seed = 11) {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

type Api = ReturnType<typeof sdkFor>;

/** A customer whose default payment method is `card` (a test PaymentMethod token). */
async function customerWith(s: Api, card = 'pm_card_visa') {
  const customer = await s.customers.create({ email: 'sub@example.com' });
  const pm = await s.paymentMethods.attach(card, { customer: customer.id });
  await s.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return { customer, pm };
}

/** Monthly prices of one product: $30, $60 and $10. */
async function plans(s: Api) {
  const product = await s.products.create({ name: 'Pro' });
  const basic = await s.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 3000,
    recurring: { interval: 'month' },
  });
  const premium = await s.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 6000,
    recurring: { interval: 'month' },
  });
  const seat = await s.prices.create({
    product_data: { name: 'Seat' },
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
  });
  return { product, basic, premium, seat };
}

const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as InstanceType<typeof Stripe.errors.StripeError>;

describe('subscriptions', () => {
  it('create: the first invoice is finalized and paid at once; retrieve, list, search; shapes match Stripe', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id, quantity: 2 }],
      metadata: { plan: 'basic' },
    });
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'active',
      customer: customer.id,
      currency: 'usd',
      collection_method: 'charge_automatically',
      cancel_at_period_end: false,
    });
    expect(sub.id).toMatch(/^sub_/);
    expect(shapeDifferences('subscription', plain(sub))).toEqual([]);
    const item = sub.items.data[0];
    expect(item).toMatchObject({
      object: 'subscription_item',
      quantity: 2,
      subscription: sub.id,
      current_period_start: sub.start_date,
    });
    expect(item.current_period_end - item.current_period_start).toBe(30 * 86_400); // June has 30 days
    const invoice = await s.invoices.retrieve(sub.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 6000,
      billing_reason: 'subscription_create',
    });
    expect(plain(await s.subscriptions.retrieve(sub.id))).toEqual(plain(sub));
    expect((await s.subscriptions.list({ customer: customer.id })).data.map((x) => x.id)).toEqual([
      sub.id,
    ]);
    expect((await s.subscriptions.list({ price: basic.id })).data).toHaveLength(1);
    expect(
      (
        await s.subscriptions.search({ query: "status:'active' AND metadata['plan']:'basic'" })
      ).data.map((x) => x.id),
    ).toEqual([sub.id]);
    const types = inst
      .query<{ type: string }>('SELECT type FROM events ORDER BY seq')
      .map((r) => r.type);
    expect(types).toContain('customer.subscription.created');
    expect(types).toContain('invoice.paid');
  });

  it("lists and retrieves a customer's subscriptions under the customer, the ended ones left out", async () => {
    const { s } = fresh();
    const { customer } = await customerWith(s);
    const other = await s.customers.create({});
    const { basic, premium } = await plans(s);
    const first = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const second = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: premium.id }],
    });
    await s.subscriptions.cancel(first.id);
    const path = `/v1/customers/${customer.id}/subscriptions`;
    const listed = (await s.rawRequest(
      'GET',
      `/v1/customers/${customer.id}/subscriptions`,
    )) as Stripe.ApiList<Stripe.Subscription>;
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: path });
    expect(listed.data.map((x) => x.id)).toEqual([second.id]);
    expect(
      plain(await s.rawRequest('GET', `/v1/customers/${customer.id}/subscriptions/${second.id}`)),
    ).toEqual(plain(await s.subscriptions.retrieve(second.id)));
    expect(
      await err(s.rawRequest('GET', `/v1/customers/${other.id}/subscriptions/${second.id}`)),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    expect(await err(s.rawRequest('GET', `/v1/customers/cus_nope/subscriptions`))).toMatchObject({
      statusCode: 404,
      param: 'customer',
    });
  });

  it('answers mistakes as Stripe does', async () => {
    const { s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    expect(await err(s.subscriptions.retrieve('sub_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await err(s.subscriptions.create({ customer: customer.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'items',
    });
    expect(
      await err(
        s.subscriptions.create({
          customer: customer.id,
          items: [{ price: basic.id }, { price: basic.id }],
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'items[1][price]' });
    expect(
      await err(s.subscriptionItems.list({} as Stripe.SubscriptionItemListParams)),
    ).toMatchObject({ statusCode: 400, param: 'subscription' });
  });

  it('a declined first payment leaves the subscription incomplete, and 23 hours later incomplete_expired', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s, 'pm_card_chargeCustomerFail');
    const { basic } = await plans(s);
    const refused = await err(
      s.subscriptions.create({
        customer: customer.id,
        items: [{ price: basic.id }],
        payment_behavior: 'error_if_incomplete',
      }),
    );
    expect(refused).toMatchObject({
      statusCode: 402,
      type: 'StripeCardError',
      code: 'card_declined',
    });
    expect(inst.query('SELECT count(*) AS n FROM subscriptions')).toEqual([{ n: 0 }]);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    expect(sub.status).toBe('incomplete');
    expect(await s.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({
      status: 'open',
      attempt_count: 1,
    });
    inst.advanceClock(22 * 3600_000);
    expect((await s.subscriptions.retrieve(sub.id)).status).toBe('incomplete');
    inst.advanceClock(3600_000);
    const expired = await s.subscriptions.retrieve(sub.id);
    expect(expired).toMatchObject({
      status: 'incomplete_expired',
      ended_at: sub.created + 23 * 3600,
    });
    expect((await s.invoices.retrieve(sub.latest_invoice as string)).status).toBe('void');
    expect((await s.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect(
      (await s.subscriptions.list({ customer: customer.id, status: 'ended' })).data.map(
        (x) => x.id,
      ),
    ).toEqual([sub.id]);
  });

  it('an incomplete subscription whose first invoice is paid by hand with another card becomes active', async () => {
    const { s } = fresh();
    const { customer } = await customerWith(s, 'pm_card_chargeCustomerFail');
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    expect(sub.status).toBe('incomplete');
    const paid = await s.invoices.pay(sub.latest_invoice as string, {
      payment_method: 'pm_card_visa',
    });
    expect(paid.status).toBe('paid');
    expect((await s.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('a trial: a $0 first invoice, the notice three days before its end, then active with a paid invoice', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
      trial_period_days: 14,
    });
    expect(sub).toMatchObject({
      status: 'trialing',
      trial_start: sub.created,
      trial_end: sub.created + 14 * 86_400,
    });
    expect(sub.items.data[0].current_period_end).toBe(sub.trial_end);
    expect(await s.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({
      status: 'paid',
      total: 0,
      billing_reason: 'subscription_create',
    });
    const notices = () =>
      inst.query<{ created: number }>(
        "SELECT created FROM events WHERE type = 'customer.subscription.trial_will_end'",
      );
    inst.advanceClock(10 * DAY);
    expect(notices()).toEqual([]);
    inst.advanceClock(2 * DAY);
    expect(notices()).toEqual([{ created: sub.trial_end! - 3 * 86_400 }]);
    expect((await s.subscriptions.retrieve(sub.id)).status).toBe('trialing');
    inst.advanceClock(3 * DAY);
    const active = await s.subscriptions.retrieve(sub.id);
    expect(active.status).toBe('active');
    expect(active.items.data[0]).toMatchObject({ current_period_start: sub.trial_end });
    const invoice = await s.invoices.retrieve(active.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 3000,
      billing_reason: 'subscription_cycle',
      created: sub.trial_end,
    });
    expect(notices()).toHaveLength(1);
  });

  it("the customer's pending items of no subscription go on the next subscription invoice; another subscription's wait", async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic, seat } = await plans(s);
    const setup = await s.invoiceItems.create({
      customer: customer.id,
      amount: 1200,
      currency: 'usd',
      description: 'Setup fee',
    });
    const first = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const firstInvoice = await s.invoices.retrieve(first.latest_invoice as string);
    expect(firstInvoice).toMatchObject({ total: 3000 + 1200, amount_paid: 4200 });
    expect((await s.invoiceItems.retrieve(setup.id)).invoice).toBe(firstInvoice.id);

    const second = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id }],
    });
    const ownToFirst = await s.invoiceItems.create({
      customer: customer.id,
      subscription: first.id,
      amount: 700,
      currency: 'usd',
    });
    const loose = await s.invoiceItems.create({
      customer: customer.id,
      amount: 300,
      currency: 'usd',
    });
    // Both renew at the same boundary: the first's own item goes on its renewal, the loose one on one renewal only.
    inst.advanceClock(31 * DAY);
    const renewedFirst = await s.subscriptions.retrieve(first.id);
    const renewedSecond = await s.subscriptions.retrieve(second.id);
    const firstRenewal = await s.invoices.retrieve(renewedFirst.latest_invoice as string);
    const secondRenewal = await s.invoices.retrieve(renewedSecond.latest_invoice as string);
    expect((await s.invoiceItems.retrieve(ownToFirst.id)).invoice).toBe(firstRenewal.id);
    const looseOn = (await s.invoiceItems.retrieve(loose.id)).invoice;
    expect([firstRenewal.id, secondRenewal.id]).toContain(looseOn);
    expect(firstRenewal.total + secondRenewal.total).toBe(3000 + 700 + 1000 + 300);
  });

  it('a month passes: the renewal is invoiced and paid at the boundary, with a charge and a balance transaction', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic, seat } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }, { price: seat.id, quantity: 3 }],
    });
    const boundary = sub.items.data[0].current_period_end;
    const r = inst.advanceClock(31 * DAY);
    expect(r).toMatchObject({ ok: true, result: { renewed: 1, payments_failed: 0 } });
    const renewed = await s.subscriptions.retrieve(sub.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data.map((i) => [i.current_period_start, i.current_period_end])).toEqual([
      [boundary, boundary + 31 * 86_400],
      [boundary, boundary + 31 * 86_400],
    ]); // July has 31 days
    const invoice = await s.invoices.retrieve(renewed.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_cycle',
      amount_paid: 6000,
      created: boundary,
      period_start: sub.items.data[0].current_period_start,
      period_end: boundary,
    });
    expect(invoice.lines.data.map((l) => l.amount).sort()).toEqual([3000, 3000]);
    const charges = (await s.charges.list({ customer: customer.id })).data;
    expect(charges.map((ch) => [ch.amount, ch.created, ch.status])).toEqual([
      [6000, boundary, 'succeeded'],
      [6000, sub.created, 'succeeded'],
    ]);
    const txn = await s.balanceTransactions.retrieve(charges[0].balance_transaction as string);
    expect(txn).toMatchObject({
      amount: 6000,
      created: boundary,
      available_on: boundary + 2 * 86_400,
      status: 'pending',
    });
    inst.advanceClock(DAY);
    expect((await s.balanceTransactions.retrieve(txn.id)).status).toBe('available');
    inst.advanceClock(0);
    expect(inst.query('SELECT count(*) AS n FROM invoices')).toEqual([{ n: 2 }]);
  });

  it("a renewal's events, in order, each with the object as it was at that step; event rows are plain JSON of the event", async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const before = inst.query<{ n: number }>('SELECT max(seq) AS n FROM events')[0].n;
    inst.advanceClock(31 * DAY);
    const rows = inst.query<{ data: string }>(
      'SELECT data FROM events WHERE seq > ? ORDER BY seq',
      before,
    );
    const events = rows.map((r) => JSON.parse(r.data) as Record<string, any>);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice_payment.paid',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    // Events splice in the JSON their object was stored with: the text is JSON.stringify's, fields in Stripe's order.
    for (const [i, e] of events.entries()) {
      expect(rows[i].data).toBe(JSON.stringify(e));
      expect(Object.keys(e)).toEqual([
        'id',
        'object',
        'api_version',
        'created',
        'data',
        'livemode',
        'pending_webhooks',
        'request',
        'type',
      ]);
    }
    const [created, finalized, , , , , paid, succeeded, updated] = events.map((e) => e.data.object);
    // The draft is announced as a draft with its line, although billing stores the invoice only once it is finalized.
    expect(created).toMatchObject({
      status: 'draft',
      number: null,
      total: 3000,
      lines: { total_count: 1 },
    });
    expect(finalized).toMatchObject({
      id: created.id,
      status: 'open',
      number: expect.stringMatching(/-0002$/),
      amount_due: 3000,
    });
    expect(paid).toEqual(succeeded);
    const invoice = await s.invoices.retrieve(created.id);
    expect(plain(invoice)).toEqual(paid);
    expect(plain(await s.subscriptions.retrieve(sub.id))).toEqual(updated);
    expect(events[8].data.previous_attributes).toEqual({
      items: expect.any(Object),
      latest_invoice: sub.latest_invoice,
    });
  });

  it('a failing card: past_due, retries 3, 5 and 7 days after each attempt, then canceled', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const failing = await s.paymentMethods.attach('pm_card_chargeCustomerFail', {
      customer: customer.id,
    });
    await s.customers.update(customer.id, {
      invoice_settings: { default_payment_method: failing.id },
    });
    const b = sub.items.data[0].current_period_end;
    inst.advanceClock(30 * DAY);
    let now = await s.subscriptions.retrieve(sub.id);
    expect(now.status).toBe('past_due');
    const invoiceId = now.latest_invoice as string;
    expect(await s.invoices.retrieve(invoiceId)).toMatchObject({
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: b + 3 * 86_400,
    });
    inst.advanceClock(3 * DAY);
    expect(await s.invoices.retrieve(invoiceId)).toMatchObject({
      status: 'open',
      attempt_count: 2,
      next_payment_attempt: b + 8 * 86_400,
    });
    inst.advanceClock(20 * DAY);
    now = await s.subscriptions.retrieve(sub.id);
    expect(now).toMatchObject({
      status: 'canceled',
      ended_at: b + 15 * 86_400,
      cancellation_details: { reason: 'payment_failed' },
    });
    expect(await s.invoices.retrieve(invoiceId)).toMatchObject({
      status: 'open',
      attempt_count: 4,
      next_payment_attempt: null,
    });
    const failedCharges = inst.query<{ created: number }>(
      "SELECT created FROM charges WHERE status = 'failed' ORDER BY seq",
    );
    expect(failedCharges.map((r) => r.created)).toEqual([
      b,
      b + 3 * 86_400,
      b + 8 * 86_400,
      b + 15 * 86_400,
    ]);
    expect(
      inst.query<{ type: string }>(
        "SELECT type FROM events WHERE type = 'customer.subscription.deleted'",
      ),
    ).toHaveLength(1);
    // Each decline writes the invoice once, its next attempt on the subscription's schedule included, so the event of
    // the decline shows the attempt that follows it.
    const declines = inst.query<{ data: string }>(
      "SELECT data FROM events WHERE type = 'invoice.payment_failed' ORDER BY created, seq",
    );
    expect(
      declines.map((r) => JSON.parse(r.data).data.object.next_payment_attempt as number | null),
    ).toEqual([b + 3 * 86_400, b + 8 * 86_400, b + 15 * 86_400, null]);
  });

  it('a past_due subscription recovers when a retry succeeds', async () => {
    const { inst, s } = fresh();
    const { customer, pm } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const failing = await s.paymentMethods.attach('pm_card_chargeCustomerFail', {
      customer: customer.id,
    });
    await s.customers.update(customer.id, {
      invoice_settings: { default_payment_method: failing.id },
    });
    inst.advanceClock(30 * DAY);
    expect((await s.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    await s.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
    inst.advanceClock(3 * DAY);
    const now = await s.subscriptions.retrieve(sub.id);
    expect(now.status).toBe('active');
    expect(await s.invoices.retrieve(now.latest_invoice as string)).toMatchObject({
      status: 'paid',
      attempt_count: 2,
    });
  });

  it('cancel_at_period_end ends the subscription at the boundary; cancel now with a final invoice', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const end = sub.items.data[0].current_period_end;
    const scheduled = await s.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(scheduled).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: end,
      canceled_at: sub.created,
    });
    inst.advanceClock(40 * DAY);
    const ended = await s.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({
      status: 'canceled',
      ended_at: end,
      cancellation_details: { reason: 'cancellation_requested' },
    });
    expect(inst.query('SELECT count(*) AS n FROM invoices')).toEqual([{ n: 1 }]);
    expect(await err(s.subscriptions.update(sub.id, { description: 'x' }))).toMatchObject({
      statusCode: 400,
    });

    const other = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    inst.advanceClock(10 * DAY);
    const canceled = await s.subscriptions.cancel(other.id, {
      prorate: true,
      invoice_now: true,
      cancellation_details: { comment: 'moving on' },
    });
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_details: { comment: 'moving on', reason: 'cancellation_requested' },
    });
    expect(shapeDifferences('subscription', plain(canceled))).toEqual([]);
    const final = await s.invoices.retrieve(canceled.latest_invoice as string);
    // Started 11 July, a 31-day period; 21 days unused on $30: 3000 × 21/31 = 2032.26, credited to the customer.
    expect(final).toMatchObject({
      total: -2032,
      status: 'paid',
      billing_reason: 'subscription_update',
    });
    expect((await s.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      balance: -2032,
    });
  });
});

describe('prorations', () => {
  it('upgrading $30 to $60 halfway through a 30-day period: -1500 and +3000, billed at the renewal', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic, premium } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    inst.advanceClock(15 * DAY);
    const up = await s.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0].id, price: premium.id }],
    });
    expect(up.items.data[0].price.id).toBe(premium.id);
    expect(shapeDifferences('subscription', plain(up))).toEqual([]);
    const pending = (await s.invoiceItems.list({ customer: customer.id, pending: true })).data;
    expect(pending.map((ii) => [ii.amount, ii.proration, ii.description]).sort()).toEqual([
      [-1500, true, 'Unused time on Pro after 16 Jun 2026'],
      [3000, true, 'Remaining time on Pro after 16 Jun 2026'],
    ]);
    inst.advanceClock(15 * DAY);
    const renewed = await s.subscriptions.retrieve(sub.id);
    const invoice = await s.invoices.retrieve(renewed.latest_invoice as string);
    // The new period at $60, plus the net $15 of prorations.
    expect(invoice).toMatchObject({ status: 'paid', total: 6000 + 1500, amount_paid: 7500 });
  });

  it('a quantity change a third of the way through: -667 and +2000 (rounded per second of the period)', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { seat } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id }],
    });
    inst.advanceClock(10 * DAY);
    const item = await s.subscriptionItems.update(sub.items.data[0].id, { quantity: 3 });
    expect(item).toMatchObject({ quantity: 3, subscription: sub.id });
    expect(shapeDifferences('subscription_item', plain(item))).toEqual([]);
    const amounts = (await s.invoiceItems.list({ customer: customer.id, pending: true })).data
      .map((ii) => ii.amount)
      .sort((a, b) => a - b);
    expect(amounts).toEqual([-667, 2000]); // 1000 × 20/30 = 666.67; 3000 × 20/30
  });

  it('an item added with always_invoice at an odd second is invoiced and paid at once; removing one credits it', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic, seat } = await plans(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
    });
    const period = 30 * 86_400;
    const elapsed = 7 * 86_400 + 12_345;
    inst.advanceClock(elapsed * 1000);
    const added = await s.subscriptionItems.create({
      subscription: sub.id,
      price: seat.id,
      quantity: 2,
      proration_behavior: 'always_invoice',
    });
    expect(added).toMatchObject({
      object: 'subscription_item',
      quantity: 2,
      current_period_end: sub.items.data[0].current_period_end,
    });
    const expected = Math.round((2000 * (period - elapsed)) / period);
    expect(expected).toBe(1524);
    const now = await s.subscriptions.retrieve(sub.id);
    expect(now.items.data).toHaveLength(2);
    const invoice = await s.invoices.retrieve(now.latest_invoice as string);
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_update',
      status: 'paid',
      total: expected,
      amount_paid: expected,
    });
    expect(
      (await s.subscriptionItems.list({ subscription: sub.id })).data.map((i) => i.id).sort(),
    ).toEqual([sub.items.data[0].id, added.id].sort());
    expect(plain(await s.subscriptionItems.retrieve(added.id))).toEqual(
      plain(now.items.data.find((i) => i.id === added.id)),
    );

    const deleted = await s.subscriptionItems.del(added.id, {
      proration_behavior: 'create_prorations',
    });
    expect(plain(deleted)).toEqual({ id: added.id, object: 'subscription_item', deleted: true });
    expect(shapeDifferences('deleted_subscription_item', plain(deleted))).toEqual([]);
    const credit = (await s.invoiceItems.list({ customer: customer.id, pending: true })).data.map(
      (ii) => ii.amount,
    );
    expect(credit).toEqual([-expected]);
    expect(await err(s.subscriptionItems.retrieve(added.id))).toMatchObject({ statusCode: 404 });
    expect(await err(s.subscriptionItems.del(sub.items.data[0].id))).toMatchObject({
      statusCode: 400,
    });
  });
});

describe('pause, resume, migrate, discounts', () => {
  it('pause collection voids renewals; pause and resume the subscription; migrate; remove the discount', async () => {
    const { inst, s } = fresh();
    const { customer } = await customerWith(s);
    const { basic } = await plans(s);
    const coupon = await s.coupons.create({ percent_off: 10, duration: 'forever' });
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: basic.id }],
      discounts: [{ coupon: coupon.id }],
    });
    expect(sub.discounts).toHaveLength(1);
    const held = await s.subscriptions.update(sub.id, { pause_collection: { behavior: 'void' } });
    expect(held.pause_collection).toEqual({ behavior: 'void', resumes_at: null });
    inst.advanceClock(30 * DAY);
    const afterPause = await s.subscriptions.retrieve(sub.id);
    expect(afterPause.status).toBe('active');
    expect((await s.invoices.retrieve(afterPause.latest_invoice as string)).status).toBe('void');
    await s.subscriptions.update(sub.id, { pause_collection: '' });

    const paused = await s.subscriptions.pause(sub.id, { type: 'subscription' });
    expect(paused.status).toBe('paused');
    // Read before 60 days pass: events older than 30 days are deleted as time passes, as Stripe's are.
    expect(
      inst.query<{ type: string }>('SELECT type FROM events ORDER BY seq').map((r) => r.type),
    ).toContain('customer.subscription.paused');
    inst.advanceClock(60 * DAY);
    expect(inst.query('SELECT count(*) AS n FROM invoices')).toEqual([{ n: 2 }]);
    const resumed = await s.subscriptions.resume(sub.id, { billing_cycle_anchor: { type: 'now' } });
    expect(resumed.status).toBe('active');
    expect(resumed.items.data[0].current_period_start).toBe(Math.floor(inst.clock.now() / 1000));
    expect((await s.invoices.retrieve(resumed.latest_invoice as string)).status).toBe('paid');
    expect(await err(s.subscriptions.resume(sub.id))).toMatchObject({ statusCode: 400 });
    const types = inst
      .query<{ type: string }>('SELECT type FROM events ORDER BY seq')
      .map((r) => r.type);
    expect(types).toContain('customer.subscription.resumed');

    const migrated = await s.subscriptions.migrate(sub.id, { billing_mode: { type: 'flexible' } });
    expect(migrated.billing_mode.type).toBe('flexible');
    expect(
      await err(s.subscriptions.migrate(sub.id, { billing_mode: { type: 'flexible' } })),
    ).toMatchObject({ statusCode: 400 });

    const removed = await s.subscriptions.deleteDiscount(sub.id);
    expect(removed).toMatchObject({ object: 'discount', deleted: true, subscription: sub.id });
    expect((await s.subscriptions.retrieve(sub.id)).discounts).toEqual([]);
    expect(await err(s.subscriptions.deleteDiscount(sub.id))).toMatchObject({ statusCode: 404 });
  });
});

describe('replay and OpenEnv', () => {
  async function month(seed: number) {
    const { inst, s } = fresh(seed);
    const { customer } = await customerWith(s);
    const { basic, premium, seat } = await plans(s);
    const a = await s.subscriptions.create({ customer: customer.id, items: [{ price: basic.id }] });
    await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id, quantity: 4 }],
      trial_period_days: 7,
    });
    inst.advanceClock(9 * DAY + 1234);
    await s.subscriptions.update(a.id, { items: [{ id: a.items.data[0].id, price: premium.id }] });
    inst.advanceClock(25 * DAY);
    return inst;
  }

  it('the whole month replays byte for byte: the same calls and advances on the same seed', async () => {
    const one = await month(5);
    // stripe-node's Idempotency-Keys are random client input, recorded with each call, so the replay sends the same.
    const two = stripe.instance({ fixture: 'empty', seed: 5 });
    for (const entry of one.callLog()) {
      if (entry.tool === 'advance_clock') two.advanceClock((entry.args as { ms: number }).ms);
      else two.operation(entry.tool, entry.args);
    }
    expect(JSON.stringify(two.changes())).toBe(JSON.stringify(one.changes()));
    expect(JSON.stringify(two.callLog())).toBe(JSON.stringify(one.callLog()));
    expect(one.callLog().filter((c) => c.tool === 'advance_clock')).toHaveLength(2);
    expect(one.query('SELECT count(*) AS n FROM invoices')).toEqual([{ n: 4 }]);
  });

  it("one advance over OpenEnv renews a subscription made through the session's key", async () => {
    const server = await startServer({ worlds: [stripe], port: 0 });
    try {
      const env = await SeahavenClient.connect(server.url);
      const reset = await env.reset({ fixture: 'empty', seed: 3 });
      const key = reset.metadata.api_key as string;
      const s = new Stripe(key, {
        host: '127.0.0.1',
        port: Number(new URL(server.url).port),
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const { customer } = await customerWith(s);
      const { basic } = await plans(s);
      const sub = await s.subscriptions.create({
        customer: customer.id,
        items: [{ price: basic.id }],
      });
      expect(await env.advanceClock(30 * DAY)).toEqual({
        ok: true,
        result: {
          renewed: 1,
          trials_ended: 0,
          payments_failed: 0,
          retried: 0,
          canceled: 0,
          expired: 0,
        },
      });
      const renewed = await s.subscriptions.retrieve(sub.id);
      expect(renewed.latest_invoice).not.toBe(sub.latest_invoice);
      expect((await s.invoices.retrieve(renewed.latest_invoice as string)).status).toBe('paid');
      await env.close();
    } finally {
      await server.close();
    }
  });
});
