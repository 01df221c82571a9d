import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Tax IDs through the official SDK: a customer's and the account's, value formats, verification on the world clock,
// the customer's expandable `tax_ids`, `tax_id_data` on create, events, and invoices' `customer_tax_ids`.

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 11 });
  return { inst, s: sdkFor(inst) };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e as Stripe.errors.StripeError,
  );

describe('tax IDs', () => {
  it("a customer's tax IDs: create, retrieve, list, delete, with Stripe's shape and events", async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({ name: 'Müller GmbH' });
    const vat = await s.customers.createTaxId(c.id, { type: 'eu_vat', value: 'DE123456789' });
    expect(vat).toMatchObject({
      object: 'tax_id',
      country: 'DE',
      customer: c.id,
      owner: { type: 'customer', customer: c.id },
      type: 'eu_vat',
      value: 'DE123456789',
      verification: { status: 'pending', verified_address: null, verified_name: null },
    });
    expect(vat.id).toMatch(/^txi_[A-Za-z0-9]{24}$/);
    expect(shapeDifferences('tax_id', plain(vat))).toEqual([]);
    const ein = await s.customers.createTaxId(c.id, { type: 'us_ein', value: '12-3456789' });
    expect(ein).toMatchObject({ country: 'US', verification: { status: 'unavailable' } });
    expect(plain(await s.customers.retrieveTaxId(c.id, vat.id))).toEqual(plain(vat));
    expect((await s.customers.listTaxIds(c.id)).data.map((t) => t.id)).toEqual([ein.id, vat.id]);
    const expanded = await s.customers.retrieve(c.id, { expand: ['tax_ids'] });
    if (expanded.deleted) throw new Error('deleted');
    expect(expanded.tax_ids?.data.map((t) => t.id)).toEqual([ein.id, vat.id]);
    expect(await s.customers.deleteTaxId(c.id, ein.id)).toMatchObject({
      id: ein.id,
      object: 'tax_id',
      deleted: true,
    });
    expect((await failure(s.customers.retrieveTaxId(c.id, ein.id))).code).toBe('resource_missing');
    const other = await s.customers.create({ name: 'Other' });
    expect((await failure(s.customers.retrieveTaxId(other.id, vat.id))).statusCode).toBe(404);
    const types = (await s.events.list({ limit: 10 })).data.map((e) => e.type).reverse();
    expect(types).toEqual([
      'customer.created',
      'customer.tax_id.created',
      'customer.tax_id.created',
      'customer.tax_id.deleted',
      'customer.created',
    ]);
    expect(inst.changes().some((ch) => ch.table === 'tax_ids')).toBe(true);
  });

  it('refuses a value that does not fit its type, and a type Stripe does not have, writing nothing', async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({ name: 'Ada' });
    const before = JSON.stringify(inst.changes());
    for (const [type, value] of [
      ['eu_vat', 'DE12345'],
      ['eu_vat', 'ZZ123456789'],
      ['gb_vat', '123456789'],
      ['au_abn', '1234'],
      ['us_ein', '12-34567'],
    ] as const) {
      const e = await failure(s.customers.createTaxId(c.id, { type, value }));
      expect(e).toMatchObject({
        statusCode: 400,
        type: 'StripeInvalidRequestError',
        code: 'tax_id_invalid',
        param: 'value',
        message: `Invalid value for ${type}.`,
      });
    }
    const bad = await failure(
      s.customers.createTaxId(c.id, { type: 'xx_vat' as 'eu_vat', value: '1' }),
    );
    expect(bad).toMatchObject({ statusCode: 400, param: 'type' });
    expect(JSON.stringify(inst.changes())).toBe(before);
    // Stripe's documented examples pass.
    for (const [type, value] of [
      ['eu_vat', 'FRAB123456789'],
      ['eu_vat', 'ATU12345678'],
      ['gb_vat', 'GB123456789'],
      ['au_abn', '12345678912'],
      ['in_gst', '12ABCDE3456FGZH'],
      ['ch_vat', 'CHE-123.456.789 MWST'],
    ] as const)
      expect((await s.customers.createTaxId(c.id, { type, value })).value).toBe(value);
  });

  it('verifies with the registry a minute later on the world clock: 000000000 verifies, 111111111 does not', async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({ name: 'Registry' });
    const good = await s.customers.createTaxId(c.id, { type: 'eu_vat', value: 'DE000000000' });
    const bad = await s.customers.createTaxId(c.id, { type: 'gb_vat', value: 'GB111111111' });
    const other = await s.customers.createTaxId(c.id, { type: 'au_abn', value: '12345678912' });
    inst.advanceClock(30_000);
    expect((await s.customers.retrieveTaxId(c.id, good.id)).verification?.status).toBe('pending');
    inst.advanceClock(60_000);
    expect((await s.customers.retrieveTaxId(c.id, good.id)).verification?.status).toBe('verified');
    expect((await s.customers.retrieveTaxId(c.id, bad.id)).verification?.status).toBe('unverified');
    expect((await s.customers.retrieveTaxId(c.id, other.id)).verification?.status).toBe('pending');
    const updates = (await s.events.list({ type: 'customer.tax_id.updated' })).data.reverse();
    expect(updates.map((e) => (e.data.object as Stripe.TaxId).id)).toEqual([good.id, bad.id]);
    expect(updates[0].created).toBe(good.created + 60);
    expect(updates[0].data.previous_attributes).toEqual({
      verification: { status: 'pending', verified_address: null, verified_name: null },
    });
  });

  it('tax_id_data on customer create adds the tax IDs; a bad one refuses the create', async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({
      name: 'With tax ids',
      tax_id_data: [
        { type: 'eu_vat', value: 'NL123456789B01' },
        { type: 'us_ein', value: '98-7654321' },
      ],
    });
    expect((await s.customers.listTaxIds(c.id)).data.map((t) => t.value)).toEqual([
      '98-7654321',
      'NL123456789B01',
    ]);
    const before = JSON.stringify(inst.changes());
    const e = await failure(
      s.customers.create({ name: 'Bad', tax_id_data: [{ type: 'eu_vat', value: 'NL1' }] }),
    );
    expect(e).toMatchObject({ code: 'tax_id_invalid', param: 'tax_id_data[0][value]' });
    expect(JSON.stringify(inst.changes())).toBe(before);
    // A draft invoice shows the customer's tax IDs.
    const invoice = await s.invoices.create({ customer: c.id });
    expect(invoice.customer_tax_ids).toEqual([
      { type: 'eu_vat', value: 'NL123456789B01' },
      { type: 'us_ein', value: '98-7654321' },
    ]);
  });

  it("the top-level /v1/tax_ids: the account's own (owner self) and a customer's through owner", async () => {
    const { s } = fresh();
    const own = await s.taxIds.create({ type: 'eu_vat', value: 'IE1234567AB' });
    expect(own).toMatchObject({
      customer: null,
      owner: { type: 'self' },
      verification: null,
      country: 'IE',
    });
    // The account's own tax ID names no customer in its owner (Stripe's example is a customer's).
    expect(shapeDifferences('tax_id', plain(own))).toEqual(['missing owner.customer']);
    const c = await s.customers.create({ name: 'Owned' });
    const theirs = await s.taxIds.create({
      type: 'au_abn',
      value: '12345678912',
      owner: { type: 'customer', customer: c.id },
    });
    expect(theirs).toMatchObject({ customer: c.id, owner: { type: 'customer', customer: c.id } });
    expect((await s.taxIds.list()).data.map((t) => t.id)).toEqual([own.id]);
    expect(
      (await s.taxIds.list({ owner: { type: 'customer', customer: c.id } })).data.map((t) => t.id),
    ).toEqual([theirs.id]);
    expect((await s.taxIds.retrieve(theirs.id)).id).toBe(theirs.id);
    expect(await s.taxIds.del(own.id)).toEqual(
      expect.objectContaining({ id: own.id, deleted: true }),
    );
    expect((await s.taxIds.list()).data).toEqual([]);
    const e = await failure(
      s.taxIds.create({
        type: 'eu_vat',
        value: 'DE123456789',
        owner: { type: 'account', account: 'acct_1' },
      }),
    );
    expect(e).toMatchObject({ statusCode: 400, param: 'owner[type]' });
  });
});
