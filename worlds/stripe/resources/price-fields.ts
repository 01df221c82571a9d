/**
 * What prices and products are made of: the fields an inline price or product takes, and a product's checks and creation (prices.ts and products.ts declare the operations).
 */
import type { Ctx } from 'seahaven';
import { emit } from '../lib/events.ts';
import { StripeError, invalidRequest, resourceMissing } from '../lib/errors.ts';
import { type OpContext } from '../lib/op.ts';
import { mergeMetadata, p, type Spec } from '../lib/params.ts';
import type { ProductPackageDimensions } from '../lib/objects.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';

export const CURRENCY = /^[a-z]{3}$/;

export const recurringFields = {
  interval: p.enum('day', 'week', 'month', 'year').req(),
  interval_count: p.int(1),
  usage_type: p.enum('licensed', 'metered'),
  trial_period_days: p.int(0),
  meter: p.string(),
};

export const customUnitAmount = p.obj({
  enabled: p.bool().req(),
  maximum: p.int(0),
  minimum: p.int(0),
  preset: p.int(0),
});
export const tier = p.obj({
  up_to: p.any().req(),
  flat_amount: p.int(0),
  flat_amount_decimal: p.decimal(),
  unit_amount: p.int(0),
  unit_amount_decimal: p.decimal(),
});
export const transform = p.obj({ divide_by: p.int(1).req(), round: p.enum('down', 'up').req() });

/** What an inline price (`default_price_data`) and a full price create share. */
export const priceDataFields = {
  currency: p.string().req(),
  custom_unit_amount: customUnitAmount,
  metadata: p.metadata(),
  recurring: p.obj(recurringFields),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  unit_amount: p.int(0),
  unit_amount_decimal: p.decimal(),
};

// Products are made here as well as in products.ts (inline `product_data` on a price, `product[name]` on a plan), so
// their model lives with the prices and products.ts imports it: the two modules never import each other.

/** The product fields an inline product (`product_data` on a price, `product[…]` on a plan) may set. */
export const productDataFields: Record<string, Spec> = {
  name: p.string().req(),
  active: p.bool(),
  id: p.string(),
  metadata: p.metadata(),
  statement_descriptor: p.string(22),
  tax_code: p.string(),
  unit_label: p.string(12),
};

/** A product's fields as create, update and inline `product_data` give them (`productDataFields`, products.ts). */
export interface ProductData {
  id?: string | null;
  name?: string | null;
  active?: boolean | null;
  description?: string | null;
  statement_descriptor?: string | null;
  tax_code?: string | null;
  unit_label?: string | null;
  url?: string | null;
  shippable?: boolean | null;
  images?: string[] | null;
  marketing_features?: { name: string }[] | null;
  package_dimensions?: ProductPackageDimensions | null;
  metadata?: Record<string, string | null> | null;
  type?: Stored<'products'>['type'] | null;
}

/** A product that has not been deleted, or Stripe's 404. */
export function liveProduct(ctx: Ctx, id: string, param = 'id'): Stored<'products'> {
  const product = get(ctx, 'products', id);
  if (product === undefined || product.deleted) throw resourceMissing('product', id, param);
  return product;
}

/** Apply the fields create and update share. */
export function applyProduct(product: Stored<'products'>, params: ProductData): void {
  for (const k of [
    'description',
    'statement_descriptor',
    'tax_code',
    'unit_label',
    'url',
  ] as const) {
    const value = params[k];
    if (value !== undefined) product[k] = value;
  }
  // tax_details carries the tax code (no performance location: the world has no tax locations).
  product.tax_details = product.tax_code
    ? { performance_location: null, tax_code: product.tax_code }
    : null;
  if (params.name !== undefined && params.name !== null) product.name = params.name;
  if (params.active !== undefined && params.active !== null) product.active = params.active;
  if (params.shippable !== undefined) product.shippable = params.shippable;
  if (params.images !== undefined) {
    if ((params.images ?? []).length > 8)
      throw invalidRequest('A product can have up to 8 images.', 'images');
    product.images = params.images ?? [];
  }
  if (params.marketing_features !== undefined) {
    if ((params.marketing_features ?? []).length > 15)
      throw invalidRequest('A product can have up to 15 marketing features.', 'marketing_features');
    product.marketing_features = (params.marketing_features ?? []).map((f) => ({
      name: f.name,
    }));
  }
  if (params.package_dimensions !== undefined)
    product.package_dimensions = params.package_dimensions;
  if (params.metadata !== undefined)
    product.metadata = mergeMetadata(product.metadata ?? {}, params.metadata);
}

/**
 * Check, store and announce a new product (from `POST /v1/products` or a price's `product_data`). `defaultPrice`: the
 * id its first price will take, so `product.created` already names it, as Stripe's does.
 */
export function createProduct(
  c: OpContext,
  params: ProductData,
  defaultPrice: string | null = null,
): Stored<'products'> {
  const ctx = c.ctx;
  if (params.id && get(ctx, 'products', params.id)) {
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'resource_already_exists',
      message: 'Product already exists.',
      param: 'id',
    });
  }
  const now = nowSeconds(ctx);
  const product: Stored<'products'> = {
    id: params.id ?? newId(ctx, 'prod_'),
    object: 'product',
    active: true,
    created: now,
    default_price: defaultPrice,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    // `name` is required (productDataFields); the spec refused a request without it.
    name: params.name as string,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    unit_label: null,
    updated: now,
    url: null,
    type: params.type ?? 'service',
  };
  applyProduct(product, params);
  put(ctx, 'products', product);
  emit(c, 'product.created', product);
  return product;
}
