import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Instance } from 'seahaven';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Payment intents and charges through the official SDK: the state machine (succeeded, declined, 3D Secure, manual
// capture, cancel), the charges and balance transactions a payment writes, and Stripe's errors for wrong states.

function fresh(seed = 31) {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as InstanceType<typeof Stripe.errors.StripeError>;
const eventTypes = (inst: Instance) =>
  inst.query<{ type: string }>('SELECT type FROM events ORDER BY seq').map((r) => r.type);
const txns = (inst: Instance) =>
  inst
    .query<{ data: string }>('SELECT data FROM balance_transactions ORDER BY seq')
    .map((r) => JSON.parse(r.data) as Stripe.BalanceTransaction);

describe('payment intents', () => {
  it('a card payment succeeds: a captured charge, its balance transaction with the card fee, and the events', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ email: 'pay@example.com' });
    const pi = await s.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: cus.id,
      description: 'Order 1',
      metadata: { order: '1' },
    });
    expect(pi).toMatchObject({
      object: 'payment_intent',
      status: 'requires_payment_method',
      amount: 2000,
      automatic_payment_methods: { enabled: true },
      latest_charge: null,
    });
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`));
    expect(shapeDifferences('payment_intent', plain(pi))).toEqual([]);
    const withPm = await s.paymentIntents.update(pi.id, { payment_method: 'pm_card_visa' });
    expect(withPm.status).toBe('requires_confirmation');
    const done = await s.paymentIntents.confirm(pi.id, { expand: ['latest_charge'] });
    expect(done).toMatchObject({
      status: 'succeeded',
      amount_received: 2000,
      last_payment_error: null,
    });
    const ch = done.latest_charge as Stripe.Charge;
    expect(ch).toMatchObject({
      object: 'charge',
      status: 'succeeded',
      paid: true,
      captured: true,
      amount: 2000,
      amount_captured: 2000,
      customer: cus.id,
      payment_intent: pi.id,
      description: 'Order 1',
      outcome: { type: 'authorized' },
    });
    expect(ch.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(shapeDifferences('charge', plain(ch))).toEqual([]);
    expect(
      shapeDifferences('payment_intent', plain(await s.paymentIntents.retrieve(pi.id))),
    ).toEqual([]);
    const [txn] = txns(inst);
    expect(txn).toMatchObject({
      id: ch.balance_transaction,
      amount: 2000,
      fee: 88,
      net: 1912,
      type: 'charge',
      source: ch.id,
      status: 'pending',
    });
    expect(eventTypes(inst)).toEqual([
      'customer.created',
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
    ]);
    // Retrieve, list (by customer), and the charge's own endpoints agree.
    expect((await s.paymentIntents.list({ customer: cus.id })).data.map((x) => x.id)).toEqual([
      pi.id,
    ]);
    expect((await s.paymentIntents.list({ customer: 'cus_other' })).data).toEqual([]);
    expect((await s.charges.list({ payment_intent: pi.id })).data.map((x) => x.id)).toEqual([
      ch.id,
    ]);
    expect((await s.charges.list({ customer: cus.id })).data.map((x) => x.id)).toEqual([ch.id]);
    expect(plain(await s.charges.retrieve(ch.id))).toEqual(plain(ch));
  });

  it('confirm=true on create, with either spelling of the payment method types; bypassPending funds are available at once', async () => {
    const { inst, s } = fresh();
    const a = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_bypassPending',
      allowed_payment_method_types: ['card'],
    } as Stripe.PaymentIntentCreateParams);
    expect(a).toMatchObject({
      status: 'succeeded',
      automatic_payment_methods: null,
      payment_method_types: ['card'],
    });
    const b = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_mastercard',
      payment_method_types: ['card'],
    } as Stripe.PaymentIntentCreateParams);
    expect(b.status).toBe('succeeded');
    expect(txns(inst).map((t) => t.status)).toEqual(['available', 'pending']);
  });

  it('a decline answers 402 with the intent back at requires_payment_method, and stores the failed charge', async () => {
    const { inst, s } = fresh();
    const e = await err(
      s.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        confirm: true,
        payment_method: 'pm_card_visa_chargeDeclinedInsufficientFunds',
      }),
    );
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    const raw = e.raw as {
      charge: string;
      payment_intent: Stripe.PaymentIntent;
      payment_method: Stripe.PaymentMethod;
    };
    expect(raw.payment_intent).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      latest_charge: raw.charge,
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        charge: raw.charge,
      },
    });
    expect(raw.payment_method.object).toBe('payment_method');
    const ch = await s.charges.retrieve(raw.charge);
    expect(ch).toMatchObject({
      status: 'failed',
      paid: false,
      captured: false,
      failure_code: 'card_declined',
      balance_transaction: null,
      outcome: { type: 'issuer_declined', reason: 'insufficient_funds' },
    });
    expect(shapeDifferences('charge', plain(ch))).toEqual([]);
    expect(plain(await s.paymentIntents.retrieve(raw.payment_intent.id))).toEqual(
      raw.payment_intent,
    );
    expect(txns(inst)).toEqual([]);
    expect(eventTypes(inst)).toEqual([
      'payment_intent.created',
      'charge.failed',
      'payment_intent.payment_failed',
    ]);
    // The intent can be retried with another card.
    const ok = await s.paymentIntents.confirm(raw.payment_intent.id, {
      payment_method: 'pm_card_visa',
    });
    expect(ok).toMatchObject({ status: 'succeeded', last_payment_error: null });
  });

  it('Radar blocks pm_card_radarBlock: a blocked charge with decline_code fraudulent', async () => {
    const { s } = fresh();
    const e = await err(
      s.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        confirm: true,
        payment_method: 'pm_card_radarBlock',
      }),
    );
    expect(e).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'fraudulent' });
    const ch = await s.charges.retrieve((e.raw as { charge: string }).charge);
    expect(ch.outcome).toMatchObject({
      type: 'blocked',
      risk_level: 'highest',
      network_status: 'not_sent_to_network',
    });
  });

  it('3D Secure: requires_action with next_action, completed by the authentication hook; off-session answers authentication_required', async () => {
    const { inst, s } = fresh();
    const pi = await s.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_authenticationRequired',
    });
    expect(pi).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
      latest_charge: null,
    });
    expect(shapeDifferences('payment_intent', plain(pi))).toEqual([]);
    const redirect = await s.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_threeDSecure2Required',
      return_url: 'https://example.com/back',
    });
    expect(redirect.next_action).toMatchObject({
      type: 'redirect_to_url',
      redirect_to_url: { return_url: 'https://example.com/back' },
    });
    const done = await s.rawRequest('POST', `/v1/test_helpers/authenticate/${pi.id}`, {
      outcome: 'succeed',
    });
    expect(done).toMatchObject({
      id: pi.id,
      status: 'succeeded',
      next_action: null,
      amount_received: 3000,
    });
    const after = await s.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] });
    expect(
      (after.latest_charge as Stripe.Charge).payment_method_details?.card?.three_d_secure,
    ).toMatchObject({ result: 'authenticated' });
    expect(eventTypes(inst).filter((t) => t.startsWith('payment_intent.'))).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.succeeded',
    ]);
    // A failed challenge sends the intent back for another payment method; an authenticated card can still decline.
    const failedAuth = await s.rawRequest('POST', `/v1/test_helpers/authenticate/${redirect.id}`, {
      outcome: 'fail',
    });
    expect(failedAuth).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    const poor = await s.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
    });
    const declined = await err(
      s.rawRequest('POST', `/v1/test_helpers/authenticate/${poor.id}`, { outcome: 'succeed' }),
    );
    expect(declined).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
    expect((await s.paymentIntents.retrieve(poor.id)).status).toBe('requires_payment_method');
    const cus = await s.customers.create({});
    const off = await err(
      s.paymentIntents.create({
        amount: 3000,
        currency: 'usd',
        customer: cus.id,
        confirm: true,
        off_session: true,
        payment_method: 'pm_card_authenticationRequired',
      }),
    );
    expect(off).toMatchObject({
      statusCode: 402,
      code: 'authentication_required',
      decline_code: 'authentication_required',
    });
    expect((off.raw as { payment_intent: Stripe.PaymentIntent }).payment_intent.status).toBe(
      'requires_payment_method',
    );
  });

  it('manual capture: requires_capture, then a partial capture; the balance takes only what was captured', async () => {
    const { inst, s } = fresh();
    const pi = await s.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      capture_method: 'manual',
      confirm: true,
      payment_method: 'pm_card_visa',
    });
    expect(pi).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 5000,
      amount_received: 0,
    });
    const ch = await s.charges.retrieve(pi.latest_charge as string);
    expect(ch).toMatchObject({
      status: 'succeeded',
      captured: false,
      amount_captured: 0,
      balance_transaction: null,
    });
    expect(txns(inst)).toEqual([]);
    const tooMuch = await err(s.paymentIntents.capture(pi.id, { amount_to_capture: 6000 }));
    expect(tooMuch).toMatchObject({ statusCode: 400, param: 'amount_to_capture' });
    const cap = await s.paymentIntents.capture(pi.id, { amount_to_capture: 4000 });
    expect(cap).toMatchObject({ status: 'succeeded', amount_received: 4000, amount_capturable: 0 });
    expect(await s.charges.retrieve(ch.id)).toMatchObject({
      captured: true,
      amount_captured: 4000,
      amount_refunded: 1000,
      refunded: false,
    });
    expect(txns(inst).map((t) => [t.amount, t.fee])).toEqual([[4000, 146]]);
    expect(eventTypes(inst)).toEqual([
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.amount_capturable_updated',
      'charge.captured',
      'payment_intent.succeeded',
    ]);
    const again = await err(s.paymentIntents.capture(pi.id));
    expect(again).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });

  it('increments an authorization it asked for, and cancels an authorised intent by releasing its charge', async () => {
    const { inst, s } = fresh();
    const pi = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      capture_method: 'manual',
      confirm: true,
      payment_method: 'pm_card_visa',
      payment_method_options: { card: { request_incremental_authorization: 'if_available' } },
    });
    const more = await s.paymentIntents.incrementAuthorization(pi.id, { amount: 1500 });
    expect(more).toMatchObject({
      amount: 1500,
      amount_capturable: 1500,
      status: 'requires_capture',
    });
    const plainPi = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      capture_method: 'manual',
      confirm: true,
      payment_method: 'pm_card_visa',
    });
    expect(
      await err(s.paymentIntents.incrementAuthorization(plainPi.id, { amount: 1500 })),
    ).toMatchObject({ statusCode: 400 });
    const canceled = await s.paymentIntents.cancel(pi.id, {
      cancellation_reason: 'requested_by_customer',
    });
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested_by_customer',
      amount_capturable: 0,
    });
    expect(canceled.canceled_at).toBe(Math.floor(inst.clock.now() / 1000));
    expect(await s.charges.retrieve(pi.latest_charge as string)).toMatchObject({
      captured: false,
      refunded: true,
      amount_refunded: 1500,
    });
    expect(txns(inst)).toEqual([]);
    expect(eventTypes(inst)).toContain('payment_intent.canceled');
    expect(await err(s.paymentIntents.cancel(pi.id))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    expect(
      await err(s.paymentIntents.incrementAuthorization(pi.id, { amount: 2000 })),
    ).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });

  it('line items, search, customer balance and microdeposits endpoints', async () => {
    const { s } = fresh();
    const cus = await s.customers.create({});
    const pi = await s.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: cus.id,
      amount_details: {
        line_items: [
          { product_name: 'Tea', quantity: 2, unit_cost: 1000 },
          { product_name: 'Cup', quantity: 1, unit_cost: 500, tax: { total_tax_amount: 0 } },
        ],
      },
    } as Stripe.PaymentIntentCreateParams);
    const items = await s.paymentIntents.listAmountDetailsLineItems(pi.id, { limit: 1 });
    expect(items).toMatchObject({ object: 'list', has_more: true });
    expect(items.data[0]).toMatchObject({
      object: 'payment_intent_amount_details_line_item',
      product_name: 'Tea',
      quantity: 2,
      unit_cost: 1000,
    });
    expect(
      shapeDifferences('payment_intent_amount_details_line_item', plain(items.data[0])),
    ).toEqual([]);
    const next = await s.paymentIntents.listAmountDetailsLineItems(pi.id, {
      starting_after: items.data[0].id,
    });
    expect(next.data.map((x) => x.product_name)).toEqual(['Cup']);
    const found = await s.paymentIntents.search({ query: `customer:"${cus.id}"` });
    expect(found).toMatchObject({ object: 'search_result', url: '/v1/payment_intents/search' });
    expect(found.data.map((x) => x.id)).toEqual([pi.id]);
    expect(await err(s.paymentIntents.applyCustomerBalance(pi.id))).toMatchObject({
      statusCode: 400,
    });
    const cb = await s.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: cus.id,
      payment_method_types: ['customer_balance'],
    } as Stripe.PaymentIntentCreateParams);
    expect((await s.paymentIntents.applyCustomerBalance(cb.id, { amount: 100 })).id).toBe(cb.id);
    expect(
      await err(s.paymentIntents.verifyMicrodeposits(pi.id, { amounts: [32, 45] })),
    ).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const pi = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      confirm: true,
      payment_method: 'pm_card_visa',
    });
    inst.query('SELECT 1');
    const before = inst.changes();
    const missing = await err(s.paymentIntents.retrieve('pi_nope'));
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such payment_intent: 'pi_nope'",
    });
    expect(await err(s.charges.retrieve('ch_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await err(s.paymentIntents.confirm(pi.id))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    expect(await err(s.paymentIntents.cancel(pi.id))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    expect(await err(s.paymentIntents.update(pi.id, { amount: 5000 }))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    expect(await err(s.paymentIntents.create({ amount: 49, currency: 'usd' }))).toMatchObject({
      statusCode: 400,
      code: 'amount_too_small',
      param: 'amount',
    });
    expect(
      await err(
        s.paymentIntents.create({
          amount: 1000,
          currency: 'usd',
          confirm: true,
          payment_method: 'pm_nope',
        }),
      ),
    ).toMatchObject({ statusCode: 404, param: 'payment_method' });
    const bare = await s.paymentIntents.create({ amount: 1000, currency: 'usd' });
    const afterCreate = inst.changes();
    expect(await err(s.paymentIntents.confirm(bare.id))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    expect(inst.changes()).toEqual(afterCreate);
    expect(afterCreate.length).toBeGreaterThan(before.length);
    // Metadata stays updatable after success.
    expect((await s.paymentIntents.update(pi.id, { metadata: { k: 'v' } })).metadata).toEqual({
      k: 'v',
    });
  });
});

describe('charges', () => {
  it('the legacy charges API: a token source, a customer default, update, capture, list, search', async () => {
    const { inst, s } = fresh();
    const ch = await s.charges.create({
      amount: 1200,
      currency: 'usd',
      source: 'tok_visa',
      description: 'legacy',
    });
    expect(ch).toMatchObject({
      status: 'succeeded',
      captured: true,
      amount: 1200,
      payment_intent: null,
      refunds: { object: 'list', data: [] },
    });
    expect(shapeDifferences('charge', plain(ch))).toEqual([]);
    const auth = await s.charges.create({
      amount: 2000,
      currency: 'usd',
      source: 'tok_mastercard',
      capture: false,
    });
    expect(auth).toMatchObject({ captured: false, balance_transaction: null });
    const cap = await s.charges.capture(auth.id, { amount: 1500 });
    expect(cap).toMatchObject({ captured: true, amount_captured: 1500, amount_refunded: 500 });
    expect(await err(s.charges.capture(auth.id))).toMatchObject({
      statusCode: 400,
      code: 'charge_already_captured',
    });
    const up = await s.charges.update(ch.id, { description: 'renamed', metadata: { a: '1' } });
    expect(up).toMatchObject({ description: 'renamed', metadata: { a: '1' } });
    const cus = await s.customers.create({});
    const pm = await s.paymentMethods.attach('pm_card_visa', { customer: cus.id });
    await s.customers.update(cus.id, { invoice_settings: { default_payment_method: pm.id } });
    const byDefault = await s.charges.create({ amount: 700, currency: 'usd', customer: cus.id });
    expect(byDefault).toMatchObject({
      customer: cus.id,
      payment_method: pm.id,
      status: 'succeeded',
    });
    const noCard = await s.customers.create({});
    expect(
      await err(s.charges.create({ amount: 700, currency: 'usd', customer: noCard.id })),
    ).toMatchObject({ statusCode: 400 });
    const declined = await err(
      s.charges.create({ amount: 700, currency: 'usd', source: 'tok_chargeDeclinedExpiredCard' }),
    );
    expect(declined).toMatchObject({ statusCode: 402, code: 'expired_card' });
    expect((await s.charges.retrieve((declined.raw as { charge: string }).charge)).status).toBe(
      'failed',
    );
    const list = await s.charges.list({ limit: 2 });
    expect(list.has_more).toBe(true);
    const found = await s.charges.search({ query: 'status:"failed"' });
    expect(found).toMatchObject({ object: 'search_result', url: '/v1/charges/search' });
    expect(found.data.map((x) => x.id)).toEqual([(declined.raw as { charge: string }).charge]);
    expect(eventTypes(inst)).toEqual(
      expect.arrayContaining([
        'charge.succeeded',
        'charge.captured',
        'charge.updated',
        'charge.failed',
      ]),
    );
  });

  it('a PaymentIntent charge captured through the charges API moves its intent along', async () => {
    const { s } = fresh();
    const pi = await s.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      capture_method: 'manual',
      confirm: true,
      payment_method: 'pm_card_visa',
    });
    await s.charges.capture(pi.latest_charge as string);
    expect(await s.paymentIntents.retrieve(pi.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 5000,
    });
  });
});
