/**
 * Stripe's test-mode cards. Agents copy these from Stripe's testing page, so every spelling is recognised wherever a
 * PaymentMethod or token id is accepted: `pm_card_visa`, `tok_visa`, the older `pm_card_chargeDeclined…` forms without
 * `_visa_` (and the `_visa_` forms of those that never had it), and the raw numbers in `card[number]`. A token names a
 * card, not an object: each use materialises a new `pm_…` (`resolvePaymentMethod`), as Stripe does.
 *
 * A card's behaviour (declines, 3D Secure, disputes, refunds, Radar, pending funds) is read off the stored payment
 * method through its fingerprint, which is fixed per card number (`cardOfPaymentMethod`).
 */
import type { Ctx } from 'seahaven';
import { NO_ADDRESS } from './cards.ts';
import { StripeError, resourceMissing } from './errors.ts';
import type { OpContext } from './op.ts';
import type { Address, PaymentMethodBillingDetails, SetupIntentLastSetupError } from './objects.ts';
import { get, newId, nowSeconds, put, type Stored } from './store.ts';
import { copyJson } from './clone.ts';

type PaymentMethod = Stored<'payment_methods'>;

/** `billing_details` as a request or another object gives it: any of its fields, the address in part. */
export interface BillingDetailsGiven {
  address?: Partial<Address> | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  tax_id?: string | null;
}

/** One of Stripe's error codes (a decline's `code`). */
export type ErrorCode = NonNullable<SetupIntentLastSetupError['code']>;

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay';

/** What a test card does besides succeeding. */
export interface CardBehaviour {
  /** Declined on confirm/charge with this error `code` (and `decline_code` for `card_declined`). */
  decline?: { code: ErrorCode; decline_code?: string };
  /** Refuses to be attached to a customer (or set up): the decline comes at attach time. */
  attachDecline?: boolean;
  /** Attaches fine, then every charge declines (`pm_card_chargeCustomerFail`). */
  chargeCustomerFail?: boolean;
  /** 3D Secure: `always`, or `unless_setup` (not once set up for future use, `pm_card_authenticationRequiredOnSetup`). */
  requiresAction?: 'always' | 'unless_setup';
  /** A dispute opens right after a successful charge. */
  dispute?: 'fraudulent' | 'product_not_received' | 'inquiry';
  /** An early fraud warning follows a successful charge (`pm_card_createIssuerFraudRecord`). */
  earlyFraudWarning?: boolean;
  /** Refunds start `pending` (then succeed) or succeed and then fail. */
  refund?: 'pending' | 'fail';
  /** Charge funds are available at once instead of after the pending period. */
  bypassPending?: boolean;
  /** Radar's verdict: `block` always blocks; `highest`/`elevated` set the charge's risk level. */
  radar?: 'block' | 'highest' | 'elevated';
  /** The CVC check fails (`cvc_check: fail`). */
  cvcCheckFail?: boolean;
  /** The number fails the Luhn check: `incorrect_number` when a payment method is created from it. */
  incorrectNumber?: boolean;
}

/** A test card. Its behaviour is both under `behaviour` and spread on the card itself. */
export interface TestCard extends CardBehaviour {
  /** The canonical name, as in `pm_card_<name>` / `tok_<name>`. */
  name: string;
  number: string;
  brand: CardBrand;
  last4: string;
  funding: 'credit' | 'debit' | 'prepaid' | 'unknown';
  country: string;
  exp: { month: number; year: number };
  exp_month: number;
  exp_year: number;
  /** Fixed per card number, like Stripe's per-account fingerprint. */
  fingerprint: string;
  behaviour: CardBehaviour;
}

/** Test cards never expire in the world's lifetime; Stripe accepts any future date. */
const EXP = { month: 12, year: 2034 };

