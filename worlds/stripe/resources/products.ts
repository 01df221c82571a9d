/**
 * Products: what is sold, with its prices in their own table. `default_price_data` on create makes the first price
 * and sets `default_price`. A product with prices cannot be deleted (Stripe's rule: archive it instead); a deleted
 * product leaves a stub, which is what a price's `product` expands to afterwards.
 */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest } from '../lib/errors.ts';
import { EXPANDERS } from '../lib/expand.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p, searchParams, type OpParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import { applyProduct, createProduct, liveProduct, priceDataFields } from './price-fields.ts';
import { createPrice, livePrice } from './price-model.ts';
import { copyJson } from '../lib/clone.ts';

const packageDimensions = p.obj({
  height: p.num(0).req(),
  length: p.num(0).req(),
  weight: p.num(0).req(),
  width: p.num(0).req(),
});
const marketingFeatures = p.arr(p.obj({ name: p.string(80).req() }));

// A product's default price may be a plan with a caller-chosen id, with no `price_` prefix to find it by.
EXPANDERS['product.default_price'] = (ctx, id) => get(ctx, 'prices', id);

const writable = {
  active: p.bool(),
  description: p.string(40000),
  images: p.arr(p.string(2048)),
  marketing_features: marketingFeatures,
  metadata: p.metadata(),
  package_dimensions: packageDimensions,
  shippable: p.bool(),
  statement_descriptor: p.string(22),
  tax_code: p.string(),
  unit_label: p.string(12),
  url: p.string(5000),
};

const updateParams = {
  ...writable,
  name: p.string(),
  default_price: p.string(),
  tax_details: p.any(),
};
const listProductsParams = {
  ...listParams,
  active: p.bool(),
  ids: p.arr(p.string()),
  shippable: p.bool(),
  type: p.enum('good', 'service'),
  url: p.string(),
};

export const productsOps = [
  op({
    id: 'PostProducts',
    method: 'POST',
    path: '/v1/products',
    params: {
      ...writable,
      name: p.string().req(),
      id: p.string(),
      type: p.enum('good', 'service'),
      default_price_data: p.obj({ ...priceDataFields, currency_options: p.any() }),
    },
    run(c, params) {
      if (params.default_price_data?.currency_options !== undefined) {
        throw invalidRequest(
          'currency_options is not supported by this Stripe World; create a price per currency instead.',
          'default_price_data[currency_options]',
        );
      }
      const priceId = params.default_price_data ? newId(c.ctx, 'price_') : null;
      const product = createProduct(c, params, priceId);
      if (params.default_price_data) {
        const names = {
          unit_amount: 'default_price_data[unit_amount]',
          unit_amount_decimal: 'default_price_data[unit_amount_decimal]',
          tiers: 'default_price_data[tiers]',
        };
        createPrice(c, { ...params.default_price_data, id: priceId, names }, product.id);
      }
      return product;
    },
  }),
  op({
    id: 'GetProductsId',
    method: 'GET',
    path: '/v1/products/{id}',
    params: {},
    run: (c, _params: OpParams, path) => liveProduct(c.ctx, path.id),
  }),
  op({
    id: 'PostProductsId',
    method: 'POST',
    path: '/v1/products/{id}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      if (params.tax_details !== undefined)
        throw invalidRequest(
          'tax_details is not supported by this Stripe World; set tax_code instead.',
          'tax_details',
        );
      const before = liveProduct(c.ctx, path.id);
      const after = copyJson(before);
      applyProduct(after, params);
      if (params.default_price !== undefined) {
        if (params.default_price !== null) {
          const price = livePrice(c.ctx, params.default_price, 'default_price');
          if (price.product !== before.id)
            throw invalidRequest(
              `The price \`${price.id}\` belongs to product \`${price.product}\`, not \`${before.id}\`; a default price must be one of the product's own prices.`,
              'default_price',
            );
          if (!price.active)
            throw invalidRequest(
              `The price \`${price.id}\` is archived; only an active price can be the default price.`,
              'default_price',
            );
        }
        after.default_price = params.default_price;
      }
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length === 0) return before;
      after.updated = nowSeconds(c.ctx);
      put(c.ctx, 'products', after);
      emit(c, 'product.updated', after, changedAttributes(before, after));
      return after;
    },
  }),
  op({
    id: 'DeleteProductsId',
    method: 'DELETE',
    path: '/v1/products/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      const before = liveProduct(c.ctx, path.id);
      if (c.ctx.db.one('SELECT 1 FROM prices WHERE product = ? AND deleted = 0', before.id)) {
        throw invalidRequest(
          'This product cannot be deleted because it has one or more user-created prices. Archive it instead (active=false).',
          'id',
        );
      }
      const stub = { id: before.id, object: 'product', deleted: true };
      // The row holds the stub in the product's place; readers check `deleted` first (liveProduct).
      put(c.ctx, 'products', stub as Stored<'products'>);
      emit(c, 'product.deleted', before);
      return stub;
    },
  }),
  op({
    id: 'GetProducts',
    method: 'GET',
    path: '/v1/products',
    params: listProductsParams,
    run(c, params: OpParams<typeof listProductsParams>) {
      const where: [string, ...(string | number)[]][] = [];
      if (typeof params.active === 'boolean') where.push(['active = ?', params.active ? 1 : 0]);
      if (typeof params.shippable === 'boolean')
        where.push(['shippable = ?', params.shippable ? 1 : 0]);
      if (params.type) where.push(['type = ?', params.type]);
      if (params.url) where.push(['url = ?', params.url]);
      const ids = (params.ids ?? []).filter((id: string | null) => id !== null);
      if (ids.length) where.push([`id IN (${ids.map(() => '?').join(', ')})`, ...ids]);
      return listPage(c.ctx, 'products', params, { url: '/v1/products', what: 'product', where });
    },
  }),
  op({
    id: 'GetProductsSearch',
    method: 'GET',
    path: '/v1/products/search',
    params: searchParams,
    run: (c, params: OpParams<typeof searchParams>) =>
      searchPage(c.ctx, 'products', params, '/v1/products/search'),
  }),
];
