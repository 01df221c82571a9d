import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { cardFor, cardOfPaymentMethod, TEST_TOKENS } from '../lib/test-cards.ts';
import type { Stored } from '../lib/store.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Payment methods, test cards and setup intents through the official SDK, in process (sdk.ts).

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 11 });
  return { inst, s: sdkFor(inst) };
}

type AnyStripeError = InstanceType<typeof Stripe.errors.StripeError>;
const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as AnyStripeError;
const eventTypes = (inst: ReturnType<typeof fresh>['inst']) =>
  inst.query('SELECT type FROM events ORDER BY seq').map((r) => r.type as string);

describe('test cards', () => {
  it('knows every spelling: pm_card_, tok_, the older forms without _visa_, and numbers', () => {
    expect(cardFor('pm_card_visa')).toMatchObject({
      brand: 'visa',
      last4: '4242',
      funding: 'credit',
      country: 'US',
    });
    expect(cardFor('tok_visa')?.fingerprint).toBe(cardFor('4242 4242 4242 4242')?.fingerprint);
    expect(cardFor('pm_card_mastercard_prepaid')).toMatchObject({
      brand: 'mastercard',
      funding: 'prepaid',
      last4: '5100',
    });
    expect(cardFor('pm_card_amex')).toMatchObject({ brand: 'amex', last4: '0005' });
    for (const t of [
      'pm_card_visa_chargeDeclined',
      'pm_card_chargeDeclined',
      'tok_visa_chargeDeclined',
      'tok_chargeDeclined',
    ]) {
      expect(cardFor(t)?.decline).toEqual({
        code: 'card_declined',
        decline_code: 'generic_decline',
      });
    }
    expect(
      cardFor('pm_card_chargeDeclinedInsufficientFunds')?.behaviour.decline?.decline_code,
    ).toBe('insufficient_funds');
    expect(cardFor('pm_card_visa_chargeDeclinedExpiredCard')?.decline).toEqual({
      code: 'expired_card',
    });
    expect(cardFor('tok_visa_chargeDeclinedFraudulent')?.decline).toEqual({
      code: 'card_declined',
      decline_code: 'fraudulent',
    });
    expect(cardFor('pm_card_chargeCustomerFail')).toMatchObject({ chargeCustomerFail: true });
    expect(cardFor('pm_card_chargeCustomerFail')?.attachDecline).toBeUndefined();
    expect(cardFor('pm_card_authenticationRequiredOnSetup')?.requiresAction).toBe('unless_setup');
    expect(cardFor('pm_card_threeDSecure2Required')?.requiresAction).toBe('always');
    expect(cardFor('pm_card_createDisputeInquiry')?.dispute).toBe('inquiry');
    expect(cardFor('pm_card_refundFail')?.refund).toBe('fail');
    expect(cardFor('pm_card_bypassPendingInternational')?.bypassPending).toBe(true);
    expect(cardFor('pm_card_riskLevelElevated')?.radar).toBe('elevated');
    expect(cardFor('4242424242424241')?.incorrectNumber).toBe(true);
    expect(cardFor('pm_card_nope')).toBeUndefined();
    expect(TEST_TOKENS).toContain('tok_mastercard_debit');
  });

  it('materialises a new payment method for each use of a token', async () => {
    const { s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const a = await s.paymentMethods.attach('pm_card_visa', { customer: cus.id });
    const b = await s.paymentMethods.attach('pm_card_visa', { customer: cus.id });
    expect(a.id).toMatch(/^pm_[A-Za-z0-9]{24}$/);
    expect(b.id).not.toBe(a.id);
    expect(a.card?.fingerprint).toBe(b.card?.fingerprint);
    expect(shapeDifferences('payment_method', plain(a))).toEqual([]);
    const si = await s.setupIntents.create({ payment_method: 'pm_card_mastercard' });
    const pm = await s.paymentMethods.retrieve(si.payment_method as string);
    expect(pm.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
  });
});

describe('payment methods', () => {
  it('create from a token or a number, retrieve, update (once saved), list', async () => {
    const { inst, s } = fresh();
    const pm = await s.paymentMethods.create({
      type: 'card',
      card: { token: 'tok_visa' },
      billing_details: { name: 'Ada', address: { postal_code: '94102' } },
      metadata: { k: 'v' },
    });
    expect(pm).toMatchObject({
      object: 'payment_method',
      type: 'card',
      customer: null,
      livemode: false,
      metadata: { k: 'v' },
    });
    expect(pm.card).toMatchObject({
      brand: 'visa',
      last4: '4242',
      display_brand: 'visa',
      funding: 'credit',
      wallet: null,
      networks: { available: ['visa'], preferred: null },
    });
    expect(pm.billing_details).toMatchObject({
      name: 'Ada',
      email: null,
      address: { postal_code: '94102', city: null },
    });
    expect(shapeDifferences('payment_method', plain(pm))).toEqual([]);
    expect(plain(await s.paymentMethods.retrieve(pm.id))).toEqual(plain(pm));

    const byNumber = await s.paymentMethods.create({
      type: 'card',
      card: { number: '5555 5555 5555 4444', exp_month: 3, exp_year: 2031, cvc: '123' },
    });
    expect(byNumber.card).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      exp_month: 3,
      exp_year: 2031,
      checks: { cvc_check: 'pass' },
    });
    expect(
      cardOfPaymentMethod(plain(byNumber) as unknown as Stored<'payment_methods'>)?.number,
    ).toBe('5555555555554444');

    // Stripe lets only a saved payment method change.
    expect(await err(s.paymentMethods.update(pm.id, { metadata: { k: 'w' } }))).toMatchObject({
      statusCode: 400,
      message: 'You must save this PaymentMethod to a customer before you can update it.',
    });
    const cus = await s.customers.create({ name: 'Ada' });
    await s.paymentMethods.attach(pm.id, { customer: cus.id });
    const u = await s.paymentMethods.update(pm.id, {
      metadata: { k: '', x: 'y' },
      billing_details: { email: 'ada@example.com' },
      card: { exp_month: 1, exp_year: 2033 },
    });
    expect(u).toMatchObject({
      metadata: { x: 'y' },
      billing_details: { email: 'ada@example.com', name: 'Ada' },
      card: { exp_month: 1, exp_year: 2033 },
    });
    expect(shapeDifferences('payment_method', plain(u))).toEqual([]);

    const all = await s.paymentMethods.list();
    expect(all.data.map((x) => x.id)).toEqual([byNumber.id, pm.id]);
    expect((await s.paymentMethods.list({ customer: cus.id })).data.map((x) => x.id)).toEqual([
      pm.id,
    ]);
    expect((await s.paymentMethods.list({ type: 'card', limit: 1 })).has_more).toBe(true);
    expect(eventTypes(inst)).toEqual([
      'customer.created',
      'payment_method.attached',
      'payment_method.updated',
    ]);
  });

  it('attach and detach, and the customer paths', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const other = await s.customers.create({ name: 'Bob' });
    const pm = await s.paymentMethods.attach('pm_card_amex', { customer: cus.id });
    expect(pm.customer).toBe(cus.id);
    const again = await s.paymentMethods.attach(pm.id, { customer: cus.id });
    expect(again.customer).toBe(cus.id);
    expect(await err(s.paymentMethods.attach(pm.id, { customer: other.id }))).toMatchObject({
      statusCode: 400,
      message: 'The payment method you provided has already been attached to a customer.',
    });
    await s.customers.update(cus.id, { invoice_settings: { default_payment_method: pm.id } });

    const listed = await s.customers.listPaymentMethods(cus.id);
    expect(listed).toMatchObject({
      object: 'list',
      url: `/v1/customers/${cus.id}/payment_methods`,
      has_more: false,
    });
    expect(listed.data.map((x) => x.id)).toEqual([pm.id]);
    expect((await s.customers.listPaymentMethods(other.id, { type: 'card' })).data).toEqual([]);
    const one = await s.customers.retrievePaymentMethod(cus.id, pm.id);
    expect(one.id).toBe(pm.id);
    expect(await err(s.customers.retrievePaymentMethod(other.id, pm.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: `No such PaymentMethod: '${pm.id}'`,
    });
    expect(await err(s.customers.listPaymentMethods('cus_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such customer: 'cus_nope'",
    });

    const detached = await s.paymentMethods.detach(pm.id);
    expect(detached.customer).toBeNull();
    expect(shapeDifferences('payment_method', plain(detached))).toEqual([]);
    expect((await s.customers.retrieve(cus.id)) as Stripe.Customer).toMatchObject({
      invoice_settings: { default_payment_method: null },
    });
    expect(await err(s.paymentMethods.detach(pm.id))).toMatchObject({
      statusCode: 400,
      message:
        'The payment method you provided is not attached to a customer so detachment is impossible.',
    });
    const types = eventTypes(inst);
    expect(types.slice(-3)).toEqual([
      'customer.updated',
      'customer.updated',
      'payment_method.detached',
    ]);
    const ev = inst.query("SELECT data FROM events WHERE type = 'payment_method.detached'")[0] as {
      data: string;
    };
    expect(JSON.parse(ev.data).data.previous_attributes).toEqual({ customer: cus.id });
  });

  it('decline cards cannot be attached; chargeCustomerFail can', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    for (const [token, code, decline] of [
      ['pm_card_visa_chargeDeclined', 'card_declined', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds'],
      ['pm_card_chargeDeclinedExpiredCard', 'expired_card', undefined],
    ] as const) {
      const e = await err(s.paymentMethods.attach(token, { customer: cus.id }));
      expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(e).toMatchObject({ statusCode: 402, type: 'StripeCardError', code });
      expect((e.raw as { decline_code?: string }).decline_code).toBe(decline);
    }
    // A stored decline card refuses as well, and stays unattached.
    const stored = await s.paymentMethods.create({
      type: 'card',
      card: { token: 'tok_chargeDeclined' },
    });
    expect(await err(s.paymentMethods.attach(stored.id, { customer: cus.id }))).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
    });
    expect((await s.paymentMethods.retrieve(stored.id)).customer).toBeNull();
    // Refused attaches leave nothing behind: only the stored card, and no attach events.
    expect(inst.query('SELECT count(*) AS n FROM payment_methods')).toEqual([{ n: 1 }]);
    expect(eventTypes(inst)).toEqual(['customer.created']);
    const ok = await s.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: cus.id });
    expect(ok.customer).toBe(cus.id);
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const before = JSON.stringify(inst.changes());
    const incorrect = await err(
      s.paymentMethods.create({
        type: 'card',
        card: { number: '4242424242424241', exp_month: 12, exp_year: 2030 },
      }),
    );
    expect(incorrect).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(incorrect).toMatchObject({
      statusCode: 402,
      code: 'incorrect_number',
      param: 'card[number]',
      message: 'Your card number is incorrect.',
    });
    expect(
      await err(
        s.paymentMethods.create({
          type: 'card',
          card: { number: '4111111111111111', exp_month: 12, exp_year: 2030 },
        }),
      ),
    ).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'test_mode_live_card',
    });
    expect(
      await err(
        s.paymentMethods.create({
          type: 'card',
          card: { number: '4242424242424242', exp_month: 12, exp_year: 2020 },
        }),
      ),
    ).toMatchObject({ statusCode: 402, code: 'invalid_expiry_year', param: 'card[exp_year]' });
    expect(
      await err(
        s.paymentMethods.create({
          type: 'card',
          card: {
            number: '4242424242424242',
            exp_year: 2030,
          } as unknown as Stripe.PaymentMethodCreateParams['card'],
        }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'card[exp_month]' });
    expect(await err(s.paymentMethods.create({ type: 'card' }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'card',
    });
    expect(await err(s.paymentMethods.create({ card: { token: 'tok_visa' } }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'type',
    });
    expect(
      await err(s.paymentMethods.create({ type: 'card', card: { token: 'tok_nope' } })),
    ).toMatchObject({
      statusCode: 404,
      message: "No such token: 'tok_nope'",
      param: 'card[token]',
    });
    expect(await err(s.paymentMethods.create({ type: 'sepa_debit' }))).toMatchObject({
      statusCode: 400,
      param: 'type',
    });
    const missing = await err(s.paymentMethods.retrieve('pm_nope'));
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'payment_method',
      message: "No such PaymentMethod: 'pm_nope'",
    });
    expect(await err(s.paymentMethods.attach('pm_nope', { customer: cus.id }))).toMatchObject({
      statusCode: 404,
      param: 'payment_method',
    });
    expect(
      await err(s.paymentMethods.attach('pm_card_visa', { customer: 'cus_nope' })),
    ).toMatchObject({ statusCode: 404, param: 'customer' });
    expect(
      await err(s.paymentMethods.attach('pm_card_visa', {} as Stripe.PaymentMethodAttachParams)),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'customer' });
    expect(await err(s.paymentMethods.detach('pm_nope'))).toMatchObject({ statusCode: 404 });
    expect(await err(s.paymentMethods.list({ customer: 'cus_nope' }))).toMatchObject({
      statusCode: 404,
    });
    expect(JSON.stringify(inst.changes())).toBe(before);
  });
});

