import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// The catalog through the official SDK, in process: products, prices and plans, coupons, promotion codes, tax rates,
// customer balance transactions and customer discounts.

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 11 });
  return { inst, s: sdkFor(inst) };
}

type SdkError = InstanceType<typeof Stripe.errors.StripeError>;
const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as SdkError;
const eventTypes = (inst: ReturnType<typeof fresh>['inst']) =>
  inst.query<{ type: string }>('SELECT type FROM events ORDER BY seq').map((r) => r.type);

describe('products', () => {
  it('create (with default_price_data), retrieve, update, delete: shapes match Stripe', async () => {
    const { inst, s } = fresh();
    const prod = await s.products.create({
      name: 'T-shirt',
      description: 'Gray cotton',
      default_price_data: { currency: 'USD', unit_amount: 2000 },
      metadata: { sku: 'TS-1' },
    });
    expect(prod.id).toMatch(/^prod_/);
    expect(prod).toMatchObject({
      object: 'product',
      name: 'T-shirt',
      active: true,
      type: 'service',
      metadata: { sku: 'TS-1' },
      images: [],
      livemode: false,
    });
    expect(shapeDifferences('product', plain(prod))).toEqual([]);
    expect(prod.default_price).toMatch(/^price_/);
    const price = await s.prices.retrieve(prod.default_price as string);
    expect(price).toMatchObject({
      product: prod.id,
      currency: 'usd',
      unit_amount: 2000,
      type: 'one_time',
    });
    expect(String(price.unit_amount_decimal)).toBe('2000');
    expect(plain(await s.products.retrieve(prod.id))).toEqual(plain(prod));

    const u = await s.products.update(prod.id, {
      name: 'Tee',
      shippable: true,
      url: 'https://example.com/tee',
      description: '',
    });
    expect(u).toMatchObject({
      name: 'Tee',
      shippable: true,
      url: 'https://example.com/tee',
      description: null,
    });
    expect(shapeDifferences('product', plain(u))).toEqual([]);

    // A product with prices cannot be deleted; one without can.
    expect(await err(s.products.del(prod.id))).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('cannot be deleted'),
    });
    const bare = await s.products.create({ name: 'Gift wrap', id: 'gift-wrap' });
    expect(bare.id).toBe('gift-wrap');
    const del = await s.products.del(bare.id);
    expect(plain(del)).toEqual({ id: 'gift-wrap', object: 'product', deleted: true });
    expect(shapeDifferences('deleted_product', plain(del))).toEqual([]);
    expect(await err(s.products.retrieve(bare.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
    });
    expect(eventTypes(inst)).toEqual([
      'product.created',
      'price.created',
      'product.updated',
      'product.created',
      'product.deleted',
    ]);
    const created = inst.query<{ data: string }>(
      "SELECT data FROM events WHERE type = 'product.created' ORDER BY seq LIMIT 1",
    );
    expect(JSON.parse(created[0].data).data.object.default_price).toBe(prod.default_price);
  });

  it('lists with filters and cursors, searches, and sets a default price', async () => {
    const { s } = fresh();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await s.products.create({
            name: `P${i}`,
            active: i % 2 === 0,
            shippable: i < 3,
            url: i === 4 ? 'https://x.test' : undefined,
          })
        ).id,
      );
    const page = await s.products.list({ limit: 2 });
    expect(page).toMatchObject({ object: 'list', has_more: true, url: '/v1/products' });
    expect(page.data.map((p) => p.id)).toEqual(ids.slice(-2).reverse());
    const all: string[] = [];
    for await (const p of s.products.list({ limit: 3 })) all.push(p.id);
    expect(all).toEqual([...ids].reverse());
    expect((await s.products.list({ active: false })).data.map((p) => p.name)).toEqual([
      'P5',
      'P3',
      'P1',
    ]);
    expect((await s.products.list({ shippable: true })).data.map((p) => p.name)).toEqual([
      'P2',
      'P1',
      'P0',
    ]);
    expect((await s.products.list({ url: 'https://x.test' })).data.map((p) => p.name)).toEqual([
      'P4',
    ]);
    expect((await s.products.list({ ids: [ids[0], ids[6]] })).data.map((p) => p.name)).toEqual([
      'P6',
      'P0',
    ]);

    const found = await s.products.search({ query: "name:'P3'" });
    expect(found).toMatchObject({ object: 'search_result', url: '/v1/products/search' });
    expect(found.data.map((p) => p.id)).toEqual([ids[3]]);

    const price = await s.prices.create({ product: ids[0], currency: 'usd', unit_amount: 500 });
    const other = await s.prices.create({ product: ids[1], currency: 'usd', unit_amount: 500 });
    expect((await s.products.update(ids[0], { default_price: price.id })).default_price).toBe(
      price.id,
    );
    expect(await err(s.products.update(ids[0], { default_price: other.id }))).toMatchObject({
      statusCode: 400,
      param: 'default_price',
    });
    const expanded = await s.products.retrieve(ids[0], { expand: ['default_price'] });
    expect((expanded.default_price as Stripe.Price).unit_amount).toBe(500);
    // The default price cannot be archived while it is the default.
    expect(await err(s.prices.update(price.id, { active: false }))).toMatchObject({
      statusCode: 400,
      param: 'active',
    });
  });
});

