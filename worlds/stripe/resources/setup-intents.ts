/**
 * Setup intents: saving a card for later. `requires_payment_method` → (a payment method) `requires_confirmation` →
 * confirm → `succeeded` (the card is attached to the intent's customer and counts as set up) | `requires_action` (a
 * card that wants 3D Secure) | back to `requires_payment_method` with `last_setup_error` (a card that declines);
 * cancel from any of those → `canceled`.
 *
 * There is no browser to finish 3D Secure in, so the world adds a test route, `POST /v1/test_helpers/authenticate/
 * {intent}` with `outcome=succeed|fail`, which does what the customer would have done in the challenge.
 */
import { emit } from '../lib/events.ts';
import {
  StripeError,
  failed,
  invalidRequest,
  resourceMissing,
  type Failed,
} from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import type { SetupIntentLastSetupError, SetupIntentNextAction } from '../lib/objects.ts';
import { listParams, mergeMetadata, p, type OpParams, type ParamValue } from '../lib/params.ts';
import { get, newId, nowSeconds, put, type Stored } from '../lib/store.ts';
import {
  cardOfPaymentMethod,
  declineMessage,
  markSetUp,
  needsAuthentication,
  resolvePaymentMethod,
} from '../lib/test-cards.ts';
import { liveCustomer } from './customers.ts';
import {
  attachPaymentMethod,
  paymentMethodDataParam,
  paymentMethodFromParams,
} from './payment-methods.ts';
import { copyJson } from '../lib/clone.ts';

const USAGES = ['off_session', 'on_session'] as const;

/** Parameters Stripe accepts that only shape flows the world has no counterpart for (mandates, Connect, wallets). */
const accepted = {
  mandate_data: p.any(),
  payment_method_options: p.any(),
  payment_method_configuration: p.string(),
  confirmation_token: p.string(),
  use_stripe_sdk: p.bool(),
};

const createParams = {
  ...accepted,
  allowed_payment_method_types: p.arr(p.string()),
  attach_to_self: p.bool(),
  automatic_payment_methods: p.obj({
    enabled: p.bool().req(),
    allow_redirects: p.enum('always', 'never'),
  }),
  confirm: p.bool(),
  customer: p.string(),
  customer_account: p.string(),
  description: p.string(),
  excluded_payment_method_types: p.arr(p.string()),
  flow_directions: p.arr(p.enum('inbound', 'outbound')),
  metadata: p.metadata(),
  on_behalf_of: p.string(),
  payment_method: p.string(),
  payment_method_data: paymentMethodDataParam,
  payment_method_types: p.arr(p.string()),
  return_url: p.string(),
  single_use: p.any(),
  usage: p.enum(...USAGES),
};

const updateParams = {
  ...accepted,
  allowed_payment_method_types: p.arr(p.string()),
  attach_to_self: p.bool(),
  customer: p.string(),
  customer_account: p.string(),
  description: p.string(),
  excluded_payment_method_types: p.arr(p.string()),
  flow_directions: p.arr(p.enum('inbound', 'outbound')),
  metadata: p.metadata(),
  payment_method: p.string(),
  payment_method_data: paymentMethodDataParam,
  payment_method_types: p.arr(p.string()),
};

const confirmParams = {
  ...accepted,
  allowed_payment_method_types: p.arr(p.string()),
  client_secret: p.string(),
  payment_method: p.string(),
  payment_method_data: paymentMethodDataParam,
  return_url: p.string(),
};

/** The states from which a setup intent can still be changed, confirmed or canceled. */
const OPEN: readonly string[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
];

type SetupIntent = Stored<'setup_intents'>;

/** A setup intent by id, or 404. */
export function getSetupIntent(c: OpContext, id: string, param = 'intent'): SetupIntent {
  const si = get(c.ctx, 'setup_intents', id);
  if (si === undefined) throw resourceMissing('setupintent', id, param);
  return si;
}

/** 400 `setup_intent_unexpected_state`, with the intent as Stripe sends it. */
function stateError(message: string, si: Stored<'setup_intents'>): StripeError {
  return new StripeError(400, {
    type: 'invalid_request_error',
    code: 'setup_intent_unexpected_state',
    message,
    setup_intent: si,
  });
}

const wrongState = (si: Stored<'setup_intents'>, action: string): StripeError =>
  stateError(`You cannot ${action} this SetupIntent because it has a status of ${si.status}.`, si);

