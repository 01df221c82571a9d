/** Customers: create, retrieve (a deleted one is its stub), update, delete, list, search, and the discount. */
import { emit, changedAttributes, putAndEmit } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { INCLUDERS } from '../lib/expand.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import type { Discount } from '../lib/objects.ts';
import {
  listParams,
  mergeMetadata,
  p,
  searchParams,
  type OpParams,
  type ParamsOf,
} from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import type { Ctx } from 'seahaven';
import { getCustomer, liveCustomer } from '../lib/customer-lookup.ts';

export { getCustomer, liveCustomer };
import type { OpContext } from '../lib/op.ts';
import { redeemCoupon, redeemableCoupon } from './coupons.ts';
import { NO_ADDRESS } from '../lib/cards.ts';
import { resolvePaymentMethod } from '../lib/test-cards.ts';
import { attachPaymentMethod } from './payment-methods.ts';
import { liveTestClock } from '../lib/test-clocks.ts';
import { redeemPromotionCode, redeemablePromotionCode } from './promotion-codes.ts';
import { addTaxIdData, checkTaxIdData, taxIdData } from './tax-ids.ts';
import { copyJson } from '../lib/clone.ts';

const address = p.obj({
  city: p.string(),
  country: p.string(),
  line1: p.string(),
  line2: p.string(),
  postal_code: p.string(),
  state: p.string(),
});
const shipping = p.obj({ address, name: p.string(), phone: p.string() });
const invoiceSettings = p.obj({
  custom_fields: p.arr(p.obj({ name: p.string().req(), value: p.string().req() })),
  default_payment_method: p.string(),
  footer: p.string(),
  rendering_options: p.obj({
    amount_tax_display: p.enum('exclude_tax', 'include_inclusive_tax'),
    template: p.string(),
  }),
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
  tax: p.obj({ ip_address: p.string(), validate_location: p.enum('deferred', 'immediately') }),
  tax_id_data: taxIdData,
  cash_balance: p.any(),
  default_source: p.string(),
};

/** A 7-character invoice prefix from the id stream, like Stripe's `7FE1103`. */
function invoicePrefix(ctx: Ctx): string {
  return ctx.ids
    .token('', 7)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, 'X');
}

type Writable = ParamsOf<typeof writable>;

/** Apply create/update parameters to a customer object. */
function apply(ctx: Ctx, c: Stored<'customers'>, params: Writable): void {
  if (params.description !== undefined) c.description = params.description ?? null;
  if (params.email !== undefined) c.email = params.email ?? null;
  if (params.name !== undefined) c.name = params.name ?? null;
  if (params.phone !== undefined) c.phone = params.phone ?? null;
  if (params.tax_exempt !== undefined) c.tax_exempt = params.tax_exempt ?? 'none';
  if (params.balance !== undefined) c.balance = params.balance ?? 0;
  // An emptied sequence is null, where the SDK declares a number.
  if (params.next_invoice_sequence !== undefined)
    c.next_invoice_sequence = (params.next_invoice_sequence ?? null) as number;
  if (params.invoice_prefix !== undefined && params.invoice_prefix !== null) {
    if (!/^[A-Z0-9]{3,12}$/.test(params.invoice_prefix))
      throw invalidRequest(
        'Invoice prefix must be 3 to 12 uppercase letters or digits.',
        'invoice_prefix',
      );
    c.invoice_prefix = params.invoice_prefix;
  }
  if (params.address !== undefined)
    c.address =
      params.address === null ? null : { ...NO_ADDRESS, ...(c.address ?? {}), ...params.address };
  if (params.shipping !== undefined)
    c.shipping =
      params.shipping === null
        ? null
        : {
            address: { ...NO_ADDRESS, ...(params.shipping.address ?? {}) },
            // A name not given is null, where the SDK declares a string.
            name: (params.shipping.name ?? null) as string,
            phone: params.shipping.phone ?? null,
          };
  if (params.preferred_locales !== undefined) c.preferred_locales = params.preferred_locales ?? [];
  if (params.metadata !== undefined) c.metadata = mergeMetadata(c.metadata ?? {}, params.metadata);
  if (params.invoice_settings) {
    const s = params.invoice_settings;
    const cur = c.invoice_settings;
    if (s.default_payment_method !== undefined) {
      if (s.default_payment_method !== null) {
        const pm = get(ctx, 'payment_methods', s.default_payment_method);
        if (!pm || pm.customer !== c.id)
          throw invalidRequest(
            `No such PaymentMethod: '${s.default_payment_method}'; it must be attached to customer ${c.id} first.`,
            'invoice_settings[default_payment_method]',
            'resource_missing',
          );
      }
      cur.default_payment_method = s.default_payment_method;
    }
    if (s.footer !== undefined) cur.footer = s.footer;
    if (s.custom_fields !== undefined) cur.custom_fields = s.custom_fields;
    if (s.rendering_options !== undefined)
      cur.rendering_options = {
        amount_tax_display: s.rendering_options?.amount_tax_display ?? null,
        template: s.rendering_options?.template ?? null,
      };
  }
}