interface Row {
  number: string;
  brand: CardBrand;
  funding?: TestCard['funding'];
  country?: string;
  /** `pm_card_<name>` / `tok_<name>`; the first is canonical. */
  names: string[];
  behaviour?: CardBehaviour;
}

const declined = (code: ErrorCode, decline_code?: string): CardBehaviour => ({
  decline: decline_code ? { code, decline_code } : { code },
  attachDecline: true,
});

const ROWS: Row[] = [
  // Successful cards.
  { number: '4242424242424242', brand: 'visa', names: ['visa', 'us'] },
  { number: '4000056655665556', brand: 'visa', funding: 'debit', names: ['visa_debit'] },
  { number: '5555555555554444', brand: 'mastercard', names: ['mastercard'] },
  { number: '2223003122003222', brand: 'mastercard', names: ['mastercard_2series'] },
  {
    number: '5200828282828210',
    brand: 'mastercard',
    funding: 'debit',
    names: ['mastercard_debit'],
  },
  {
    number: '5105105105105100',
    brand: 'mastercard',
    funding: 'prepaid',
    names: ['mastercard_prepaid'],
  },
  { number: '378282246310005', brand: 'amex', names: ['amex'] },
  { number: '371449635398431', brand: 'amex', names: ['amex_2'] },
  { number: '6011111111111117', brand: 'discover', names: ['discover'] },
  { number: '6011000990139424', brand: 'discover', names: ['discover_2'] },
  { number: '3056930009020004', brand: 'diners', names: ['diners'] },
  { number: '36227206271667', brand: 'diners', names: ['diners_14digits'] },
  { number: '3566002020360505', brand: 'jcb', country: 'JP', names: ['jcb'] },
  { number: '6200000000000005', brand: 'unionpay', country: 'CN', names: ['unionpay'] },
  // Declines: on confirm or charge, and they cannot be attached to a customer.
  {
    number: '4000000000000002',
    brand: 'visa',
    names: ['visa_chargeDeclined', 'chargeDeclined'],
    behaviour: declined('card_declined', 'generic_decline'),
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    names: ['visa_chargeDeclinedInsufficientFunds', 'chargeDeclinedInsufficientFunds'],
    behaviour: declined('card_declined', 'insufficient_funds'),
  },
  {
    number: '4000000000009987',
    brand: 'visa',
    names: ['visa_chargeDeclinedLostCard', 'chargeDeclinedLostCard'],
    behaviour: declined('card_declined', 'lost_card'),
  },
  {
    number: '4000000000009979',
    brand: 'visa',
    names: ['visa_chargeDeclinedStolenCard', 'chargeDeclinedStolenCard'],
    behaviour: declined('card_declined', 'stolen_card'),
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    names: ['chargeDeclinedExpiredCard', 'visa_chargeDeclinedExpiredCard'],
    behaviour: declined('expired_card'),
  },
  {
    number: '4000000000000127',
    brand: 'visa',
    names: ['chargeDeclinedIncorrectCvc', 'visa_chargeDeclinedIncorrectCvc'],
    behaviour: declined('incorrect_cvc'),
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    names: ['chargeDeclinedProcessingError', 'visa_chargeDeclinedProcessingError'],
    behaviour: declined('processing_error'),
  },
  {
    number: '4000000000006975',
    brand: 'visa',
    names: ['visa_chargeDeclinedVelocityLimitExceeded', 'chargeDeclinedVelocityLimitExceeded'],
    behaviour: declined('card_declined', 'card_velocity_exceeded'),
  },
  {
    number: '4000000000000341',
    brand: 'visa',
    names: ['chargeCustomerFail', 'visa_chargeCustomerFail'],
    behaviour: {
      decline: { code: 'card_declined', decline_code: 'generic_decline' },
      chargeCustomerFail: true,
    },
  },
  // Radar. Stripe lists 4100000000000019 both as "always blocked" and as the fraudulent decline: one card.
  {
    number: '4100000000000019',
    brand: 'visa',
    names: ['radarBlock', 'visa_chargeDeclinedFraudulent', 'chargeDeclinedFraudulent'],
    behaviour: { radar: 'block', decline: { code: 'card_declined', decline_code: 'fraudulent' } },
  },
  {
    number: '4000000000004954',
    brand: 'visa',
    names: ['riskLevelHighest'],
    behaviour: { radar: 'highest' },
  },
  {
    number: '4000000000009235',
    brand: 'visa',
    names: ['riskLevelElevated'],
    behaviour: { radar: 'elevated' },
  },
  {
    number: '4000000000000101',
    brand: 'visa',
    names: ['cvcCheckFail'],
    behaviour: { cvcCheckFail: true },
  },
  // 3D Secure.
  {
    number: '4000002760003184',
    brand: 'visa',
    names: ['authenticationRequired'],
    behaviour: { requiresAction: 'always' },
  },
  {
    number: '4000002500003155',
    brand: 'visa',
    names: ['authenticationRequiredOnSetup'],
    behaviour: { requiresAction: 'unless_setup' },
  },
  {
    number: '4000000000003220',
    brand: 'visa',
    names: ['threeDSecure2Required'],
    behaviour: { requiresAction: 'always' },
  },
  {
    number: '4000000000003063',
    brand: 'visa',
    names: ['threeDSecureRequired'],
    behaviour: { requiresAction: 'always' },
  },
  { number: '4000000000003055', brand: 'visa', names: ['threeDSecureOptional'] },
  {
    number: '4000008260003178',
    brand: 'visa',
    names: ['authenticationRequiredChargeDeclinedInsufficientFunds'],
    behaviour: {
      requiresAction: 'always',
      decline: { code: 'card_declined', decline_code: 'insufficient_funds' },
    },
  },
  // Disputes and fraud warnings.
  {
    number: '4000000000000259',
    brand: 'visa',
    names: ['createDispute'],
    behaviour: { dispute: 'fraudulent' },
  },
  {
    number: '4000000000002685',
    brand: 'visa',
    names: ['createDisputeProductNotReceived'],
    behaviour: { dispute: 'product_not_received' },
  },
  {
    number: '4000000000001976',
    brand: 'visa',
    names: ['createDisputeInquiry'],
    behaviour: { dispute: 'inquiry' },
  },
  {
    number: '4000000000005423',
    brand: 'visa',
    names: ['createIssuerFraudRecord'],
    behaviour: { earlyFraudWarning: true },
  },
  // Refunds.
  {
    number: '4000000000007726',
    brand: 'visa',
    names: ['pendingRefund'],
    behaviour: { refund: 'pending' },
  },
  {
    number: '4000000000005126',
    brand: 'visa',
    names: ['refundFail'],
    behaviour: { refund: 'fail' },
  },
  // Available balance.
  {
    number: '4000000000000077',
    brand: 'visa',
    names: ['bypassPending'],
    behaviour: { bypassPending: true },
  },
  {
    number: '4000003720000278',
    brand: 'visa',
    country: 'GB',
    names: ['bypassPendingInternational'],
    behaviour: { bypassPending: true },
  },
  // Fails the Luhn check: only as a number.
  { number: '4242424242424241', brand: 'visa', names: [], behaviour: { incorrectNumber: true } },
];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 16 base-62 characters from the number: the same card always has the same fingerprint. */
function fingerprintOf(number: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  const text = `card:${number}`;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995);
  }
  let out = '';
  for (let i = 0; i < 16; i++) {
    const h = i % 2 === 0 ? a : b;
    out += BASE62[(h >>> 0) % 62];
    a = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + i;
    b = Math.imul(b ^ (b >>> 13), 0x297a2d39) + i;
  }
  return out;
}

