/**
 * Subscriptions: create (the first invoice finalized and paid at once), retrieve, update (items, prorations, trials,
 * cancellation, collection pauses), cancel, list, search, pause and resume, migrate to flexible billing, and the
 * discount. What the clock does to them lives in subscription-cycle.ts, the stored model in subscription-model.ts and the calendar in subscription-periods.ts.
 */
import {
  addIntervals,
  boundaryAfter,
  hasEnded,
  intervalOf,
  periodOf,
} from './subscription-periods.ts';
import { collect, draftInvoice, prorationItem, updated } from './subscription-model.ts';
import { startPeriod } from './subscription-cycle.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { emit } from '../lib/events.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { listParams, p, searchParams } from '../lib/params.ts';
import { searchPage } from '../lib/search-page.ts';
import { nowSeconds, type Stored } from '../lib/store.ts';
import { mustSubscription } from './subscription-checks.ts';
import { createSubscription } from './subscription-create.ts';
import {
  cancellationDetails,
  prorationBehavior,
  createParams,
  updateParams,
} from './subscription-params.ts';
import { updateSubscription, cancelSubscription } from './subscription-update.ts';
import { moveSubscription } from './subscription-states.ts';
import { copyJson } from '../lib/clone.ts';

const STATUSES = [
  'active',
  'all',
  'canceled',
  'ended',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'paused',
  'trialing',
  'unpaid',
];

