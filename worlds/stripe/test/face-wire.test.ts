import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { credentialOf } from '../face.ts';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';

const headers = {
  authorization: 'Bearer sk_test_wire',
  'content-type': 'application/x-www-form-urlencoded',
};

describe('the HTTP face writes replies as api.stripe.com does', () => {
  it('indents JSON with two spaces and ends it with a newline, errors included', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      const ok = inst.request({
        method: 'POST',
        path: '/customers',
        query: '',
        headers,
        body: 'name=a',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers?.['Content-Type']).toBe('application/json');
      const text = ok.body as string;
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
      expect(text.startsWith('{\n  "id": "cus_')).toBe(true);
      const missing = inst.request({
        method: 'GET',
        path: '/customers/cus_none',
        query: '',
        headers,
        body: '',
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toBe(JSON.stringify(JSON.parse(missing.body as string), null, 2) + '\n');
    } finally {
      inst.destroy();
    }
  });

  it('answers an empty id (a trailing slash) with 404 instead of creating or listing', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      for (const [method, path] of [
        ['POST', '/subscriptions/'],
        ['POST', '/customers/'],
        ['GET', '/customers/'],
        ['POST', '/charges//capture'],
        ['POST', '/payment_methods//attach'],
      ]) {
        const reply = inst.request({ method, path, query: '', headers, body: 'customer=cus_x' });
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(JSON.parse(reply.body as string).error.message).toBe(
          `Unrecognized request URL (${method}: /v1${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        );
      }
      expect(inst.callCount).toBe(0);
    } finally {
      inst.destroy();
    }
  });
});

/**
 * Confirm parameters as Stripe.js sends them: the client secret, which the server-side SDK's types leave out (it is
 * sent with a publishable key), and a test card.
 */
const confirming = (clientSecret: string) =>
  ({
    client_secret: clientSecret,
    payment_method: 'pm_card_visa',
  }) as Stripe.PaymentIntentConfirmParams;

describe('publishable keys', () => {
  const refusal =
    'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.';

  it('retrieve and confirm an intent with its client secret, as Stripe.js does, and nothing else', async () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      const secret = sdkFor(inst, { key: 'sk_test_shop' });
      const browser = sdkFor(inst, { key: 'pk_test_shop' });
      const pi = await secret.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
      });
      const clientSecret = pi.client_secret as string;
      const seen = await browser.paymentIntents.retrieve(pi.id, { client_secret: clientSecret });
      expect(seen.id).toBe(pi.id);
      const wrong = (await browser.paymentIntents
        .confirm(pi.id, confirming(`${pi.id}_secret_nope`))
        .catch((x: unknown) => x)) as Stripe.errors.StripeError;
      expect(wrong).toMatchObject({ statusCode: 400, param: 'client_secret' });
      const paid = await browser.paymentIntents.confirm(pi.id, confirming(clientSecret));
      expect(paid.status).toBe('succeeded');
      const si = await secret.setupIntents.create({});
      const set = await browser.setupIntents.confirm(
        si.id,
        confirming(si.client_secret as string) as Stripe.SetupIntentConfirmParams,
      );
      expect(set.status).toBe('succeeded');
      const calls = inst.callCount;
      for (const attempt of [
        () => browser.customers.list(),
        () => browser.paymentIntents.retrieve(pi.id),
        () => browser.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' }),
        () => browser.paymentIntents.create({ amount: 1, currency: 'usd' }),
      ]) {
        const e = (await attempt().catch((x: unknown) => x)) as Stripe.errors.StripeError;
        expect(e).toBeInstanceOf(Stripe.errors.StripePermissionError);
        expect(e).toMatchObject({ statusCode: 403, message: refusal });
      }
      expect(inst.callCount).toBe(calls);
    } finally {
      inst.destroy();
    }
  });

  it("acts on the account whose secret key has the same tail; a live key is Stripe World's 401", () => {
    expect(credentialOf({ authorization: 'Bearer pk_test_shop' })).toEqual({ key: 'sk_test_shop' });
    const basic = Buffer.from('pk_test_shop:').toString('base64');
    expect(credentialOf({ authorization: `Basic ${basic}` })).toEqual({ key: 'sk_test_shop' });
    const live = credentialOf({ authorization: 'Bearer pk_live_shop' });
    expect('reply' in live && live.reply.status).toBe(401);
  });
});
