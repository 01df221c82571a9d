/**
 * Opening a checkout session: how one is shown, found and expired, and the checks and writes of a new open session.
 */
import { NO_ADDRESS } from '../lib/cards.ts';
import type { Ctx } from 'seahaven';
import { emit } from '../lib/events.ts';
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listOf } from '../lib/list.ts';
import { type OpContext } from '../lib/op.ts';
import type {
  Address,
  CheckoutSession,
  CheckoutSessionCustomerDetails,
  LineitemsLineItem,
} from '../lib/objects.ts';
import { mergeMetadata, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, rows, type Stored } from '../lib/store.ts';
import { checkAmount } from './charges.ts';
import { liveCustomer } from './customers.ts';
import { hasRecurring, withoutLineItems } from './payment-links.ts';
import { HOUR, PRIVATE, UI_MODE_RENAMED, type createParams } from './checkout-session-params.ts';

type Session = Stored<'checkout_sessions'>;

/** A session as Stripe shows it: without what only its completion reads, `line_items` only when asked for. */
export function shown(ctx: Ctx, session: Session, expand?: string[] | null): CheckoutSession {
  const out: Session = withoutLineItems(ctx, session, expand, lineItemsUrl(session.id));
  for (const k of PRIVATE) delete out[k];
  return out;
}

export const lineItemsUrl = (id: string) => `/v1/checkout/sessions/${id}/line_items`;

/** A session by id, or 404. */
export function mustSession(ctx: Ctx, id: string, param = 'session'): Session {
  const s = get(ctx, 'checkout_sessions', id);
  if (!s) throw resourceMissing('checkout.session', id, param);
  return s;
}

/** Expire the open sessions whose `expires_at` the world clock has passed. */
export function expireDueSessions(c: OpContext): void {
  const now = nowSeconds(c.ctx);
  for (const s of rows(c.ctx, 'checkout_sessions', 'status = ?', ['open'], true)) {
    if (s.expires_at <= now) expire(c, s);
  }
}

export function expire(c: OpContext, session: Session): Session {
  const after: Session = { ...session, status: 'expired' };
  put(c.ctx, 'checkout_sessions', after);
  emit(c, 'checkout.session.expired', shown(c.ctx, after));
  return after;
}

export function checkUrl(url: string | null | undefined, param: string): void {
  if (url && !/^https?:\/\/\S+$/.test(url))
    throw invalidRequest('Not a valid URL', param, 'url_invalid');
}

/** What a new session is made of: the checked create parameters, or a payment link's settings. */
export type SessionInput = Omit<Partial<OpParams<typeof createParams>>, 'mode' | 'line_items'> & {
  mode: CheckoutSession['mode'];
  items: LineitemsLineItem[];
  payment_link?: string | null;
};

/** Check, store and announce a new open session. */
export function createSession(c: OpContext, input: SessionInput): Session {
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
  const given = input.ui_mode;
  const uiMode =
    given === 'custom' || given === 'embedded' || given === 'hosted'
      ? UI_MODE_RENAMED[given]
      : (given ?? 'hosted_page');
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
    const other = input.payment_method_types.find((t) => t !== 'card');
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
  const session: Session = {
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
    // Stored as given: Stripe checks a locale against its list, the world takes any.
    locale: (input.locale ?? null) as CheckoutSession['locale'],
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
export function detailsOf(
  email: string | null,
  from?: {
    address?: Partial<Address> | null;
    name?: string | null;
    phone?: string | null;
    tax_exempt?: CheckoutSessionCustomerDetails['tax_exempt'];
  } | null,
): CheckoutSessionCustomerDetails {
  return {
    address: from?.address ? { ...NO_ADDRESS, ...from.address } : null,
    business_name: null,
    email,
    individual_name: null,
    name: from?.name ?? null,
    phone: from?.phone ?? null,
    tax_exempt: from?.tax_exempt ?? 'none',
    tax_ids: [],
  };
}
