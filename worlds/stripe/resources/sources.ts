/**
 * A customer's card sources (`/v1/customers/{customer}/sources`), the API before payment methods that Stripe still
 * serves: a source is added from a token (a `tok_…` from POST /v1/tokens, used once, or a test token such as
 * `tok_visa`), listed, retrieved, updated and deleted. A card source is a payment method with a `card_…` id
 * (lib/cards.ts), so anything that charges a payment method charges it. The first card becomes the customer's
 * `default_source` (what a charge with only `customer` uses); deleting it moves the default to the newest card left.
 */
import { billingOfCardFields, cardView } from '../lib/cards.ts';
import { invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { emit } from '../lib/events.ts';
import { listPage } from '../lib/list.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { cardFor, isTestToken, paymentMethodFromCard } from '../lib/test-cards.ts';
import { attachPaymentMethod } from './payment-methods.ts';
import { getTokenRow, useToken } from './tokens.ts';

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
  metadata: p.any(),
};

const createParams = { source: p.string(), metadata: p.any(), validate: p.bool() };
const listSourcesParams = { ...listParams, object: p.string() };

/**
 * Metadata as a source's parameters give it: taken as given (p.any), a form's `metadata[key]=value`, read as the
 * update `mergeMetadata` takes.
 */
function metadataGiven(given: unknown): Record<string, string | null> {
  return given as Record<string, string | null>;
}

export const sourcesOps = [
  op({
    id: 'PostCustomersCustomerSources',
    method: 'POST',
    path: '/v1/customers/{customer}/sources',
    params: createParams,
    run(c, params: OpParams<typeof createParams>, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      if (!params.source) throw parameterMissing('source');
      const pm = cardOfToken(c, params.source);
      const withMeta = params.metadata
        ? { ...pm, metadata: mergeMetadata({}, metadataGiven(params.metadata)) }
        : pm;
      const attached = attachPaymentMethod(c, withMeta, customer, 'source');
      const card = cardView(attached);
      emit(c, 'customer.source.created', card);
      if (!customer.default_source) setDefaultSource(c, customer, attached.id);
      return card;
    },
  }),
  op({
    id: 'GetCustomersCustomerSources',
    method: 'GET',
    path: '/v1/customers/{customer}/sources',
    params: listSourcesParams,
    run(c, params: OpParams<typeof listSourcesParams>, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      const url = `/v1/customers/${customer.id}/sources`;
      if (params.object && params.object !== 'card')
        return { object: 'list', data: [], has_more: false, url };
      return listPage(c.ctx, 'payment_methods', params, {
        where: [['customer = ?', customer.id], ["id LIKE 'card\\_%' ESCAPE '\\'"]],
        url,
        what: 'source',
        map: (pm) => cardView(pm),
      });
    },
  }),
  op({
    id: 'GetCustomersCustomerSourcesId',
    method: 'GET',
    path: '/v1/customers/{customer}/sources/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      return cardView(sourceOf(c, liveCustomer(c.ctx, path.customer), path.id));
    },
  }),
  op({
    id: 'PostCustomersCustomerSourcesId',
    method: 'POST',
    path: '/v1/customers/{customer}/sources/{id}',
    params: cardUpdateParams,
    run(c, params: OpParams<typeof cardUpdateParams>, path) {
      const before = sourceOf(c, liveCustomer(c.ctx, path.customer), path.id);
      // A source is a card (cardOfToken).
      const details = before.card;
      if (!details) throw new Error(`source ${before.id} has no card details`);
      const after: Stored<'payment_methods'> = {
        ...before,
        billing_details: billingOfCardFields(params, before.billing_details),
        card: {
          ...details,
          exp_month: params.exp_month ?? details.exp_month,
          exp_year: params.exp_year ?? details.exp_year,
        },
        metadata: params.metadata
          ? mergeMetadata(before.metadata ?? {}, metadataGiven(params.metadata))
          : before.metadata,
      };
      put(c.ctx, 'payment_methods', after);
      const card = cardView(after);
      emit(c, 'customer.source.updated', card);
      return card;
    },
  }),
  op({
    id: 'DeleteCustomersCustomerSourcesId',
    method: 'DELETE',
    path: '/v1/customers/{customer}/sources/{id}',
    params: {},
    run(c, _params: OpParams, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      const before = sourceOf(c, customer, path.id);
      const after = { ...before, customer: null };
      put(c.ctx, 'payment_methods', after);
      emit(c, 'customer.source.deleted', cardView(before));
      if (customer.default_source === before.id) {
        const next = rows(
          c.ctx,
          'payment_methods',
          "customer = ? AND id LIKE 'card\\_%' ESCAPE '\\'",
          [customer.id],
        )[0];
        setDefaultSource(c, customer, next ? next.id : null);
      }
      return { id: before.id, object: 'card', deleted: true };
    },
  }),
];