describe('prices', () => {
  it('create, retrieve, update: recurring and decimal amounts, product_data, expand product', async () => {
    const { inst, s } = fresh();
    const monthly = await s.prices.create({
      currency: 'EUR',
      unit_amount: 1500,
      recurring: { interval: 'month' },
      product_data: { name: 'Pro plan' },
      lookup_key: 'pro_monthly',
      tax_behavior: 'exclusive',
      nickname: 'Pro',
    });
    expect(monthly.id).toMatch(/^price_/);
    expect(monthly).toMatchObject({
      object: 'price',
      currency: 'eur',
      unit_amount: 1500,
      type: 'recurring',
      billing_scheme: 'per_unit',
      lookup_key: 'pro_monthly',
      tax_behavior: 'exclusive',
      recurring: {
        interval: 'month',
        interval_count: 1,
        usage_type: 'licensed',
        meter: null,
        trial_period_days: null,
      },
    });
    expect(shapeDifferences('price', plain(monthly))).toEqual([]);
    expect(plain(monthly).unit_amount_decimal).toBe('1500');
    expect(monthly.product).toMatch(/^prod_/);

    const withProduct = await s.prices.retrieve(monthly.id, { expand: ['product'] });
    expect((withProduct.product as Stripe.Product).name).toBe('Pro plan');

    const fractional = await s.prices.create({
      currency: 'usd',
      unit_amount_decimal: Stripe.Decimal.from('12.50'),
      product: monthly.product as string,
    });
    expect(fractional.unit_amount).toBeNull();
    expect(plain(fractional).unit_amount_decimal).toBe('12.5');
    expect(fractional.type).toBe('one_time');

    const u = await s.prices.update(monthly.id, {
      nickname: 'Pro (monthly)',
      metadata: { tier: 'pro' },
      active: false,
    });
    expect(u).toMatchObject({
      nickname: 'Pro (monthly)',
      metadata: { tier: 'pro' },
      active: false,
    });
    expect(shapeDifferences('price', plain(u))).toEqual([]);
    expect(plain(await s.prices.retrieve(monthly.id))).toEqual(plain(u));
    // A recurring price is also a plan, and says so in its events.
    expect(eventTypes(inst)).toEqual([
      'product.created',
      'price.created',
      'plan.created',
      'price.created',
      'price.updated',
      'plan.updated',
    ]);
  });

  it('lookup keys are unique unless transferred; lists filter and expand', async () => {
    const { s } = fresh();
    const prod = await s.products.create({ name: 'Seat' });
    const a = await s.prices.create({
      product: prod.id,
      currency: 'usd',
      unit_amount: 1000,
      recurring: { interval: 'month' },
      lookup_key: 'seat',
    });
    const dup = await err(
      s.prices.create({ product: prod.id, currency: 'usd', unit_amount: 1100, lookup_key: 'seat' }),
    );
    expect(dup).toMatchObject({
      statusCode: 400,
      code: 'resource_already_exists',
      param: 'lookup_key',
    });
    const b = await s.prices.create({
      product: prod.id,
      currency: 'usd',
      unit_amount: 1100,
      recurring: { interval: 'year' },
      lookup_key: 'seat',
      transfer_lookup_key: true,
    });
    expect((await s.prices.retrieve(a.id)).lookup_key).toBeNull();
    const c = await s.prices.create({ product: prod.id, currency: 'gbp', unit_amount: 900 });

    expect((await s.prices.list({ lookup_keys: ['seat'] })).data.map((p) => p.id)).toEqual([b.id]);
    expect((await s.prices.list({ type: 'one_time' })).data.map((p) => p.id)).toEqual([c.id]);
    expect((await s.prices.list({ currency: 'usd' })).data.map((p) => p.id)).toEqual([b.id, a.id]);
    expect(
      (await s.prices.list({ recurring: { interval: 'month' } })).data.map((p) => p.id),
    ).toEqual([a.id]);
    expect((await s.prices.list({ product: prod.id, limit: 2 })).has_more).toBe(true);
    const other = await s.products.create({ name: 'Other' });
    expect((await s.prices.list({ product: other.id })).data).toEqual([]);
    await s.prices.update(c.id, { active: false });
    expect((await s.prices.list({ active: true })).data.map((p) => p.id)).toEqual([b.id, a.id]);

    const expanded = await s.prices.list({ expand: ['data.product'] });
    expect(expanded.data.every((p) => (p.product as Stripe.Product).object === 'product')).toBe(
      true,
    );
    expect(await err(s.prices.list({ expand: ['product'] }))).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining("expanding 'data.product'"),
    });

    const found = await s.prices.search({ query: "currency:'gbp'" });
    expect(found.data.map((p) => p.id)).toEqual([c.id]);
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const prod = await s.products.create({ name: 'Widget' });
    const before = inst.changes();
    expect(
      await err(s.prices.create({ product: prod.id } as Stripe.PriceCreateParams)),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'currency' });
    expect(await err(s.prices.create({ currency: 'usd', unit_amount: 100 }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'product',
    });
    expect(await err(s.prices.create({ currency: 'usd', product: prod.id }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'unit_amount',
    });
    expect(
      await err(s.prices.create({ currency: 'usd', unit_amount: 100, product: 'prod_nope' })),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'product' });
    expect(
      await err(
        s.prices.create({
          currency: 'usd',
          unit_amount: 100,
          product_data: { name: 'Half' },
          recurring: { interval: 'fortnight' as 'month' },
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'recurring[interval]' });
    expect(await err(s.products.create({} as Stripe.ProductCreateParams))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'name',
    });
    expect(await err(s.products.create({ name: 'Dup', id: prod.id }))).toMatchObject({
      statusCode: 400,
      code: 'resource_already_exists',
    });
    expect(
      await err(s.products.create({ name: 'Bad price', default_price_data: { currency: 'usd' } })),
    ).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'default_price_data[unit_amount]',
    });
    const missing = await err(s.prices.retrieve('price_nope'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: "No such price: 'price_nope'",
    });
    expect(await err(s.products.retrieve('prod_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such product: 'prod_nope'",
    });
    expect(await err(s.products.list({ starting_after: 'prod_nope' }))).toMatchObject({
      statusCode: 404,
      param: 'starting_after',
    });
    expect(inst.changes()).toEqual(before);
  });
});

