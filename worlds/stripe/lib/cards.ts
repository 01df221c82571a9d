/**
 * Legacy card objects (`card_…`): a card token's `card` and a customer's card source. A card source is stored as the
 * payment method it also is (Stripe lets a `card_…` id stand wherever a payment method goes), so charges, payment
 * intents and invoices use it as they use a `pm_…`; `cardView` answers it as the `card` object the Tokens and
 * customer sources endpoints return.
 */
import type { Obj } from './store.ts';

const BRAND: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The `card` object of a card payment method `pm` (a token's card has no customer). */
export function cardView(pm: Obj, id: string = pm.id): Obj {
  const card = pm.card ?? {};
  const address = pm.billing_details?.address ?? {};
  const check = (v: unknown): string | null => (v === undefined ? null : (v as string | null));
  return {
    id,
    object: 'card',
    address_city: address.city ?? null,
    address_country: address.country ?? null,
    address_line1: address.line1 ?? null,
    address_line1_check: address.line1 ? 'pass' : null,
    address_line2: address.line2 ?? null,
    address_state: address.state ?? null,
    address_zip: address.postal_code ?? null,
    address_zip_check: address.postal_code ? 'pass' : null,
    allow_redisplay: pm.allow_redisplay ?? 'unspecified',
    brand: BRAND[card.brand] ?? 'Unknown',
    country: card.country ?? null,
    customer: pm.customer ?? null,
    cvc_check: check(card.checks?.cvc_check),
    dynamic_last4: null,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    fingerprint: card.fingerprint,
    funding: card.funding,
    last4: card.last4,
    metadata: pm.metadata ?? {},
    name: pm.billing_details?.name ?? null,
    regulated_status: card.regulated_status ?? null,
    tokenization_method: null,
  };
}

/** The card-holder fields of a token's `card[…]` or a source update, as a payment method's billing details. */
export function billingOfCardFields(fields: Obj, current: Obj = {}): Obj {
  const address = { ...(current.address ?? {}) };
  const map: [string, string][] = [
    ['address_city', 'city'],
    ['address_country', 'country'],
    ['address_line1', 'line1'],
    ['address_line2', 'line2'],
    ['address_state', 'state'],
    ['address_zip', 'postal_code'],
  ];
  for (const [from, to] of map) if (fields[from] !== undefined) address[to] = fields[from];
  const out: Obj = { ...current, address };
  if (fields.name !== undefined) out.name = fields.name;
  return out;
}