/** The payment method named by `payment_method` or built from `payment_method_data`. */
function paymentMethodOf(
  c: OpContext,
  params: {
    payment_method?: string | null;
    payment_method_data?: ParamValue<typeof paymentMethodDataParam> | null;
  },
): Stored<'payment_methods'> | undefined {
  if (params.payment_method && params.payment_method_data)
    throw invalidRequest(
      'You cannot provide both payment_method and payment_method_data.',
      'payment_method_data',
    );
  if (params.payment_method)
    return resolvePaymentMethod(c, params.payment_method, 'payment_method');
  if (params.payment_method_data)
    return paymentMethodFromParams(c, params.payment_method_data, 'payment_method_data');
  return undefined;
}

/** The customer a payment method may be used with: its own, if it has one. */
function checkCustomer(pm: Stored<'payment_methods'>, customer: string | null): void {
  if (pm.customer && customer && pm.customer !== customer) {
    throw invalidRequest(
      `The provided PaymentMethod ${pm.id} is attached to another customer; it cannot be set up for ${customer}.`,
      'payment_method',
    );
  }
}

/** Save `si` and its indexed columns. */
const save = (c: OpContext, si: SetupIntent): SetupIntent => put(c.ctx, 'setup_intents', si);

/** The setup succeeded: the card is attached to the intent's customer and marked as set up for future use. */
function succeed(c: OpContext, si: SetupIntent, pm: Stored<'payment_methods'>): SetupIntent {
  if (si.customer) attachPaymentMethod(c, pm, liveCustomer(c.ctx, si.customer), 'customer');
  markSetUp(c, pm.id);
  const out = {
    ...si,
    status: 'succeeded' as const,
    next_action: null,
    last_setup_error: null,
    payment_method: pm.id,
  };
  save(c, out);
  emit(c, 'setup_intent.succeeded', out);
  return out;
}

/** The setup failed: back to `requires_payment_method`, with the error kept on the intent. */
function fail(
  c: OpContext,
  si: Stored<'setup_intents'>,
  pm: Stored<'payment_methods'>,
  error: Omit<SetupIntentLastSetupError, 'payment_method'>,
): SetupIntent {
  const out = {
    ...si,
    status: 'requires_payment_method' as const,
    next_action: null,
    payment_method: null,
    last_setup_error: { ...error, payment_method: pm },
  };
  save(c, out);
  emit(c, 'setup_intent.setup_failed', out);
  return out;
}

/** What the customer is asked to do for 3D Secure: a redirect when there is a `return_url`, else Stripe.js. */
function authenticationAction(
  c: OpContext,
  si: Stored<'setup_intents'>,
  returnUrl: string | null | undefined,
): SetupIntentNextAction {
  const source = newId(c.ctx, 'src_');
  if (returnUrl)
    return {
      type: 'redirect_to_url',
      redirect_to_url: {
        return_url: returnUrl,
        url: `https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_world&setup_intent=${si.id}&source=${source}`,
      },
    };
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: {
      source,
      stripe_js: `https://hooks.stripe.com/redirect/authenticate/${source}`,
      type: 'three_d_secure_redirect',
    },
  };
}

/**
 * Confirm `si` with `pm`: a card that declines fails the setup (402, the failed intent kept), one that wants 3D
 * Secure asks for it, any other succeeds.
 */
function confirm(
  c: OpContext,
  si: Stored<'setup_intents'>,
  pm: Stored<'payment_methods'>,
  returnUrl: string | null | undefined,
): SetupIntent | Failed {
  checkCustomer(pm, si.customer);
  const card = cardOfPaymentMethod(pm);
  const base = { ...si, payment_method: pm.id, last_setup_error: null };
  if (card?.attachDecline && card.decline) {
    const error = {
      type: 'card_error' as const,
      code: card.decline.code,
      ...(card.decline.decline_code ? { decline_code: card.decline.decline_code } : {}),
      message: declineMessage(card.decline.code, card.decline.decline_code),
      doc_url: `https://stripe.com/docs/error-codes/${card.decline.code.replace(/_/g, '-')}`,
    };
    const out = fail(c, base, pm, error);
    return failed(402, {
      ...error,
      payment_method: pm,
      setup_intent: out,
    });
  }
  if (needsAuthentication(c, pm)) {
    const out = {
      ...base,
      status: 'requires_action' as const,
      next_action: authenticationAction(c, si, returnUrl),
    };
    save(c, out);
    emit(c, 'setup_intent.requires_action', out);
    return out;
  }
  return succeed(c, base, pm);
}

