/**
 * Checkout sessions: Stripe's hosted payment page, in three modes. `payment` takes one payment for its line items,
 * `subscription` starts a subscription on recurring prices, `setup` saves a card. A session is `open` until the
 * buyer completes it (`complete`) or it expires (`expired`: by `POST …/expire`, or when the world clock passes
 * `expires_at`, 24 hours after creation unless set; a lapsed session is expired at the next checkout call, with its
 * `checkout.session.expired` event).
 *
 * There is no browser, so no buyer: the world adds two test routes that do what the buyer would on the page.
 * `POST /v1/test_helpers/checkout/sessions/{session}/complete` (`payment_method`, a `pm_…` or a test token, default
 * `pm_card_visa`; optional `customer_details`) creates the customer when the session has none, then the payment
 * intent (a decline is the usual 402 and the session stays open), the subscription or the setup intent, and marks the
 * session complete with `checkout.session.completed`. A card that asks for 3D Secure is authenticated, as the buyer
 * would pass the challenge on the page. `POST /v1/test_helpers/payment_links/{payment_link}/complete` takes the same
 * parameters: it opens a checkout session from the link, as a visit to its URL does, and completes that.
 */
import type { Ctx } from 'seahaven';
import { emit, changedAttributes } from '../lib/events.ts';
import {
  failed,
  invalidRequest,
  isFailed,
  resourceMissing,
  type Failed,
  type StripeErrorBody,
} from '../lib/errors.ts';
import { listOf, listPage } from '../lib/list.ts';
import { op, runOp, type OpContext } from '../lib/op.ts';
import { listParams, mergeMetadata, p } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Obj } from '../lib/store.ts';
import { resolvePaymentMethod } from '../lib/test-cards.ts';
import { checkAmount } from './charges.ts';
import { liveCustomer } from './customers.ts';
import {
  authenticatePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
} from './payment-intent-flow.ts';
import { attachPaymentMethod } from './payment-methods.ts';
import { completeAuthentication } from './setup-intents.ts';
import {
  hasRecurring,
  lineItemPriceData,
  lineItemsOf,
  mustPaymentLink,
  nestedPage,
  storedItems,
  withoutLineItems,
} from './payment-links.ts';

const HOUR = 3600;

/** Fields a session keeps for its completion that Stripe does not show on the session. */
const PRIVATE = ['payment_intent_data', 'subscription_data', 'setup_intent_data'] as const;

const address = p.obj({
  city: p.string(),
  country: p.string(),
  line1: p.string(),
  line2: p.string(),
  postal_code: p.string(),
  state: p.string(),
});

/** Parameters Stripe takes for page features the world has no counterpart for (tax, consent, shipping, branding). */
const accepted = {
  adaptive_pricing: p.any(),
  after_expiration: p.any(),
  automatic_tax: p.any(),
  branding_settings: p.any(),
  consent_collection: p.any(),
  custom_fields: p.any(),
  custom_text: p.any(),
  customer_update: p.any(),
  discounts: p.any(),
  invoice_creation: p.any(),
  name_collection: p.any(),
  optional_items: p.any(),
  origin_context: p.any(),
  payment_method_configuration: p.string(),
  payment_method_data: p.any(),
  payment_method_options: p.any(),
  permissions: p.any(),
  redirect_on_completion: p.enum('always', 'if_required', 'never'),
  saved_payment_method_options: p.any(),
  shipping_address_collection: p.any(),
  shipping_options: p.any(),
  tax_id_collection: p.any(),
  wallet_options: p.any(),
  excluded_payment_method_types: p.arr(p.string()),
  customer_account: p.string(),
};

const intentData = p.obj({
  capture_method: p.enum('automatic', 'automatic_async', 'manual'),
  description: p.string(1000),
  metadata: p.metadata(),
  receipt_email: p.string(),
  setup_future_usage: p.enum('off_session', 'on_session'),
  statement_descriptor: p.string(22),
  statement_descriptor_suffix: p.string(22),
  transfer_group: p.string(),
  application_fee_amount: p.int(0),
  on_behalf_of: p.string(),
  shipping: p.any(),
  transfer_data: p.any(),
});

