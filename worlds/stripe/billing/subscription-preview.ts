/**
 * The subscription previewer of `POST /v1/invoices/create_preview` with `subscription`: the invoice the subscription
 * will bill when its current period ends, as a renewal would write it (a line per item for the next period, at the
 * item's price and quantity; the subscription's pending invoice items join in `create_preview` itself). A subscription
 * that has ended, or ends at the end of this period, has no upcoming invoice. Changes (`subscription_details`) are
 * previewed on the subscription as changed, by subscription-preview-changes.ts.
 */
import { invalidRequest } from '../lib/errors.ts';
import type { SubscriptionPreview } from './invoicing.ts';
import type { OpContext } from '../lib/op.ts';
import { must } from '../lib/store.ts';
import { addIntervals, hasEnded, intervalOf, periodOf } from './subscription-periods.ts';

/** The subscription's part of `create_preview`: whose invoice, its period, and a line per item. */
export function previewSubscription(
  c: OpContext,
  params: { subscription: string; customer?: string | null },
): SubscriptionPreview {
  const sub = must(c.ctx, 'subscriptions', params.subscription, 'subscription', 'subscription');
  if (params.customer && params.customer !== sub.customer)
    throw invalidRequest(
      `The subscription ${sub.id} does not belong to the customer ${params.customer}.`,
      'customer',
    );
  if (hasEnded(sub) || sub.cancel_at_period_end === true || sub.status === 'incomplete_expired') {
    throw invalidRequest(
      `No upcoming invoices for subscription ${sub.id}: it has ended or ends at the end of its current period.`,
      'subscription',
      'invoice_upcoming_none',
    );
  }
  const current = periodOf(sub);
  const { interval, count } = intervalOf(sub);
  const next = { start: current.end, end: addIntervals(current.end, interval, count, 1) };
  return {
    customer: sub.customer,
    subscription: sub.id,
    period: current,
    billing_reason: 'upcoming',
    currency: sub.currency,
    lines: sub.items.data.map((item) => ({
      price: item.price.id,
      currency: item.price.currency,
      quantity: item.quantity,
      period: next,
      subscription_item: item.id,
      subscription: sub.id,
    })),
  };
}
