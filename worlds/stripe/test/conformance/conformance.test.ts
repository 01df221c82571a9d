import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS } from '../../lib/store.ts';
import { interfaceName, objectsSource, TABLE_OBJECTS } from '../objects-build.ts';
import { forgetStripeDeclarations } from './declarations.ts';
import { type StoryRecord, tellStory } from './story.ts';
import { conformanceExceptions, ReplyValidator, type Violation } from './validate.ts';

// Schema conformance: every success reply of a story that drives all 155 operations through the official SDK, and
// every event the story caused (its envelope, data.object and previous_attributes), is validated against the
// response schemas read from the SDK's own type declarations (declarations.ts). Differences documented in the
// `$conformance` section of worlds/stripe/shape-exceptions.json are set aside; the rest fail with the object type,
// JSON pointer and what is wrong. The shares of valid replies and events are ratcheted: they may only go up.

/** The shares measured when the ratchet was last raised; raise them when the world conforms better. */
const RATCHET = { replies: 1, events: 1 };

/** Operations no success reply can come from in Stripe World, with the reason. */
const NO_SUCCESS: Record<string, string> = {
  PostSetupIntentsIntentVerifyMicrodeposits:
    'verifies a bank account by microdeposits; the world saves cards only, so Stripe refuses it for every intent here',
  PostPaymentIntentsIntentVerifyMicrodeposits:
    'verifies a us_bank_account debit by microdeposits; the world takes card payments only',
};

interface Failure {
  where: string;
  violations: Violation[];
}

let record: StoryRecord;
let validator: ReplyValidator;
const replyFailures: Failure[] = [];
const eventFailures: Failure[] = [];

beforeAll(async () => {
  record = await tellStory();
  validator = new ReplyValidator();
  for (const x of record.exchanges) {
    if (x.status >= 300) continue;
    const violations = validator.check(x.body);
    if (violations.length) replyFailures.push({ where: `${x.method} ${x.path}`, violations });
  }
  for (const e of record.events) {
    // The envelope is checked as Stripe.EventBase, whose data.object is open; the object is checked by its own type.
    const object = e.data.object as { object: string };
    const violations = [
      ...validator.check(e),
      ...validator.check(object),
      ...validator.checkPrevious(object.object, e.data.previous_attributes ?? {}),
    ];
    if (violations.length) eventFailures.push({ where: `${e.type} ${e.id}`, violations });
  }
}, 60_000);

// The SDK's parse and the story hold some 200 MB; the files after this one share its process (vitest.config.ts).
afterAll(() => {
  [record, validator] = [undefined!, undefined!];
  forgetStripeDeclarations();
});

/** Violations grouped by object, pointer (array indices as `*`) and message, each with how often and where first. */
function report(failures: Failure[]): string {
  const groups = new Map<string, { n: number; first: string }>();
  for (const f of failures)
    for (const v of f.violations) {
      const key = `${v.object} ${v.pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${v.message}`;
      const g = groups.get(key);
      if (g) g.n++;
      else groups.set(key, { n: 1, first: f.where });
    }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, g]) => `  ${key}  (${g.n}×, first in ${g.first})`)
    .join('\n');
}

const share = (valid: number, total: number) => Math.floor((valid / total) * 1000) / 1000;

