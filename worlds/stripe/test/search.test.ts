import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { StripeError } from '../lib/errors.ts';
import { compileSearch, parseSearch, SEARCH_FIELDS, type FieldSpec } from '../lib/search.ts';
import type { Obj } from '../lib/store.ts';
import { sdkFor } from './sdk.ts';

// The search query language: the parser on its own, the compiled predicates over plain objects, and search through
// the official SDK (pagination by next_page, auto-pagination, total_count).

const customers = SEARCH_FIELDS.customers as Record<string, FieldSpec>;
const charges = SEARCH_FIELDS.charges as Record<string, FieldSpec>;

/** The 400 a query gets, as the reply would carry it. */
function errorOf(
  query: string,
  fields: Record<string, FieldSpec> = customers,
): { message: string; param?: string; type: string } {
  try {
    compileSearch(query, fields);
  } catch (e) {
    if (e instanceof StripeError) {
      expect(e.status).toBe(400);
      return e.error;
    }
    throw e;
  }
  throw new Error(`no error for ${query}`);
}

const ada: Obj = {
  id: 'cus_1',
  object: 'customer',
  created: 1000,
  email: 'Ada@Example.com',
  name: 'Ada Lovelace',
  phone: null,
  metadata: { tier: 'gold', 'order id': 'A-1' },
};
const bob: Obj = {
  id: 'cus_2',
  object: 'customer',
  created: 2000,
  email: 'bob@example.org',
  name: 'Bob',
  phone: '+15550100',
  metadata: { tier: 'Silver' },
};
const people = [ada, bob];
const hits = (query: string, objs: Obj[] = people, fields: Record<string, FieldSpec> = customers) =>
  objs.filter(compileSearch(query, fields)).map((o) => o.id);