// A customer's `subscriptions` appear when `expand[]` names them: the first 10 that are not canceled, newest first
// (its `tax_ids` are resources/tax-ids.ts').
INCLUDERS['customer.subscriptions'] = (ctx, customer) =>
  listPage(
    ctx,
    'subscriptions',
    { limit: 10 },
    {
      url: `/v1/customers/${customer.id}/subscriptions`,
      what: 'subscription',
      where: [['customer = ?', customer.id], ["status <> 'canceled'"]],
    },
  );

const createParams = { ...writable, test_clock: p.string() };
const listCustomersParams = { ...listParams, email: p.string(512), test_clock: p.string() };

export const customerOps = [
  op({
    id: 'PostCustomers',
    method: 'POST',
    path: '/v1/customers',
    // A customer is attached to a test clock when it is created, and stays on it (billing/test-clocks.ts).
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const ctx = c.ctx;
      const customer: Stored<'customers'> = {
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
        invoice_settings: {
          custom_fields: null,
          default_payment_method: null,
          footer: null,
          rendering_options: null,
        },
        livemode: false,
        metadata: {},
        name: null,
        next_invoice_sequence: 1,
        phone: null,
        preferred_locales: [],
        shipping: null,
        tax_exempt: 'none',
        test_clock: params.test_clock
          ? liveTestClock(ctx, params.test_clock, 'test_clock').id
          : null,
      };
      // `payment_method` is attached once the customer exists; one that does not exist refuses the whole call.
      const pm =
        params.payment_method === undefined
          ? undefined
          : // An emptied one is looked up as 'null', so it is the usual 404.
            resolvePaymentMethod(c, String(params.payment_method), 'payment_method');
      apply(ctx, customer, params);
      const discount = applyDiscount(ctx, customer, params);
      checkTaxIdData(params.tax_id_data);
      // The row and its event share one serialization of the customer.
      putAndEmit(c, 'customers', customer, 'customer.created');
      addTaxIdData(c, customer.id, params.tax_id_data);
      emitDiscount(c, discount);
      if (pm !== undefined) attachPaymentMethod(c, pm, customer, 'payment_method');
      return customer;
    },
  }),
  op({
    id: 'GetCustomersCustomer',
    method: 'GET',
    path: '/v1/customers/{customer}',
    params: {},
    run: (c, _params: OpParams, path) => getCustomer(c.ctx, path.customer, 'id'),
    readsClock: false,
  }),
  op({
    id: 'PostCustomersCustomer',
    method: 'POST',
    path: '/v1/customers/{customer}',
    params: writable,
    run(c, params: OpParams<typeof writable>, path) {
      const before = liveCustomer(c.ctx, path.customer, 'id');
      const after = copyJson(before);
      apply(c.ctx, after, params);
      const discount = applyDiscount(c.ctx, after, params);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0)
        putAndEmit(c, 'customers', after, 'customer.updated', changed);
      else put(c.ctx, 'customers', after);
      emitDiscount(c, discount);
      return after;
    },
  }),
  op({
    id: 'DeleteCustomersCustomer',
    method: 'DELETE',
    path: '/v1/customers/{customer}',
    params: {},
    run(c, _params: OpParams, path) {
      const before = liveCustomer(c.ctx, path.customer, 'id');
      const stub = { id: before.id, object: 'customer', deleted: true };
      // The row holds the stub in the customer's place; readers check `deleted` first (liveCustomer).
      put(c.ctx, 'customers', { ...stub, created: before.created } as Stored<'customers'>);
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
    params: listCustomersParams,
    run(c, params: OpParams<typeof listCustomersParams>) {
      const where: [string, ...string[]][] = [];
      if (params.email) where.push(['email = ?', params.email]);
      if (params.test_clock) where.push(['test_clock = ?', params.test_clock]);
      return listPage(c.ctx, 'customers', params, {
        url: '/v1/customers',
        what: 'customer',
        where,
      });
    },
  }),
  op({
    id: 'GetCustomersSearch',
    method: 'GET',
    path: '/v1/customers/search',
    params: searchParams,
    run: (c, params: OpParams<typeof searchParams>) =>
      searchPage(c.ctx, 'customers', params, '/v1/customers/search'),
  }),
  op({
    id: 'DeleteCustomersCustomerDiscount',
    method: 'DELETE',
    path: '/v1/customers/{customer}/discount',
    params: {},
    run(c, _params: OpParams, path) {
      const before = liveCustomer(c.ctx, path.customer);
      if (!before.discount) throw resourceMissing('discount', path.customer, 'customer');
      const discount = before.discount;
      const after = { ...before, discount: null };
      put(c.ctx, 'customers', after);
      emit(c, 'customer.discount.deleted', discount);
      return {
        object: 'discount',
        deleted: true,
        ...pick(discount, [
          'checkout_session',
          'coupon',
          'customer',
          'customer_account',
          'id',
          'invoice',
          'invoice_item',
          'promotion_code',
          'start',
          'subscription',
          'subscription_item',
          'source',
        ]),
      };
    },
  }),
];

