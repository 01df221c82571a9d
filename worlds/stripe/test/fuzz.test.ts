import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { FaceReply, Instance } from 'seahaven';
import { stripe } from '../index.ts';
import { operations } from '../operations.ts';
import { sdkFor } from './sdk.ts';

// Fuzzing the face with what clients get wrong: bracket keys at odd depths, huge and odd values, bad percent-encoding,
// unknown parameters and wrong types, on every operation. Whatever arrives, the reply is a Stripe JSON body with
// 200, 400, 402 or 404 (never a 500), an error is Stripe's envelope, and a refused request changes nothing.

const HEADERS = {
  authorization: 'Bearer sk_test_fuzz',
  'content-type': 'application/x-www-form-urlencoded',
};
const ERROR_TYPES = ['api_error', 'card_error', 'idempotency_error', 'invalid_request_error'];

/** Percent-encode when the text can be encoded (lone surrogates cannot), else send it raw. */
function encode(text: string, raw: boolean): string {
  if (raw) return text;
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

const NAMES = [
  'amount',
  'currency',
  'metadata',
  'expand',
  'limit',
  'starting_after',
  'ending_before',
  'created',
  'email',
  'name',
  'description',
  'query',
  'page',
  'type',
  'types',
  'status',
  'customer',
  'payment_method',
  'confirm',
  'items',
  'price',
  'product',
  'source',
  'payout',
  'arrival_date',
  'outcome',
  'recurring',
  'unit_amount',
  'active',
];

const key = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const bracket = fc.oneof(
  fc.constant('[]'),
  fc.nat(1_200).map((n) => `[${n}]`),
  fc.constantFrom('[gt]', '[lte]', '[0]', '[key]', '[__proto__]', '[constructor]', '['),
  fc.string({ maxLength: 6 }).map((s) => `[${s}]`),
);
const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.constantFrom(
    'true',
    'false',
    '',
    'null',
    '-1',
    '0',
    '1e308',
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%%%',
    'a'.repeat(6_000),
    '9'.repeat(400),
    "email:'x'",
    'cus_nope',
    'usd',
  ),
);
const pair = fc
  .record({
    key,
    brackets: fc.array(bracket, { maxLength: 12 }),
    value,
    rawKey: fc.boolean(),
    rawValue: fc.boolean(),
  })
  .map(
    ({ key, brackets, value, rawKey, rawValue }) =>
      `${encode(key, rawKey)}${brackets.join('')}=${encode(value, rawValue)}`,
  );
/** A form body or query string: pairs, with now and then a stray separator or a pair without `=`. */
const form = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: pair },
      fc.constantFrom('&', '=', 'a=b=c', 'flag', '[]=1', '%5B%5D=x'),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join('&'));

/** Mostly well-aimed: the operation's own parameter names (and sub-keys), with plausible and implausible values. */
function ownForm(names: string[]) {
  if (names.length === 0) return form;
  const own = fc.record({
    name: fc.constantFrom(...names),
    brackets: fc.array(fc.constantFrom('[0]', '[key]', '[gt]', '[interval]', '[]'), {
      maxLength: 2,
    }),
    value: fc.oneof(
      fc.constantFrom('1000', 'usd', 'true', 'false', '', 'month', 'cus_nope', 'pm_card_visa', 'x'),
      value,
    ),
  });
  return fc
    .array(own, { maxLength: 3 })
    .map((ps) =>
      ps.map((q) => `${q.name}${q.brackets.join('')}=${encode(q.value, false)}`).join('&'),
    );
}

/** Path parameter values: ids that exist, ids that do not, and malformed ones. */
function idArb(real: string[]) {
  return fc.oneof(
    fc.constantFrom(...real),
    fc.constantFrom('cus_nope', 'po_nope', 'x', '0', 'evt_' + 'z'.repeat(300), 'a.b', '%20'),
    fc.stringMatching(/^[A-Za-z0-9_]{1,30}$/),
  );
}

function wellFormed(reply: FaceReply, what: string): void {
  expect(
    [200, 400, 402, 404],
    `${what} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`,
  ).toContain(reply.status);
  const body = typeof reply.body === 'string' ? (JSON.parse(reply.body) as unknown) : reply.body;
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), what).toBe(true);
  const b = body as Record<string, any>;
  if (reply.status === 200) {
    expect(typeof b.object, what).toBe('string');
  } else {
    expect(b.error, what).toEqual(
      expect.objectContaining({ type: expect.any(String), message: expect.any(String) }),
    );
    expect(ERROR_TYPES, what).toContain(b.error.type);
    expect(b.error.message.length, what).toBeGreaterThan(0);
  }
  expect(JSON.parse(JSON.stringify(body)), what).toEqual(body);
}

