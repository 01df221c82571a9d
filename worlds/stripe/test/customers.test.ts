import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { headerOf, sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Customers through the official SDK, in process (sdk.ts): CRUD, list and pagination, search, errors, the account.

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 7 });
  return { inst, s: sdkFor(inst) };
}

describe('customers', () => {
  it('create, retrieve, update, delete: shapes match Stripe, metadata keys decode, deleted customers are stubs', async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      metadata: { 'order id': 'A-1' },
    });
    expect(c).toMatchObject({
      object: 'customer',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      metadata: { 'order id': 'A-1' },
      livemode: false,
    });
    expect(c.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    expect(c.created).toBe(Math.floor(inst.clock.now() / 1000));
    expect(c.lastResponse.requestId).toMatch(/^req_/);
    expect(shapeDifferences('customer', plain(c))).toEqual([]);
    expect(plain(await s.customers.retrieve(c.id))).toEqual(plain(c));
    const u = await s.customers.update(c.id, {
      name: 'Ada King',
      metadata: { 'order id': '' },
      description: 'VIP',
    });
    expect(u).toMatchObject({ name: 'Ada King', metadata: {}, description: 'VIP' });
    const del = await s.customers.del(c.id);
    expect(plain(del)).toEqual({ id: c.id, object: 'customer', deleted: true });
    expect(shapeDifferences('deleted_customer', plain(del))).toEqual([]);
    expect(plain(await s.customers.retrieve(c.id))).toEqual({
      id: c.id,
      object: 'customer',
      deleted: true,
    });
    expect((await s.customers.list()).data).toEqual([]);
    expect(inst.query('SELECT type FROM events ORDER BY seq').map((r) => r.type)).toEqual([
      'customer.created',
      'customer.updated',
      'customer.deleted',
    ]);
  });

  it('lists newest first with cursors, and the SDK auto-paginates', async () => {
    const { s } = fresh();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push(
        (
          await s.customers.create({
            name: `c${i}`,
            email: i % 5 === 0 ? 'five@example.com' : `c${i}@example.com`,
          })
        ).id,
      );
    const page = await s.customers.list({ limit: 3 });
    expect(page).toMatchObject({ object: 'list', has_more: true, url: '/v1/customers' });
    expect(page.data.map((c) => c.id)).toEqual(ids.slice(-3).reverse());
    const next = await s.customers.list({ limit: 3, starting_after: page.data[2].id });
    expect(next.data.map((c) => c.id)).toEqual(ids.slice(-6, -3).reverse());
    const back = await s.customers.list({ limit: 3, ending_before: next.data[0].id });
    expect(back.data.map((c) => c.id)).toEqual(page.data.map((c) => c.id));
    const all: string[] = [];
    for await (const c of s.customers.list({ limit: 4 })) all.push(c.id);
    expect(all).toEqual([...ids].reverse());
    expect((await s.customers.list({ email: 'five@example.com' })).data).toHaveLength(5);
  });

  it('answers mistakes as Stripe does', async () => {
    const { inst, s } = fresh();
    const err = async (p: Promise<unknown>) =>
      (await p.then(
        () => null,
        (e: unknown) => e,
      )) as InstanceType<typeof Stripe.errors.StripeError>;
    const missing = await err(s.customers.retrieve('cus_nope'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: "No such customer: 'cus_nope'",
    });
    expect(missing.requestId).toMatch(/^req_/);
    expect(
      await err(s.customers.create({ nme: 'x' } as Stripe.CustomerCreateParams)),
    ).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'nme' });
    expect(await err(s.customers.create({ balance: 'lots' as unknown as number }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_invalid_integer',
      param: 'balance',
    });
    expect(
      await err(s.customers.list({ limit: 3, starting_after: 'cus_a', ending_before: 'cus_b' })),
    ).toMatchObject({
      statusCode: 400,
      message:
        'Received both starting_after and ending_before parameters. Please pass in only one.',
    });
    // A failed request changes nothing.
    expect(inst.changes()).toEqual([]);
  });

  it('replays a POST with the same Idempotency-Key, and refuses the key with other parameters', async () => {
    const { inst, s } = fresh();
    const a = await s.customers.create({ name: 'Once' }, { idempotencyKey: 'k-1' });
    const b = await s.customers.create({ name: 'Once' }, { idempotencyKey: 'k-1' });
    expect(b.id).toBe(a.id);
    expect(headerOf(b, 'Idempotent-Replayed')).toBe('true');
    expect(b.lastResponse.requestId).toBe(a.lastResponse.requestId);
    expect(inst.query('SELECT count(*) AS n FROM customers')).toEqual([{ n: 1 }]);
    const e = await s.customers
      .create({ name: 'Other' }, { idempotencyKey: 'k-1' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    // The call log records each call's result as the operation answered it, the first and the replay alike.
    const [first, replay] = inst.callLog();
    expect(first.result).toEqual({
      status: 200,
      body: plain(a),
      request_id: a.lastResponse.requestId,
    });
    expect(replay.result).toEqual({ ...(first.result as object), replayed: true });
    // The stored reply is the one the call log holds.
    const [stored] = inst.query<{ body: string }>('SELECT body FROM idempotency_keys');
    expect(JSON.parse(stored.body)).toEqual((first.result as { body: unknown }).body);
  });

  it('attaches the payment_method given on create, and refuses one that does not exist', async () => {
    const { inst, s } = fresh();
    const pm = await s.paymentMethods.create({ type: 'card', card: { token: 'tok_visa' } });
    const c = await s.customers.create({ name: 'Card holder', payment_method: pm.id });
    expect((await s.paymentMethods.retrieve(pm.id)).customer).toBe(c.id);
    const listed = await s.customers.listPaymentMethods(c.id);
    expect(listed.data.map((m) => m.id)).toEqual([pm.id]);
    const types = inst
      .query('SELECT type FROM events ORDER BY seq')
      .map((r) => r.type as string)
      .slice(-2);
    expect(types).toEqual(['customer.created', 'payment_method.attached']);
    // A test token makes a fresh card, as on attach.
    const t = await s.customers.create({ payment_method: 'pm_card_mastercard' });
    expect((await s.customers.listPaymentMethods(t.id)).data[0].card?.brand).toBe('mastercard');
    const before = JSON.stringify(inst.changes());
    const e = (await s.customers
      .create({ name: 'Nobody', payment_method: 'pm_missing' })
      .catch((x: unknown) => x)) as Stripe.errors.StripeError;
    expect(e).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(e).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'payment_method',
      message: "No such PaymentMethod: 'pm_missing'",
    });
    expect(JSON.stringify(inst.changes())).toBe(before);
  });

  it('includes subscriptions and tax_ids when expand[] names them, and only then', async () => {
    const { s } = fresh();
    const c = await s.customers.create({ name: 'Subscriber', payment_method: 'pm_card_visa' });
    const pm = (await s.customers.listPaymentMethods(c.id)).data[0];
    await s.customers.update(c.id, { invoice_settings: { default_payment_method: pm.id } });
    const price = await s.prices.create({
      product_data: { name: 'Pro' },
      currency: 'usd',
      unit_amount: 1000,
      recurring: { interval: 'month' },
    });
    const kept = await s.subscriptions.create({ customer: c.id, items: [{ price: price.id }] });
    const gone = await s.subscriptions.create({ customer: c.id, items: [{ price: price.id }] });
    await s.subscriptions.cancel(gone.id);
    const got = await s.customers.retrieve(c.id, { expand: ['subscriptions', 'tax_ids'] });
    if (got.deleted) throw new Error('the customer was deleted');
    expect(got.subscriptions).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/customers/${c.id}/subscriptions`,
    });
    expect(got.subscriptions?.data.map((x) => x.id)).toEqual([kept.id]);
    expect(got.tax_ids).toMatchObject({ object: 'list', data: [], has_more: false });
    const plainOne = await s.customers.retrieve(c.id);
    expect(Object.keys(plainOne)).not.toContain('subscriptions');
    const e = (await s.customers
      .retrieve(c.id, { expand: ['sources_x'] })
      .catch((x: unknown) => x)) as Stripe.errors.StripeError;
    expect(e.message).toBe('This property cannot be expanded (sources_x).');
  });

  it('reads the account', async () => {
    const { s } = fresh();
    const a = await s.accounts.retrieveCurrent();
    expect(shapeDifferences('account', plain(a))).toEqual([]);
    expect(plain(await s.accounts.retrieve(a.id))).toEqual(plain(a));
  });
});