describe('plans', () => {
  it('create (inline product and by id), retrieve, update, delete, list: the plan view of prices', async () => {
    const { inst, s } = fresh();
    const plan = await s.plans.create({
      amount: 2000,
      currency: 'usd',
      interval: 'month',
      product: { name: 'Gold' },
      nickname: 'Gold monthly',
      trial_period_days: 14,
    });
    expect(plan.id).toMatch(/^price_/);
    expect(plan).toMatchObject({
      object: 'plan',
      amount: 2000,
      currency: 'usd',
      interval: 'month',
      interval_count: 1,
      usage_type: 'licensed',
      trial_period_days: 14,
      nickname: 'Gold monthly',
      active: true,
    });
    expect(plain(plan).amount_decimal).toBe('2000');
    expect(shapeDifferences('plan', plain(plan))).toEqual([]);
    // The same object, seen as a price.
    const asPrice = await s.prices.retrieve(plan.id);
    expect(asPrice).toMatchObject({
      type: 'recurring',
      unit_amount: 2000,
      product: plan.product,
      recurring: { trial_period_days: 14 },
    });

    const named = await s.plans.create({
      id: 'gold-yearly',
      amount: 20000,
      currency: 'usd',
      interval: 'year',
      product: plan.product as string,
    });
    expect(named.id).toBe('gold-yearly');
    expect(
      await err(
        s.plans.create({
          id: 'gold-yearly',
          amount: 1,
          currency: 'usd',
          interval: 'year',
          product: plan.product as string,
        }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'resource_already_exists' });
    expect(
      await err(s.plans.create({ amount: 1, currency: 'usd', interval: 'year' })),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'product' });
    const withProduct = await s.plans.retrieve(named.id, { expand: ['product'] });
    expect((withProduct.product as Stripe.Product).name).toBe('Gold');

    const u = await s.plans.update(plan.id, { nickname: 'Gold', metadata: { a: '1' } });
    expect(u).toMatchObject({ nickname: 'Gold', metadata: { a: '1' } });
    expect(shapeDifferences('plan', plain(u))).toEqual([]);
    expect(plain(await s.plans.retrieve(plan.id))).toEqual(plain(u));

    // One-time prices are not plans.
    const once = await s.prices.create({
      currency: 'usd',
      unit_amount: 300,
      product: plan.product as string,
    });
    expect(await err(s.plans.retrieve(once.id))).toMatchObject({
      statusCode: 404,
      message: `No such plan: '${once.id}'`,
    });
    const list = await s.plans.list();
    expect(list).toMatchObject({ object: 'list', url: '/v1/plans' });
    expect(list.data.map((p) => p.id)).toEqual([named.id, plan.id]);
    expect(list.data.every((p) => p.object === 'plan')).toBe(true);
    expect((await s.plans.list({ limit: 1 })).has_more).toBe(true);
    await s.plans.update(named.id, { active: false });
    expect((await s.plans.list({ active: true })).data.map((p) => p.id)).toEqual([plan.id]);
    expect((await s.plans.list({ product: 'prod_other' })).data).toEqual([]);

    const del = await s.plans.del(named.id);
    expect(plain(del)).toEqual({ id: named.id, object: 'plan', deleted: true });
    expect(shapeDifferences('deleted_plan', plain(del))).toEqual([]);
    expect(await err(s.plans.retrieve(named.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await err(s.prices.retrieve(named.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect((await s.plans.list()).data.map((p) => p.id)).toEqual([plan.id]);
    expect(eventTypes(inst).filter((t) => t.startsWith('plan.'))).toEqual([
      'plan.created',
      'plan.created',
      'plan.updated',
      'plan.updated',
      'plan.deleted',
    ]);
  });
});

describe('coupons and promotion codes', () => {
  it('coupons: create, retrieve, update, delete, list; ids chosen or random; duplicates refused', async () => {
    const { inst, s } = fresh();
    const pct = await s.coupons.create({
      percent_off: 25.5,
      duration: 'repeating',
      duration_in_months: 3,
      name: '25.5% off',
    });
    expect(pct.id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(pct).toMatchObject({
      object: 'coupon',
      percent_off: 25.5,
      amount_off: null,
      currency: null,
      duration: 'repeating',
      duration_in_months: 3,
      times_redeemed: 0,
      valid: true,
    });
    expect(shapeDifferences('coupon', plain(pct))).toEqual([]);
    const amt = await s.coupons.create({
      id: 'FIVEOFF',
      amount_off: 500,
      currency: 'USD',
      duration: 'once',
      max_redemptions: 1,
    });
    expect(amt).toMatchObject({
      id: 'FIVEOFF',
      amount_off: 500,
      currency: 'usd',
      percent_off: null,
      duration: 'once',
    });
    expect(plain(await s.coupons.retrieve('FIVEOFF'))).toEqual(plain(amt));

    expect(await err(s.coupons.create({ id: 'FIVEOFF', percent_off: 5 }))).toMatchObject({
      statusCode: 400,
      code: 'resource_already_exists',
      param: 'id',
    });
    expect(await err(s.coupons.create({ amount_off: 100 }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'currency',
    });
    expect(
      await err(s.coupons.create({ percent_off: 10, amount_off: 100, currency: 'usd' })),
    ).toMatchObject({ statusCode: 400, param: 'amount_off' });
    expect(await err(s.coupons.create({ duration: 'forever' }))).toMatchObject({
      statusCode: 400,
      param: 'percent_off',
    });
    expect(await err(s.coupons.create({ percent_off: 10, duration: 'repeating' }))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'duration_in_months',
    });

    const u = await s.coupons.update('FIVEOFF', {
      name: 'Five off',
      metadata: { campaign: 'spring' },
    });
    expect(u).toMatchObject({ name: 'Five off', metadata: { campaign: 'spring' } });
    expect(shapeDifferences('coupon', plain(u))).toEqual([]);

    const list = await s.coupons.list({ limit: 1 });
    expect(list).toMatchObject({ object: 'list', has_more: true, url: '/v1/coupons' });
    expect(list.data.map((c) => c.id)).toEqual(['FIVEOFF']);
    expect((await s.coupons.list({ starting_after: 'FIVEOFF' })).data.map((c) => c.id)).toEqual([
      pct.id,
    ]);

    const del = await s.coupons.del(pct.id);
    expect(plain(del)).toEqual({ id: pct.id, object: 'coupon', deleted: true });
    expect(shapeDifferences('deleted_coupon', plain(del))).toEqual([]);
    expect(await err(s.coupons.retrieve(pct.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: `No such coupon: '${pct.id}'`,
    });
    expect((await s.coupons.list()).data.map((c) => c.id)).toEqual(['FIVEOFF']);
    expect(eventTypes(inst)).toEqual([
      'coupon.created',
      'coupon.created',
      'coupon.updated',
      'coupon.deleted',
    ]);
  });

  it('promotion codes: create (new and old coupon param), retrieve, update, list; expand the coupon', async () => {
    const { inst, s } = fresh();
    await s.coupons.create({ id: 'FALL', percent_off: 20, duration: 'once' });
    await s.coupons.create({ id: 'WINTER', percent_off: 30, duration: 'forever' });
    const cus = await s.customers.create({ email: 'vip@example.com' });
    const promo = await s.promotionCodes.create({
      promotion: { type: 'coupon', coupon: 'FALL' },
      code: 'FALL20',
      max_redemptions: 5,
      restrictions: { minimum_amount: 1000, minimum_amount_currency: 'usd' },
    });
    expect(promo.id).toMatch(/^promo_/);
    expect(promo).toMatchObject({
      object: 'promotion_code',
      code: 'FALL20',
      active: true,
      promotion: { type: 'coupon', coupon: 'FALL' },
      max_redemptions: 5,
      times_redeemed: 0,
      customer: null,
      restrictions: {
        first_time_transaction: false,
        minimum_amount: 1000,
        minimum_amount_currency: 'usd',
      },
    });
    expect(shapeDifferences('promotion_code', plain(promo))).toEqual([]);
    // The pre-clover parameter still works.
    const old = await s.promotionCodes.create({
      coupon: 'WINTER',
      customer: cus.id,
    } as unknown as Stripe.PromotionCodeCreateParams);
    expect(old).toMatchObject({ promotion: { coupon: 'WINTER' }, customer: cus.id });
    expect(old.code).toMatch(/^[A-Z0-9]{8}$/);

    expect(
      await err(
        s.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'FALL' }, code: 'fall20' }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'resource_already_exists', param: 'code' });
    expect(
      await err(s.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'NOPE' } })),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'promotion[coupon]' });
    expect(
      await err(s.promotionCodes.create({} as Stripe.PromotionCodeCreateParams)),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'promotion' });

    const expanded = await s.promotionCodes.retrieve(promo.id, { expand: ['promotion.coupon'] });
    expect(expanded.promotion.coupon).toMatchObject({
      object: 'coupon',
      id: 'FALL',
      percent_off: 20,
    });
    expect(plain(await s.promotionCodes.retrieve(promo.id))).toEqual(plain(promo));

    const u = await s.promotionCodes.update(promo.id, { active: false, metadata: { k: 'v' } });
    expect(u).toMatchObject({ active: false, metadata: { k: 'v' } });
    expect(shapeDifferences('promotion_code', plain(u))).toEqual([]);

    expect((await s.promotionCodes.list()).data.map((p) => p.id)).toEqual([old.id, promo.id]);
    expect((await s.promotionCodes.list({ active: true })).data.map((p) => p.id)).toEqual([old.id]);
    expect((await s.promotionCodes.list({ code: 'FALL20' })).data.map((p) => p.id)).toEqual([
      promo.id,
    ]);
    expect((await s.promotionCodes.list({ coupon: 'WINTER' })).data.map((p) => p.id)).toEqual([
      old.id,
    ]);
    expect((await s.promotionCodes.list({ customer: cus.id })).data.map((p) => p.id)).toEqual([
      old.id,
    ]);
    const page = await s.promotionCodes.list({ limit: 1 });
    expect(page).toMatchObject({ has_more: true, url: '/v1/promotion_codes' });
    expect(eventTypes(inst).filter((t) => t.startsWith('promotion_code.'))).toEqual([
      'promotion_code.created',
      'promotion_code.created',
      'promotion_code.updated',
    ]);
  });
});

