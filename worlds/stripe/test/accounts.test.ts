import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from 'seahaven/serve';
import { stripe } from '../index.ts';

// Each key the server never issued is an account of its own, seeded from the key: the official SDK, with several
// keys against one server, never sees one account's ids in another, and a key's account replays on a fresh server.

const sdk = (server: RunningServer, key: string) =>
  new Stripe(key, { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });

/** Three customers and a product with a price, each POST with an idempotency key of its own (the SDK's are random). */
async function populate(s: Stripe): Promise<string[]> {
  const ids: string[] = [];
  for (const name of ['Ada', 'Grace', 'Edsger'])
    ids.push((await s.customers.create({ name }, { idempotencyKey: `customer-${name}` })).id);
  const product = await s.products.create({ name: 'Plan' }, { idempotencyKey: 'product' });
  const price = await s.prices.create(
    { product: product.id, currency: 'usd', unit_amount: 900 },
    { idempotencyKey: 'price' },
  );
  return [...ids, product.id, price.id];
}

describe('an account per key', () => {
  it('gives two keys disjoint ids and the same key the same ids and state on a fresh server', async () => {
    const { startServer } = await import('seahaven/serve');
    const one = await startServer({ worlds: [stripe], port: 0, logger: () => undefined });
    const two = await startServer({ worlds: [stripe], port: 0, logger: () => undefined });
    try {
      const a = await populate(sdk(one, 'sk_test_alpha'));
      const b = await populate(sdk(one, 'sk_test_beta'));
      expect(a[0]).toMatch(/^cus_/);
      expect(b.filter((id) => a.includes(id))).toEqual([]);
      // The first customer of each account is the one a test suite with several keys would mix up.
      const listed = await sdk(one, 'sk_test_beta').customers.list({ limit: 10 });
      expect(listed.data.map((c) => c.id).sort()).toEqual(b.slice(0, 3).sort());
      expect(await populate(sdk(two, 'sk_test_alpha'))).toEqual(a);
      const account = (server: RunningServer) =>
        [...server.sessions.list()].find(
          (s) => server.endpoints.get('stripe')!.faceKeyOf(s) === 'sk_test_alpha',
        )!.inst;
      expect(JSON.stringify(account(two).state())).toBe(JSON.stringify(account(one).state()));
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('ids within one account', () => {
  it('never repeat for a type, a refused create between them drawing nothing that is kept', () => {
    const inst = stripe.instance({ fixture: 'empty', seed: 11 });
    try {
      const headers = {
        authorization: 'Bearer sk_test_ids',
        'content-type': 'application/x-www-form-urlencoded',
      };
      const create = (body: string) =>
        inst.request({ method: 'POST', path: '/customers', query: '', headers, body });
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) {
        const reply = create(`name=c${i}`);
        expect(reply.status).toBe(200);
        ids.push(JSON.parse(reply.body as string).id);
        if (i % 50 === 0) expect(create('email=' + 'x'.repeat(600)).status).toBe(400);
      }
      expect(new Set(ids).size).toBe(200);
      expect(inst.query('SELECT count(*) AS n FROM customers')).toEqual([{ n: 200 }]);
    } finally {
      inst.destroy();
    }
  });
});
