import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { credentialOf } from '../face.ts';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';

const card = { number: '4242424242424242', exp_month: '12', exp_year: '2030', cvc: '123' };

describe('card tokens and customer card sources', () => {
  it('a publishable key makes a card token, which becomes a customer source once', async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    const secret = sdkFor(inst, { key: 'sk_test_shop' });
    const browser = sdkFor(inst, { key: 'pk_test_shop' });
    const tok = await browser.tokens.create({ card });
    expect(tok).toMatchObject({ object: 'token', type: 'card', used: false });
    expect(tok.card).toMatchObject({ brand: 'Visa', last4: '4242', exp_year: 2030 });
    // A publishable key still cannot read the token back: that is a secret-key call.
    const denied = (await browser.tokens
      .retrieve(tok.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(denied.statusCode).toBe(403);

    const cus = await secret.customers.create({ email: 'ada@example.com' });
    const src = (await secret.customers.createSource(cus.id, { source: tok.id })) as Stripe.Card;
    expect(src).toMatchObject({ id: tok.card!.id, object: 'card', customer: cus.id });
    expect((await secret.tokens.retrieve(tok.id)).used).toBe(true);
    const again = (await secret.customers
      .createSource(cus.id, { source: tok.id })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(again).toMatchObject({ statusCode: 400, code: 'token_already_used' });
    expect((await secret.customers.retrieve(cus.id)) as Stripe.Customer).toMatchObject({
      default_source: src.id,
    });

    const other = await secret.customers.createSource(cus.id, { source: 'tok_mastercard' });
    const list = await secret.customers.listSources(cus.id, { object: 'card' });
    expect(list.data.map((c) => c.id)).toEqual([other.id, src.id]);
    // The customer carries its sources only when expand[] names them.
    expect((await secret.customers.retrieve(cus.id)) as Stripe.Customer).not.toHaveProperty(
      'sources',
    );
    const expanded = (await secret.customers.retrieve(cus.id, {
      expand: ['sources'],
    })) as Stripe.Customer;
    expect(expanded.sources).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/customers/${cus.id}/sources`,
    });
    expect(expanded.sources!.data.map((c) => c.id)).toEqual([other.id, src.id]);

    const renamed = (await secret.customers.updateSource(cus.id, src.id, {
      name: 'Jane Doe',
    })) as Stripe.Card;
    expect(renamed.name).toBe('Jane Doe');
    expect(((await secret.customers.retrieveSource(cus.id, src.id)) as Stripe.Card).name).toBe(
      'Jane Doe',
    );

    // A charge with only the customer uses its default source.
    const ch = await secret.charges.create({ customer: cus.id, amount: 1500, currency: 'usd' });
    expect(ch).toMatchObject({ status: 'succeeded', payment_method: src.id });

    expect(await secret.customers.deleteSource(cus.id, src.id)).toEqual({
      id: src.id,
      object: 'card',
      deleted: true,
    });
    expect(((await secret.customers.retrieve(cus.id)) as Stripe.Customer).default_source).toBe(
      other.id,
    );
    const gone = (await secret.customers
      .retrieveSource(cus.id, src.id)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(gone.statusCode).toBe(404);
  });

  it('refuses an expired card, a declining card on attach, and an unknown token', async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    const secret = sdkFor(inst, { key: 'sk_test_shop' });
    const expired = (await secret.tokens
      .create({ card: { ...card, exp_year: '2018' } })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(expired).toMatchObject({ statusCode: 402, code: 'invalid_expiry_year' });
    const cus = await secret.customers.create({});
    const declined = (await secret.customers
      .createSource(cus.id, { source: 'tok_chargeDeclined' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(declined).toMatchObject({ statusCode: 402, code: 'card_declined' });
    expect((await secret.customers.listSources(cus.id, { object: 'card' })).data).toEqual([]);
    const missing = (await secret.customers
      .createSource(cus.id, { source: 'tok_nope' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(missing).toMatchObject({ statusCode: 404, param: 'source' });
  });

  it('adds a card from a dictionary of card details, on /sources and on /cards, and serves cards under /cards', async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    const s = sdkFor(inst, { key: 'sk_test_shop' });
    const cus = await s.customers.create({});
    const details = { object: 'card', ...card, name: 'Ada Lovelace', metadata: { kind: 'work' } };
    const first = (await s.rawRequest('POST', `/v1/customers/${cus.id}/sources`, {
      source: details,
    })) as Stripe.Card;
    expect(first).toMatchObject({
      object: 'card',
      customer: cus.id,
      brand: 'Visa',
      last4: '4242',
      exp_year: 2030,
      name: 'Ada Lovelace',
      metadata: { kind: 'work' },
    });
    expect(first.id).toMatch(/^card_/);
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).default_source).toBe(first.id);
    const second = (await s.rawRequest('POST', `/v1/customers/${cus.id}/cards`, {
      source: { ...details, number: '5555555555554444' },
    })) as Stripe.Card;
    expect(second).toMatchObject({ object: 'card', brand: 'MasterCard', customer: cus.id });

    const listed = (await s.rawRequest(
      'GET',
      `/v1/customers/${cus.id}/cards`,
    )) as Stripe.ApiList<Stripe.Card>;
    expect(listed).toMatchObject({ object: 'list', url: `/v1/customers/${cus.id}/cards` });
    expect(listed.data.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(await s.rawRequest('GET', `/v1/customers/${cus.id}/cards/${first.id}`)).toMatchObject({
      id: first.id,
      last4: '4242',
    });
    expect(
      await s.rawRequest('POST', `/v1/customers/${cus.id}/cards/${second.id}`, {
        name: 'Jane Doe',
      }),
    ).toMatchObject({ id: second.id, name: 'Jane Doe' });
    expect(await s.rawRequest('DELETE', `/v1/customers/${cus.id}/cards/${first.id}`)).toEqual(
      expect.objectContaining({ id: first.id, object: 'card', deleted: true }),
    );
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).default_source).toBe(
      second.id,
    );
    const gone = (await s
      .rawRequest('GET', `/v1/customers/${cus.id}/cards/${first.id}`)
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(gone).toMatchObject({ statusCode: 404 });
  });

  it('refuses a card dictionary as a token card is refused, naming source[…], and changes nothing', async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    const s = sdkFor(inst, { key: 'sk_test_shop' });
    const cus = await s.customers.create({});
    const start = inst.changes().length;
    const add = (source: unknown) =>
      s
        .rawRequest('POST', `/v1/customers/${cus.id}/cards`, { source })
        .catch((e: unknown) => e) as Promise<Stripe.errors.StripeError>;
    expect(await add({ object: 'card', ...card, number: '4000000000000002' })).toMatchObject({
      statusCode: 402,
      type: 'StripeCardError',
      code: 'card_declined',
    });
    expect(await add({ object: 'card', ...card, exp_year: '2020' })).toMatchObject({
      statusCode: 402,
      code: 'invalid_expiry_year',
      param: 'source[exp_year]',
    });
    expect(await add({ object: 'card', exp_month: '12', exp_year: '2030' })).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'source[number]',
    });
    expect(await add('')).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'source',
    });
    expect(await add({ object: 'bank_account', ...card })).toMatchObject({
      statusCode: 400,
      param: 'source[object]',
    });
    expect(await add({ object: 'card', ...card, metadata: 'work' })).toMatchObject({
      statusCode: 400,
      param: 'source[metadata]',
    });
    expect(inst.changes()).toHaveLength(start);
    expect((await s.rawRequest('GET', `/v1/customers/${cus.id}/cards`)).data).toEqual([]);
  });

  it("checks and merges a card's metadata as Stripe's other metadata, on adding and on updating", async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    const s = sdkFor(inst, { key: 'sk_test_shop' });
    const cus = await s.customers.create({});
    const src = (await s.customers.createSource(cus.id, {
      source: 'tok_visa',
      metadata: { kind: 'work' },
    })) as Stripe.Card;
    expect(src.metadata).toEqual({ kind: 'work' });
    const updated = (await s.customers.updateSource(cus.id, src.id, {
      metadata: { team: 'a', kind: '' },
    })) as Stripe.Card;
    expect(updated.metadata).toEqual({ team: 'a' });
    const start = inst.changes().length;
    const refused = (await s
      .rawRequest('POST', `/v1/customers/${cus.id}/cards/${src.id}`, { metadata: 'work' })
      .catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(refused).toMatchObject({ statusCode: 400, param: 'metadata' });
    expect(inst.changes()).toHaveLength(start);
  });

  it("reads a publishable key from the form body's `key`, as Stripe.js sends it", () => {
    expect(credentialOf({}, 'key=pk_test_shop&card[number]=4242424242424242')).toEqual({
      key: 'sk_test_shop',
    });
    const inst = stripe.instance({ fixture: 'empty' });
    const reply = inst.request({
      method: 'POST',
      path: '/tokens',
      query: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=pk_test_shop&card[number]=4242424242424242&card[exp_month]=1&card[exp_year]=2031&card[cvc]=123',
    });
    expect(reply.status).toBe(200);
  });
});