const createParams = {
  ...accepted,
  allow_promotion_codes: p.bool(),
  billing_address_collection: p.enum('auto', 'required'),
  cancel_url: p.string(5000),
  client_reference_id: p.string(200),
  currency: p.string(3),
  customer: p.string(),
  customer_creation: p.enum('always', 'if_required'),
  customer_email: p.string(512),
  expires_at: p.int(),
  line_items: p.arr(
    p.obj({
      price: p.string(),
      price_data: lineItemPriceData,
      quantity: p.int(),
      adjustable_quantity: p.obj({ enabled: p.bool().req(), maximum: p.int(1), minimum: p.int(0) }),
      tax_rates: p.arr(p.string()),
      dynamic_tax_rates: p.arr(p.string()),
      metadata: p.metadata(),
    }),
  ),
  locale: p.string(),
  metadata: p.metadata(),
  mode: p.enum('payment', 'setup', 'subscription').req(),
  payment_intent_data: intentData,
  payment_method_collection: p.enum('always', 'if_required'),
  payment_method_types: p.arr(p.string()),
  phone_number_collection: p.obj({ enabled: p.bool().req() }),
  return_url: p.string(5000),
  setup_intent_data: p.obj({
    description: p.string(1000),
    metadata: p.metadata(),
    on_behalf_of: p.string(),
  }),
  submit_type: p.enum('auto', 'book', 'donate', 'pay', 'subscribe'),
  subscription_data: p.obj({
    description: p.string(500),
    metadata: p.metadata(),
    trial_period_days: p.int(1),
    trial_end: p.int(),
    billing_cycle_anchor: p.int(),
    default_tax_rates: p.arr(p.string()),
    application_fee_percent: p.num(0, 100),
    billing_mode: p.any(),
    invoice_settings: p.any(),
    on_behalf_of: p.string(),
    proration_behavior: p.enum('create_prorations', 'none'),
    transfer_data: p.any(),
    trial_settings: p.any(),
  }),
  success_url: p.string(5000),
  ui_mode: p.enum(
    'elements',
    'embedded_page',
    'form',
    'hosted_page',
    'custom',
    'embedded',
    'hosted',
  ),
};

/** The UI modes' names before Stripe renamed them, still accepted: the reply carries the current name. */
const UI_MODE_RENAMED: Record<string, string> = {
  custom: 'elements',
  embedded: 'embedded_page',
  hosted: 'hosted_page',
};

const completeParams = {
  payment_method: p.string(),
  customer_details: p.obj({
    email: p.string(512),
    name: p.string(256),
    phone: p.string(20),
    address,
  }),
};

const noAddress = () => ({
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
});

/** A session as Stripe shows it: without what only its completion reads, `line_items` only when asked for. */
function shown(ctx: Ctx, session: Obj, expand?: string[]): Obj {
  const out = withoutLineItems(ctx, session, expand, lineItemsUrl(session.id));
  for (const k of PRIVATE) delete out[k];
  return out;
}

const lineItemsUrl = (id: string) => `/v1/checkout/sessions/${id}/line_items`;

/** A session by id, or 404. */
function mustSession(ctx: Ctx, id: string, param = 'session'): Obj {
  const s = get(ctx, 'checkout_sessions', id);
  if (!s) throw resourceMissing('checkout.session', id, param);
  return s;
}

/** Expire the open sessions whose `expires_at` the world clock has passed. */
function expireDueSessions(c: OpContext): void {
  const now = nowSeconds(c.ctx);
  for (const s of rows(c.ctx, 'checkout_sessions', 'status = ?', ['open'], true)) {
    if (s.expires_at <= now) expire(c, s);
  }
}

