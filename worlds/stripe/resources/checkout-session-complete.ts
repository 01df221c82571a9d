/**
 * Completing a checkout session: the buyer, the payment, setup or subscription it starts, a payment link's count.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import {
  failed,
  invalidRequest,
  isFailed,
  type Failed,
  type StripeErrorBody,
} from '../lib/errors.ts';
import type { CheckoutSession, LineitemsLineItem } from '../lib/objects.ts';
import { replyOf, runOp, type OpContext } from '../lib/op.ts';
import type { OpParams, ParamValue } from '../lib/params.ts';
import { get, newId, put, type Stored } from '../lib/store.ts';
import { resolvePaymentMethod } from '../lib/test-cards.ts';
import { liveCustomer } from './customers.ts';
import {
  authenticatePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
} from './payment-intent-flow.ts';
import { attachPaymentMethod } from './payment-methods.ts';
import { completeAuthentication } from './setup-intents.ts';
import { hasRecurring, storedItems, withoutLineItems } from './payment-links.ts';
import { createSession, detailsOf, shown } from './checkout-session-create.ts';
import type { completeParams } from './checkout-session-params.ts';
import { copyJson } from '../lib/clone.ts';

type Session = Stored<'checkout_sessions'>;

/** What the buyer entered on the page (`customer_details`). */
type BuyerDetails = ParamValue<(typeof completeParams)['customer_details']>;

/** A card's failure as a payment or setup reported it: its error, or its `last_payment_error`. */
type CardFailure = Partial<
  Record<
    | 'code'
    | 'message'
    | 'decline_code'
    | 'charge'
    | 'payment_intent'
    | 'setup_intent'
    | 'payment_method',
    unknown
  >
>;

/** The customer a completing session pays as: its own, or a new one from what the buyer entered. */
export function buyerOf(
  c: OpContext,
  session: Session,
  given: BuyerDetails | null | undefined,
): Stored<'customers'> {
  if (session.customer) return liveCustomer(c.ctx, session.customer);
  const email = given?.email ?? session.customer_email ?? session.customer_details?.email ?? null;
  const params: Record<string, unknown> = {};
  if (email) params.email = email;
  for (const k of ['name', 'phone', 'address'] as const) if (given?.[k]) params[k] = given[k];
  const made = runOp(c.ctx, 'PostCustomers', params);
  if (!made.ok)
    throw invalidRequest(
      `customer_details: ${made.message}`,
      `customer_details[${String(made.error.param ?? 'email')}]`,
    );
  return replyOf<Stored<'customers'>>(made.body);
}

/** 402 for a card that could not pay or be saved: the decline as the payment or setup reported it. */
export function notCompleted(error: CardFailure): Failed {
  const code = typeof error.code === 'string' ? error.code : 'card_declined';
  const body: StripeErrorBody = {
    type: 'card_error',
    code,
    message: typeof error.message === 'string' ? error.message : 'Your card was declined.',
    param: 'payment_method',
  };
  for (const k of [
    'decline_code',
    'charge',
    'payment_intent',
    'setup_intent',
    'payment_method',
  ] as const)
    if (error[k] !== undefined && error[k] !== null) Object.assign(body, { [k]: error[k] });
  return failed(402, body);
}

/**
 * Complete an open session as its buyer: the customer, then the payment, subscription or saved card. A card that
 * fails returns the 402 to answer with; the session stays open, keeping the customer it now has, so another card can
 * be tried.
 */