export const subscriptionsOps = [
  op({
    id: 'PostSubscriptions',
    method: 'POST',
    path: '/v1/subscriptions',
    params: createParams,
    run: (c, params) => createSubscription(c, params),
  }),
  op({
    id: 'GetSubscriptionsSubscriptionExposedId',
    method: 'GET',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: {},
    run: (c, _params, path) => mustSubscription(c.ctx, path.subscription_exposed_id),
    readsClock: false,
  }),
  op({
    id: 'PostSubscriptionsSubscriptionExposedId',
    method: 'POST',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: updateParams,
    run: (c, params, path) =>
      updateSubscription(c, mustSubscription(c.ctx, path.subscription_exposed_id), params)
        .subscription,
  }),
  op({
    id: 'DeleteSubscriptionsSubscriptionExposedId',
    method: 'DELETE',
    path: '/v1/subscriptions/{subscription_exposed_id}',
    params: { cancellation_details: cancellationDetails, invoice_now: p.bool(), prorate: p.bool() },
    run: (c, params, path) =>
      cancelSubscription(c, mustSubscription(c.ctx, path.subscription_exposed_id), params),
  }),
  op({
    id: 'GetSubscriptions',
    method: 'GET',
    path: '/v1/subscriptions',
    params: {
      ...listParams,
      customer: p.string(),
      customer_account: p.string(),
      price: p.string(),
      plan: p.string(),
      status: p.enum(...STATUSES),
      collection_method: p.enum('charge_automatically', 'send_invoice'),
      current_period_end: p.range(),
      current_period_start: p.range(),
      automatic_tax: p.any(),
      test_clock: p.string(),
    },
    run(c, params) {
      const where: [string, ...(string | number)[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      const status = params.status;
      if (status === 'ended') where.push(["status IN ('canceled', 'incomplete_expired')"]);
      else if (status && status !== 'all') where.push(['status = ?', status]);
      else if (!status) where.push(["status NOT IN ('canceled', 'incomplete_expired')"]);
      const price = params.price ?? params.plan;
      if (price)
        where.push([
          "id IN (SELECT subscription FROM subscription_items WHERE json_extract(data, '$.price.id') = ?)",
          price,
        ]);
      if (params.collection_method)
        where.push(["json_extract(data, '$.collection_method') = ?", params.collection_method]);
      if (params.test_clock) where.push(['test_clock = ?', params.test_clock]);
      const ops: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
      for (const field of ['current_period_end', 'current_period_start'] as const) {
        for (const [k, v] of Object.entries(
          (params[field] ?? {}) as Record<string, number | null>,
        )) {
          if (v === null || v === undefined) continue;
          // Fixed clause text per field and comparison; the value is a parameter.
          const clause =
            field === 'current_period_end'
              ? `json_extract(data, '$.items.data[0].current_period_end') ${ops[k]} ?`
              : `json_extract(data, '$.items.data[0].current_period_start') ${ops[k]} ?`;
          where.push([clause, v]);
        }
      }
      return listPage(c.ctx, 'subscriptions', params, {
        url: '/v1/subscriptions',
        what: 'subscription',
        where,
      });
    },
  }),
  // The customer's subscriptions under the customer, the path older clients list them at (Stripe's specification keeps
  // it): those not ended, as GET /v1/subscriptions?customer=… lists them.
  op({
    id: 'GetCustomersCustomerSubscriptions',
    method: 'GET',
    path: '/v1/customers/{customer}/subscriptions',
    params: listParams,
    run(c, params, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      return listPage(c.ctx, 'subscriptions', params, {
        url: `/v1/customers/${customer.id}/subscriptions`,
        what: 'subscription',
        where: [
          ['customer = ?', customer.id],
          ["status NOT IN ('canceled', 'incomplete_expired')"],
        ],
      });
    },
  }),
  op({
    id: 'GetCustomersCustomerSubscriptionsSubscriptionExposedId',
    method: 'GET',
    path: '/v1/customers/{customer}/subscriptions/{subscription_exposed_id}',
    params: {},
    run(c, _params, path) {
      const customer = liveCustomer(c.ctx, path.customer);
      const sub = mustSubscription(c.ctx, path.subscription_exposed_id);
      if (sub.customer !== customer.id)
        throw resourceMissing(
          'subscription',
          path.subscription_exposed_id,
          'subscription_exposed_id',
        );
      return sub;
    },
  }),
  op({
    id: 'GetSubscriptionsSearch',
    method: 'GET',
    path: '/v1/subscriptions/search',
    params: searchParams,
    run: (c, params) => searchPage(c.ctx, 'subscriptions', params, '/v1/subscriptions/search'),
  }),
  op({
    id: 'PostSubscriptionsSubscriptionResume',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/resume',
    params: {
      // `{ type: 'now' | 'unchanged' }` in the current API; older versions send the bare word.
      billing_cycle_anchor: p.any(),
      payment_behavior: p.enum('resume_on_payment_attempt', 'resume_on_payment_success'),
      proration_behavior: prorationBehavior,
      proration_date: p.int(),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (before.status !== 'paused')
        throw invalidRequest(
          `Subscription ${before.id} is not paused (its status is ${before.status}); only a paused subscription can be resumed.`,
          undefined,
          'subscription_not_paused',
        );
      if (before.collection_method !== 'charge_automatically')
        throw invalidRequest('Only subscriptions that charge automatically can be resumed.');
      const now = nowSeconds(c.ctx);
      const after = copyJson(before);
      moveSubscription(after, 'active');
      const raw = params.billing_cycle_anchor;
      const anchor =
        (raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : raw) ?? 'now';
      if (anchor !== 'now' && anchor !== 'unchanged')
        throw invalidRequest(
          'Invalid billing_cycle_anchor: must be one of now, unchanged',
          'billing_cycle_anchor[type]',
          'parameter_invalid_string',
        );
      let draft: Stored<'invoices'> | null = null;
      if (anchor === 'now') {
        after.billing_cycle_anchor = now;
        startPeriod(after, now);
        draft = draftInvoice(c, after, {
          billing_reason: 'subscription_cycle',
          items: true,
          period: { start: now, end: now },
        });
      } else {
        const { interval, count } = intervalOf(after);
        const end = boundaryAfter(after.billing_cycle_anchor, now, interval, count);
        const start = Math.max(
          addIntervals(end, interval, count, -1),
          after.billing_cycle_anchor <= now ? addIntervals(end, interval, count, -1) : now,
        );
        for (const item of after.items.data) {
          item.current_period_start = start;
          item.current_period_end = end;
        }
        const behavior = params.proration_behavior ?? 'create_prorations';
        if (behavior !== 'none') {
          for (const item of after.items.data)
            prorationItem(c, after, item, 1, params.proration_date ?? now);
          if (behavior === 'always_invoice')
            draft = draftInvoice(c, after, {
              billing_reason: 'subscription_update',
              items: false,
              period: { start: now, end: now },
            });
        }
      }
      if (draft) {
        after.latest_invoice = draft.id;
        const { failure } = collect(c, after, draft, { attempt: true });
        if (failure) {
          if (
            (params.payment_behavior ?? 'resume_on_payment_attempt') === 'resume_on_payment_success'
          )
            moveSubscription(after, 'paused');
          else moveSubscription(after, 'past_due');
        }
      }
      updated(c, before, after);
      if (after.status !== 'paused') emit(c, 'customer.subscription.resumed', after);
      return after;
    },
  }),
  op({
    id: 'PostSubscriptionsSubscriptionPause',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/pause',
    params: {
      bill_for: p.obj({
        outstanding_usage_through: p.obj({ type: p.enum('none', 'now').req() }),
        unused_time_from: p.obj({ type: p.enum('item_current_period_start', 'none', 'now').req() }),
      }),
      invoicing_behavior: p.enum('invoice', 'pending_invoice_item'),
      type: p.enum('subscription'),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (!['active', 'trialing', 'past_due'].includes(before.status)) {
        throw invalidRequest(
          `Subscription ${before.id} cannot be paused: its status is ${before.status}.`,
          undefined,
          'subscription_not_pausable',
        );
      }
      const now = nowSeconds(c.ctx);
      const after = copyJson(before);
      moveSubscription(after, 'paused');
      // Credit for the rest of the period, when asked; billed now or left pending for the next invoice.
      const from = params.bill_for?.unused_time_from?.type;
      if (from && from !== 'none' && before.status !== 'trialing') {
        const at = from === 'now' ? now : periodOf(before).start;
        for (const item of after.items.data) prorationItem(c, after, item, -1, at);
        if ((params.invoicing_behavior ?? 'invoice') === 'invoice') {
          const draft = draftInvoice(c, after, {
            billing_reason: 'subscription_update',
            items: false,
            period: { start: now, end: now },
          });
          after.latest_invoice = draft.id;
          collect(c, after, draft, { attempt: true });
        }
      }
      updated(c, before, after);
      emit(c, 'customer.subscription.paused', after);
      return after;
    },
  }),
  op({
    id: 'PostSubscriptionsSubscriptionMigrate',
    method: 'POST',
    path: '/v1/subscriptions/{subscription}/migrate',
    params: {
      billing_mode: p
        .obj({
          type: p.enum('flexible').req(),
          flexible: p.obj({ proration_discounts: p.enum('included', 'itemized') }),
        })
        .req(),
    },
    run(c, params, path) {
      const before = mustSubscription(c.ctx, path.subscription, 'subscription');
      if (before.billing_mode?.type === 'flexible')
        throw invalidRequest(
          `Subscription ${before.id} already uses billing_mode flexible.`,
          'billing_mode[type]',
        );
      if (hasEnded(before))
        throw invalidRequest(`Subscription ${before.id} has ended and cannot be migrated.`);
      const after = {
        ...copyJson(before),
        billing_mode: {
          flexible: {
            proration_discounts: params.billing_mode.flexible?.proration_discounts ?? 'included',
          },
          type: 'flexible',
        },
      };
      return updated(c, before, after);
    },
  }),
  op({
    id: 'DeleteSubscriptionsSubscriptionExposedIdDiscount',
    method: 'DELETE',
    path: '/v1/subscriptions/{subscription_exposed_id}/discount',
    params: {},
    run(c, _params, path) {
      const before = mustSubscription(c.ctx, path.subscription_exposed_id);
      const discount = before.discounts?.[0];
      if (!discount) throw resourceMissing('discount', before.id, 'subscription_exposed_id');
      updated(c, before, { ...copyJson(before), discounts: [] });
      emit(c, 'customer.discount.deleted', discount);
      const {
        checkout_session,
        coupon,
        customer,
        customer_account,
        id,
        invoice,
        invoice_item,
        promotion_code,
        source,
        start,
        subscription,
        subscription_item,
      } = discount;
      return {
        checkout_session,
        ...(coupon !== undefined ? { coupon } : {}),
        customer,
        customer_account,
        deleted: true,
        id,
        invoice,
        invoice_item,
        object: 'discount',
        promotion_code,
        source,
        start,
        subscription,
        subscription_item,
      };
    },
  }),
];
