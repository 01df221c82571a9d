/**
 * Payment methods: cards only (test mode knows no real card network). Created from a test token (`card[token]`), a
 * test card number (`card[number]`), or named directly as `pm_card_visa` wherever an id is accepted (lib/test-cards.ts);
 * attached to and detached from customers; listed overall and per customer.
 */
import { NO_ADDRESS } from '../lib/cards.ts';
import { changedAttributes, emit } from '../lib/events.ts';
import { StripeError, invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op, type OpContext } from '../lib/op.ts';
import type { PaymentMethodBillingDetails } from '../lib/objects.ts';
import {
  listParams,
  mergeMetadata,
  p,
  type OpParams,
  type ParamsOf,
  type ParamValue,
} from '../lib/params.ts';
import { get, nowSeconds, put, type Stored } from '../lib/store.ts';
import {
  billingDetails,
  cardError,
  cardFor,
  cardOfPaymentMethod,
  luhnValid,
  paymentMethodFromCard,
  resolvePaymentMethod,
} from '../lib/test-cards.ts';
import { liveCustomer } from '../lib/customer-lookup.ts';
import { copyJson } from '../lib/clone.ts';

const address = p.obj({
  city: p.string(),
  country: p.string(),
  line1: p.string(),
  line2: p.string(),
  postal_code: p.string(),
  state: p.string(),
});
export const billingDetailsParam = p.obj({
  address,
  email: p.string(),
  name: p.string(),
  phone: p.string(),
  tax_id: p.string(),
});
export const cardParam = p.obj({
  token: p.string(),
  number: p.string(),
  exp_month: p.int(),
  exp_year: p.int(),
  cvc: p.string(),
  networks: p.obj({ preferred: p.string() }),
});

/** The types Stripe's create accepts; the world has cards only and says so for the rest. */
const PAYMENT_METHOD_TYPES = [
  'acss_debit',
  'affirm',
  'afterpay_clearpay',
  'alipay',
  'alma',
  'amazon_pay',
  'au_becs_debit',
  'bacs_debit',
  'bancontact',
  'billie',
  'blik',
  'boleto',
  'card',
  'cashapp',
  'crypto',
  'customer_balance',
  'eps',
  'fpx',
  'giropay',
  'grabpay',
  'ideal',
  'kakao_pay',
  'klarna',
  'konbini',
  'kr_card',
  'link',
  'mobilepay',
  'multibanco',
  'naver_pay',
  'nz_bank_account',
  'oxxo',
  'p24',
  'pay_by_bank',
  'payco',
  'paynow',
  'paypal',
  'pix',
  'promptpay',
  'revolut_pay',
  'samsung_pay',
  'satispay',
  'sepa_debit',
  'sofort',
  'swish',
  'twint',
  'us_bank_account',
  'wechat_pay',
  'zip',
];

/** The fields `payment_method_data` (setup and payment intents) shares with create. */
export const paymentMethodDataParam = p.obj({
  type: p.string().req(),
  card: cardParam,
  billing_details: billingDetailsParam,
  metadata: p.metadata(),
  allow_redisplay: p.enum('always', 'limited', 'unspecified'),
});

const createParams = {
  type: p.string(),
  card: cardParam,
  billing_details: billingDetailsParam,
  metadata: p.metadata(),
  allow_redisplay: p.enum('always', 'limited', 'unspecified'),
  customer: p.string(),
  payment_method: p.string(),
  radar_options: p.obj({ session: p.string() }),
  customer_account: p.string(),
};

/** What a new card is made from: create's parameters, or an intent's `payment_method_data`. */
type PaymentMethodInput = Pick<
  ParamsOf<typeof createParams>,
  'type' | 'card' | 'billing_details' | 'metadata' | 'allow_redisplay'
>;

const cleanMetadata = (
  m: Record<string, string | null> | null | undefined,
): Record<string, string> => mergeMetadata({}, m ?? undefined);

/**
 * A new card payment method from create's parameters (`type`, `card`, `billing_details`, …). `prefix` names the
 * parameters in errors (`payment_method_data` when an intent creates it).
 */