export function completeSession(
  c: OpContext,
  start: Session,
  params: OpParams<typeof completeParams>,
): Session | Failed {
  const ctx = c.ctx;
  if (start.status !== 'open')
    throw invalidRequest(
      `This Checkout Session is ${start.status}; only an open session can be completed.`,
      'session',
      'checkout_session_unexpected_state',
    );
  const buyer = buyerOf(c, start, params.customer_details);
  const session = copyJson(start);
  session.customer = buyer.id;
  session.customer_details = detailsOf(params.customer_details?.email ?? buyer.email ?? null, {
    ...buyer,
    ...Object.fromEntries(
      Object.entries(params.customer_details ?? {}).filter(
        ([, v]) => v !== null && v !== undefined,
      ),
    ),
  });
  const pmRef: string = params.payment_method ?? 'pm_card_visa';
  const stayOpen = (error: CardFailure): Failed => {
    put(ctx, 'checkout_sessions', session);
    return notCompleted(error);
  };
  if (session.mode === 'payment') {
    const data = session.payment_intent_data ?? {};
    const { amount_total: amount, currency } = session;
    // A payment-mode session has line items, so an amount and a currency (createSession).
    if (amount === null || currency === null)
      throw new Error(`checkout session ${session.id} has no amount to pay`);
    const pm = resolvePaymentMethod(c, pmRef, 'payment_method');
    const pi = createPaymentIntent(c, {
      amount,
      currency,
      customer: buyer.id,
      payment_method: pm.id,
      payment_method_types: ['card'],
      description: data.description ?? null,
      metadata: data.metadata ?? null,
      ...(data.capture_method ? { capture_method: data.capture_method } : {}),
      ...(data.setup_future_usage ? { setup_future_usage: data.setup_future_usage } : {}),
      ...(data.receipt_email ? { receipt_email: data.receipt_email } : {}),
      statement_descriptor: data.statement_descriptor ?? null,
      statement_descriptor_suffix: data.statement_descriptor_suffix ?? null,
      transfer_group: data.transfer_group ?? null,
    });
    session.payment_intent = pi.id;
    let out = confirmPaymentIntent(c, pi);
    // The buyer is on the page: a 3D Secure challenge is passed there.
    if (!isFailed(out) && out.status === 'requires_action')
      out = authenticatePaymentIntent(c, out.id, 'succeed');
    if (isFailed(out)) return stayOpen(out.error);
    if (out.status === 'requires_payment_method') return stayOpen(out.last_payment_error ?? {});
    session.payment_status = 'paid';
  } else if (session.mode === 'setup') {
    const data = session.setup_intent_data ?? {};
    const made = runOp(ctx, 'PostSetupIntents', {
      customer: buyer.id,
      payment_method: pmRef,
      confirm: true,
      usage: 'off_session',
      payment_method_types: ['card'],
      ...(data.description ? { description: data.description } : {}),
      ...(data.metadata ? { metadata: data.metadata } : {}),
    });
    if (!made.ok) {
      if (made.status !== 402) throw invalidRequest(made.message, 'payment_method');
      return stayOpen(made.error);
    }
    const intent = replyOf<Stored<'setup_intents'>>(made.body);
    session.setup_intent = intent.id;
    if (intent.status === 'requires_action') {
      const authed = completeAuthentication(c, intent, 'succeed');
      if (authed.status !== 'succeeded') return stayOpen(authed.last_setup_error ?? {});
    }
  } else {
    const started = startSubscription(c, session, buyer, pmRef);
    if (isFailed(started)) return stayOpen(started.error);
    session.subscription = started.id;
    // Not expanded: the reply of a run without `expand[]`.
    session.invoice = started.latest_invoice;
    session.payment_status = started.status === 'trialing' ? 'no_payment_required' : 'paid';
  }
  session.status = 'complete';
  put(ctx, 'checkout_sessions', session);
  if (session.payment_link) countCompletion(c, session.payment_link);
  emit(c, 'checkout.session.completed', shown(ctx, session));
  return session;
}

/**
 * Subscription mode: the card is saved on the customer and a subscription starts on the session's prices, through
 * the same operation `POST /v1/subscriptions` runs. A first invoice that cannot be paid leaves the session open.
 */
