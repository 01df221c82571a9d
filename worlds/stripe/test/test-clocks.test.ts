import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { freshSdk, runDocExample, sdkFor, stripeError } from './sdk.ts';

// Test clocks through the official SDK's `stripe.testHelpers.testClocks`: customers and subscriptions on a clock live on
// its frozen time, and advancing it bills them as the world clock bills the rest (renewals, trial ends, invoices
// finalized and paid, dunning, webhook events), while the world clock's own advance leaves them alone.

const DAY = 86_400;
/** 2027-01-01T00:00:00Z, seven months after the world's epoch. */
const JAN_2027 = 1_798_761_600;

const fresh = (seed = 7) => freshSdk(seed);

type Api = ReturnType<typeof sdkFor>;

const err = stripeError;

/** A customer whose default payment method is `card` (a test PaymentMethod token). */
async function payingCustomer(s: Api, card: string, params: Stripe.CustomerCreateParams = {}) {
  const customer = await s.customers.create(params);
  const pm = await s.paymentMethods.attach(card, { customer: customer.id });
  return s.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
}

/** A clock at `frozen`, a customer on it paying with `card`, and a monthly $20 price. */
async function onClock(s: Api, frozen = JAN_2027, card = 'pm_card_visa') {
  const clock = await s.testHelpers.testClocks.create({ frozen_time: frozen, name: 'Renewals' });
  const customer = await payingCustomer(s, card, {
    email: 'clock@example.com',
    test_clock: clock.id,
  });
  const price = await s.prices.create({
    product_data: { name: 'Plan' },
    currency: 'usd',
    unit_amount: 2000,
    recurring: { interval: 'month' },
  });
  return { clock, customer, price };
}

/** The events of `types` on the account, oldest first. */
async function eventsOf(s: Api, ...types: string[]) {
  const all: Stripe.Event[] = [];
  for await (const e of s.events.list({ limit: 100 })) all.push(e);
  return all.reverse().filter((e) => types.includes(e.type));
}

