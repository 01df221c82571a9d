/**
 * Prices, and the legacy plans served from the same table. A plan is a recurring price in the older `plan` shape
 * (`amount`, `interval` at the top level, `transform_usage`), so an object made through either endpoint is readable
 * through both, and each write announces itself as `price.*` and, when recurring, `plan.*` too. Prices cannot be
 * deleted (Stripe has no such endpoint; archive them with `active=false`), plans can: the row stays, since other
 * objects may name it, but it leaves the price and plan endpoints.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p, searchParams, validate } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, nowSeconds, put } from '../lib/store.ts';
import {
  createPrice,
  livePlan,
  livePrice,
  planOf,
  priceCreate,
  productFor,
  updatePrice,
} from './price-model.ts';
import { productDataFields, tier, transform } from './price-fields.ts';

export const pricesOps = [
  op({
    id: 'PostPrices',
    method: 'POST',
    path: '/v1/prices',
    params: priceCreate,
    run(c, params) {
      const product = productFor(c, params.product, params.product_data, 'product');
      return createPrice(c, params, product);
    },
  }),
  op({
    id: 'GetPricesPrice',
    method: 'GET',
    path: '/v1/prices/{price}',
    params: {},
    run: (c, _params, path) => livePrice(c.ctx, path.price, 'id'),
  }),
  op({
    id: 'PostPricesPrice',
    method: 'POST',
    path: '/v1/prices/{price}',
    params: {
      active: p.bool(),
      lookup_key: p.string(200),
      metadata: p.metadata(),
      nickname: p.string(),
      tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
      transfer_lookup_key: p.bool(),
    },
    run: (c, params, path) => updatePrice(c, livePrice(c.ctx, path.price, 'id'), params),
  }),
  op({
    id: 'GetPrices',
    method: 'GET',
    path: '/v1/prices',
    params: {
      ...listParams,
      active: p.bool(),
      currency: p.string(),
      lookup_keys: p.arr(p.string()),
      product: p.string(),
      recurring: p.obj({
        interval: p.enum('day', 'week', 'month', 'year'),
        usage_type: p.enum('licensed', 'metered'),
      }),
      type: p.enum('one_time', 'recurring'),
    },
    run(c, params) {
      const where: [string, ...(string | number)[]][] = [];
      if (typeof params.active === 'boolean') where.push(['active = ?', params.active ? 1 : 0]);
      if (params.currency) where.push(['currency = ?', String(params.currency).toLowerCase()]);
      if (params.product) where.push(['product = ?', params.product]);
      if (params.type) where.push(['type = ?', params.type]);
      if (params.recurring?.interval) where.push(['interval = ?', params.recurring.interval]);
      if (params.recurring?.usage_type) where.push(['usage_type = ?', params.recurring.usage_type]);
      const keys = (params.lookup_keys ?? []).filter((k: string | null) => k !== null);
      if (keys.length > 10)
        throw invalidRequest('You may pass up to 10 lookup_keys.', 'lookup_keys');
      if (keys.length) where.push([`lookup_key IN (${keys.map(() => '?').join(', ')})`, ...keys]);
      return listPage(c.ctx, 'prices', params, { url: '/v1/prices', what: 'price', where });
    },
  }),
  op({
    id: 'GetPricesSearch',
    method: 'GET',
    path: '/v1/prices/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'prices', params, '/v1/prices/search'),
  }),
  op({
    id: 'PostPlans',
    method: 'POST',
    path: '/v1/plans',
    params: {
      currency: p.string().req(),
      interval: p.enum('day', 'week', 'month', 'year').req(),
      active: p.bool(),
      amount: p.int(0),
      amount_decimal: p.decimal(),
      billing_scheme: p.enum('per_unit', 'tiered'),
      id: p.string(),
      interval_count: p.int(1),
      metadata: p.metadata(),
      meter: p.string(),
      nickname: p.string(),
      product: p.any(),
      tiers: p.arr(tier),
      tiers_mode: p.enum('graduated', 'volume'),
      transform_usage: transform,
      trial_period_days: p.int(0),
      usage_type: p.enum('licensed', 'metered'),
    },
    run(c, params) {
      // `product` is an id, or a hash describing a new product (`product[name]=…`).
      const inline =
        params.product !== null && typeof params.product === 'object'
          ? validate(productDataFields, params.product, ['product'])
          : null;
      if (
        params.product !== undefined &&
        params.product !== null &&
        !inline &&
        typeof params.product !== 'string'
      )
        throw invalidRequest('Invalid product: pass a product id or product[name].', 'product');
      const product = productFor(c, inline ? undefined : params.product, inline, 'product');
      const price = createPrice(
        c,
        {
          id: params.id,
          currency: params.currency,
          active: params.active,
          unit_amount: params.amount,
          unit_amount_decimal: params.amount_decimal,
          billing_scheme: params.billing_scheme,
          tiers: params.tiers,
          tiers_mode: params.tiers_mode,
          transform_quantity: params.transform_usage,
          metadata: params.metadata,
          nickname: params.nickname,
          recurring: {
            interval: params.interval,
            interval_count: params.interval_count,
            usage_type: params.usage_type,
            trial_period_days: params.trial_period_days,
            meter: params.meter,
          },
          names: {
            unit_amount: 'amount',
            unit_amount_decimal: 'amount_decimal',
            tiers: 'tiers',
            transform_quantity: 'transform_usage',
          },
        },
        product,
      );
      return planOf(price);
    },
  }),
  op({
    id: 'GetPlansPlan',
    method: 'GET',
    path: '/v1/plans/{plan}',
    params: {},
    run: (c, _params, path) => planOf(livePlan(c.ctx, path.plan)),
  }),
  op({
    id: 'PostPlansPlan',
    method: 'POST',
    path: '/v1/plans/{plan}',
    params: {
      active: p.bool(),
      metadata: p.metadata(),
      nickname: p.string(),
      product: p.string(),
      trial_period_days: p.int(0),
    },
    run: (c, params, path) => planOf(updatePrice(c, livePlan(c.ctx, path.plan), params)),
  }),
  op({
    id: 'DeletePlansPlan',
    method: 'DELETE',
    path: '/v1/plans/{plan}',
    params: {},
    run(c, _params, path) {
      const before = livePlan(c.ctx, path.plan);
      const product = get(c.ctx, 'products', before.product);
      if (product && product.default_price === before.id) {
        const after = { ...product, default_price: null, updated: nowSeconds(c.ctx) };
        put(c.ctx, 'products', after);
        emit(c, 'product.updated', after, changedAttributes(product, after));
      }
      // The row stays for the objects that name it; `put` reads `deleted` off the object, which a price does not carry.
      c.ctx.db.run('UPDATE prices SET deleted = 1 WHERE id = ?', before.id);
      emit(c, 'plan.deleted', planOf(before));
      emit(c, 'price.deleted', before);
      return { id: before.id, object: 'plan', deleted: true };
    },
  }),
  op({
    id: 'GetPlans',
    method: 'GET',
    path: '/v1/plans',
    params: { ...listParams, active: p.bool(), product: p.string() },
    run(c, params) {
      const where: [string, ...(string | number)[]][] = [['type = ?', 'recurring']];
      if (typeof params.active === 'boolean') where.push(['active = ?', params.active ? 1 : 0]);
      if (params.product) where.push(['product = ?', params.product]);
      return listPage(c.ctx, 'prices', params, {
        url: '/v1/plans',
        what: 'plan',
        where,
        map: planOf,
      });
    },
  }),
];
