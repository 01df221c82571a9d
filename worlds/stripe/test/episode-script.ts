/**
 * Plays one SDK-driven Stripe episode in process and prints everything it observed as JSON: every reply the SDK got
 * (bodies and the Request-Id header), the call log, the change set and the state. replay.test.ts runs it in separate
 * processes and compares the bytes.
 */
import { stripe } from '../index.ts';
import { headerOf, sdkFor } from './sdk.ts';
import { plain } from './shape.ts';

const seed = Number(process.argv[2] ?? 0);
const inst = stripe.instance({ fixture: 'empty', seed, clock: 'tick' });
const s = sdkFor(inst);
const seen: unknown[] = [];
// stripe-node puts a random Idempotency-Key on every POST: client input like any other, so a replay sends the same.
let posts = 0;
const key = () => ({ idempotencyKey: `episode-${seed}-${++posts}` });
const keep = <T extends { lastResponse: { headers: unknown } }>(o: T): T => {
  seen.push({ body: plain(o), requestId: headerOf(o, 'Request-Id') });
  return o;
};

const ada = keep(
  await s.customers.create(
    { name: 'Ada Lovelace', email: 'ada@example.com', metadata: { plan: 'pro' } },
    key(),
  ),
);
keep(await s.customers.update(ada.id, { description: 'first customer' }, key()));
for (let i = 0; i < 3; i++) keep(await s.customers.create({ name: `Customer ${i}` }, key()));
keep(await s.customers.list({ limit: 2 }));
seen.push(
  await s.customers
    .retrieve('cus_missing')
    .catch((e: { statusCode: number; code: string; requestId: string }) => ({
      status: e.statusCode,
      code: e.code,
      requestId: e.requestId,
    })),
);
const product = await s.products.create({ name: 'Pro plan' }, key());
keep(product);
const pi = await s.paymentIntents.create(
  {
    amount: 2000,
    currency: 'usd',
    customer: ada.id,
    payment_method: 'pm_card_visa',
    confirm: true,
  },
  key(),
);
keep(pi);
keep(await s.refunds.create({ payment_intent: pi.id, amount: 500 }, key()));
keep(await s.customers.del((await s.customers.list({ limit: 1 })).data[0].id));

process.stdout.write(
  JSON.stringify({ seen, callLog: inst.callLog(), changes: inst.changes(), state: inst.state() }),
);