/**
 * The outcome of 3D Secure for an intent in `requires_action`, as if the customer had passed (`succeed`) or failed
 * (`fail`) the challenge. Setup intents are handled here; another intent type registers its own handler in
 * `authenticationHandlers` under its `object` (payment intents: `authenticationHandlers.payment_intent = …`), and
 * the test route reaches it through this function.
 */
export function completeAuthentication(
  c: OpContext,
  intent: SetupIntent,
  outcome: 'succeed' | 'fail',
): SetupIntent;
export function completeAuthentication(
  c: OpContext,
  intent: AuthenticatedIntent,
  outcome: 'succeed' | 'fail',
): object;
export function completeAuthentication(
  c: OpContext,
  intent: AuthenticatedIntent,
  outcome: 'succeed' | 'fail',
): object {
  if (intent.object !== 'setup_intent') {
    const handler = authenticationHandlers[intent.object];
    if (!handler)
      throw invalidRequest(`Authentication cannot be completed for a ${intent.object}.`, 'intent');
    return handler(c, intent, outcome);
  }
  if (intent.status !== 'requires_action') throw wrongState(intent, 'authenticate');
  const pm = intent.payment_method
    ? get(c.ctx, 'payment_methods', intent.payment_method)
    : undefined;
  if (pm === undefined)
    throw resourceMissing('PaymentMethod', String(intent.payment_method), 'payment_method');
  if (outcome === 'succeed') return succeed(c, intent, pm);
  return fail(c, intent, pm, {
    type: 'invalid_request_error',
    code: 'setup_intent_authentication_failure',
    message:
      'The latest attempt to set up the payment method has failed because authentication failed.',
    doc_url: 'https://stripe.com/docs/error-codes/setup-intent-authentication-failure',
  });
}

/** The intents 3D Secure is completed for. */
type AuthenticatedIntent = SetupIntent | Stored<'payment_intents'>;

/** Handlers for `completeAuthentication` by intent `object`, for intents other than setup intents. */
export const authenticationHandlers: {
  payment_intent?: (
    c: OpContext,
    intent: Stored<'payment_intents'>,
    outcome: 'succeed' | 'fail',
  ) => object;
} = {};

/**
 * `allowed_payment_method_types` (2026-09-30 on; `payment_method_types` before, accepted too), `payment_method_types`
 * and `automatic_payment_methods` from the parameters: cards, whichever way asked.
 */
function methodTypes(params: {
  allowed_payment_method_types?: string[] | null;
  payment_method_types?: string[] | null;
  automatic_payment_methods?: ParamValue<(typeof createParams)['automatic_payment_methods']> | null;
}): Pick<
  SetupIntent,
  'allowed_payment_method_types' | 'automatic_payment_methods' | 'payment_method_types'
> {
  const given: string[] | null | undefined = params.allowed_payment_method_types?.length
    ? params.allowed_payment_method_types
    : params.payment_method_types?.length
      ? params.payment_method_types
      : undefined;
  const param = params.allowed_payment_method_types?.length
    ? 'allowed_payment_method_types'
    : 'payment_method_types';
  if (given) {
    const other = given.find((t) => t !== 'card');
    if (other)
      throw invalidRequest(
        `The payment method type "${other}" is not available in this test-mode account; use "card".`,
        param,
        'payment_method_unactivated',
      );
    if (params.automatic_payment_methods?.enabled)
      throw invalidRequest(
        `You may only specify one of these parameters: automatic_payment_methods, ${param}.`,
        'automatic_payment_methods',
      );
    return {
      // Every type given is card (checked above).
      allowed_payment_method_types: given as 'card'[],
      automatic_payment_methods: null,
      payment_method_types: given,
    };
  }
  if (params.automatic_payment_methods && params.automatic_payment_methods.enabled === false)
    return {
      allowed_payment_method_types: null,
      automatic_payment_methods: { enabled: false },
      payment_method_types: ['card'],
    };
  return {
    allowed_payment_method_types: null,
    automatic_payment_methods: {
      allow_redirects: params.automatic_payment_methods?.allow_redirects ?? 'always',
      enabled: true,
    },
    payment_method_types: ['card'],
  };
}

/** `excluded_payment_method_types` as given: Stripe checks each type against its list, the world keeps any. */
function excludedTypes(
  given: string[] | null | undefined,
): SetupIntent['excluded_payment_method_types'] {
  return given?.length
    ? (given as NonNullable<SetupIntent['excluded_payment_method_types']>)
    : null;
}