export function paymentMethodFromParams(
  c: OpContext,
  params: PaymentMethodInput,
  prefix = '',
): Stored<'payment_methods'> {
  const name = (k: string) => (prefix ? prefix + k.replace(/^(\w+)/, '[$1]') : k);
  const type = params.type;
  if (!type) throw parameterMissing(name('type'));
  if (!PAYMENT_METHOD_TYPES.includes(type))
    throw invalidRequest(
      `Invalid ${name('type')}: must be one of ${PAYMENT_METHOD_TYPES.join(', ')}`,
      name('type'),
      'parameter_invalid_string',
    );
  if (type !== 'card')
    throw invalidRequest(
      `The payment method type "${type}" is not available in this test-mode account; use type "card".`,
      name('type'),
      'payment_method_unactivated',
    );
  const card = params.card;
  if (!card) throw parameterMissing(name('card'));
  const options = {
    metadata: cleanMetadata(params.metadata),
    allow_redisplay: params.allow_redisplay ?? undefined,
  };
  if (card.token) {
    if (card.number)
      throw invalidRequest(
        'You cannot provide both card[token] and card[number].',
        name('card[token]'),
      );
    const found = cardFor(card.token);
    if (!found || !/^(tok_|pm_card_)/.test(card.token))
      throw resourceMissing('token', card.token, name('card[token]'));
    return paymentMethodFromCard(c, found, params.billing_details, options);
  }
  if (!card.number) throw parameterMissing(name('card[number]'));
  const number = String(card.number).replace(/[\s-]/g, '');
  const found = cardFor(number);
  if (!luhnValid(number) || found?.incorrectNumber)
    throw cardError('incorrect_number', undefined, { param: name('card[number]') });
  if (card.exp_month === undefined || card.exp_month === null)
    throw parameterMissing(name('card[exp_month]'));
  if (card.exp_year === undefined || card.exp_year === null)
    throw parameterMissing(name('card[exp_year]'));
  if (card.exp_month < 1 || card.exp_month > 12)
    throw new StripeError(402, {
      type: 'card_error',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
      param: name('card[exp_month]'),
    });
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const now = new Date(nowSeconds(c.ctx) * 1000);
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || year > thisYear + 50)
    throw new StripeError(402, {
      type: 'card_error',
      code: 'invalid_expiry_year',
      message: "Your card's expiration year is invalid.",
      param: name('card[exp_year]'),
    });
  if (year === thisYear && card.exp_month < now.getUTCMonth() + 1)
    throw new StripeError(402, {
      type: 'card_error',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
      param: name('card[exp_month]'),
    });
  if (card.cvc !== undefined && card.cvc !== null && !/^\d{3,4}$/.test(card.cvc))
    throw new StripeError(402, {
      type: 'card_error',
      code: 'invalid_cvc',
      message: "Your card's security code is invalid.",
      param: name('card[cvc]'),
    });
  if (!found) {
    throw new StripeError(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'test_mode_live_card',
      message:
        'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
      param: name('card[number]'),
    });
  }
  return paymentMethodFromCard(c, found, params.billing_details, {
    ...options,
    exp_month: card.exp_month,
    exp_year: year,
    cvcGiven: card.cvc !== undefined && card.cvc !== null,
  });
}

/** A stored payment method by id (no test tokens: reads never create objects), or 404. */
export function getPaymentMethod(
  c: OpContext,
  id: string,
  param = 'payment_method',
): Stored<'payment_methods'> {
  const pm = get(c.ctx, 'payment_methods', id);
  if (pm === undefined) throw resourceMissing('PaymentMethod', id, param);
  return pm;
}

/**
 * Attach `pm` to `customer` and say so (`payment_method.attached`). A card whose charges are declined cannot be
 * attached: attaching verifies the card, so the decline comes now (402, nothing kept). Attaching to its own customer
 * again is a no-op; to another customer is refused.
 */
export function attachPaymentMethod(
  c: OpContext,
  pm: Stored<'payment_methods'>,
  customer: Stored<'customers'>,
  param = 'customer',
): Stored<'payment_methods'> {
  if (pm.customer === customer.id) return pm;
  if (pm.customer)
    throw invalidRequest(
      'The payment method you provided has already been attached to a customer.',
      param,
      'payment_method_unexpected_state',
    );
  const card = cardOfPaymentMethod(pm);
  if (card?.attachDecline && card.decline)
    throw cardError(card.decline.code, card.decline.decline_code, { payment_method: pm });
  const after = { ...pm, customer: customer.id };
  put(c.ctx, 'payment_methods', after);
  emit(c, 'payment_method.attached', after);
  return after;
}

