/**
 * A customer's card sources (`/v1/customers/{customer}/sources`), the API before payment methods that Stripe still
 * serves: a source is added from a token (a `tok_…` from POST /v1/tokens, used once, or a test token such as
 * `tok_visa`) or from a dictionary of card details (`source[object]=card`, `source[number]`, …), listed, retrieved,
 * updated and deleted. `/v1/customers/{customer}/cards` is the same for cards (the path of Stripe's Cards reference
 * for listing and retrieving, and of its specification for the rest). A card source is a payment method with a `card_…` id
 * (lib/cards.ts), so anything that charges a payment method charges it. The first card becomes the customer's
 * `default_source` (what a charge with only `customer` uses); deleting it moves the default to the newest card left.
 */
import type { Ctx } from 'seahaven';
import { billingOfCardFields, cardView } from '../lib/cards.ts';
import { StripeError, invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { INCLUDERS } from '../lib/expand.ts';
import { listPage } from '../lib/list.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, validate, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { cardFor, isTestToken, paymentMethodFromCard } from '../lib/test-cards.ts';
import { attachPaymentMethod } from './payment-methods.ts';
import { cardDetailFields, cardOfFields, getTokenRow, useToken } from './tokens.ts';

/** The unattached card payment method (with a `card_…` id) a token names. */
function cardOfToken(c: OpContext, source: string): Stored<'payment_methods'> {
  const row = getTokenRow(c.ctx, source);
  if (row) {
    if (row.token.used)
      throw invalidRequest(
        `You cannot use a Stripe token more than once: ${source}. Create a new token for each card.`,
        'source',
        'token_already_used',
      );
    useToken(c.ctx, row);
    return row.payment_method;
  }
  const card = isTestToken(source) && source.startsWith('tok_') ? cardFor(source) : undefined;
  if (!card) throw resourceMissing('source', source, 'source');
  const pm = paymentMethodFromCard(c, card);
  // The test token's card is stored again under the card id it gets as a source.
  c.ctx.db.run('DELETE FROM payment_methods WHERE id = ?', pm.id);
  return { ...pm, id: newId(c.ctx, 'card_'), created: nowSeconds(c.ctx) };
}

/** The fields of a card dictionary given as `source` (Stripe's `customer_payment_source_card`). */
const sourceCardFields = {
  object: p.enum('card'),
  number: p.string().req(),
  exp_month: p.int().req(),
  exp_year: p.int().req(),
  ...cardDetailFields,
  metadata: p.metadata(),
};

/**
 * The unattached card payment method (with a `card_…` id) a dictionary of card details makes, checked as a token's
 * card is; its errors name `source[…]`, the parameter the card came in.
 */
function cardOfDictionary(
  c: OpContext,
  source: Record<string, unknown>,
): Stored<'payment_methods'> {
  const card = validate(sourceCardFields, source, ['source']);
  try {
    const pm = cardOfFields(c, card);
    return card.metadata
      ? { ...pm, metadata: mergeMetadata({}, card.metadata as Record<string, string | null>) }
      : pm;
  } catch (e) {
    if (e instanceof StripeError && e.error.param?.startsWith('card['))
      throw new StripeError(e.status, { ...e.error, param: `source${e.error.param.slice(4)}` });
    throw e;
  }
}

/** A card source of `customer`, or Stripe's 404. */
function sourceOf(
  c: OpContext,
  customer: Stored<'customers'>,
  id: string,
): Stored<'payment_methods'> {
  const pm = get(c.ctx, 'payment_methods', id);
  if (!pm || pm.customer !== customer.id || !id.startsWith('card_'))
    throw resourceMissing('source', id, 'id');
  return pm;
}

/** Set the customer's `default_source`, saying so with `customer.updated`. */
function setDefaultSource(c: OpContext, customer: Stored<'customers'>, id: string | null): void {
  if (customer.default_source === id) return;
  const after = { ...customer, default_source: id };
  put(c.ctx, 'customers', after);
  emit(c, 'customer.updated', after, { default_source: customer.default_source ?? null });
}

const cardUpdateParams = {
  name: p.string(),
  address_city: p.string(),
  address_country: p.string(),
  address_line1: p.string(),
  address_line2: p.string(),
  address_state: p.string(),
  address_zip: p.string(),
  exp_month: p.int(),
  exp_year: p.int(),
  metadata: p.metadata(),
};

const listCardsParams = { ...listParams };

/** Add a card to the customer from a token or a card dictionary (`source`). */
function createSource(
  c: OpContext,
  params: OpParams<typeof createParams>,
  path: Record<string, string>,
) {
  const customer = liveCustomer(c.ctx, path.customer);
  const source = params.source;
  if (source === undefined || source === null || source === '') throw parameterMissing('source');
  let pm: Stored<'payment_methods'>;
  if (typeof source === 'string') pm = cardOfToken(c, source);
  else if (typeof source === 'object' && source !== null && !Array.isArray(source))
    pm = cardOfDictionary(c, source as Record<string, unknown>);
  else
    throw invalidRequest(
      'Invalid source: pass a token id (tok_…) or a dictionary of card details (source[object]=card, source[number], …).',
      'source',
    );
  const withMeta = params.metadata
    ? { ...pm, metadata: mergeMetadata(pm.metadata ?? {}, params.metadata) }
    : pm;
  const attached = attachPaymentMethod(c, withMeta, customer, 'source');
  const card = cardView(attached);
  emit(c, 'customer.source.created', card);
  if (!customer.default_source) setDefaultSource(c, customer, attached.id);
  return card;
}

/** A page of the customer's cards, newest first, listed at `url`'s path. */
function listCards(
  ctx: Ctx,
  params: OpParams<typeof listCardsParams>,
  customer: { id: string },
  url: string,
) {
  return listPage(ctx, 'payment_methods', params, {
    where: [['customer = ?', customer.id], ["id LIKE 'card\\_%' ESCAPE '\\'"]],
    url,
    what: 'source',
    map: (pm) => cardView(pm),
  });
}

function updateSource(
  c: OpContext,
  params: OpParams<typeof cardUpdateParams>,
  path: Record<string, string>,
) {
  const before = sourceOf(c, liveCustomer(c.ctx, path.customer), path.id);
  const { card: details } = before;
  if (!details) throw new Error(`payment method ${before.id} has no card details`);
  const after: Stored<'payment_methods'> = {
    ...before,
    billing_details: billingOfCardFields(params, before.billing_details),
    card: {
      ...details,
      exp_month: params.exp_month ?? details.exp_month,
      exp_year: params.exp_year ?? details.exp_year,
    },
    metadata: params.metadata
      ? mergeMetadata(before.metadata ?? {}, params.metadata)
      : before.metadata,
  };
  put(c.ctx, 'payment_methods', after);
  const card = cardView(after);
  emit(c, 'customer.source.updated', card);
  return card;
}

function deleteSource(c: OpContext, path: Record<string, string>) {
  const customer = liveCustomer(c.ctx, path.customer);
  const before = sourceOf(c, customer, path.id);
  const after = { ...before, customer: null };
  put(c.ctx, 'payment_methods', after);
  emit(c, 'customer.source.deleted', cardView(before));
  if (customer.default_source === before.id) {
    const next = rows(c.ctx, 'payment_methods', "customer = ? AND id LIKE 'card\\_%' ESCAPE '\\'", [
      customer.id,
    ])[0];
    setDefaultSource(c, customer, next ? (next.id as string) : null);
  }
  return { id: before.id, object: 'card', deleted: true };
}

// A customer's `sources` appear when `expand[]` names them, as since 2020-08-27: its first 10 cards, newest first.
INCLUDERS['customer.sources'] = (ctx, customer) =>
  listCards(ctx, { limit: 10 }, customer, `/v1/customers/${customer.id}/sources`);

const createParams = { source: p.any(), metadata: p.metadata(), validate: p.bool() };

/**
 * Adding, retrieving, updating and deleting a customer's cards, at `/v1/customers/{customer}/<segment>`: Stripe serves
 * the same under `sources` and under `cards`. Their lists differ (below).
 */
function cardOps(name: 'Sources' | 'Cards', segment: 'sources' | 'cards') {
  const base = `/v1/customers/{customer}/${segment}`;
  return [
    op({
      id: `PostCustomersCustomer${name}`,
      method: 'POST',
      path: base,
      params: createParams,
      run: (c, params, path) => createSource(c, params, path),
    }),
    op({
      id: `GetCustomersCustomer${name}Id`,
      method: 'GET',
      path: `${base}/{id}`,
      params: {},
      run(c, _params, path) {
        return cardView(sourceOf(c, liveCustomer(c.ctx, path.customer), path.id));
      },
    }),
    op({
      id: `PostCustomersCustomer${name}Id`,
      method: 'POST',
      path: `${base}/{id}`,
      params: cardUpdateParams,
      run: (c, params, path) => updateSource(c, params, path),
    }),
    op({
      id: `DeleteCustomersCustomer${name}Id`,
      method: 'DELETE',
      path: `${base}/{id}`,
      params: {},
      run: (c, _params, path) => deleteSource(c, path),
    }),
  ];
}

export const sourcesOps = [
  ...cardOps('Sources', 'sources'),
  op({
    id: 'GetCustomersCustomerSources',
    method: 'GET',
    path: '/v1/customers/{customer}/sources',
    params: { ...listParams, object: p.string() },
    run(c, params, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      const url = `/v1/customers/${customer.id}/sources`;
      if (params.object && params.object !== 'card')
        return { object: 'list', data: [], has_more: false, url };
      return listCards(c.ctx, params, customer, url);
    },
  }),
  // The same for cards under /cards.
  ...cardOps('Cards', 'cards'),
  op({
    id: 'GetCustomersCustomerCards',
    method: 'GET',
    path: '/v1/customers/{customer}/cards',
    params: listCardsParams,
    run(c, params, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      return listCards(c.ctx, params, customer, `/v1/customers/${customer.id}/cards`);
    },
  }),
];