function expire(c: OpContext, session: Obj): Obj {
  const after = { ...session, status: 'expired' };
  put(c.ctx, 'checkout_sessions', after);
  emit(c, 'checkout.session.expired', shown(c.ctx, after));
  return after;
}

function checkUrl(url: string | null | undefined, param: string): void {
  if (url && !/^https?:\/\/\S+$/.test(url))
    throw invalidRequest('Not a valid URL', param, 'url_invalid');
}

/** What a new session is made of: the checked create parameters, or a payment link's settings. */
interface SessionInput extends Record<string, any> {
  mode: 'payment' | 'setup' | 'subscription';
  items: Obj[];
  payment_link?: string | null;
}

/** Check, store and announce a new open session. */
function createSession(c: OpContext, input: SessionInput): Obj {
  const ctx = c.ctx;
  const { mode, items } = input;
  if (input.customer && input.customer_email)
    throw invalidRequest(
      'You may only specify one of these parameters: customer, customer_email.',
      'customer_email',
    );
  const customer = input.customer ? liveCustomer(ctx, input.customer).id : null;
  checkUrl(input.success_url, 'success_url');
  checkUrl(input.cancel_url, 'cancel_url');
  const uiMode = UI_MODE_RENAMED[input.ui_mode] ?? input.ui_mode ?? 'hosted_page';
  if (uiMode !== 'hosted_page' && input.success_url)
    throw invalidRequest(
      `success_url cannot be used with ui_mode=${uiMode}; use return_url.`,
      'success_url',
    );
  if (uiMode === 'hosted_page' && input.return_url)
    throw invalidRequest(
      'return_url can only be used with ui_mode=embedded_page, elements or form.',
      'return_url',
    );
  if (input.payment_method_types) {
    const other = input.payment_method_types.find((t: string) => t !== 'card');
    if (other)
      throw invalidRequest(
        `The payment method type "${other}" is not available in this test-mode account; use "card".`,
        'payment_method_types',
        'payment_method_unactivated',
      );
  }
  if (mode === 'setup') {
    if (items.length > 0)
      throw invalidRequest('You cannot pass `line_items` in `setup` mode.', 'line_items');
  } else {
    if (items.length === 0)
      throw invalidRequest(
        `\`line_items\` is required in \`${mode}\` mode.`,
        'line_items',
        'parameter_missing',
      );
    if (mode === 'payment' && hasRecurring(items))
      throw invalidRequest(
        'You must be in `subscription` mode to use recurring prices; the prices of `line_items` here bill on a schedule.',
        'line_items',
      );
    if (mode === 'subscription' && !hasRecurring(items))
      throw invalidRequest(
        'You must specify at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
  }
  if (mode !== 'payment' && input.payment_intent_data)
    throw invalidRequest(
      'payment_intent_data can only be used in `payment` mode.',
      'payment_intent_data',
    );
  if (mode !== 'subscription' && input.subscription_data)
    throw invalidRequest(
      'subscription_data can only be used in `subscription` mode.',
      'subscription_data',
    );
  if (mode !== 'setup' && input.setup_intent_data)
    throw invalidRequest(
      'setup_intent_data can only be used in `setup` mode.',
      'setup_intent_data',
    );
  if (mode !== 'payment' && input.customer_creation)
    throw invalidRequest(
      'customer_creation can only be used in `payment` mode.',
      'customer_creation',
    );
  const currency =
    items[0]?.currency ?? (input.currency ? String(input.currency).toLowerCase() : null);
  if (input.currency && currency !== String(input.currency).toLowerCase())
    throw invalidRequest(
      `The currency (${input.currency}) does not match the line items' currency (${currency}).`,
      'currency',
    );
  const subtotal = items.reduce((sum, x) => sum + x.amount_subtotal, 0);
  if (mode === 'payment') checkAmount(subtotal, 'line_items');
  const now = nowSeconds(ctx);
  const expiresAt = input.expires_at ?? now + 24 * HOUR;
  if (expiresAt < now + HOUR / 2 || expiresAt > now + 24 * HOUR)
    throw invalidRequest(
      'The `expires_at` timestamp must be between 30 minutes and 24 hours from the Checkout Session creation.',
      'expires_at',
    );
  const id = newId(ctx, 'cs_test_');
  const customerObj = customer ? get(ctx, 'customers', customer) : undefined;
  const session: Obj = {
    id,
    object: 'checkout.session',
    adaptive_pricing: mode === 'payment' ? { enabled: false } : null,
    after_expiration: null,
    allow_promotion_codes: input.allow_promotion_codes ?? null,
    allowed_payment_method_types: null,
    amount_subtotal: mode === 'setup' ? null : subtotal,
    amount_total: mode === 'setup' ? null : subtotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: input.billing_address_collection ?? null,
    cancel_url: input.cancel_url ?? null,
    client_reference_id: input.client_reference_id ?? null,
    client_secret: uiMode === 'hosted_page' ? null : `${id}_secret_${ctx.ids.token('', 24)}`,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer,
    customer_account: null,
    customer_creation: mode === 'payment' ? (input.customer_creation ?? 'if_required') : null,
    customer_details: customerObj
      ? detailsOf(typeof customerObj.email === 'string' ? customerObj.email : null, customerObj)
      : input.customer_email
        ? detailsOf(input.customer_email)
        : null,
    customer_email: input.customer_email ?? null,
    discounts: [],
    expires_at: expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation:
      mode === 'payment'
        ? {
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
          }
        : null,
    livemode: false,
    locale: input.locale ?? null,
    managed_payments: null,
    metadata: mergeMetadata({}, input.metadata),
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: input.payment_link ?? null,
    payment_method_collection:
      mode === 'setup' ? null : (input.payment_method_collection ?? 'always'),
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: input.payment_method_types?.length
      ? input.payment_method_types
      : ['card'],
    payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: input.phone_number_collection?.enabled ?? false },
    recovered_from: null,
    saved_payment_method_options: customer
      ? {
          allow_redisplay_filters: ['always'],
          payment_method_remove: 'disabled',
          payment_method_save: null,
        }
      : null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: input.submit_type ?? null,
    subscription: null,
    success_url: input.success_url ?? null,
    total_details:
      mode === 'setup' ? null : { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: uiMode,
    url: uiMode === 'hosted_page' ? `https://checkout.stripe.com/c/pay/${id}` : null,
    wallet_options: null,
    line_items: listOf(items, lineItemsUrl(id)),
    payment_intent_data: input.payment_intent_data ?? null,
    subscription_data: input.subscription_data ?? null,
    setup_intent_data: input.setup_intent_data ?? null,
  };
  put(ctx, 'checkout_sessions', session);
  return session;
}

/** `customer_details` as the buyer gave them (or as the customer's record has them). */
function detailsOf(email: string | null, from?: Obj | null): Obj {
  return {
    address: from?.address ? { ...noAddress(), ...from.address } : null,
    business_name: null,
    email,
    individual_name: null,
    name: from?.name ?? null,
    phone: from?.phone ?? null,
    tax_exempt: from?.tax_exempt ?? 'none',
    tax_ids: [],
  };
}

/** The customer a completing session pays as: its own, or a new one from what the buyer entered. */
function buyerOf(c: OpContext, session: Obj, given: Obj | null | undefined): Obj {
  if (session.customer) return liveCustomer(c.ctx, session.customer);
  const email = given?.email ?? session.customer_email ?? session.customer_details?.email ?? null;
  const params: Obj = {};
  if (email) params.email = email;
  for (const k of ['name', 'phone', 'address'] as const) if (given?.[k]) params[k] = given[k];
  const made = runOp(c.ctx, 'PostCustomers', params);
  if (!made.ok)
    throw invalidRequest(
      `customer_details: ${made.message}`,
      `customer_details[${String(made.error.param ?? 'email')}]`,
    );
  return made.body;
}

/** 402 for a card that could not pay or be saved: the decline as the payment or setup reported it. */
function notCompleted(error: Obj): Failed {
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
    if (error[k] !== undefined && error[k] !== null) (body as Obj)[k] = error[k];
  return failed(402, body);
}

/**
 * Complete an open session as its buyer: the customer, then the payment, subscription or saved card. A card that
 * fails returns the 402 to answer with; the session stays open, keeping the customer it now has, so another card can
 * be tried.
 */
function completeSession(c: OpContext, start: Obj, params: Record<string, any>): Obj | Failed {
  const ctx = c.ctx;
  if (start.status !== 'open')
    throw invalidRequest(
      `This Checkout Session is ${start.status}; only an open session can be completed.`,
      'session',
      'checkout_session_unexpected_state',
    );
  const buyer = buyerOf(c, start, params.customer_details);
  const session = structuredClone(start);
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
  const stayOpen = (error: Obj): Failed => {
    put(ctx, 'checkout_sessions', session);
    return notCompleted(error);
  };
  if (session.mode === 'payment') {
    const data = session.payment_intent_data ?? {};
    const pm = resolvePaymentMethod(c, pmRef, 'payment_method');
    const pi = createPaymentIntent(c, {
      amount: session.amount_total,
      currency: session.currency,
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
    if (isFailed(out)) return stayOpen(out.error as Obj);
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
    session.setup_intent = made.body.id;
    if (made.body.status === 'requires_action') {
      const authed = completeAuthentication(c, made.body, 'succeed');
      if (authed.status !== 'succeeded') return stayOpen(authed.last_setup_error ?? {});
    }
  } else {
    const started = startSubscription(c, session, buyer, pmRef);
    if (isFailed(started)) return stayOpen(started.error as Obj);
    session.subscription = started.id;
    session.invoice =
      typeof started.latest_invoice === 'string'
        ? started.latest_invoice
        : (started.latest_invoice?.id ?? null);
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
function startSubscription(c: OpContext, session: Obj, buyer: Obj, pmRef: string): Obj | Failed {
  const ctx = c.ctx;
  const pm = attachPaymentMethod(
    c,
    resolvePaymentMethod(c, pmRef, 'payment_method'),
    buyer,
    'payment_method',
  );
  const data = session.subscription_data ?? {};
  const params: Obj = {
    customer: buyer.id,
    items: (session.line_items?.data ?? []).map((x: Obj) => ({
      price: x.price.id,
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
  return made.body;
}

/** A payment link's completed sessions count toward its `restrictions`; at the limit the link deactivates. */
function countCompletion(c: OpContext, linkId: string): void {
  const before = get(c.ctx, 'payment_links', linkId);
  if (!before?.restrictions?.completed_sessions) return;
  const after = structuredClone(before);
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
function sessionFromLink(c: OpContext, link: Obj): Obj {
  if (!link.active)
    throw invalidRequest(
      link.inactive_message ?? `The payment link ${link.id} is no longer active.`,
      'payment_link',
      'payment_link_inactive',
    );
  const items: Obj[] = storedItems(c.ctx, link).map((x) => ({ ...x, id: newId(c.ctx, 'li_') }));
  const subscription = hasRecurring(items);
  return createSession(c, {
    mode: subscription ? 'subscription' : 'payment',
    items,
    payment_link: link.id,
    success_url:
      link.after_completion?.type === 'redirect' ? link.after_completion.redirect.url : null,
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
function reply(ctx: Ctx, out: Obj | Failed, expand?: string[]): Obj | Failed {
  return isFailed(out) ? out : shown(ctx, out, expand);
}

export const checkoutSessionsOps = [
  op({
    id: 'PostCheckoutSessions',
    method: 'POST',
    path: '/v1/checkout/sessions',
    params: createParams,
    run(c, params) {
      expireDueSessions(c);
      const items = params.line_items?.length ? lineItemsOf(c, params.line_items) : [];
      const session = createSession(c, { ...params, items });
      return shown(c.ctx, session, params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessionsSession',
    method: 'GET',
    path: '/v1/checkout/sessions/{session}',
    params: {},
    run(c, params, path) {
      expireDueSessions(c);
      return shown(c.ctx, mustSession(c.ctx, path.session), params.expand);
    },
  }),
  op({
    id: 'PostCheckoutSessionsSession',
    method: 'POST',
    path: '/v1/checkout/sessions/{session}',
    params: {
      metadata: p.metadata(),
      collected_information: p.any(),
      shipping_options: p.any(),
      line_items: p.any(),
    },
    run(c, params, path) {
      expireDueSessions(c);
      const before = mustSession(c.ctx, path.session);
      if (params.line_items !== undefined)
        throw invalidRequest(
          'line_items can only be updated on sessions with ui_mode=elements and adjustable line items.',
          'line_items',
        );
      const after = structuredClone(before);
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      put(c.ctx, 'checkout_sessions', after);
      // Stripe has no `checkout.session.updated` event.
      return shown(c.ctx, after, params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessions',
    method: 'GET',
    path: '/v1/checkout/sessions',
    params: {
      ...listParams,
      status: p.enum('complete', 'expired', 'open'),
      customer: p.string(),
      customer_account: p.string(),
      customer_details: p.obj({ email: p.string().req() }),
      payment_intent: p.string(),
      payment_link: p.string(),
      subscription: p.string(),
    },
    run(c, params) {
      expireDueSessions(c);
      const where: [string, ...string[]][] = [];
      for (const k of [
        'status',
        'customer',
        'payment_intent',
        'payment_link',
        'subscription',
      ] as const) {
        if (params[k]) where.push([`${k} = ?`, params[k]]);
      }
      if (params.customer_details?.email)
        where.push([
          "json_extract(data, '$.customer_details.email') = ?",
          params.customer_details.email,
        ]);
      return listPage(c.ctx, 'checkout_sessions', params, {
        url: '/v1/checkout/sessions',
        what: 'checkout.session',
        where,
        map: (o) => shown(c.ctx, o),
      });
    },
  }),
  op({
    id: 'PostCheckoutSessionsSessionExpire',
    method: 'POST',
    path: '/v1/checkout/sessions/{session}/expire',
    params: {},
    run(c, params, path) {
      expireDueSessions(c);
      const session = mustSession(c.ctx, path.session);
      if (session.status !== 'open')
        throw invalidRequest(
          `Only Checkout Sessions with a status in ["open"] can be expired. This session has a status of ${session.status}.`,
          'session',
        );
      return shown(c.ctx, expire(c, session), params.expand);
    },
  }),
  op({
    id: 'GetCheckoutSessionsSessionLineItems',
    method: 'GET',
    path: '/v1/checkout/sessions/{session}/line_items',
    params: listParams,
    run(c, params, path) {
      const session = mustSession(c.ctx, path.session);
      return nestedPage(storedItems(c.ctx, session), params, lineItemsUrl(session.id), 'line item');
    },
  }),
  op({
    id: 'PostTestHelpersCheckoutSessionsSessionComplete',
    method: 'POST',
    path: '/v1/test_helpers/checkout/sessions/{session}/complete',
    params: completeParams,
    run(c, params, path) {
      expireDueSessions(c);
      const session = mustSession(c.ctx, path.session);
      return reply(c.ctx, completeSession(c, session, params), params.expand);
    },
  }),
  op({
    id: 'PostTestHelpersPaymentLinksPaymentLinkComplete',
    method: 'POST',
    path: '/v1/test_helpers/payment_links/{payment_link}/complete',
    params: completeParams,
    run(c, params, path) {
      expireDueSessions(c);
      const session = sessionFromLink(c, mustPaymentLink(c.ctx, path.payment_link));
      return reply(c.ctx, completeSession(c, session, params), params.expand);
    },
  }),
];