describe('schema conformance with the stripe SDK declarations', () => {
  it('the story drives every operation, each to a success reply where the world has one', () => {
    const driven = new Set(record.exchanges.map((x) => x.operation));
    const succeeded = new Set(
      record.exchanges.filter((x) => x.status < 300).map((x) => x.operation),
    );
    expect(record.operations).toHaveLength(155);
    expect(record.operations.filter((o) => !driven.has(o))).toEqual([]);
    expect(record.operations.filter((o) => !succeeded.has(o)).sort()).toEqual(
      Object.keys(NO_SUCCESS).sort(),
    );
    // Only the requests the story meant to be refused were (besides the card declines it asks for).
    const refused = record.exchanges
      .filter((x) => x.status >= 300 && x.status !== 402)
      .map((x) => x.operation);
    expect(refused.sort()).toEqual(Object.keys(NO_SUCCESS).sort());
  });

  it('success replies are valid against the declared schemas', () => {
    const replies = record.exchanges.filter((x) => x.status < 300);
    const failures = replyFailures;
    const valid = share(replies.length - failures.length, replies.length);
    expect(
      valid,
      `${failures.length} of ${replies.length} success replies differ from the stripe ${validator.sdkVersion} declarations (fix the world, or list the difference with a reason in the $conformance section of worlds/stripe/shape-exceptions.json):\n${report(failures)}`,
    ).toBeGreaterThanOrEqual(RATCHET.replies);
    expect(valid, `the valid share went up: raise RATCHET.replies to ${valid}`).toBe(
      RATCHET.replies,
    );
  });

  it("every event is a declared event type, and its data.object is valid against that object's schema", () => {
    const failures = eventFailures;
    expect(record.events.length).toBeGreaterThan(100);
    const valid = share(record.events.length - failures.length, record.events.length);
    expect(
      valid,
      `${failures.length} of ${record.events.length} events differ from the stripe ${validator.sdkVersion} declarations:\n${report(failures)}`,
    ).toBeGreaterThanOrEqual(RATCHET.events);
    expect(valid, `the valid share went up: raise RATCHET.events to ${valid}`).toBe(RATCHET.events);
  });

  it('every documented exception has a reason and is still needed', () => {
    const exceptions = conformanceExceptions();
    for (const [object, entries] of Object.entries(exceptions))
      for (const [pointer, reason] of Object.entries(entries)) {
        expect(pointer, `${object}: an exception's key is a JSON pointer`).toMatch(/^\//);
        expect(reason.length, `${object} ${pointer} needs a reason`).toBeGreaterThan(20);
      }
    // Every reply and event was checked before the tests ran; an exception that covered nothing is stale.
    const listed = Object.entries(exceptions).flatMap(([object, entries]) =>
      Object.keys(entries).map((p) => `${object} ${p}`),
    );
    expect(listed.filter((l) => !validator.used.has(l))).toEqual([]);
  });
});

describe('the validator', () => {
  const customer = () =>
    structuredClone(
      record.exchanges.find(
        (x) => x.method === 'POST' && x.path === '/v1/customers' && x.status === 200,
      )!.body,
    ) as Record<string, unknown>;

  it('accepts a reply the world sent, and names what a changed one gets wrong', () => {
    expect(validator.check(customer())).toEqual([]);
    const broken = customer();
    delete broken.balance;
    broken.nickname = 'Ada';
    broken.tax_exempt = 'sometimes';
    broken.invoice_settings = { ...(broken.invoice_settings as object), footer: 42 };
    expect(validator.check(broken)).toEqual(
      expect.arrayContaining([
        { object: 'customer', pointer: '/balance', message: 'is missing' },
        { object: 'customer', pointer: '/nickname', message: 'is not declared' },
        {
          object: 'customer',
          pointer: '/tax_exempt',
          // The declared values, in the SDK's order.
          message: expect.stringMatching(
            /^is "sometimes", not \[(?=.*"exempt")(?=.*"none")(?=.*"reverse")/,
          ),
        },
        {
          object: 'customer',
          pointer: '/invoice_settings/footer',
          message: 'matches none of the declared types',
        },
      ]),
    );
  });

  it('checks an expanded reference by its own declaration, and a deleted stub as one', () => {
    const pi = structuredClone(
      record.exchanges.find((x) => x.method === 'POST' && x.path === '/v1/payment_intents')!.body,
    ) as Record<string, unknown>;
    const charge = pi.latest_charge as Record<string, unknown>;
    expect(typeof charge).toBe('object');
    delete charge.amount_captured;
    expect(validator.check(pi)).toEqual([
      { object: 'charge', pointer: '/amount_captured', message: 'is missing' },
    ]);
    expect(validator.check({ id: 'cus_1', object: 'customer', deleted: true })).toEqual([]);
    expect(validator.check({ id: 'cus_1', object: 'customer', deleted: true, name: 'x' })).toEqual([
      { object: 'customer', pointer: '/name', message: 'is not declared' },
    ]);
  });

  it("checks an event's previous_attributes as the object's members", () => {
    expect(
      validator.checkPrevious('customer', { balance: 0, description: null, email: null }),
    ).toEqual([]);
    expect(
      validator.checkPrevious('customer', { balance: 'none', plan: 'pro', name: undefined }),
    ).toEqual(
      expect.arrayContaining([
        { object: 'customer', pointer: '/previous_attributes/balance', message: 'must be number' },
        { object: 'customer', pointer: '/previous_attributes/plan', message: 'is not declared' },
      ]),
    );
  });

  it('checks a list envelope and each item, and an object type the SDK does not have', () => {
    expect(
      validator.check({
        object: 'list',
        data: [{ object: 'coupon' }],
        has_more: false,
        url: '/v1/coupons',
        count: 1,
      }),
    ).toEqual(
      expect.arrayContaining([
        { object: 'list', pointer: '/count', message: 'is not declared' },
        { object: 'coupon', pointer: '/id', message: 'is missing' },
      ]),
    );
    expect(validator.check({ object: 'customer_thing', id: 'x' })).toEqual([
      {
        object: 'customer_thing',
        pointer: '/object',
        message: '"customer_thing" is no object type the SDK declares',
      },
    ]);
  });
});

// lib/objects.ts is what test/objects-build.ts prints from the same declarations (parsed once for this file), and its
// `Tables` names one object type for every resource table the store writes.
describe('lib/objects.ts', () => {
  it('is what objects-build.ts prints from the stripe package declarations', async () => {
    expect(
      readFileSync(new URL('../../lib/objects.ts', import.meta.url), 'utf8') ===
        (await objectsSource()),
      'lib/objects.ts is stale: regenerate it with `npx tsx worlds/stripe/test/objects-build.ts > worlds/stripe/lib/objects.ts`',
    ).toBe(true);
  });

  it('maps every resource table of the store to an object type', () => {
    expect(Object.keys(TABLE_OBJECTS).sort()).toEqual(Object.keys(COLUMNS).sort());
  });

  it('names interfaces after their object types', () => {
    expect(interfaceName('checkout.session')).toBe('CheckoutSession');
    expect(interfaceName('line_item')).toBe('LineItem');
    expect(interfaceName('invoiceitem')).toBe('Invoiceitem');
  });
});
