import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { decodeForm, FormError, MAX_DEPTH, MAX_PARAMETERS } from '../lib/form.ts';
import { stripe } from '../index.ts';

// Form bodies: the one-pass decoder reads what qs read for the bodies SDKs send, refuses what qs would truncate, and
// the face answers those refusals with Stripe's 400.

const QS = {
  depth: 10,
  arrayLimit: 1000,
  parameterLimit: 10_000,
  allowDots: false,
  strictNullHandling: false,
};

const refusal = (text: string): FormError => {
  try {
    decodeForm(text);
  } catch (e) {
    if (e instanceof FormError) return e;
    throw e;
  }
  throw new Error(`no refusal for ${text.slice(0, 80)}`);
};

describe('decodeForm', () => {
  it('reads what qs reads for the bodies an SDK writes', () => {
    const objects: Record<string, unknown>[] = [
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        metadata: { plan: 'pro', 'order id': 'A-1' },
      },
      {
        customer: 'cus_1',
        items: [{ price: 'price_1', quantity: '2' }, { price: 'price_2' }],
        expand: ['latest_invoice.payment_intent', 'customer'],
      },
      {
        amount: '1000',
        currency: 'usd',
        payment_method_types: ['card'],
        description: 'ümlaut & co = 100% + more',
      },
      {
        line_items: Array.from({ length: 30 }, (_, i) => ({
          price_data: { currency: 'usd', unit_amount: String(i), product_data: { name: `p ${i}` } },
          quantity: '1',
        })),
      },
      {
        metadata: { '': 'empty key', a: '' },
        discounts: [{ coupon: 'c' }],
        deep: { a: { b: { c: { d: { e: 'x' } } } } },
      },
    ];
    for (const o of objects) {
      // `[]` only for arrays of values: `items[][price]=…&items[][quantity]=…` does not say where one item ends.
      const brackets = qs.stringify(o, { arrayFormat: 'brackets' });
      for (const encoded of [
        qs.stringify(o, { arrayFormat: 'indices' }),
        qs.stringify(o, { arrayFormat: 'indices', encodeValuesOnly: true }),
        ...(/%5B%5D%5B/.test(brackets) ? [] : [brackets]),
      ]) {
        expect(decodeForm(encoded)).toEqual(qs.parse(encoded, QS));
      }
    }
    for (const text of [
      'a=1&a=2&a=3',
      'a[]=x&a[]=y',
      'a[2]=z&a[0]=x',
      'name=a+b%20c',
      'bad=%E0%A4%A',
      'flag',
      'x[1000]=big&x[1]=small',
      'a[0]=x&a[b]=y',
      'constructor=1&metadata[__proto__]=2&ok=3',
      '&&a=1&',
    ]) {
      expect(decodeForm(text)).toEqual(qs.parse(text, QS));
    }
  });

  it('takes time linear in the body: 10,000 parameters decode as one flat tree', () => {
    const body = Array.from(
      { length: MAX_PARAMETERS },
      (_, i) => `items[${i % 1000}][k${i}]=${'v'.repeat(30)}`,
    ).join('&');
    const params = decodeForm(body) as { items: Record<string, string>[] };
    expect(params.items).toHaveLength(1000);
    expect(Object.keys(params.items[999])).toHaveLength(10);
  });

  it('refuses more parameters than it reads, keys nested too deep, and a name that is both a value and a container', () => {
    const many = refusal(Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => `k${i}=1`).join('&'));
    expect(many.message).toMatch(/at most 10000 in one request; send fewer/);
    const deep = refusal('a' + '[b]'.repeat(MAX_DEPTH + 1) + '=1');
    expect(deep).toMatchObject({ param: 'a' });
    expect(deep.message).toMatch(/nested 11 levels deep; Stripe World reads at most 10/);
    expect(decodeForm('a' + '[b]'.repeat(MAX_DEPTH) + '=1')).toBeTypeOf('object');
    expect(refusal('metadata=x&metadata[plan]=pro').message).toMatch(
      /metadata is given both as a value and with nested keys; send it one way/,
    );
    expect(refusal('metadata[plan]=pro&metadata=x').param).toBe('metadata');
  });

  it('answers a refused body with Stripe 400 naming the parameter, and leaves the instance as it was', () => {
    const inst = stripe.instance({ fixture: 'empty' });
    try {
      const headers = {
        authorization: 'Bearer sk_test_form',
        'content-type': 'application/x-www-form-urlencoded',
      };
      const reply = inst.request({
        method: 'POST',
        path: '/customers',
        query: '',
        headers,
        body: 'name=a&name[x]=b',
      });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body as string)).toMatchObject({
        error: { type: 'invalid_request_error', param: 'name' },
      });
      expect(inst.callCount).toBe(0);
      expect(inst.changes()).toEqual([]);
      const ok = inst.request({
        method: 'POST',
        path: '/customers',
        query: '',
        headers,
        body: 'name=a&metadata[plan]=pro',
      });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body as string)).toMatchObject({ name: 'a', metadata: { plan: 'pro' } });
    } finally {
      inst.destroy();
    }
  });
});
