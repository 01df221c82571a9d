/**
 * Subscription items: each change goes through the subscription's own update (subscription-update.ts), so an item
 * added, repriced or removed here prorates and announces itself exactly as it would through `items[]` there.
 */
import { invalidRequest, parameterMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import { listParams, p, type OpParams, type ParamsOf } from '../lib/params.ts';
import { must, type Stored } from '../lib/store.ts';
import { storedSubscription } from './subscription-checks.ts';
import { priceData, type UpdateParams } from './subscription-params.ts';
import { updateSubscription } from './subscription-update.ts';

const prorationBehavior = p.enum('always_invoice', 'create_prorations', 'none');
const paymentBehavior = p.enum(
  'allow_incomplete',
  'default_incomplete',
  'error_if_incomplete',
  'pending_if_incomplete',
);

/** What create and update share. */
const writable = {
  billing_thresholds: p.any(),
  current_trial: p.any(),
  discounts: p.any(),
  metadata: p.metadata(),
  payment_behavior: paymentBehavior,
  plan: p.string(),
  price: p.string(),
  price_data: priceData,
  proration_behavior: prorationBehavior,
  proration_date: p.int(),
  quantity: p.int(0),
  tax_rates: p.any(),
};

/** The subscription-level parameters an item endpoint may pass through to the subscription's update. */
type PassedThrough = Pick<
  UpdateParams,
  'payment_behavior' | 'proration_behavior' | 'proration_date' | 'off_session'
>;

/** An item of the update's `items[]`. */
type ItemChange = NonNullable<UpdateParams['items']>[number];

/** The subscription-level parameters an item endpoint passes through. */
function passThrough(params: PassedThrough): PassedThrough {
  const out: PassedThrough = {};
  if (params.payment_behavior !== undefined) out.payment_behavior = params.payment_behavior;
  if (params.proration_behavior !== undefined) out.proration_behavior = params.proration_behavior;
  if (params.proration_date !== undefined) out.proration_date = params.proration_date;
  if (params.off_session !== undefined) out.off_session = params.off_session;
  return out;
}

function itemSpec(params: ParamsOf<typeof writable>): ItemChange {
  const out: ItemChange = {};
  if (params.price !== undefined) out.price = params.price;
  if (params.plan !== undefined) out.plan = params.plan;
  if (params.price_data !== undefined) out.price_data = params.price_data;
  if (params.quantity !== undefined) out.quantity = params.quantity;
  if (params.metadata !== undefined) out.metadata = params.metadata;
  if (params.tax_rates !== undefined) out.tax_rates = params.tax_rates;
  return out;
}

const createParams = { ...writable, subscription: p.string().req() };
const updateParams = { ...writable, off_session: p.bool() };
const deleteParams = {
  clear_usage: p.bool(),
  payment_behavior: paymentBehavior,
  proration_behavior: prorationBehavior,
  proration_date: p.int(),
};
const listItemsParams = { ...listParams, subscription: p.string() };

function mustItem(c: OpContext, id: string): Stored<'subscription_items'> {
  return must(c.ctx, 'subscription_items', id, 'subscription item', 'item');
}

export const subscriptionItemsOps = [
  op({
    id: 'PostSubscriptionItems',
    method: 'POST',
    path: '/v1/subscription_items',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const sub = storedSubscription(c.ctx, params.subscription, 'subscription');
      const { added } = updateSubscription(c, sub, {
        ...passThrough(params),
        items: [itemSpec(params)],
      });
      return added[0];
    },
  }),
  op({
    id: 'GetSubscriptionItemsItem',
    method: 'GET',
    path: '/v1/subscription_items/{item}',
    params: {},
    run: (c, _params: OpParams, path) => mustItem(c, path.item),
  }),
  op({
    id: 'PostSubscriptionItemsItem',
    method: 'POST',
    path: '/v1/subscription_items/{item}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const item = mustItem(c, path.item);
      const sub = storedSubscription(c.ctx, item.subscription, 'item');
      const { subscription } = updateSubscription(c, sub, {
        ...passThrough(params),
        items: [{ id: item.id, ...itemSpec(params) }],
      });
      // The item updated is still on the subscription.
      return subscription.items.data.find((i) => i.id === item.id) as Stored<'subscription_items'>;
    },
  }),
  op({
    id: 'DeleteSubscriptionItemsItem',
    method: 'DELETE',
    path: '/v1/subscription_items/{item}',
    params: deleteParams,
    run(c, params: OpParams<typeof deleteParams>, path) {
      const item = mustItem(c, path.item);
      const sub = storedSubscription(c.ctx, item.subscription, 'item');
      if (sub.items.data.length <= 1) {
        throw invalidRequest(
          'A subscription must have at least one active plan. To cancel a subscription, please use the cancel API endpoint.',
          'item',
        );
      }
      updateSubscription(c, sub, {
        ...passThrough(params),
        items: [{ id: item.id, deleted: true }],
      });
      return { id: item.id, object: 'subscription_item', deleted: true };
    },
  }),
  op({
    id: 'GetSubscriptionItems',
    method: 'GET',
    path: '/v1/subscription_items',
    params: listItemsParams,
    run(c, params: OpParams<typeof listItemsParams>) {
      if (!params.subscription) throw parameterMissing('subscription');
      return listPage(c.ctx, 'subscription_items', params, {
        url: '/v1/subscription_items',
        what: 'subscription item',
        where: [['subscription = ?', params.subscription]],
      });
    },
  }),
];