const listSetupIntentsParams = {
  ...listParams,
  customer: p.string(),
  payment_method: p.string(),
  attach_to_self: p.bool(),
  customer_account: p.string(),
};
const cancelParams = {
  cancellation_reason: p.enum('abandoned', 'duplicate', 'requested_by_customer'),
};
const verifyParams = {
  amounts: p.arr(p.int()),
  descriptor_code: p.string(),
  client_secret: p.string(),
};
const authenticateParams = { outcome: p.enum('succeed', 'fail').req() };

export const setupIntentsOps = [
  op({
    id: 'PostSetupIntents',
    method: 'POST',
    path: '/v1/setup_intents',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      const ctx = c.ctx;
      const customer = params.customer ? liveCustomer(ctx, params.customer).id : null;
      if (params.return_url && !params.confirm)
        throw invalidRequest('You can only pass in return_url when confirm is true.', 'return_url');
      const pm = paymentMethodOf(c, params);
      if (pm) checkCustomer(pm, customer);
      const id = newId(ctx, 'seti_');
      const si: Stored<'setup_intents'> = {
        id,
        object: 'setup_intent',
        application: null,
        ...methodTypes(params),
        cancellation_reason: null,
        client_secret: `${id}_secret_${ctx.ids.token('', 32)}`,
        created: nowSeconds(ctx),
        customer,
        description: params.description ?? null,
        excluded_payment_method_types: excludedTypes(params.excluded_payment_method_types),
        flow_directions: params.flow_directions?.length ? params.flow_directions : null,
        last_setup_error: null,
        latest_attempt: null,
        livemode: false,
        mandate: null,
        metadata: mergeMetadata({}, params.metadata ?? undefined),
        next_action: null,
        on_behalf_of: params.on_behalf_of ?? null,
        payment_method: pm?.id ?? null,
        payment_method_configuration_details: null,
        payment_method_options: {
          card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
        },
        single_use_mandate: null,
        status: pm ? 'requires_confirmation' : 'requires_payment_method',
        usage: params.usage ?? 'off_session',
      };
      save(c, si);
      emit(c, 'setup_intent.created', si);
      if (!params.confirm) return si;
      if (!pm) throw missingPaymentMethod(si);
      return confirm(c, si, pm, params.return_url);
    },
  }),
  op({
    id: 'GetSetupIntentsIntent',
    method: 'GET',
    path: '/v1/setup_intents/{intent}',
    params: { client_secret: p.string() },
    run(c, params: OpParams<{ client_secret: ReturnType<typeof p.string> }>, path) {
      const si = getSetupIntent(c, path.intent);
      if (params.client_secret && params.client_secret !== si.client_secret)
        throw invalidRequest(
          'The client_secret provided does not match the client_secret associated with the SetupIntent.',
          'client_secret',
        );
      return si;
    },
  }),
  op({
    id: 'PostSetupIntentsIntent',
    method: 'POST',
    path: '/v1/setup_intents/{intent}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = getSetupIntent(c, path.intent);
      if (!OPEN.includes(before.status)) throw wrongState(before, 'update');
      const after = copyJson(before);
      if (params.customer !== undefined) {
        if (before.customer && params.customer !== before.customer)
          throw invalidRequest(
            'You cannot change the customer of a SetupIntent once it is set.',
            'customer',
          );
        after.customer = params.customer === null ? null : liveCustomer(c.ctx, params.customer).id;
      }
      if (params.description !== undefined) after.description = params.description;
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(after.metadata ?? {}, params.metadata);
      if (params.flow_directions !== undefined)
        after.flow_directions = params.flow_directions?.length ? params.flow_directions : null;
      if (params.excluded_payment_method_types !== undefined)
        after.excluded_payment_method_types = excludedTypes(params.excluded_payment_method_types);
      if (params.allowed_payment_method_types?.length || params.payment_method_types?.length)
        Object.assign(
          after,
          methodTypes({
            allowed_payment_method_types: params.allowed_payment_method_types,
            payment_method_types: params.payment_method_types,
          }),
        );
      const pm = paymentMethodOf(c, params);
      if (pm) {
        checkCustomer(pm, after.customer);
        after.payment_method = pm.id;
        after.status = 'requires_confirmation';
        after.next_action = null;
      } else if (params.payment_method === null) {
        after.payment_method = null;
        after.status = 'requires_payment_method';
        after.next_action = null;
      }
      save(c, after);
      // Stripe has no `setup_intent.updated` event.
      return after;
    },
  }),
  op({
    id: 'GetSetupIntents',
    method: 'GET',
    path: '/v1/setup_intents',
    params: listSetupIntentsParams,
    run(c, params: OpParams<typeof listSetupIntentsParams>) {
      const where: [string, ...string[]][] = [];
      if (params.customer) where.push(['customer = ?', params.customer]);
      if (params.payment_method) where.push(['payment_method = ?', params.payment_method]);
      return listPage(c.ctx, 'setup_intents', params, {
        url: '/v1/setup_intents',
        what: 'setupintent',
        where,
      });
    },
  }),
  op({
    id: 'PostSetupIntentsIntentConfirm',
    method: 'POST',
    path: '/v1/setup_intents/{intent}/confirm',
    params: confirmParams,
    run(c, params: OpParams<typeof confirmParams>, path) {
      const si = getSetupIntent(c, path.intent);
      if (params.client_secret && params.client_secret !== si.client_secret)
        throw invalidRequest(
          'The client_secret provided does not match the client_secret associated with the SetupIntent.',
          'client_secret',
        );
      if (!OPEN.includes(si.status)) throw wrongState(si, 'confirm');
      if (params.allowed_payment_method_types?.length)
        methodTypes({ allowed_payment_method_types: params.allowed_payment_method_types });
      const given = paymentMethodOf(c, params);
      const pm =
        given ?? (si.payment_method ? get(c.ctx, 'payment_methods', si.payment_method) : undefined);
      if (!pm) throw missingPaymentMethod(si);
      return confirm(c, si, pm, params.return_url);
    },
  }),
  op({
    id: 'PostSetupIntentsIntentCancel',
    method: 'POST',
    path: '/v1/setup_intents/{intent}/cancel',
    params: cancelParams,
    run(c, params: OpParams<typeof cancelParams>, path) {
      const si = getSetupIntent(c, path.intent);
      if (!OPEN.includes(si.status)) throw wrongState(si, 'cancel');
      const out: SetupIntent = {
        ...si,
        status: 'canceled',
        cancellation_reason: params.cancellation_reason ?? null,
        next_action: null,
      };
      save(c, out);
      emit(c, 'setup_intent.canceled', out);
      return out;
    },
  }),
  op({
    id: 'PostSetupIntentsIntentVerifyMicrodeposits',
    method: 'POST',
    path: '/v1/setup_intents/{intent}/verify_microdeposits',
    params: verifyParams,
    run(c, params: OpParams<typeof verifyParams>, path) {
      const si = getSetupIntent(c, path.intent);
      if (params.amounts === undefined && params.descriptor_code === undefined)
        throw invalidRequest(
          'You must provide either amounts or descriptor_code to verify microdeposits.',
          'amounts',
          'parameter_missing',
        );
      if (params.amounts && params.amounts.length !== 2)
        throw invalidRequest(
          'You must provide exactly two amounts to verify microdeposits.',
          'amounts',
        );
      // Only bank accounts are verified with microdeposits, and the world's setup intents save cards.
      if (si.status !== 'requires_action' || si.next_action?.type !== 'verify_with_microdeposits') {
        throw stateError(
          `This SetupIntent is not awaiting microdeposit verification; its status is ${si.status}.`,
          si,
        );
      }
      return si;
    },
  }),
  op({
    // World-only: the customer's answer to a 3D Secure challenge, since no browser can give it (see the header).
    id: 'PostTestHelpersAuthenticate',
    method: 'POST',
    path: '/v1/test_helpers/authenticate/{intent}',
    params: authenticateParams,
    run(c, params: OpParams<typeof authenticateParams>, path) {
      const table = path.intent.startsWith('seti_')
        ? 'setup_intents'
        : path.intent.startsWith('pi_')
          ? 'payment_intents'
          : undefined;
      const intent = table ? get(c.ctx, table, path.intent) : undefined;
      if (!intent)
        throw resourceMissing(
          table === 'payment_intents' ? 'payment_intent' : 'setupintent',
          path.intent,
          'intent',
        );
      return completeAuthentication(c, intent, params.outcome);
    },
  }),
];

/** 400 when a confirm has no payment method to confirm with. */
function missingPaymentMethod(si: Stored<'setup_intents'>): StripeError {
  return stateError(
    "You cannot confirm this SetupIntent because it's missing a payment method. You can either update the SetupIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
    si,
  );
}