/** The parameters create and update of a payment method apply to billing details. */
function mergeBilling(
  current: PaymentMethodBillingDetails,
  update: ParamValue<typeof billingDetailsParam> | null | undefined,
): PaymentMethodBillingDetails {
  if (update === undefined) return current;
  if (update === null) return billingDetails(null);
  const out = { ...current };
  for (const k of ['email', 'name', 'phone', 'tax_id'] as const)
    if (update[k] !== undefined) out[k] = update[k];
  if (update.address !== undefined)
    out.address =
      update.address === null
        ? billingDetails(null).address
        : // Every stored billing address is whole (billingDetails); one that is not starts empty.
          { ...(current.address ?? NO_ADDRESS), ...update.address };
  return out;
}

const customerPaymentMethodsList = {
  ...listParams,
  type: p.string(),
  allow_redisplay: p.enum('always', 'limited', 'unspecified'),
};

const updateParams = {
  billing_details: billingDetailsParam,
  metadata: p.metadata(),
  allow_redisplay: p.enum('always', 'limited', 'unspecified'),
  card: p.obj({
    exp_month: p.int(),
    exp_year: p.int(),
    networks: p.obj({ preferred: p.string() }),
  }),
  payto: p.any(),
  us_bank_account: p.any(),
};
const listMethodsParams = {
  ...listParams,
  customer: p.string(),
  type: p.string(),
  allow_redisplay: p.enum('always', 'limited', 'unspecified'),
  customer_account: p.string(),
};
const attachParams = { customer: p.string().req(), customer_account: p.string() };

