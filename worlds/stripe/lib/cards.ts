/**
 * Legacy card objects (`card_…`): a card token's `card` and a customer's card source. A card source is stored as the
 * payment method it also is (Stripe lets a `card_…` id stand wherever a payment method goes), so charges, payment
 * intents and invoices use it as they use a `pm_…`; `cardView` answers it as the `card` object the Tokens and
 * customer sources endpoints return.
 */
import type { Address, Card, PaymentMethodBillingDetails } from './objects.ts';
import type { Stored } from './store.ts';

/** The card-holder fields of a token's `card[…]` or a source update (`address_city`, `name`, …). */
export type CardHolderFields = Partial<
  Record<
    | 'name'
    | 'address_city'
    | 'address_country'
    | 'address_line1'
    | 'address_line2'
    | 'address_state'
    | 'address_zip',
    string | null
  >
>;

/** An address with every field present and empty: what Stripe shows for one not given. Spread it to fill one in. */
export const NO_ADDRESS: Readonly<Address> = Object.freeze({
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
});

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
export function cardView(pm: Stored<'payment_methods'>, id: string = pm.id): Card {
  // Every payment method the world makes is a card.
  const card = pm.card;
  if (!card) throw new Error(`payment method ${pm.id} has no card details`);
  const address: Partial<Address> = pm.billing_details?.address ?? {};
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
export function billingOfCardFields(
  fields: CardHolderFields,
  current: PaymentMethodBillingDetails,
): PaymentMethodBillingDetails {
  // A stored billing address is whole (billingDetails); one that is not starts empty.
  const address: Address = { ...(current.address ?? NO_ADDRESS) };
  const map: [keyof CardHolderFields, keyof Address][] = [
    ['address_city', 'city'],
    ['address_country', 'country'],
    ['address_line1', 'line1'],
    ['address_line2', 'line2'],
    ['address_state', 'state'],
    ['address_zip', 'postal_code'],
  ];
  for (const [from, to] of map) {
    const value = fields[from];
    if (value !== undefined) address[to] = value;
  }
  const out: PaymentMethodBillingDetails = { ...current, address };
  if (fields.name !== undefined) out.name = fields.name;
  return out;
}