export function startSubscription(
  c: OpContext,
  session: Session,
  buyer: Stored<'customers'>,
  pmRef: string,
): Stored<'subscriptions'> | Failed {
  const ctx = c.ctx;
  const pm = attachPaymentMethod(
    c,
    resolvePaymentMethod(c, pmRef, 'payment_method'),
    buyer,
    'payment_method',
  );
  const data = session.subscription_data ?? {};
  const params: Record<string, unknown> = {
    customer: buyer.id,
    items: (session.line_items?.data ?? []).map((x) => ({
      price: priceIdOf(x),
      quantity: x.quantity,
    })),
    default_payment_method: pm.id,
  };
  if (data.metadata) params.metadata = data.metadata;
  if (data.description) params.description = data.description;
  if (data.trial_period_days) params.trial_period_days = data.trial_period_days;
  if (data.trial_end) params.trial_end = data.trial_end;
  const made = runOp(ctx, 'PostSubscriptions', params);
  if (!made.ok) {
    if (made.status === 402) return failed(402, made.error as unknown as StripeErrorBody);
    throw invalidRequest(`The subscription could not be started: ${made.message}`, 'session');
  }
  if (made.body.status === 'incomplete' || made.body.status === 'incomplete_expired') {
    return failed(402, {
      type: 'card_error',
      code: 'card_declined',
      message: `The first invoice of subscription ${made.body.id} could not be paid with this card.`,
    });
  }
  return replyOf<Stored<'subscriptions'>>(made.body);
}

/** The id of an item's price: every item the world writes holds its price object (payment-links.ts, itemOf). */
function priceIdOf(item: LineitemsLineItem): string {
  if (!item.price) throw new Error(`line item ${item.id} has no price`);
  return item.price.id;
}

/** A payment link's completed sessions count toward its `restrictions`; at the limit the link deactivates. */
export function countCompletion(c: OpContext, linkId: string): void {
  const before = get(c.ctx, 'payment_links', linkId);
  if (!before?.restrictions?.completed_sessions) return;
  const after = copyJson(before);
  const completed = after.restrictions?.completed_sessions;
  if (!completed) return;
  completed.count += 1;
  if (completed.count >= completed.limit) after.active = false;
  put(c.ctx, 'payment_links', after);
  const url = `/v1/payment_links/${linkId}/line_items`;
  const shownBefore = withoutLineItems(c.ctx, before, undefined, url);
  const shownAfter = withoutLineItems(c.ctx, after, undefined, url);
  emit(c, 'payment_link.updated', shownAfter, changedAttributes(shownBefore, shownAfter));
}

/** A visit to a payment link's URL: a new open session with the link's items and settings. */
export function sessionFromLink(c: OpContext, link: Stored<'payment_links'>): Session {
  if (!link.active)
    throw invalidRequest(
      link.inactive_message ?? `The payment link ${link.id} is no longer active.`,
      'payment_link',
      'payment_link_inactive',
    );
  const items = storedItems(c.ctx, link).map((x) => ({ ...x, id: newId(c.ctx, 'li_') }));
  const subscription = hasRecurring(items);
  return createSession(c, {
    mode: subscription ? 'subscription' : 'payment',
    items,
    payment_link: link.id,
    success_url:
      link.after_completion?.type === 'redirect'
        ? (link.after_completion.redirect?.url ?? null)
        : null,
    metadata: link.metadata,
    customer_creation: subscription ? undefined : link.customer_creation,
    allow_promotion_codes: link.allow_promotion_codes,
    billing_address_collection: link.billing_address_collection,
    phone_number_collection: link.phone_number_collection,
    submit_type: link.submit_type === 'auto' ? null : link.submit_type,
    payment_method_collection: link.payment_method_collection,
    payment_intent_data: subscription ? null : link.payment_intent_data,
    subscription_data:
      subscription && link.subscription_data
        ? {
            description: link.subscription_data.description,
            metadata: link.subscription_data.metadata,
            trial_period_days: link.subscription_data.trial_period_days,
          }
        : null,
  });
}

/** A session's reply: itself shown, or the failure with the writes that led to it kept. */
export function reply(
  ctx: Ctx,
  out: Session | Failed,
  expand?: string[] | null,
): CheckoutSession | Failed {
  return isFailed(out) ? out : shown(ctx, out, expand);
}