export const paymentMethodsOps = [
  op({
    id: 'PostPaymentMethods',
    method: 'POST',
    path: '/v1/payment_methods',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      if (params.payment_method) {
        // Cloning a customer's payment method (Stripe's Connect flow): the card again, with no customer.
        const source = resolvePaymentMethod(c, params.payment_method, 'payment_method');
        if (params.customer) {
          liveCustomer(c.ctx, params.customer);
          if (source.customer && source.customer !== params.customer)
            throw resourceMissing('PaymentMethod', params.payment_method, 'payment_method');
        }
        const card = cardOfPaymentMethod(source);
        if (!card)
          throw invalidRequest('Only card payment methods can be cloned here.', 'payment_method');
        return paymentMethodFromCard(c, card, params.billing_details ?? source.billing_details, {
          exp_month: source.card?.exp_month,
          exp_year: source.card?.exp_year,
          metadata: cleanMetadata(params.metadata),
          allow_redisplay: params.allow_redisplay ?? undefined,
        });
      }
      if (params.customer)
        throw invalidRequest(
          'A customer can only be given together with a payment_method to clone; to save a card for a customer, create it and then attach it.',
          'customer',
        );
      return paymentMethodFromParams(c, params);
    },
  }),
  op({
    id: 'GetPaymentMethodsPaymentMethod',
    method: 'GET',
    path: '/v1/payment_methods/{payment_method}',
    params: {},
    run: (c, _params: OpParams, path) => getPaymentMethod(c, path.payment_method),
  }),
  op({
    id: 'PostPaymentMethodsPaymentMethod',
    method: 'POST',
    path: '/v1/payment_methods/{payment_method}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = getPaymentMethod(c, path.payment_method);
      // Stripe lets only a saved payment method change.
      if (!before.customer)
        throw invalidRequest(
          'You must save this PaymentMethod to a customer before you can update it.',
          'payment_method',
          'payment_method_unexpected_state',
        );
      const after = copyJson(before);
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(after.metadata ?? {}, params.metadata);
      if (params.allow_redisplay !== undefined)
        after.allow_redisplay = params.allow_redisplay ?? 'unspecified';
      after.billing_details = mergeBilling(after.billing_details, params.billing_details);
      if (params.card) {
        // Every payment method the world makes is a card.
        const card = after.card;
        if (!card) throw new Error(`payment method ${after.id} has no card details`);
        if (params.card.exp_month !== undefined && params.card.exp_month !== null) {
          if (params.card.exp_month < 1 || params.card.exp_month > 12)
            throw new StripeError(402, {
              type: 'card_error',
              code: 'invalid_expiry_month',
              message: "Your card's expiration month is invalid.",
              param: 'card[exp_month]',
            });
          card.exp_month = params.card.exp_month;
        }
        if (params.card.exp_year !== undefined && params.card.exp_year !== null) {
          const year =
            params.card.exp_year < 100 ? 2000 + params.card.exp_year : params.card.exp_year;
          if (year < new Date(nowSeconds(c.ctx) * 1000).getUTCFullYear())
            throw new StripeError(402, {
              type: 'card_error',
              code: 'invalid_expiry_year',
              message: "Your card's expiration year is invalid.",
              param: 'card[exp_year]',
            });
          card.exp_year = year;
        }
        if (params.card.networks !== undefined)
          // A stored card lists its networks (paymentMethodFromCard); one that does not starts with none.
          card.networks = {
            available: [],
            ...card.networks,
            preferred: params.card.networks?.preferred ?? null,
          };
      }
      if (params.payto !== undefined || params.us_bank_account !== undefined)
        throw invalidRequest(
          'This payment method is a card; only card details can be updated.',
          params.payto !== undefined ? 'payto' : 'us_bank_account',
        );
      put(c.ctx, 'payment_methods', after);
      const changed = changedAttributes(before, after);
      if (Object.keys(changed).length > 0) emit(c, 'payment_method.updated', after, changed);
      return after;
    },
  }),
  op({
    id: 'GetPaymentMethods',
    method: 'GET',
    path: '/v1/payment_methods',
    params: listMethodsParams,
    run(c, params: OpParams<typeof listMethodsParams>) {
      const where: [string, ...string[]][] = [];
      if (params.customer) {
        liveCustomer(c.ctx, params.customer);
        where.push(['customer = ?', params.customer]);
      }
      if (params.type) where.push(['type = ?', params.type]);
      if (params.allow_redisplay)
        where.push(["json_extract(data, '$.allow_redisplay') = ?", params.allow_redisplay]);
      return listPage(c.ctx, 'payment_methods', params, {
        url: '/v1/payment_methods',
        what: 'PaymentMethod',
        where,
      });
    },
  }),
  op({
    id: 'PostPaymentMethodsPaymentMethodAttach',
    method: 'POST',
    path: '/v1/payment_methods/{payment_method}/attach',
    params: attachParams,
    run(c, params: OpParams<typeof attachParams>, path) {
      const customer = liveCustomer(c.ctx, params.customer);
      // `pm_card_visa` attaches a fresh payment method made from the test card.
      const pm = resolvePaymentMethod(c, path.payment_method, 'payment_method');
      return attachPaymentMethod(c, pm, customer);
    },
  }),
  op({
    id: 'PostPaymentMethodsPaymentMethodDetach',
    method: 'POST',
    path: '/v1/payment_methods/{payment_method}/detach',
    params: {},
    run(c, _params: OpParams, path) {
      const before = getPaymentMethod(c, path.payment_method);
      if (!before.customer)
        throw invalidRequest(
          'The payment method you provided is not attached to a customer so detachment is impossible.',
          'payment_method',
          'payment_method_unexpected_state',
        );
      const after = { ...before, customer: null };
      put(c.ctx, 'payment_methods', after);
      // A customer's default payment method goes with it.
      const customer = get(c.ctx, 'customers', before.customer);
      if (
        customer &&
        !customer.deleted &&
        customer.invoice_settings?.default_payment_method === before.id
      ) {
        const updated = {
          ...customer,
          invoice_settings: { ...customer.invoice_settings, default_payment_method: null },
        };
        put(c.ctx, 'customers', updated);
        emit(c, 'customer.updated', updated, { invoice_settings: customer.invoice_settings });
      }
      emit(c, 'payment_method.detached', after, { customer: before.customer });
      return after;
    },
  }),
  op({
    id: 'GetCustomersCustomerPaymentMethods',
    method: 'GET',
    path: '/v1/customers/{customer}/payment_methods',
    params: customerPaymentMethodsList,
    run(c, params: OpParams<typeof customerPaymentMethodsList>, path) {
      liveCustomer(c.ctx, path.customer);
      const where: [string, ...string[]][] = [['customer = ?', path.customer]];
      if (params.type) where.push(['type = ?', params.type]);
      if (params.allow_redisplay)
        where.push(["json_extract(data, '$.allow_redisplay') = ?", params.allow_redisplay]);
      return listPage(c.ctx, 'payment_methods', params, {
        url: `/v1/customers/${path.customer}/payment_methods`,
        what: 'PaymentMethod',
        where,
      });
    },
  }),
  op({
    id: 'GetCustomersCustomerPaymentMethodsPaymentMethod',
    method: 'GET',
    path: '/v1/customers/{customer}/payment_methods/{payment_method}',
    params: {},
    run(c, _params: OpParams, path) {
      liveCustomer(c.ctx, path.customer);
      const pm = get(c.ctx, 'payment_methods', path.payment_method);
      if (pm === undefined || pm.customer !== path.customer)
        throw resourceMissing('PaymentMethod', path.payment_method, 'payment_method');
      return pm;
    },
  }),
];