function build(row: Row): TestCard {
  const behaviour = { ...(row.behaviour ?? {}) };
  return {
    ...behaviour,
    name: row.names[0] ?? row.number,
    number: row.number,
    brand: row.brand,
    last4: row.number.slice(-4),
    funding: row.funding ?? 'credit',
    country: row.country ?? 'US',
    exp: { ...EXP },
    exp_month: EXP.month,
    exp_year: EXP.year,
    fingerprint: fingerprintOf(row.number),
    behaviour,
  };
}

const BY_KEY = new Map<string, TestCard>();
const BY_FINGERPRINT = new Map<string, TestCard>();
for (const row of ROWS) {
  const card = build(row);
  if (!BY_KEY.has(row.number)) BY_KEY.set(row.number, card);
  BY_FINGERPRINT.set(card.fingerprint, card);
  for (const name of row.names) {
    BY_KEY.set(`pm_card_${name}`, card);
    BY_KEY.set(`tok_${name}`, card);
  }
}

/** Every test token spelling (`pm_card_…`, `tok_…`), for documentation and tests. */
export const TEST_TOKENS: readonly string[] = [...BY_KEY.keys()].filter((k) => !/^\d/.test(k));

/** The test card a token (`pm_card_visa`, `tok_visa`) or a card number (spaces and dashes allowed) names. */
export function cardFor(tokenOrNumber: string): TestCard | undefined {
  const key = /^[\d\s-]+$/.test(tokenOrNumber)
    ? tokenOrNumber.replace(/[\s-]/g, '')
    : tokenOrNumber;
  const card = BY_KEY.get(key);
  return card ? copyJson(card) : undefined;
}