describe('search query parser', () => {
  it('reads clauses, operators, quoting, metadata keys, negation and conjunctions', () => {
    expect(parseSearch(`email:"a@b.c"`)).toEqual({
      conj: 'AND',
      clauses: [
        {
          negated: false,
          field: 'email',
          op: ':',
          value: { type: 'string', text: 'a@b.c' },
          at: 0,
        },
      ],
    });
    expect(parseSearch(`metadata['order id']:'A-1' AND -name~"lov"`).clauses).toMatchObject([
      { field: 'metadata', key: 'order id', op: ':', value: { text: 'A-1' } },
      { negated: true, field: 'name', op: '~', value: { text: 'lov' } },
    ]);
    expect(parseSearch(`metadata["k"]:null`).clauses[0]).toMatchObject({
      key: 'k',
      value: { type: 'null' },
    });
    expect(parseSearch('amount>=1000 or amount<-5').conj).toBe('OR');
    expect(parseSearch('amount>=1000 or amount<-5').clauses.map((c) => [c.op, c.value])).toEqual([
      ['>=', { type: 'number', text: '1000', n: 1000 }],
      ['<', { type: 'number', text: '-5', n: -5 }],
    ]);
    // A space between clauses is an AND.
    expect(parseSearch(`email:'x' name:'y'`)).toMatchObject({
      conj: 'AND',
      clauses: [{ field: 'email' }, { field: 'name' }],
    });
    expect(parseSearch(`payment_method_details.card.last4:4242`).clauses[0]).toMatchObject({
      field: 'payment_method_details.card.last4',
      value: { type: 'number', text: '4242' },
    });
    expect(parseSearch(`name:"say \\"hi\\""`).clauses[0].value).toEqual({
      type: 'string',
      text: 'say "hi"',
    });
    expect(parseSearch(`active:true`).clauses[0].value).toEqual({ type: 'boolean', b: true });
  });

  it('refuses malformed queries with a 400 that says what and where', () => {
    const cases: [string, RegExp][] = [
      ['', /the query is empty/],
      ['   ', /the query is empty/],
      [`email:`, /expected a value after the operator at character 7/],
      [`email "x"`, /expected an operator/],
      [`email="x"`, /'=' is not an operator; use ':'/],
      [`email:"x`, /unterminated string .* at character 7/],
      [`email:bob`, /string values must be quoted, as in "bob"/],
      [
        `email:'a' AND name:'b' OR phone:'c'`,
        /AND and OR cannot be combined in one query \(AND at character 11, OR here\) at character 24/,
      ],
      [`email:'a' name:'b' OR phone:'c'`, /AND and OR cannot be combined/],
      [`(email:'a')`, /parentheses are not supported/],
      [
        `email:'a'name:'b'`,
        /expected a space, AND or OR after a clause, found 'n' at character 10/,
      ],
      [`email:'a' AND`, /expected a field name|must be followed by a clause/],
      [`metadata[tier]:'x'`, /expected a quoted metadata key/],
      [`metadata['tier':'x'`, /expected '\]' after the metadata key/],
      [`.email:'x'`, /expected a field name, found '.'/],
    ];
    for (const [query, message] of cases) {
      const e = errorOf(query);
      expect(e, query).toMatchObject({ type: 'invalid_request_error', param: 'query' });
      expect(e.message, query).toMatch(/^Invalid search query: /);
      expect(e.message, query).toMatch(message);
    }
    const eleven = Array.from({ length: 11 }, (_, i) => `name:'n${i}'`).join(' OR ');
    expect(errorOf(eleven).message).toMatch(/at most 10 clauses/);
    expect(() =>
      compileSearch(Array.from({ length: 10 }, (_, i) => `name:'n${i}'`).join(' OR '), customers),
    ).not.toThrow();
  });

  it('checks fields, operators and values against the resource', () => {
    expect(errorOf(`amount:100`).message).toMatch(
      /'amount' is not a searchable field here; search by created, email, metadata, name, phone/,
    );
    expect(errorOf(`created~"100"`).message).toMatch(
      /'created' does not support substring matching/,
    );
    expect(errorOf(`email>"a"`).message).toMatch(
      /'email' does not support the '>' comparator; only numeric fields do/,
    );
    expect(errorOf(`created>"soon"`).message).toMatch(/'>' compares numbers/);
    expect(errorOf(`created:"soon"`).message).toMatch(/'created' is numeric/);
    expect(errorOf(`name~"ab"`).message).toMatch(/at least 3 characters, got "ab"/);
    expect(errorOf(`metadata:'x'`).message).toMatch(/metadata is searched by key/);
    expect(errorOf(`email>null`).message).toMatch(/null can only be matched with ':'/);
    expect(errorOf(`refunded:"maybe"`, charges).message).toMatch(/'refunded' is true or false/);
    expect(() => compileSearch(`email:'x'`, undefined)).toThrow(StripeError);
  });
});