describe('tax rates', () => {
  it('create, retrieve, update, list with filters', async () => {
    const { inst, s } = fresh();
    const vat = await s.taxRates.create({
      display_name: 'VAT',
      percentage: 19,
      inclusive: false,
      country: 'de',
      jurisdiction: 'DE',
      description: 'VAT Germany',
      tax_type: 'vat',
    });
    expect(vat.id).toMatch(/^txr_/);
    expect(vat).toMatchObject({
      object: 'tax_rate',
      display_name: 'VAT',
      percentage: 19,
      inclusive: false,
      country: 'DE',
      active: true,
      tax_type: 'vat',
      rate_type: 'percentage',
      effective_percentage: 19,
    });
    expect(shapeDifferences('tax_rate', plain(vat))).toEqual([]);
    const gst = await s.taxRates.create({ display_name: 'GST', percentage: 10, inclusive: true });
    expect(plain(await s.taxRates.retrieve(vat.id))).toEqual(plain(vat));

    const u = await s.taxRates.update(gst.id, {
      active: false,
      display_name: 'GST (AU)',
      metadata: { region: 'au' },
    });
    expect(u).toMatchObject({
      active: false,
      display_name: 'GST (AU)',
      metadata: { region: 'au' },
      percentage: 10,
    });
    expect(shapeDifferences('tax_rate', plain(u))).toEqual([]);
    expect(
      await err(s.taxRates.update(gst.id, { percentage: 12 } as Stripe.TaxRateUpdateParams)),
    ).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'percentage' });
    expect(
      await err(
        s.taxRates.create({ display_name: 'X', percentage: 5 } as Stripe.TaxRateCreateParams),
      ),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'inclusive' });
    expect(await err(s.taxRates.retrieve('txr_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });

    expect((await s.taxRates.list()).data.map((t) => t.id)).toEqual([gst.id, vat.id]);
    expect((await s.taxRates.list({ active: true })).data.map((t) => t.id)).toEqual([vat.id]);
    expect((await s.taxRates.list({ inclusive: true })).data.map((t) => t.id)).toEqual([gst.id]);
    expect((await s.taxRates.list({ limit: 1 })).has_more).toBe(true);
    expect(eventTypes(inst)).toEqual(['tax_rate.created', 'tax_rate.created', 'tax_rate.updated']);
  });
});

