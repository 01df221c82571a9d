/**
 * Payment links: a shareable page (`https://buy.stripe.com/test_…`) that sells fixed line items. The link keeps its
 * line items (`li_…`, Stripe's `item` shape) in its own object; they leave the reply unless asked for
 * (`expand[]=line_items`) and are listed by `GET /v1/payment_links/{payment_link}/line_items`. A buyer's visit is a
 * checkout session made from the link (checkout-sessions.ts), so the items and their pricing rules live here and
 * checkout sessions build their own line items with them.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import { invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { limitOf, listOf, listPage, type ListEnvelope } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import type {
  LineitemsLineItem,
  PaymentLinkAfterCompletion,
  PaymentLinkPaymentIntentData,
  PaymentLinkSubscriptionData,
  PaymentLinkSubscriptionDataInvoiceSettings,
  Price,
} from '../lib/objects.ts';
import {
  listParams,
  mergeMetadata,
  p,
  type OpParams,
  type ParamsOf,
  type ParamValue,
} from '../lib/params.ts';
import { get, newId, put, type Stored } from '../lib/store.ts';
import { createProduct } from './price-fields.ts';
import { createPrice, livePrice } from './price-model.ts';
import { copyJson } from '../lib/clone.ts';

const adjustableQuantity = p.obj({ enabled: p.bool().req(), maximum: p.int(1), minimum: p.int(0) });

/** An inline price (`line_items[][price_data]`): a new price, and a new product unless `product` names one. */
export const lineItemPriceData = p.obj({
  currency: p.string().req(),
  product: p.string(),
  product_data: p.obj({
    name: p.string().req(),
    description: p.string(),
    images: p.arr(p.string()),
    metadata: p.metadata(),
    tax_code: p.string(),
    unit_label: p.string(12),
  }),
  recurring: p.obj({
    interval: p.enum('day', 'week', 'month', 'year').req(),
    interval_count: p.int(1),
  }),
  tax_behavior: p.enum('exclusive', 'inclusive', 'unspecified'),
  unit_amount: p.int(0),
  unit_amount_decimal: p.decimal(),
});

/** A line item's `adjustable_quantity` as requested. */
export type AdjustableQuantityInput = ParamValue<typeof adjustableQuantity>;

/** What one requested line item says: a price (or an inline one) and a quantity. */
export interface LineItemInput {
  price?: string | null;
  price_data?: ParamValue<typeof lineItemPriceData> | null;
  quantity?: number | null;
  adjustable_quantity?: AdjustableQuantityInput | null;
  [k: string]: unknown;
}

/** An object that keeps line items of its own (a payment link, a checkout session). */
interface WithLineItems {
  line_items?: ListEnvelope<LineitemsLineItem> | null;
}

/** `sum` of a price for `quantity` units, in minor units; prices the world cannot total are refused. */
export function priceTotal(price: Stored<'prices'>, quantity: number, param: string): number {
  if (typeof price.unit_amount === 'number') return price.unit_amount * quantity;
  if (typeof price.unit_amount_decimal === 'string')
    return Math.round(Number(price.unit_amount_decimal) * quantity);
  throw invalidRequest(
    `Price ${price.id} has no fixed unit amount (${price.billing_scheme === 'tiered' ? 'tiered pricing' : 'a customer-chosen amount'}); line items here take prices with a unit_amount.`,
    param,
  );
}