describe('search predicates', () => {
  it('exact string matches ignore case; ids and metadata values do not', () => {
    expect(hits(`email:"ada@example.com"`)).toEqual(['cus_1']);
    expect(hits(`name:'BOB'`)).toEqual(['cus_2']);
    expect(hits(`name:'Ada'`)).toEqual([]);
    expect(hits(`metadata['tier']:'gold'`)).toEqual(['cus_1']);
    expect(hits(`metadata["tier"]:'silver'`)).toEqual([]);
    expect(hits(`metadata['order id']:'A-1'`)).toEqual(['cus_1']);
  });

  it('substring, comparators, negation, null and OR', () => {
    expect(hits(`email~"example"`)).toEqual(['cus_1', 'cus_2']);
    expect(hits(`name~"LOVE"`)).toEqual(['cus_1']);
    expect(hits(`created>1000`)).toEqual(['cus_2']);
    expect(hits(`created>=1000 AND created<=1500`)).toEqual(['cus_1']);
    expect(hits(`created<"1500"`)).toEqual(['cus_1']);
    expect(hits(`created:2000`)).toEqual(['cus_2']);
    expect(hits(`-name:'bob'`)).toEqual(['cus_1']);
    expect(hits(`phone:null`)).toEqual(['cus_1']);
    expect(hits(`-phone:null`)).toEqual(['cus_2']);
    expect(hits(`metadata['order id']:null`)).toEqual(['cus_2']);
    expect(hits(`-metadata['order id']:null`)).toEqual(['cus_1']);
    expect(hits(`name:'bob' or email:'ada@example.com'`)).toEqual(['cus_1', 'cus_2']);
    expect(hits(`name:'bob' and email:'ada@example.com'`)).toEqual([]);
  });

  it('reads nested fields, references and booleans (charges)', () => {
    const ch = (
      id: string,
      last4: string,
      postal: string | null,
      refunded: boolean,
      customer: unknown,
    ): Obj => ({
      id,
      amount: 500,
      currency: 'usd',
      customer,
      refunded,
      disputed: false,
      status: 'succeeded',
      metadata: {},
      billing_details: { address: { postal_code: postal } },
      payment_method_details: {
        type: 'card',
        card: { last4, brand: 'visa', exp_month: 12, exp_year: 2030 },
      },
    });
    const list = [
      ch('ch_1', '4242', '94103', false, 'cus_1'),
      ch('ch_2', '0005', null, true, { id: 'cus_2', object: 'customer' }),
    ];
    expect(hits(`payment_method_details.card.last4:4242`, list, charges)).toEqual(['ch_1']);
    expect(hits(`payment_method_details.card.last4:"0005"`, list, charges)).toEqual(['ch_2']);
    expect(hits(`billing_details.address.postal_code:'94103'`, list, charges)).toEqual(['ch_1']);
    expect(hits(`billing_details.address.postal_code:null`, list, charges)).toEqual(['ch_2']);
    expect(hits(`refunded:true`, list, charges)).toEqual(['ch_2']);
    expect(hits(`refunded:'false' AND currency:'USD'`, list, charges)).toEqual(['ch_1']);
    expect(hits(`customer:'cus_2'`, list, charges)).toEqual(['ch_2']);
    expect(hits(`customer:'CUS_2'`, list, charges)).toEqual([]);
    expect(
      hits(`payment_method_details.card.exp_year>2029 AND status:'succeeded'`, list, charges),
    ).toEqual(['ch_1', 'ch_2']);
  });

  it('knows the fields of all seven searchable resources', () => {
    expect(Object.keys(SEARCH_FIELDS).sort()).toEqual([
      'charges',
      'customers',
      'invoices',
      'payment_intents',
      'prices',
      'products',
      'subscriptions',
    ]);
    expect(Object.keys(SEARCH_FIELDS.invoices ?? {})).toEqual(
      expect.arrayContaining([
        'created',
        'currency',
        'customer',
        'last_finalization_error_code',
        'last_finalization_error_type',
        'metadata',
        'number',
        'receipt_number',
        'status',
        'subscription',
        'total',
      ]),
    );
    expect(Object.keys(SEARCH_FIELDS.subscriptions ?? {})).toEqual(
      expect.arrayContaining(['canceled_at', 'created', 'metadata', 'status']),
    );
    expect(Object.keys(SEARCH_FIELDS.prices ?? {})).toEqual(
      expect.arrayContaining(['active', 'currency', 'lookup_key', 'metadata', 'product', 'type']),
    );
    expect(Object.keys(SEARCH_FIELDS.products ?? {})).toEqual(
      expect.arrayContaining(['active', 'description', 'metadata', 'name', 'shippable', 'url']),
    );
    expect(Object.keys(SEARCH_FIELDS.payment_intents ?? {})).toEqual(
      expect.arrayContaining(['amount', 'created', 'currency', 'customer', 'metadata', 'status']),
    );
    // An invoice's subscription is found in either place the API versions put it.
    const inv = SEARCH_FIELDS.invoices as Record<string, FieldSpec>;
    const newer = { id: 'in_1', parent: { subscription_details: { subscription: 'sub_1' } } };
    expect(
      [newer, { id: 'in_2', subscription: 'sub_1' }, { id: 'in_3', subscription: null }]
        .filter(compileSearch(`subscription:'sub_1'`, inv))
        .map((o) => o.id),
    ).toEqual(['in_1', 'in_2']);
  });
});