/** Whether a string is a test token rather than an object id (`pm_card_visa` but not `pm_1Abc…`). */
export function isTestToken(id: string): boolean {
  return /^(pm_card_|tok_)/.test(id) && BY_KEY.has(id);
}

/** The test card behind a stored payment method (by its fingerprint), or undefined for non-card methods. */
export function cardOfPaymentMethod(pm: PaymentMethod | null | undefined): TestCard | undefined {
  const fp = pm?.card?.fingerprint;
  const card = typeof fp === 'string' ? BY_FINGERPRINT.get(fp) : undefined;
  return card ? copyJson(card) : undefined;
}

/** The Luhn check card numbers carry. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const DISPLAY_BRAND: Record<CardBrand, string> = {
  visa: 'visa',
  mastercard: 'mastercard',
  amex: 'american_express',
  discover: 'discover',
  diners: 'diners_club',
  jcb: 'jcb',
  unionpay: 'union_pay',
};

/** Stripe's `billing_details`, every field present. */
export function billingDetails(given?: BillingDetailsGiven | null): PaymentMethodBillingDetails {
  const address = { ...NO_ADDRESS, ...given?.address };
  return {
    address,
    email: given?.email ?? null,
    name: given?.name ?? null,
    phone: given?.phone ?? null,
    tax_id: given?.tax_id ?? null,
  };
}

export interface PaymentMethodOptions {
  exp_month?: number;
  exp_year?: number;
  metadata?: Record<string, string>;
  allow_redisplay?: 'always' | 'limited' | 'unspecified';
  /** The CVC was given with the number (`card[cvc]`). */
  cvcGiven?: boolean;
}

const ctxOf = (c: Ctx | OpContext): Ctx =>
  'ctx' in c && (c as OpContext).ctx ? (c as OpContext).ctx : (c as Ctx);