describe('setup intents', () => {
  it('requires_payment_method → requires_confirmation → succeeded, attaching the card', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const si = await s.setupIntents.create({ customer: cus.id, metadata: { order: '1' } });
    expect(si).toMatchObject({
      object: 'setup_intent',
      status: 'requires_payment_method',
      usage: 'off_session',
      customer: cus.id,
      payment_method: null,
      payment_method_types: ['card'],
    });
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_[A-Za-z0-9]+$`));
    expect(si.id).toMatch(/^seti_/);
    expect(shapeDifferences('setup_intent', plain(si))).toEqual([]);
    const u = await s.setupIntents.update(si.id, {
      payment_method: 'pm_card_visa',
      description: 'save card',
    });
    expect(u).toMatchObject({ status: 'requires_confirmation', description: 'save card' });
    const done = await s.setupIntents.confirm(si.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      payment_method: u.payment_method,
      next_action: null,
    });
    expect(shapeDifferences('setup_intent', plain(done))).toEqual([]);
    expect((await s.paymentMethods.retrieve(done.payment_method as string)).customer).toBe(cus.id);
    expect(plain(await s.setupIntents.retrieve(si.id))).toEqual(plain(done));
    expect(await err(s.setupIntents.confirm(si.id))).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
      message: 'You cannot confirm this SetupIntent because it has a status of succeeded.',
    });
    expect(await err(s.setupIntents.cancel(si.id))).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
    });
    expect(await err(s.setupIntents.update(si.id, { description: 'x' }))).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
    });
    expect(eventTypes(inst)).toEqual([
      'customer.created',
      'setup_intent.created',
      'payment_method.attached',
      'setup_intent.succeeded',
    ]);
  });

  it('confirm=true on create, usage, cancel, list', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const a = await s.setupIntents.create({
      customer: cus.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      usage: 'on_session',
    });
    expect(a).toMatchObject({ status: 'succeeded', usage: 'on_session' });
    const b = await s.setupIntents.create({ allowed_payment_method_types: ['card'] });
    expect(b).toMatchObject({
      automatic_payment_methods: null,
      allowed_payment_method_types: ['card'],
      payment_method_types: ['card'],
    });
    // The name before 2026-09-30 still works.
    const legacy = await s.setupIntents.create({
      payment_method_types: ['card'],
    } as Stripe.SetupIntentCreateParams);
    expect(legacy.payment_method_types).toEqual(['card']);
    expect(
      await err(s.setupIntents.create({ allowed_payment_method_types: ['sepa_debit'] })),
    ).toMatchObject({ statusCode: 400, param: 'allowed_payment_method_types' });
    const canceled = await s.setupIntents.cancel(b.id, { cancellation_reason: 'abandoned' });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(shapeDifferences('setup_intent', plain(canceled))).toEqual([]);
    expect(
      await err(s.setupIntents.confirm(b.id, { payment_method: 'pm_card_visa' })),
    ).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
      message: 'You cannot confirm this SetupIntent because it has a status of canceled.',
    });
    const list = await s.setupIntents.list();
    expect(list.data.map((x) => x.id)).toEqual([legacy.id, b.id, a.id]);
    expect((await s.setupIntents.list({ customer: cus.id })).data.map((x) => x.id)).toEqual([a.id]);
    expect(
      (await s.setupIntents.list({ payment_method: a.payment_method as string })).data.map(
        (x) => x.id,
      ),
    ).toEqual([a.id]);
    expect(eventTypes(inst)).toContain('setup_intent.canceled');
  });

  it('3D Secure: requires_action, then the test hook completes or fails it; set-up cards stop asking', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const si = await s.setupIntents.create({
      customer: cus.id,
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
      return_url: 'https://example.com/back',
    });
    expect(si.status).toBe('requires_action');
    expect(si.next_action).toMatchObject({
      type: 'redirect_to_url',
      redirect_to_url: { return_url: 'https://example.com/back' },
    });
    expect(shapeDifferences('setup_intent', plain(si))).toEqual([]);
    const authed = (await s.rawRequest('POST', `/v1/test_helpers/authenticate/${si.id}`, {
      outcome: 'succeed',
    })) as unknown as Stripe.SetupIntent;
    expect(authed).toMatchObject({ id: si.id, status: 'succeeded', next_action: null });
    const pmId = si.payment_method as string;
    expect((await s.paymentMethods.retrieve(pmId)).customer).toBe(cus.id);
    // Once set up, the same card no longer asks for authentication.
    const again = await s.setupIntents.create({
      customer: cus.id,
      payment_method: pmId,
      confirm: true,
    });
    expect(again.status).toBe('succeeded');

    const other = await s.setupIntents.create({ payment_method: 'pm_card_threeDSecure2Required' });
    const pending = await s.setupIntents.confirm(other.id);
    expect(pending).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
    });
    const failedAuth = (await s.rawRequest('POST', `/v1/test_helpers/authenticate/${other.id}`, {
      outcome: 'fail',
    })) as unknown as Stripe.SetupIntent;
    expect(failedAuth).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: { code: 'setup_intent_authentication_failure' },
    });
    expect(shapeDifferences('setup_intent', plain(failedAuth))).toEqual([]);
    expect(
      await err(
        s.rawRequest('POST', `/v1/test_helpers/authenticate/${other.id}`, { outcome: 'succeed' }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'setup_intent_unexpected_state' });
    expect(
      await err(
        s.rawRequest('POST', '/v1/test_helpers/authenticate/seti_nope', { outcome: 'succeed' }),
      ),
    ).toMatchObject({ statusCode: 404, message: "No such setupintent: 'seti_nope'" });
    expect(
      await err(s.rawRequest('POST', `/v1/test_helpers/authenticate/${other.id}`, {})),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'outcome' });
    expect(eventTypes(inst).filter((t) => t.startsWith('setup_intent.'))).toEqual([
      'setup_intent.created',
      'setup_intent.requires_action',
      'setup_intent.succeeded',
      'setup_intent.created',
      'setup_intent.succeeded',
      'setup_intent.created',
      'setup_intent.requires_action',
      'setup_intent.setup_failed',
    ]);
  });

  it('a declining card fails the setup with 402 and the failure is kept', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Ada' });
    const si = await s.setupIntents.create({ customer: cus.id });
    const e = await err(
      s.setupIntents.confirm(si.id, { payment_method: 'pm_card_visa_chargeDeclined' }),
    );
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    expect((e.raw as { setup_intent: Stripe.SetupIntent }).setup_intent).toMatchObject({
      id: si.id,
      status: 'requires_payment_method',
    });
    const after = await s.setupIntents.retrieve(si.id);
    expect(after).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
      },
    });
    expect(shapeDifferences('setup_intent', plain(after))).toEqual([]);
    expect(eventTypes(inst).slice(-1)).toEqual(['setup_intent.setup_failed']);
    // Confirm again with a good card.
    expect((await s.setupIntents.confirm(si.id, { payment_method: 'pm_card_visa' })).status).toBe(
      'succeeded',
    );
  });

  it('microdeposits, mistakes, and failed requests that change nothing', async () => {
    const { inst, s } = fresh();
    const si = await s.setupIntents.create({});
    const before = JSON.stringify(inst.changes());
    expect(
      await err(s.setupIntents.verifyMicrodeposits(si.id, { amounts: [32, 45] })),
    ).toMatchObject({ statusCode: 400, code: 'setup_intent_unexpected_state' });
    expect(await err(s.setupIntents.verifyMicrodeposits(si.id))).toMatchObject({
      statusCode: 400,
      param: 'amounts',
    });
    expect(await err(s.setupIntents.confirm(si.id))).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
      message: expect.stringContaining('missing a payment method'),
    });
    expect(await err(s.setupIntents.create({ confirm: true }))).toMatchObject({
      statusCode: 400,
      code: 'setup_intent_unexpected_state',
    });
    expect(await err(s.setupIntents.create({ customer: 'cus_nope' }))).toMatchObject({
      statusCode: 404,
      param: 'customer',
    });
    expect(await err(s.setupIntents.create({ payment_method: 'pm_nope' }))).toMatchObject({
      statusCode: 404,
      param: 'payment_method',
      message: "No such PaymentMethod: 'pm_nope'",
    });
    expect(await err(s.setupIntents.create({ usage: 'sometimes' as 'on_session' }))).toMatchObject({
      statusCode: 400,
      param: 'usage',
    });
    expect(await err(s.setupIntents.retrieve('seti_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such setupintent: 'seti_nope'",
    });
    expect(await err(s.setupIntents.retrieve(si.id, { client_secret: 'wrong' }))).toMatchObject({
      statusCode: 400,
      param: 'client_secret',
    });
    expect(await err(s.setupIntents.update('seti_nope', {}))).toMatchObject({ statusCode: 404 });
    expect(await err(s.setupIntents.cancel('seti_nope'))).toMatchObject({ statusCode: 404 });
    expect(
      await err(
        s.setupIntents.confirm(si.id, {
          payment_method: 'pm_card_visa',
          payment_method_data: {
            type: 'card',
          } as Stripe.SetupIntentConfirmParams.PaymentMethodData,
        }),
      ),
    ).toMatchObject({ statusCode: 400 });
    expect(JSON.stringify(inst.changes())).toBe(before);
    expect(
      (await s.setupIntents.retrieve(si.id, { client_secret: si.client_secret as string })).id,
    ).toBe(si.id);
  });

  it('payment_method_data builds the card in place', async () => {
    const { s } = fresh();
    const si = await s.setupIntents.create({
      confirm: true,
      payment_method_data: {
        type: 'card',
        card: { token: 'tok_mastercard' },
      } as unknown as Stripe.SetupIntentCreateParams.PaymentMethodData,
    });
    expect(si.status).toBe('succeeded');
    expect((await s.paymentMethods.retrieve(si.payment_method as string)).card?.brand).toBe(
      'mastercard',
    );
  });
});