describe('customers.search through the SDK', () => {
  it('pages by next_page, auto-paginates, and answers bad queries with 400', async () => {
    const inst = stripe.instance({ fixture: 'empty', seed: 11 });
    const s = sdkFor(inst);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await s.customers.create({
            name: `Member ${i}`,
            email: `m${i}@club.example`,
            metadata: { club: i % 2 === 0 ? 'even' : 'odd' },
          })
        ).id,
      );
    await s.customers.create({ name: 'Outsider', email: 'out@elsewhere.example' });

    const first = await s.customers.search({ query: `email~"club"`, limit: 3 });
    expect(first).toMatchObject({
      object: 'search_result',
      has_more: true,
      url: '/v1/customers/search',
    });
    expect(first.next_page).toEqual(expect.any(String));
    expect(first.data.map((c) => c.id)).toEqual(ids.slice(-3).reverse());
    const second = await s.customers.search({
      query: `email~"club"`,
      limit: 3,
      page: first.next_page as string,
    });
    expect(second.data.map((c) => c.id)).toEqual(ids.slice(-6, -3).reverse());
    const last = await s.customers.search({
      query: `email~"club"`,
      limit: 3,
      page: second.next_page as string,
    });
    expect(last).toMatchObject({ has_more: false, next_page: null });
    expect(last.data.map((c) => c.id)).toEqual([ids[0]]);

    const all: string[] = [];
    for await (const c of s.customers.search({ query: `email~"club"`, limit: 2 })) all.push(c.id);
    expect(all).toEqual([...ids].reverse());

    expect(
      (await s.customers.search({ query: `-metadata['club']:null AND name:'member 3'` })).data.map(
        (c) => c.id,
      ),
    ).toEqual([ids[3]]);
    expect(
      (await s.customers.search({ query: `name:'Outsider' OR email:'m0@club.example'` })).data,
    ).toHaveLength(2);

    const before = inst.changes();
    const bad = await s.customers
      .search({ query: `email:"x" AND name:"y" OR phone:"z"` })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(bad).toMatchObject({
      statusCode: 400,
      param: 'query',
      message: expect.stringMatching(/AND and OR cannot be combined/),
    });
    const unknown = await s.customers.search({ query: `amount>5` }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/'amount' is not a searchable field/),
    });
    expect(
      await s.customers.search({ query: `email~"club"`, page: 'garbage' }).catch((e: unknown) => e),
    ).toMatchObject({ statusCode: 400, param: 'page' });
    expect(inst.changes()).toEqual(before);

    // Deleted customers drop out of search, as they do from lists.
    await s.customers.del(ids[0]);
    expect((await s.customers.search({ query: `email~"club"`, limit: 100 })).data).toHaveLength(6);
  });

  it('counts all matches with expand: total_count', async () => {
    const s = sdkFor(stripe.instance({ fixture: 'empty', seed: 12 }));
    for (let i = 0; i < 5; i++)
      await s.customers.create({ name: `n${i}`, metadata: { club: i % 2 === 0 ? 'even' : 'odd' } });
    const counted = await s.customers.search({
      query: `metadata['club']:'even'`,
      limit: 1,
      expand: ['total_count'],
    });
    expect(counted).toMatchObject({ total_count: 3, has_more: true });
    expect(counted.data).toHaveLength(1);
    expect(
      (await s.customers.search({ query: `metadata['club']:'even'` })).total_count,
    ).toBeUndefined();
  });
});