describe('test clocks', () => {
  it('create, retrieve, list and delete: the clock is ready at its frozen time, with its events', async () => {
    const { inst, s } = fresh();
    const now = inst.clock.now() / 1000;
    const clock = await s.testHelpers.testClocks.create({ frozen_time: JAN_2027, name: 'Q1' });
    expect(clock).toMatchObject({
      object: 'test_helpers.test_clock',
      created: now,
      deletes_after: now + 7 * DAY,
      frozen_time: JAN_2027,
      livemode: false,
      name: 'Q1',
      status: 'ready',
      status_details: {},
    });
    expect(clock.id).toMatch(/^clock_/);
    const other = await s.testHelpers.testClocks.create({ frozen_time: 1_700_000_000 });
    expect(other.name).toBeNull();
    expect(await s.testHelpers.testClocks.retrieve(clock.id)).toEqual(clock);
    const listed = await s.testHelpers.testClocks.list({ limit: 1 });
    expect(listed.data.map((c) => c.id)).toEqual([other.id]);
    expect(listed.has_more).toBe(true);
    const gone = await s.testHelpers.testClocks.del(clock.id);
    expect(gone).toMatchObject({ id: clock.id, object: 'test_helpers.test_clock', deleted: true });
    expect((await s.testHelpers.testClocks.list()).data.map((c) => c.id)).toEqual([other.id]);
    const types = (
      await eventsOf(s, 'test_helpers.test_clock.created', 'test_helpers.test_clock.deleted')
    ).map((e) => e.type);
    expect(types).toEqual([
      'test_helpers.test_clock.created',
      'test_helpers.test_clock.created',
      'test_helpers.test_clock.deleted',
    ]);
    expect((await err(s.testHelpers.testClocks.create({} as never))).param).toBe('frozen_time');
  });

  it('a customer and its subscription live on the clock: created and periods at its frozen time', async () => {
    const { s } = fresh();
    const { clock, customer, price } = await onClock(s);
    expect(customer).toMatchObject({ test_clock: clock.id, created: JAN_2027 });
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
    });
    expect(sub).toMatchObject({
      test_clock: clock.id,
      created: JAN_2027,
      start_date: JAN_2027,
      status: 'active',
    });
    expect(sub.items.data[0].current_period_start).toBe(JAN_2027);
    const invoice = await s.invoices.retrieve(sub.latest_invoice as string);
    expect(invoice).toMatchObject({ test_clock: clock.id, created: JAN_2027, status: 'paid' });
    expect((await s.customers.list({ test_clock: clock.id })).data.map((c) => c.id)).toEqual([
      customer.id,
    ]);
    expect((await s.subscriptions.list({ test_clock: clock.id })).data.map((x) => x.id)).toEqual([
      sub.id,
    ]);
    // A customer joins a clock when it is created, never later.
    const moved = await err(s.customers.update(customer.id, { test_clock: clock.id } as never));
    expect(moved).toMatchObject({ statusCode: 400, param: 'test_clock' });
    // An existing customer joins a new clock when it has no subscriptions yet; one already on a clock never moves.
    const existing = await s.customers.create({ email: 'later@example.com' });
    const second = await s.testHelpers.testClocks.create({
      frozen_time: JAN_2027 + DAY,
      customer: existing.id,
    });
    expect((await s.customers.retrieve(existing.id)) as Stripe.Customer).toMatchObject({
      test_clock: second.id,
    });
    const taken = await err(
      s.testHelpers.testClocks.create({ frozen_time: JAN_2027, customer: existing.id }),
    );
    expect(taken).toMatchObject({ statusCode: 400, param: 'customer' });
    expect(taken.message).toContain('cannot change');
    expect((await s.testHelpers.testClocks.list()).data).toHaveLength(2);
    const missing = await err(s.customers.create({ test_clock: 'clock_nope' }));
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'test_clock',
    });
  });

  it('advancing a month at a time renews the subscription on the clock, invoices paid, with their events', async () => {
    const { inst, s } = fresh();
    const { clock, customer, price } = await onClock(s);
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
    });
    const feb = JAN_2027 + 31 * DAY;
    const mar = feb + 28 * DAY;
    const worldBefore = inst.clock.now();
    let advanced = await s.testHelpers.testClocks.advance(clock.id, { frozen_time: feb + DAY });
    // The advance is done within the call: the reply is ready at the new time, so a polling loop ends at once.
    expect(advanced).toMatchObject({ status: 'ready', frozen_time: feb + DAY, status_details: {} });
    while (advanced.status !== 'ready')
      advanced = await s.testHelpers.testClocks.retrieve(clock.id);
    await s.testHelpers.testClocks.advance(clock.id, { frozen_time: mar + DAY });
    expect(inst.clock.now()).toBe(worldBefore);
    const after = await s.subscriptions.retrieve(sub.id);
    expect(after.status).toBe('active');
    expect(after.items.data[0]).toMatchObject({
      current_period_start: mar,
      current_period_end: mar + 31 * DAY,
    });
    const invoices = (await s.invoices.list({ subscription: sub.id })).data.reverse();
    expect(invoices.map((i) => [i.created, i.status, i.amount_paid, i.billing_reason])).toEqual([
      [JAN_2027, 'paid', 2000, 'subscription_create'],
      [feb, 'paid', 2000, 'subscription_cycle'],
      [mar, 'paid', 2000, 'subscription_cycle'],
    ]);
    const events = await eventsOf(
      s,
      'test_helpers.test_clock.advancing',
      'test_helpers.test_clock.ready',
      'invoice.paid',
    );
    expect(events.map((e) => [e.type, e.created])).toEqual([
      ['invoice.paid', JAN_2027],
      ['test_helpers.test_clock.advancing', JAN_2027],
      ['invoice.paid', feb],
      ['test_helpers.test_clock.ready', feb + DAY],
      ['test_helpers.test_clock.advancing', feb + DAY],
      ['invoice.paid', mar],
      ['test_helpers.test_clock.ready', mar + DAY],
    ]);
    const advancing = events[1].data.object as Stripe.TestHelpers.TestClock;
    expect(advancing).toMatchObject({
      status: 'advancing',
      frozen_time: JAN_2027,
      status_details: { advancing: { target_frozen_time: feb + DAY } },
    });
  });

  it('a trial ends and a failing card goes through dunning on the clock: past_due, retries, then canceled', async () => {
    const { s } = fresh();
    const { clock, customer, price } = await onClock(s, JAN_2027, 'pm_card_chargeCustomerFail');
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 14,
    });
    expect(sub).toMatchObject({ status: 'trialing', trial_end: JAN_2027 + 14 * DAY });
    await s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 15 * DAY });
    const due = await s.subscriptions.retrieve(sub.id);
    expect(due.status).toBe('past_due');
    const invoice = await s.invoices.retrieve(due.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'open',
      attempt_count: 1,
      created: JAN_2027 + 14 * DAY,
    });
    // Retries 3, 5 and 7 days apart, then the subscription is canceled for payment_failed.
    await s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 30 * DAY });
    const ended = await s.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({
      status: 'canceled',
      ended_at: JAN_2027 + 29 * DAY,
      cancellation_details: { reason: 'payment_failed' },
    });
    expect((await s.invoices.retrieve(invoice.id)).attempt_count).toBe(4);
    const types = (
      await eventsOf(
        s,
        'customer.subscription.trial_will_end',
        'invoice.payment_failed',
        'customer.subscription.deleted',
      )
    ).map((e) => [e.type, e.created]);
    expect(types).toEqual([
      ['customer.subscription.trial_will_end', JAN_2027 + 11 * DAY],
      ['invoice.payment_failed', JAN_2027 + 14 * DAY],
      ['invoice.payment_failed', JAN_2027 + 17 * DAY],
      ['invoice.payment_failed', JAN_2027 + 22 * DAY],
      ['invoice.payment_failed', JAN_2027 + 29 * DAY],
      ['customer.subscription.deleted', JAN_2027 + 29 * DAY],
    ]);
  });

  it('the world clock leaves subscriptions on a clock alone, and a clock advance leaves the world’s alone', async () => {
    const { inst, s } = fresh();
    const { clock, customer, price } = await onClock(s);
    const onIt = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
    });
    const worldCustomer = await payingCustomer(s, 'pm_card_visa');
    const world = await s.subscriptions.create({
      customer: worldCustomer.id,
      items: [{ price: price.id }],
    });
    const worldEnd = world.items.data[0].current_period_end;
    await s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 40 * DAY });
    expect((await s.subscriptions.retrieve(world.id)).items.data[0].current_period_end).toBe(
      worldEnd,
    );
    expect((await s.invoices.list({ subscription: world.id })).data).toHaveLength(1);
    const clockEnd = (await s.subscriptions.retrieve(onIt.id)).items.data[0].current_period_end;
    inst.advanceClock(70 * DAY * 1000);
    // The world renewed its own subscription twice; the clock's stays where the clock left it.
    expect((await s.invoices.list({ subscription: world.id })).data).toHaveLength(3);
    const still = await s.subscriptions.retrieve(onIt.id);
    expect(still.items.data[0].current_period_end).toBe(clockEnd);
    expect((await s.invoices.list({ subscription: onIt.id })).data).toHaveLength(2);
    // A week after its creation the world deletes the clock, and its customer with it.
    await expect(s.testHelpers.testClocks.retrieve(clock.id)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('refuses a time in the past or now, more than two intervals ahead, and a deleted clock', async () => {
    const { s } = fresh();
    const { clock, customer, price } = await onClock(s);
    const past = await err(
      s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 - 1 }),
    );
    expect(past).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      param: 'frozen_time',
    });
    expect(past.message).toContain('must be after');
    const same = await err(s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 }));
    expect(same.param).toBe('frozen_time');
    // Without subscriptions a clock may go two years ahead; with a monthly one, two months.
    const far = await err(
      s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 800 * DAY }),
    );
    expect(far.message).toContain('two years');
    const sub = await s.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
    });
    const twoMonths = JAN_2027 + 59 * DAY;
    const tooFar = await err(
      s.testHelpers.testClocks.advance(clock.id, { frozen_time: twoMonths + 1 }),
    );
    expect(tooFar.message).toContain(`at most ${twoMonths}`);
    expect((await s.testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(JAN_2027);
    // Deleting the clock deletes its customer and ends the subscription; the clock is gone.
    await s.testHelpers.testClocks.del(clock.id);
    expect(await s.customers.retrieve(customer.id)).toMatchObject({ deleted: true });
    expect(await s.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'canceled',
      ended_at: JAN_2027,
    });
    for (const call of [
      s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + DAY }),
      s.testHelpers.testClocks.retrieve(clock.id),
      s.testHelpers.testClocks.del(clock.id),
    ])
      expect(await err(call)).toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
        message: `No such test_clock: '${clock.id}'`,
      });
  });

  it('replays: the same calls give byte-identical state, from the SDK and from the call log', async () => {
    // The SDK sends a random Idempotency-Key with each POST; the same calls name their own.
    const run = async () => {
      const { inst, s } = fresh(21);
      let n = 0;
      const key = () => ({ idempotencyKey: `replay-${++n}` });
      const clock = await s.testHelpers.testClocks.create({ frozen_time: JAN_2027 }, key());
      const customer = await s.customers.create({ test_clock: clock.id }, key());
      await s.paymentMethods.attach('pm_card_visa', { customer: customer.id }, key());
      const price = await s.prices.create(
        {
          product_data: { name: 'Plan' },
          currency: 'usd',
          unit_amount: 2000,
          recurring: { interval: 'month' },
        },
        key(),
      );
      await s.subscriptions.create(
        { customer: customer.id, items: [{ price: price.id }], trial_period_days: 7 },
        key(),
      );
      await s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 45 * DAY }, key());
      await s.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_2027 + 90 * DAY }, key());
      await s.testHelpers.testClocks.del(clock.id, {}, key());
      return inst;
    };
    const first = await run();
    const second = await run();
    expect(JSON.stringify(second.changes())).toBe(JSON.stringify(first.changes()));
    const again = stripe.instance({ fixture: 'empty', seed: 21 });
    for (const entry of first.callLog()) again.operation(entry.tool, entry.args);
    expect(JSON.stringify(again.changes())).toBe(JSON.stringify(first.changes()));
    expect(first.changes().filter((c) => c.table === 'invoices')).toHaveLength(2);
  });

  it("runs docs/stripe.md's test clock example as written", async () => {
    const { s } = fresh();
    const printed = await runDocExample('clock-example', s);
    expect(printed).toEqual([['subscription_cycle', 'subscription_create']]);
  });
});
