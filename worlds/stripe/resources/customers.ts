/** Customers: create, retrieve (a deleted one is its stub), update, delete, list, search, and the discount. */
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, mergeMetadata, p, searchParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, newId, nowSeconds, put, type Obj } from '../lib/store.ts';
import type { Ctx } from '../../../kit/index.ts';

const address = p.obj({ city: p.string(), country: p.string(), line1: p.string(), line2: p.string(), postal_code: p.string(), state: p.string() });
const shipping = p.obj({ address, name: p.string(), phone: p.string() });
const invoiceSettings = p.obj({
  custom_fields: p.arr(p.obj({ name: p.string().req(), value: p.string().req() })),
  default_payment_method: p.string(),
  footer: p.string(),
  rendering_options: p.obj({ amount_tax_display: p.enum('exclude_tax', 'include_inclusive_tax'), template: p.string() }),
});

/** The parameters create and update share. */
const writable = {
  address,
  balance: p.int(),
  description: p.string(),
  email: p.string(512),
  invoice_prefix: p.string(12),
  invoice_settings: invoiceSettings,
  metadata: p.metadata(),
  name: p.string(256),
  next_invoice_sequence: p.int(1),
  phone: p.string(20),
  preferred_locales: p.arr(p.string()),
  shipping,
  tax_exempt: p.enum('exempt', 'none', 'reverse'),
  payment_method: p.string(),
  source: p.string(),
  coupon: p.string(),
  promotion_code: p.string(),
  discounts: p.arr(p.obj({ coupon: p.string(), discount: p.string(), promotion_code: p.string() })),
  test_clock: p.string(),
  tax: p.obj({ ip_address: p.string(), validate_location: p.enum('deferred', 'immediately') }),
  tax_id_data: p.arr(p.obj({ type: p.string().req(), value: p.string().req() })),
  cash_balance: p.any(),
  default_source: p.string(),
};

const emptyAddress = () => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });

/** A customer's stored object (deleted customers keep their stub). */
export function getCustomer(ctx: Ctx, id: string, param = 'customer'): Obj {
  const c = get(ctx, 'customers', id);
  if (c === undefined) throw resourceMissing('customer', id, param);
  return c;
}

/** A live (not deleted) customer, or 404. */
export function liveCustomer(ctx: Ctx, id: string, param = 'customer'): Obj {
  const c = getCustomer(ctx, id, param);
  if (c.deleted) throw resourceMissing('customer', id, param);
  return c;
}

/** An 7-character invoice prefix from the id stream, like Stripe's `7FE1103`. */
function invoicePrefix(ctx: Ctx): string {
  return ctx.ids.token('', 7).toUpperCase().replace(/[^A-Z0-9]/g, 'X');
}

/** Apply create/update parameters to a customer object. */
function apply(ctx: Ctx, c: Obj, params: Record<string, any>): void {
  for (const k of ['description', 'email', 'name', 'phone', 'tax_exempt', 'balance', 'next_invoice_sequence'] as const) {
    if (params[k] !== undefined) c[k] = params[k] ?? (k === 'tax_exempt' ? 'none' : k === 'balance' ? 0 : null);
  }
  if (params.invoice_prefix !== undefined && params.invoice_prefix !== null) {
    if (!/^[A-Z0-9]{3,12}$/.test(params.invoice_prefix)) throw invalidRequest('Invoice prefix must be 3 to 12 uppercase letters or digits.', 'invoice_prefix');
    c.invoice_prefix = params.invoice_prefix;
  }
  if (params.address !== undefined) c.address = params.address === null ? null : { ...emptyAddress(), ...(c.address ?? {}), ...params.address };
  if (params.shipping !== undefined) c.shipping = params.shipping === null ? null : { address: { ...emptyAddress(), ...(params.shipping.address ?? {}) }, name: params.shipping.name ?? null, phone: params.shipping.phone ?? null };
  if (params.preferred_locales !== undefined) c.preferred_locales = params.preferred_locales ?? [];
  if (params.metadata !== undefined) c.metadata = mergeMetadata(c.metadata ?? {}, params.metadata);
  if (params.invoice_settings) {
    const s = params.invoice_settings;
    const cur = c.invoice_settings;
    if (s.default_payment_method !== undefined) {
      if (s.default_payment_method !== null) {
        const pm = get(ctx, 'payment_methods', s.default_payment_method);
        if (!pm || pm.customer !== c.id) throw invalidRequest(`No such PaymentMethod: '${s.default_payment_method}'; it must be attached to customer ${c.id} first.`, 'invoice_settings[default_payment_method]', 'resource_missing');
      }
      cur.default_payment_method = s.default_payment_method;
    }
    if (s.footer !== undefined) cur.footer = s.footer;
    if (s.custom_fields !== undefined) cur.custom_fields = s.custom_fields;
    if (s.rendering_options !== undefined) cur.rendering_options = { amount_tax_display: s.rendering_options?.amount_tax_display ?? null, template: s.rendering_options?.template ?? null };
  }
}