describe('customer balance', () => {
  it('create, retrieve, update, list: each entry moves the balance', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ name: 'Credit Co' });
    const credit = await s.customers.createBalanceTransaction(cus.id, {
      amount: -500,
      currency: 'USD',
      description: 'Goodwill credit',
    });
    expect(credit.id).toMatch(/^cbtxn_/);
    expect(credit).toMatchObject({
      object: 'customer_balance_transaction',
      amount: -500,
      currency: 'usd',
      customer: cus.id,
      ending_balance: -500,
      type: 'adjustment',
      description: 'Goodwill credit',
    });
    expect(shapeDifferences('customer_balance_transaction', plain(credit))).toEqual([]);
    const debit = await s.customers.createBalanceTransaction(cus.id, {
      amount: 200,
      currency: 'usd',
    });
    expect(debit.ending_balance).toBe(-300);
    expect(await s.customers.retrieve(cus.id)).toMatchObject({ balance: -300, currency: 'usd' });
    expect(
      await err(s.customers.createBalanceTransaction(cus.id, { amount: 100, currency: 'eur' })),
    ).toMatchObject({ statusCode: 400, param: 'currency' });
    expect(
      await err(
        s.customers.createBalanceTransaction(cus.id, {
          currency: 'usd',
        } as Stripe.CustomerCreateBalanceTransactionParams),
      ),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'amount' });
    expect(
      await err(s.customers.createBalanceTransaction('cus_nope', { amount: 1, currency: 'usd' })),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing' });

    expect(plain(await s.customers.retrieveBalanceTransaction(cus.id, credit.id))).toEqual(
      plain(credit),
    );
    const other = await s.customers.create({ name: 'Other' });
    expect(await err(s.customers.retrieveBalanceTransaction(other.id, credit.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    const u = await s.customers.updateBalanceTransaction(cus.id, credit.id, {
      description: 'Apology credit',
      metadata: { ticket: 'T-9' },
    });
    expect(u).toMatchObject({
      description: 'Apology credit',
      metadata: { ticket: 'T-9' },
      amount: -500,
    });
    expect(shapeDifferences('customer_balance_transaction', plain(u))).toEqual([]);

    const list = await s.customers.listBalanceTransactions(cus.id, { limit: 1 });
    expect(list).toMatchObject({
      object: 'list',
      has_more: true,
      url: `/v1/customers/${cus.id}/balance_transactions`,
    });
    expect(list.data.map((t) => t.id)).toEqual([debit.id]);
    const all: string[] = [];
    for await (const t of s.customers.listBalanceTransactions(cus.id, { limit: 1 })) all.push(t.id);
    expect(all).toEqual([debit.id, credit.id]);
    expect((await s.customers.listBalanceTransactions(other.id)).data).toEqual([]);
    // Stripe has no balance-transaction events: each entry shows as the customer's balance changing.
    expect(eventTypes(inst).filter((t) => t.startsWith('customer_balance'))).toEqual([]);
    expect(eventTypes(inst).filter((t) => t === 'customer.updated')).toHaveLength(2);
  });
});