async function world(): Promise<{ inst: Instance; ids: string[] }> {
  const inst = stripe.instance({ fixture: 'empty', seed: 99 });
  const s = sdkFor(inst);
  const c = await s.customers.create({
    name: 'Fuzz',
    email: 'fuzz@example.com',
    metadata: { k: 'v' },
  });
  const events = await s.events.list({ limit: 1 });
  const clock = await s.testHelpers.testClocks.create({ frozen_time: 1_798_761_600 });
  return { inst, ids: [c.id, events.data[0].id, clock.id] };
}

describe('fuzzing the face', () => {
  it('answers random form bodies and query strings on every operation with a well-formed Stripe reply', async () => {
    const { inst, ids } = await world();
    const statuses: Record<number, number> = {};
    fc.assert(
      fc.property(
        fc
          .constantFrom(...operations)
          .chain((op) =>
            fc.tuple(fc.constant(op), fc.oneof(form, ownForm(Object.keys(op.params))), idArb(ids)),
          ),
        ([op, text, id]) => {
          const path = op.path.replace(/^\/v1/, '').replace(/\{\w+\}/g, encodeURIComponent(id));
          const before = inst.changes();
          const reply = inst.request({
            method: op.method,
            path,
            query: op.method === 'POST' ? '' : text,
            headers: HEADERS,
            body: op.method === 'POST' ? text : '',
          });
          const what = `${op.method} ${path} ${text.slice(0, 200)}`;
          wellFormed(reply, what);
          statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
          // A declined card is a failure Stripe records (a failed charge); every other refusal leaves no trace.
          if (reply.status !== 200 && reply.status !== 402)
            expect(inst.changes(), what).toEqual(before);
        },
      ),
      { numRuns: 1_500, seed: 20260601 },
    );
    // The inputs reach past the parameter checks: plenty of requests succeed or miss an object, not only 400s.
    expect(statuses[200] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(40);
    expect(statuses[404] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(20);
    expect(statuses[400] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(100);
  });

  it('answers the edge cases fuzzing found: bad percent-encoding in a path, empty expand[] entries', () => {
    const inst = stripe.instance({ fixture: 'empty', seed: 98 });
    for (const path of [
      '/customers/%E0%A4%A',
      '/payouts/%zz',
      '/events/%',
      '/balance_transactions/%C0%80',
    ]) {
      const reply = inst.request({ method: 'GET', path, query: '', headers: HEADERS, body: '' });
      wellFormed(reply, path);
      expect(reply.status, path).toBe(404);
    }
    for (const [path, query] of [
      ['/tax_rates', 'expand[0]='],
      ['/customers', 'expand[]=&expand[]=data.x'],
      ['/balance', 'expand[0]='],
    ]) {
      const reply = inst.request({ method: 'GET', path, query, headers: HEADERS, body: '' });
      wellFormed(reply, `${path}?${query}`);
    }
  });

  it("keeps the SDK's rawRequest with odd parameter objects within Stripe's errors", async () => {
    const { inst, ids } = await world();
    const s = sdkFor(inst);
    const leaf = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(''),
      fc.double({ noNaN: true }),
    );
    const params = fc.dictionary(
      fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 6 })),
      fc.oneof(
        leaf,
        fc.array(leaf, { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), leaf, { maxKeys: 3 }),
      ),
      { maxKeys: 5 },
    );
    const targets = operations.filter(
      (o) => !o.path.includes('{') || o.path.split('{').length === 2,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        params,
        fc.constantFrom(...ids, 'nope'),
        async (op, body, id) => {
          // The SDK takes parameters of a POST only; a GET's go in the query string, encoded as the SDK encodes them.
          const base = op.path.replace(/\{\w+\}/g, id);
          const query = op.method === 'POST' ? '' : qs.stringify(body, { arrayFormat: 'indices' });
          const path = query ? `${base}?${query}` : base;
          const before = inst.changes();
          const outcome = await s
            .rawRequest(
              op.method,
              path,
              op.method === 'POST' ? (body as Record<string, unknown>) : undefined,
            )
            .then(
              () => null,
              (e: unknown) => e,
            );
          if (outcome === null) return;
          expect(outcome).toBeInstanceOf(Stripe.errors.StripeError);
          const e = outcome as InstanceType<typeof Stripe.errors.StripeError>;
          expect(
            [400, 402, 404],
            `${op.method} ${path} ${JSON.stringify(body)} → ${e.statusCode} ${e.message}`,
          ).toContain(e.statusCode);
          if (e.statusCode !== 402) expect(inst.changes()).toEqual(before);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