/** The price a line item names, or a new one made from its `price_data` (and a new product from `product_data`). */
export function priceOfLineItem(
  c: OpContext,
  item: LineItemInput,
  param: string,
): Stored<'prices'> {
  if (item.price && item.price_data)
    throw invalidRequest(
      'You may only specify one of these parameters: price, price_data.',
      `${param}[price_data]`,
    );
  if (item.price) {
    const price = livePrice(c.ctx, item.price, `${param}[price]`);
    if (!price.active)
      throw invalidRequest(
        `The price specified (${price.id}) is inactive. This field only accepts active prices.`,
        `${param}[price]`,
      );
    return price;
  }
  const data = item.price_data;
  if (!data) throw parameterMissing(`${param}[price]`);
  if (data.product && data.product_data)
    throw invalidRequest(
      'You may only specify one of these parameters: product, product_data.',
      `${param}[price_data][product]`,
    );
  let product: string;
  if (data.product) {
    const found = get(c.ctx, 'products', data.product);
    if (!found || found.deleted)
      throw resourceMissing('product', data.product, `${param}[price_data][product]`);
    product = found.id;
  } else if (data.product_data) {
    product = createProduct(c, data.product_data).id;
  } else {
    throw parameterMissing(`${param}[price_data][product_data]`);
  }
  // An inline price serves this one purchase: Stripe makes it inactive, so it is not offered anywhere else.
  return createPrice(
    c,
    {
      currency: data.currency,
      unit_amount: data.unit_amount,
      unit_amount_decimal: data.unit_amount_decimal,
      recurring: data.recurring,
      tax_behavior: data.tax_behavior,
      active: false,
    },
    product,
  );
}

/** A line item in Stripe's `item` shape, for `quantity` of `price`. */
export function itemOf(
  c: OpContext,
  price: Stored<'prices'>,
  quantity: number,
  adjustable: AdjustableQuantityInput | null | undefined,
  param: string,
): LineitemsLineItem {
  const product = get(c.ctx, 'products', price.product);
  const amount = priceTotal(price, quantity, param);
  return {
    id: newId(c.ctx, 'li_'),
    object: 'item',
    adjustable_quantity: adjustable
      ? {
          enabled: adjustable.enabled,
          maximum: adjustable.maximum ?? null,
          minimum: adjustable.minimum ?? null,
        }
      : null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description: product?.name ?? null,
    metadata: {},
    price,
    quantity,
  };
}

/** Line items from request entries: each checked, all in one currency. */
export function lineItemsOf(
  c: OpContext,
  entries: LineItemInput[],
  param = 'line_items',
): LineitemsLineItem[] {
  if (entries.length > 20) throw invalidRequest('You may provide up to 20 line items.', param);
  const items = entries.map((entry, i) => {
    const here = `${param}[${i}]`;
    if (entry.quantity === undefined || entry.quantity === null)
      throw parameterMissing(`${here}[quantity]`);
    if (entry.quantity < 1)
      throw invalidRequest(
        'Quantity must be at least 1.',
        `${here}[quantity]`,
        'parameter_invalid_integer',
      );
    const price = priceOfLineItem(c, entry, here);
    return itemOf(c, price, entry.quantity, entry.adjustable_quantity, here);
  });
  const currencies = [...new Set(items.map((x) => x.currency))];
  if (currencies.length > 1)
    throw invalidRequest(
      `All line items must use the same currency; these use ${currencies.join(', ')}.`,
      param,
    );
  return items;
}

/** A line item as it reads now: its price as currently stored (an archived price shows `active: false`). */
function currentItem(ctx: Ctx, item: LineitemsLineItem): LineitemsLineItem {
  // Every item the world writes holds its price object (itemOf).
  const price = item.price ? get(ctx, 'prices', item.price.id) : undefined;
  return price ? { ...item, price } : item;
}

/** A stored item's price: every item the world writes holds one (itemOf). */
function priceOfItem(item: LineitemsLineItem): Price {
  if (!item.price) throw new Error(`line item ${item.id} has no price`);
  return item.price;
}