/** A new `pm_…` of type card for `card`, stored and returned (no customer; no event, as Stripe sends none). */
export function paymentMethodFromCard(
  c: Ctx | OpContext,
  card: TestCard,
  billing_details?: BillingDetailsGiven | null,
  options: PaymentMethodOptions = {},
): PaymentMethod {
  const ctx = ctxOf(c);
  const pm: PaymentMethod = {
    id: newId(ctx, 'pm_'),
    object: 'payment_method',
    allow_redisplay: options.allow_redisplay ?? 'unspecified',
    billing_details: billingDetails(billing_details),
    card: {
      brand: card.brand,
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: card.cvcCheckFail ? 'fail' : options.cvcGiven ? 'pass' : 'unchecked',
      },
      country: card.country,
      display_brand: DISPLAY_BRAND[card.brand],
      exp_month: options.exp_month ?? card.exp.month,
      exp_year: options.exp_year ?? card.exp.year,
      fingerprint: card.fingerprint,
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: card.funding === 'debit' ? 'unregulated' : null,
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(ctx),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: options.metadata ?? {},
    type: 'card',
  };
  return put(ctx, 'payment_methods', pm);
}

/**
 * The payment method a parameter names: a stored `pm_…` by id, or a test token (`pm_card_visa`, `tok_visa`)
 * materialised into a new `pm_…` (a new id each time). Anything else is Stripe's 404 on `param`.
 */
export function resolvePaymentMethod(
  c: OpContext,
  idOrToken: string,
  param: string,
): PaymentMethod {
  const card = isTestToken(idOrToken) ? cardFor(idOrToken) : undefined;
  if (card) return paymentMethodFromCard(c, card);
  const pm = get(c.ctx, 'payment_methods', idOrToken);
  if (pm === undefined) throw resourceMissing('PaymentMethod', idOrToken, param);
  return pm;
}

/** The `card_error` a decline answers with (402), for `code` and `decline_code`. */
export function declineMessage(code: string, decline_code?: string): string {
  switch (code) {
    case 'expired_card':
      return 'Your card has expired.';
    case 'incorrect_cvc':
      return "Your card's security code is incorrect.";
    case 'processing_error':
      return 'An error occurred while processing your card. Try again in a little bit.';
    case 'incorrect_number':
      return 'Your card number is incorrect.';
    case 'authentication_required':
      return 'Your card was declined. This transaction requires authentication.';
    default:
      return decline_code === 'insufficient_funds'
        ? 'Your card has insufficient funds.'
        : 'Your card was declined.';
  }
}

/** A thrown 402 `card_error` for a card's decline (nothing the request wrote is kept). */
export function cardError(
  code: string,
  decline_code?: string,
  extra: {
    param?: string;
    payment_method?: PaymentMethod;
    setup_intent?: Stored<'setup_intents'>;
    payment_intent?: Stored<'payment_intents'>;
    charge?: string;
  } = {},
): StripeError {
  return new StripeError(402, {
    type: 'card_error',
    code,
    message: declineMessage(code, decline_code),
    ...(decline_code ? { decline_code } : {}),
    ...extra,
  });
}

/**
 * Payment methods set up for future use (a succeeded setup intent, or a payment with `setup_future_usage`): a card
 * that needs authentication "unless set up" no longer asks for it. Kept in its own table so the object stays Stripe's.
 */
export function markSetUp(c: Ctx | OpContext, paymentMethodId: string): void {
  const ctx = ctxOf(c);
  if (!isSetUp(ctx, paymentMethodId))
    ctx.db.run(
      'INSERT INTO payment_method_setups (payment_method, created) VALUES (?, ?)',
      paymentMethodId,
      nowSeconds(ctx),
    );
}

/** Whether a payment method has been set up for future use. */
export function isSetUp(c: Ctx | OpContext, paymentMethodId: string): boolean {
  return (
    ctxOf(c).db.one(
      'SELECT 1 AS x FROM payment_method_setups WHERE payment_method = ?',
      paymentMethodId,
    ) !== undefined
  );
}

/** Whether confirming with `pm` needs 3D Secure now (by its test card, and whether it was set up). */
export function needsAuthentication(c: Ctx | OpContext, pm: PaymentMethod): boolean {
  const card = cardOfPaymentMethod(pm);
  if (card?.requiresAction === 'always') return true;
  return card?.requiresAction === 'unless_setup' && !isSetUp(c, pm.id);
}
