/**
 * Subscription items: each change goes through the subscription's own update (subscription-update.ts), so an item
 * added, repriced or removed here prorates and announces itself exactly as it would through `items[]` there.
 */
import { invalidRequest, parameterMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p } from '../lib/params.ts';
import { must, type Obj } from '../lib/store.ts';
import { mustSubscription } from './subscription-checks.ts';
import { priceData } from './subscription-params.ts';
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

/** The subscription-level parameters an item endpoint passes through. */
function passThrough(params: Obj): Obj {
  const out: Obj = {};
  for (const k of [
    'payment_behavior',
    'proration_behavior',
    'proration_date',
    'off_session',
  ] as const)
    if (params[k] !== undefined) out[k] = params[k];
  return out;
}

function itemSpec(params: Obj): Obj {
  const out: Obj = {};
  for (const k of ['price', 'plan', 'price_data', 'quantity', 'metadata', 'tax_rates'] as const)
    if (params[k] !== undefined) out[k] = params[k];
  return out;
}

function mustItem(c: { ctx: Parameters<typeof must>[0] }, id: string): Obj {
  return must(c.ctx, 'subscription_items', id, 'subscription item', 'item');
}

export const subscriptionItemsOps = [
  op({
    id: 'PostSubscriptionItems',
    method: 'POST',
    path: '/v1/subscription_items',
    params: { ...writable, subscription: p.string().req() },
    run(c, params) {
      const sub = mustSubscription(c.ctx, params.subscription, 'subscription');
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
    run: (c, _params, path) => mustItem(c, path.item),
  }),
  op({
    id: 'PostSubscriptionItemsItem',
    method: 'POST',
    path: '/v1/subscription_items/{item}',
    params: { ...writable, off_session: p.bool() },
    run(c, params, path) {
      const item = mustItem(c, path.item);
      const sub = mustSubscription(c.ctx, item.subscription, 'item');
      const { subscription } = updateSubscription(c, sub, {
        ...passThrough(params),
        items: [{ id: item.id, ...itemSpec(params) }],
      });
      return subscription.items.data.find((i: Obj) => i.id === item.id);
    },
  }),
  op({
    id: 'DeleteSubscriptionItemsItem',
    method: 'DELETE',
    path: '/v1/subscription_items/{item}',
    params: {
      clear_usage: p.bool(),
      payment_behavior: paymentBehavior,
      proration_behavior: prorationBehavior,
      proration_date: p.int(),
    },
    run(c, params, path) {
      const item = mustItem(c, path.item);
      const sub = mustSubscription(c.ctx, item.subscription, 'item');
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
    params: { ...listParams, subscription: p.string() },
    run(c, params) {
      if (!params.subscription) throw parameterMissing('subscription');
      return listPage(c.ctx, 'subscription_items', params, {
        url: '/v1/subscription_items',
        what: 'subscription item',
        where: [['subscription = ?', params.subscription]],
      });
    },
  }),
];