/** In-memory cursor pagination over line items an object keeps, in their order, as Stripe pages nested lists. */
export function nestedPage<T extends { id: string }>(
  items: T[],
  params: { limit?: number | null; starting_after?: string | null; ending_before?: string | null },
  url: string,
  what: string,
): ListEnvelope<T> {
  const limit = limitOf(params.limit);
  let from = 0;
  let to = items.length;
  if (params.starting_after) {
    const i = items.findIndex((x) => x.id === params.starting_after);
    if (i < 0) throw resourceMissing(what, params.starting_after, 'starting_after');
    from = i + 1;
  } else if (params.ending_before) {
    const i = items.findIndex((x) => x.id === params.ending_before);
    if (i < 0) throw resourceMissing(what, params.ending_before, 'ending_before');
    to = i;
    from = Math.max(0, i - limit);
  }
  return listOf(items.slice(from, Math.min(to, from + limit)), url, from + limit < to);
}

/** A payment link by id, or 404. */
export function mustPaymentLink(
  ctx: Ctx,
  id: string,
  param = 'payment_link',
): Stored<'payment_links'> {
  const link = get(ctx, 'payment_links', id);
  if (!link) throw resourceMissing('payment link', id, param);
  return link;
}

/** The stored line items of a link (or a checkout session), current prices shown. */
export function storedItems(ctx: Ctx, owner: WithLineItems): LineitemsLineItem[] {
  return (owner.line_items?.data ?? []).map((x) => currentItem(ctx, x));
}

/**
 * An object as a reply: its `line_items` are Stripe's includable field, present only when `expand[]` names it
 * (op() then leaves the list as it is).
 */
export function withoutLineItems<O extends WithLineItems>(
  ctx: Ctx,
  obj: O,
  expand: string[] | null | undefined,
  url: string,
): O {
  const out = { ...obj };
  delete out.line_items;
  if (expand?.includes('line_items')) {
    const items = storedItems(ctx, obj);
    out.line_items = listOf(items.slice(0, 10), url, items.length > 10);
  }
  return out;
}

const afterCompletion = p.obj({
  type: p.enum('hosted_confirmation', 'redirect').req(),
  hosted_confirmation: p.obj({ custom_message: p.string(500) }),
  redirect: p.obj({ url: p.string(2048).req() }),
});

/** Parameters Stripe takes for page features the world has no counterpart for (tax, consent, Connect, shipping rates). */
const accepted = {
  application_fee_amount: p.int(0),
  application_fee_percent: p.num(0, 100),
  automatic_tax: p.any(),
  consent_collection: p.any(),
  custom_fields: p.any(),
  custom_text: p.any(),
  invoice_creation: p.any(),
  name_collection: p.any(),
  on_behalf_of: p.string(),
  optional_items: p.any(),
  payment_method_options: p.any(),
  shipping_address_collection: p.any(),
  shipping_options: p.any(),
  tax_id_collection: p.any(),
  transfer_data: p.any(),
};

const shared = {
  ...accepted,
  after_completion: afterCompletion,
  allow_promotion_codes: p.bool(),
  billing_address_collection: p.enum('auto', 'required'),
  customer_creation: p.enum('always', 'if_required'),
  inactive_message: p.string(500),
  metadata: p.metadata(),
  payment_intent_data: p.obj({
    capture_method: p.enum('automatic', 'automatic_async', 'manual'),
    description: p.string(1000),
    metadata: p.metadata(),
    setup_future_usage: p.enum('off_session', 'on_session'),
    statement_descriptor: p.string(22),
    statement_descriptor_suffix: p.string(22),
    transfer_group: p.string(),
  }),
  payment_method_collection: p.enum('always', 'if_required'),
  payment_method_types: p.arr(p.string()),
  phone_number_collection: p.obj({ enabled: p.bool().req() }),
  restrictions: p.obj({ completed_sessions: p.obj({ limit: p.int(1).req() }).req() }),
  submit_type: p.enum('auto', 'book', 'donate', 'pay', 'subscribe'),
  subscription_data: p.obj({
    description: p.string(500),
    metadata: p.metadata(),
    trial_period_days: p.int(1),
    invoice_settings: p.any(),
    trial_settings: p.any(),
  }),
};

type Shared = ParamsOf<typeof shared>;