describe('customer discounts', () => {
  it('apply a coupon or promotion code on create and update, redeem them, and remove the discount', async () => {
    const { inst, s } = fresh();
    await s.coupons.create({
      id: 'TENOFF',
      percent_off: 10,
      duration: 'repeating',
      duration_in_months: 2,
      max_redemptions: 2,
    });
    const cus = await s.customers.create({
      name: 'Ada',
      coupon: 'TENOFF',
    } as Stripe.CustomerCreateParams);
    const d = cus.discount as Stripe.Discount;
    expect(d).toMatchObject({
      object: 'discount',
      customer: cus.id,
      source: { type: 'coupon', coupon: 'TENOFF' },
      promotion_code: null,
    });
    expect(d.id).toMatch(/^di_/);
    expect(d.end).toBe(d.start + 61 * 86400); // June 1 + 2 calendar months
    expect(shapeDifferences('discount', plain(d))).toEqual([]);
    expect(shapeDifferences('customer', plain(cus))).toEqual([]);
    expect((await s.coupons.retrieve('TENOFF')).times_redeemed).toBe(1);
    const expanded = await s.customers.retrieve(cus.id, { expand: ['discount.source.coupon'] });
    expect(
      ((expanded as Stripe.Customer).discount?.source.coupon as Stripe.Coupon).percent_off,
    ).toBe(10);

    await s.coupons.create({ id: 'HALF', percent_off: 50, duration: 'once' });
    const promo = await s.promotionCodes.create({
      promotion: { type: 'coupon', coupon: 'HALF' },
      code: 'HALFOFF',
      max_redemptions: 1,
    });
    const u = await s.customers.update(cus.id, {
      discounts: [{ promotion_code: promo.id }],
    } as Stripe.CustomerUpdateParams);
    expect(u.discount).toMatchObject({
      promotion_code: promo.id,
      source: { coupon: 'HALF' },
      end: null,
    });
    expect((await s.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1);

    // Used up: a second customer cannot redeem it, and nothing changes.
    const before = inst.changes();
    expect(
      await err(s.customers.create({ promotion_code: promo.id } as Stripe.CustomerCreateParams)),
    ).toMatchObject({ statusCode: 400, param: 'promotion_code' });
    expect(
      await err(s.customers.create({ coupon: 'NOPE' } as Stripe.CustomerCreateParams)),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'coupon' });
    expect(inst.changes()).toEqual(before);

    const second = await s.customers.create({ coupon: 'TENOFF' } as Stripe.CustomerCreateParams);
    expect(second.discount).not.toBeNull();
    expect((await s.coupons.retrieve('TENOFF')).valid).toBe(false);
    expect(
      await err(s.customers.create({ coupon: 'TENOFF' } as Stripe.CustomerCreateParams)),
    ).toMatchObject({ statusCode: 400, code: 'coupon_expired' });

    const removed = await s.customers.deleteDiscount(cus.id);
    expect(removed).toMatchObject({ object: 'discount', deleted: true, customer: cus.id });
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).discount).toBeNull();
    expect(eventTypes(inst).filter((t) => t.startsWith('customer.discount'))).toEqual([
      'customer.discount.created',
      'customer.discount.updated',
      'customer.discount.created',
      'customer.discount.deleted',
    ]);
  });
});