export const customerOps = [
  op({
    id: 'PostCustomers',
    method: 'POST',
    path: '/v1/customers',
    params: writable,
    run(c, params) {
      const ctx = c.ctx;
      const customer: Obj = {
        id: newId(ctx, 'cus_'),
        object: 'customer',
        address: null,
        balance: 0,
        created: nowSeconds(ctx),
        currency: null,
        default_source: null,
        delinquent: false,
        description: null,
        discount: null,
        email: null,
        invoice_prefix: invoicePrefix(ctx),
        invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
        livemode: false,
        metadata: {},
        name: null,
        next_invoice_sequence: 1,
        phone: null,
        preferred_locales: [],
        shipping: null,
        tax_exempt: 'none',
        test_clock: null,
      };
      apply(ctx, customer, params);
      put(ctx, 'customers', customer);
      emit(c, 'customer.created', customer);
      return customer;
    },
  }),
  op({
    id: 'GetCustomersCustomer',
    method: 'GET',
    path: '/v1/customers/{customer}',
    params: {},
    run: (c, _params, path) => getCustomer(c.ctx, path.customer, 'id'),
  }),
  op({
    id: 'PostCustomersCustomer',
    method: 'POST',
    path: '/v1/customers/{customer}',
    params: writable,
    run(c, params, path) {
      const before = liveCustomer(c.ctx, path.customer, 'id');
      const after = structuredClone(before);
      apply(c.ctx, after, params);
      put(c.ctx, 'customers', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'customer.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'DeleteCustomersCustomer',
    method: 'DELETE',
    path: '/v1/customers/{customer}',
    params: {},
    run(c, _params, path) {
      const before = liveCustomer(c.ctx, path.customer, 'id');
      const stub = { id: before.id, object: 'customer', deleted: true };
      put(c.ctx, 'customers', { ...stub, created: before.created });
      // The stored stub keeps `created` for ordering; the reply is Stripe's bare stub.
      c.ctx.db.run('UPDATE customers SET data = ? WHERE id = ?', JSON.stringify(stub), before.id);
      emit(c, 'customer.deleted', before);
      return stub;
    },
  }),
  op({
    id: 'GetCustomers',
    method: 'GET',
    path: '/v1/customers',
    params: { ...listParams, email: p.string(512), test_clock: p.string() },
    run(c, params) {
      const where: [string, ...string[]][] = [];
      if (params.email) where.push(['email = ?', params.email]);
      return listPage(c.ctx, 'customers', params, { url: '/v1/customers', what: 'customer', where });
    },
  }),
  op({
    id: 'GetCustomersSearch',
    method: 'GET',
    path: '/v1/customers/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'customers', params, '/v1/customers/search'),
  }),
  op({
    id: 'DeleteCustomersCustomerDiscount',
    method: 'DELETE',
    path: '/v1/customers/{customer}/discount',
    params: {},
    run(c, _params, path) {
      const before = liveCustomer(c.ctx, path.customer);
      if (!before.discount) throw resourceMissing('discount', path.customer, 'customer');
      const discount = before.discount;
      const after = { ...before, discount: null };
      put(c.ctx, 'customers', after);
      emit(c, 'customer.discount.deleted', discount);
      return { object: 'discount', deleted: true, ...pick(discount, ['checkout_session', 'coupon', 'customer', 'id', 'invoice', 'invoice_item', 'promotion_code', 'start', 'subscription', 'subscription_item', 'source']) };
    },
  }),
];

function pick(o: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const k of keys) if (Object.hasOwn(o, k)) out[k] = o[k];
  return out;
}