const createParams = {
  ...shared,
  line_items: p
    .arr(
      p.obj({
        price: p.string(),
        price_data: lineItemPriceData,
        quantity: p.int(),
        adjustable_quantity: adjustableQuantity,
      }),
    )
    .req(),
  currency: p.string(3),
};

const updateParams = {
  ...shared,
  active: p.bool(),
  line_items: p.arr(
    p.obj({ id: p.string().req(), quantity: p.int(), adjustable_quantity: adjustableQuantity }),
  ),
};

function afterCompletionOf(given: Shared['after_completion']): PaymentLinkAfterCompletion {
  if (!given || given.type === 'hosted_confirmation')
    return {
      hosted_confirmation: { custom_message: given?.hosted_confirmation?.custom_message ?? null },
      type: 'hosted_confirmation',
    };
  if (!given.redirect?.url) throw parameterMissing('after_completion[redirect][url]');
  if (!/^https?:\/\//.test(given.redirect.url))
    throw invalidRequest('Not a valid URL', 'after_completion[redirect][url]', 'url_invalid');
  return { redirect: { url: given.redirect.url }, type: 'redirect' };
}

function paymentIntentDataOf(
  given: Shared['payment_intent_data'],
): PaymentLinkPaymentIntentData | null {
  if (!given) return null;
  return {
    capture_method: given.capture_method ?? null,
    description: given.description ?? null,
    metadata: mergeMetadata({}, given.metadata),
    setup_future_usage: given.setup_future_usage ?? null,
    statement_descriptor: given.statement_descriptor ?? null,
    statement_descriptor_suffix: given.statement_descriptor_suffix ?? null,
    transfer_group: given.transfer_group ?? null,
  };
}

function subscriptionDataOf(
  given: Shared['subscription_data'],
  recurring: boolean,
): PaymentLinkSubscriptionData | null {
  if (!recurring) {
    if (given)
      throw invalidRequest(
        'subscription_data can only be used with recurring prices.',
        'subscription_data',
      );
    return null;
  }
  return {
    description: given?.description ?? null,
    // A link's subscriptions are invoiced by the account itself; the world answers only that issuer.
    invoice_settings: { issuer: { type: 'self' } } as PaymentLinkSubscriptionDataInvoiceSettings,
    metadata: mergeMetadata({}, given?.metadata),
    trial_period_days: given?.trial_period_days ?? null,
    trial_settings: null,
  };
}

/** Whether any of the items bills on a schedule (the link then starts subscriptions). */
export function hasRecurring(items: LineitemsLineItem[]): boolean {
  return items.some((x) => x.price?.type === 'recurring');
}

/** The one payment method type the test-mode account has. */
const isCard = (t: string): t is 'card' => t === 'card';

/** Apply the parameters create and update share. */
function apply(link: Stored<'payment_links'>, params: Shared, recurring: boolean): void {
  if (params.after_completion !== undefined)
    link.after_completion = afterCompletionOf(params.after_completion);
  if (params.allow_promotion_codes !== undefined)
    link.allow_promotion_codes = params.allow_promotion_codes ?? false;
  if (params.billing_address_collection !== undefined)
    link.billing_address_collection = params.billing_address_collection ?? 'auto';
  if (params.customer_creation !== undefined) {
    if (recurring && params.customer_creation === 'if_required')
      throw invalidRequest(
        'customer_creation can only be if_required when the link has no recurring prices: a subscription always has a customer.',
        'customer_creation',
      );
    link.customer_creation = params.customer_creation ?? 'if_required';
  }
  if (params.inactive_message !== undefined) link.inactive_message = params.inactive_message;
  if (params.metadata !== undefined)
    link.metadata = mergeMetadata(link.metadata ?? {}, params.metadata);
  if (params.payment_intent_data !== undefined) {
    if (recurring && params.payment_intent_data)
      throw invalidRequest(
        'payment_intent_data can only be used when the link has no recurring prices.',
        'payment_intent_data',
      );
    link.payment_intent_data = paymentIntentDataOf(params.payment_intent_data);
  }
  if (params.payment_method_collection !== undefined)
    link.payment_method_collection = params.payment_method_collection ?? 'always';
  if (params.payment_method_types !== undefined) {
    const types = params.payment_method_types ?? [];
    const other = types.find((t) => !isCard(t));
    if (other)
      throw invalidRequest(
        `The payment method type "${other}" is not available in this test-mode account; use "card".`,
        'payment_method_types',
        'payment_method_unactivated',
      );
    link.payment_method_types = types.length ? types.filter(isCard) : null;
  }
  if (params.phone_number_collection !== undefined)
    link.phone_number_collection = { enabled: params.phone_number_collection?.enabled ?? false };
  if (params.restrictions !== undefined)
    link.restrictions = params.restrictions
      ? {
          completed_sessions: {
            count: link.restrictions?.completed_sessions?.count ?? 0,
            limit: params.restrictions.completed_sessions.limit,
          },
        }
      : null;
  if (params.submit_type !== undefined) link.submit_type = params.submit_type ?? 'auto';
  if (params.subscription_data !== undefined)
    link.subscription_data = subscriptionDataOf(params.subscription_data, recurring);
  if (params.application_fee_amount !== undefined)
    link.application_fee_amount = params.application_fee_amount;
  if (params.application_fee_percent !== undefined)
    link.application_fee_percent = params.application_fee_percent;
  if (params.on_behalf_of !== undefined) link.on_behalf_of = params.on_behalf_of;
}

const urlOf = (id: string) => `/v1/payment_links/${id}/line_items`;

export const paymentLinksOps = [
  op({
    id: 'PostPaymentLinks',
    method: 'POST',
    path: '/v1/payment_links',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const ctx = c.ctx;
      if (params.line_items.length === 0) throw parameterMissing('line_items');
      const items = lineItemsOf(c, params.line_items);
      const currency = items[0].currency;
      if (params.currency && params.currency.toLowerCase() !== currency)
        throw invalidRequest(
          `The currency (${params.currency}) does not match the line items' currency (${currency}).`,
          'currency',
        );
      const recurring = hasRecurring(items);
      const id = newId(ctx, 'plink_');
      const link: Stored<'payment_links'> = {
        id,
        object: 'payment_link',
        active: true,
        after_completion: afterCompletionOf(null),
        allow_promotion_codes: false,
        application: null,
        application_fee_amount: null,
        application_fee_percent: null,
        automatic_tax: { enabled: false, liability: null },
        billing_address_collection: 'auto',
        consent_collection: null,
        currency,
        custom_fields: [],
        custom_text: {
          after_submit: null,
          shipping_address: null,
          submit: null,
          terms_of_service_acceptance: null,
        },
        customer_creation: recurring ? 'always' : 'if_required',
        inactive_message: null,
        invoice_creation: recurring
          ? null
          : {
              enabled: false,
              invoice_data: {
                account_tax_ids: null,
                custom_fields: null,
                description: null,
                footer: null,
                issuer: null,
                metadata: {},
                rendering_options: null,
              },
            },
        livemode: false,
        managed_payments: { enabled: false },
        metadata: {},
        on_behalf_of: null,
        payment_intent_data: null,
        payment_method_collection: 'always',
        payment_method_options: null,
        payment_method_types: null,
        phone_number_collection: { enabled: false },
        restrictions: null,
        shipping_address_collection: null,
        shipping_options: [],
        submit_type: 'auto',
        subscription_data: subscriptionDataOf(null, recurring),
        tax_id_collection: { enabled: false, required: 'never' },
        transfer_data: null,
        url: `https://buy.stripe.com/test_${ctx.ids.token('', 14)}`,
        line_items: listOf(items, urlOf(id), false),
      };
      apply(link, params, recurring);
      put(ctx, 'payment_links', link);
      emit(c, 'payment_link.created', withoutLineItems(ctx, link, undefined, urlOf(id)));
      return withoutLineItems(ctx, link, params.expand, urlOf(id));
    },
  }),
  op({
    id: 'GetPaymentLinksPaymentLink',
    method: 'GET',
    path: '/v1/payment_links/{payment_link}',
    params: {},
    run: (c, params: OpParams, path) =>
      withoutLineItems(
        c.ctx,
        mustPaymentLink(c.ctx, path.payment_link),
        params.expand,
        urlOf(path.payment_link),
      ),
  }),
  op({
    id: 'PostPaymentLinksPaymentLink',
    method: 'POST',
    path: '/v1/payment_links/{payment_link}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const ctx = c.ctx;
      const before = mustPaymentLink(ctx, path.payment_link);
      const after = copyJson(before);
      if (params.active !== undefined && params.active !== null) after.active = params.active;
      if (params.line_items) {
        const items = after.line_items?.data ?? [];
        params.line_items.forEach((given, i) => {
          const item = items.find((x) => x.id === given.id);
          if (!item) throw resourceMissing('line item', given.id, `line_items[${i}][id]`);
          if (given.quantity !== undefined && given.quantity !== null) {
            if (given.quantity < 1)
              throw invalidRequest(
                'Quantity must be at least 1.',
                `line_items[${i}][quantity]`,
                'parameter_invalid_integer',
              );
            const price = get(ctx, 'prices', priceOfItem(item).id) ?? priceOfItem(item);
            Object.assign(
              item,
              itemOf(c, price, given.quantity, item.adjustable_quantity, `line_items[${i}]`),
              { id: item.id, adjustable_quantity: item.adjustable_quantity },
            );
          }
          if (given.adjustable_quantity !== undefined)
            item.adjustable_quantity = given.adjustable_quantity
              ? {
                  enabled: given.adjustable_quantity.enabled,
                  maximum: given.adjustable_quantity.maximum ?? null,
                  minimum: given.adjustable_quantity.minimum ?? null,
                }
              : null;
        });
      }
      apply(after, params, hasRecurring(after.line_items?.data ?? []));
      put(ctx, 'payment_links', after);
      const shownBefore = withoutLineItems(ctx, before, undefined, urlOf(before.id));
      const shownAfter = withoutLineItems(ctx, after, undefined, urlOf(after.id));
      const changed = changedAttributes(shownBefore, shownAfter);
      if (
        Object.keys(changed).length > 0 ||
        JSON.stringify(before.line_items) !== JSON.stringify(after.line_items)
      )
        emit(c, 'payment_link.updated', shownAfter, changed);
      return withoutLineItems(ctx, after, params.expand, urlOf(after.id));
    },
  }),
  op({
    id: 'GetPaymentLinks',
    method: 'GET',
    path: '/v1/payment_links',
    params: { ...listParams, active: p.bool() },
    run(c, params: OpParams<typeof listParams & { active: ReturnType<typeof p.bool> }>) {
      const where: [string, ...number[]][] = [];
      if (params.active !== undefined && params.active !== null)
        where.push(['active = ?', params.active ? 1 : 0]);
      return listPage(c.ctx, 'payment_links', params, {
        url: '/v1/payment_links',
        what: 'payment link',
        where,
        map: (o) => withoutLineItems(c.ctx, o, undefined, urlOf(o.id)),
      });
    },
  }),
  op({
    id: 'GetPaymentLinksPaymentLinkLineItems',
    method: 'GET',
    path: '/v1/payment_links/{payment_link}/line_items',
    params: listParams,
    run(c, params: OpParams<typeof listParams>, path) {
      const link = mustPaymentLink(c.ctx, path.payment_link);
      return nestedPage(storedItems(c.ctx, link), params, urlOf(link.id), 'line item');
    },
  }),
];