/** The fields of `o` among `keys` (older API versions' names too), in the order of `keys`. */
function pick(o: object, keys: string[]): Record<string, unknown> {
  const from = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(from, k)) out[k] = from[k];
  return out;
}

/**
 * The customer's discount: `coupon`, `promotion_code` (older versions) or `discounts[0][…]` (2025-03-31.basil on)
 * apply one, redeeming its coupon and promotion code; an empty value removes it. A customer holds at most one.
 */
interface DiscountChange {
  before: Discount | null;
  after: Discount | null;
}

/** One discount as requested: `discounts[0]`, or what `coupon` or `promotion_code` names. */
type DiscountEntry = NonNullable<Writable['discounts']>[number];

function applyDiscount(
  ctx: Ctx,
  customer: Stored<'customers'>,
  params: Pick<Writable, 'coupon' | 'promotion_code' | 'discounts'>,
): DiscountChange | null {
  const given = (['coupon', 'promotion_code', 'discounts'] as const).filter(
    (k) => params[k] !== undefined,
  );
  if (given.length === 0) return null;
  if (given.length > 1)
    throw invalidRequest(
      `You may only specify one of these parameters: ${given.join(', ')}.`,
      given[1],
    );
  const key = given[0];
  const before = customer.discount ?? null;
  const entries: DiscountEntry[] =
    key === 'discounts'
      ? (params.discounts ?? [])
      : params[key] === null
        ? []
        : [{ [key]: params[key] }];
  if (entries.length > 1)
    throw invalidRequest('A customer can have only one discount.', 'discounts[1]');
  const entry = entries[0];
  if (!entry) {
    customer.discount = null;
    return before ? { before, after: null } : null;
  }
  // The fields the entry sets, each with the id it names.
  const named = (['coupon', 'promotion_code', 'discount'] as const).flatMap((k) => {
    const id = entry[k];
    return id !== undefined && id !== null ? [{ k, id }] : [];
  });
  const where = (k: string) => (key === 'discounts' ? `discounts[0][${k}]` : k);
  if (named.length !== 1)
    throw invalidRequest(
      'Each discount needs exactly one of coupon, promotion_code or discount.',
      where(named[1]?.k ?? 'coupon'),
    );
  const { k: kind, id } = named[0];
  if (kind === 'discount') {
    // An existing discount can only be kept, not moved between customers.
    if (!before || before.id !== id) throw resourceMissing('discount', id, where('discount'));
    return null;
  }
  let coupon: Stored<'coupons'>;
  let promo: Stored<'promotion_codes'> | null = null;
  if (kind === 'promotion_code') {
    ({ promo, coupon } = redeemablePromotionCode(ctx, id, customer.id, where('promotion_code')));
  } else {
    coupon = redeemableCoupon(ctx, id, where('coupon'));
  }
  // Applying what already applies is no change (and no second redemption).
  if (
    before &&
    before.source?.coupon === coupon.id &&
    before.promotion_code === (promo?.id ?? null)
  )
    return null;
  redeemCoupon(ctx, coupon);
  if (promo) redeemPromotionCode(ctx, promo);
  const start = nowSeconds(ctx);
  const discount: Discount = {
    id: newId(ctx, 'di_'),
    object: 'discount',
    checkout_session: null,
    customer: customer.id,
    customer_account: null,
    end: coupon.duration === 'repeating' ? addMonths(start, coupon.duration_in_months ?? 0) : null,
    invoice: null,
    invoice_item: null,
    promotion_code: promo?.id ?? null,
    source: { coupon: coupon.id, type: 'coupon' },
    start,
    subscription: null,
    subscription_item: null,
  };
  customer.discount = discount;
  return { before, after: discount };
}

/** `months` calendar months after unix time `t` (a repeating coupon's end). */
function addMonths(t: number, months: number): number {
  const d = new Date(t * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

function emitDiscount(c: OpContext, change: DiscountChange | null): void {
  if (!change) return;
  if (change.after && change.before)
    emit(
      c,
      'customer.discount.updated',
      change.after,
      changedAttributes(change.before, change.after),
    );
  else if (change.after) emit(c, 'customer.discount.created', change.after);
  else if (change.before) emit(c, 'customer.discount.deleted', change.before);
}
