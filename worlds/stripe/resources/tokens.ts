/**
 * Card tokens (`POST /v1/tokens`, `GET /v1/tokens/{token}`): what Stripe.js makes from a card form, with the
 * publishable key (face.ts lets `pk_test_…` create one, in the Authorization header or as the body's `key`). The
 * card is checked as a payment method's is (a test card number, a future expiry, a CVC of 3 or 4 digits); the token
 * holds it until it is used once, as a customer's source (sources.ts). Test tokens such as `tok_visa` need no
 * creating: they name a card wherever a token goes.
 */
import type { Ctx } from 'seahaven';
import { billingOfCardFields, cardView } from '../lib/cards.ts';
import { invalidRequest, parameterMissing, resourceMissing } from '../lib/errors.ts';
import { op, type OpContext } from '../lib/op.ts';
import type { Card } from '../lib/objects.ts';
import { p, type OpParams, type ParamValue } from '../lib/params.ts';
import { newId, nowSeconds, remove, type Stored } from '../lib/store.ts';
import { billingDetails } from '../lib/test-cards.ts';
import { paymentMethodFromParams } from './payment-methods.ts';

/** A card's fields besides its number and expiry, as a token's `card[…]` and a source's card dictionary give them. */
export const cardDetailFields = {
  cvc: p.string(),
  currency: p.string(),
  name: p.string(),
  address_city: p.string(),
  address_country: p.string(),
  address_line1: p.string(),
  address_line2: p.string(),
  address_state: p.string(),
  address_zip: p.string(),
};

const tokenCardParam = p.obj({
  number: p.string(),
  exp_month: p.int(),
  exp_year: p.int(),
  ...cardDetailFields,
  networks: p.obj({ preferred: p.string() }),
});

/** What the tokens table keeps: the token as Stripe answers it, and the payment method its card becomes. */
interface TokenRow {
  token: Token;
  payment_method: Stored<'payment_methods'>;
}

/** A card token as Stripe answers it. */
interface Token {
  id: string;
  object: 'token';
  card: Card;
  client_ip: null;
  created: number;
  livemode: false;
  type: 'card';
  used: boolean;
}

/** A created token's row, if `id` is one. */
export function getTokenRow(ctx: Ctx, id: string): TokenRow | undefined {
  const row = ctx.db.one('SELECT data FROM tokens WHERE id = ?', id) as
    { data: string } | undefined;
  return row ? (JSON.parse(row.data) as TokenRow) : undefined;
}

/** Mark a token used (a token works once). */
export function useToken(ctx: Ctx, row: TokenRow): void {
  const after: TokenRow = { ...row, token: { ...row.token, used: true } };
  ctx.db.run('UPDATE tokens SET data = ? WHERE id = ?', JSON.stringify(after), row.token.id);
}

/** The card fields a token's `card[…]` or a source's card dictionary gives. */
type CardFields = ParamValue<typeof tokenCardParam>;

/**
 * The card payment method (with a `card_…` id, not stored) that card fields make: `number`, `exp_month`, `exp_year`,
 * `cvc` and the `name` and `address_…` fields. The card is checked exactly as a payment method's is (the same errors,
 * on `card[…]`).
 */
export function cardOfFields(c: OpContext, card: CardFields): Stored<'payment_methods'> {
  const pm = paymentMethodFromParams(c, {
    type: 'card',
    card: {
      number: card.number,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      cvc: card.cvc,
    },
    billing_details: billingOfCardFields(card, billingDetails(null)),
  });
  remove(c.ctx, 'payment_methods', pm.id);
  return { ...pm, id: newId(c.ctx, 'card_'), created: nowSeconds(c.ctx) };
}

function createCardToken(c: OpContext, card: CardFields): Token {
  // The token keeps the card, not a payment method of its own.
  const payment_method = cardOfFields(c, card);
  const created = payment_method.created;
  const token: Token = {
    id: newId(c.ctx, 'tok_'),
    object: 'token',
    card: cardView(payment_method),
    client_ip: null,
    created,
    livemode: false,
    type: 'card',
    used: false,
  };
  c.ctx.db.run(
    'INSERT INTO tokens (id, created, data) VALUES (?, ?, ?)',
    token.id,
    created,
    JSON.stringify({ token, payment_method } satisfies TokenRow),
  );
  return token;
}

const createParams = {
  card: tokenCardParam,
  customer: p.string(),
  bank_account: p.any(),
  pii: p.any(),
  account: p.any(),
  person: p.any(),
  cvc_update: p.any(),
};

export const tokensOps = [
  op({
    id: 'PostTokens',
    method: 'POST',
    path: '/v1/tokens',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      for (const kind of ['bank_account', 'pii', 'account', 'person', 'cvc_update'] as const)
        if (params[kind] !== undefined)
          throw invalidRequest(
            `Stripe World makes card tokens only; pass card[number], card[exp_month], card[exp_year] and card[cvc] instead of ${kind}.`,
            kind,
          );
      if (params.customer !== undefined)
        throw invalidRequest(
          'Tokens for a customer are made on a connected account; Stripe World has none. Create the token from card[…] instead.',
          'customer',
        );
      if (!params.card) throw parameterMissing('card');
      return createCardToken(c, params.card);
    },
  }),
  op({
    id: 'GetTokensToken',
    method: 'GET',
    path: '/v1/tokens/{token}',
    params: {},
    run(c, _params: OpParams, path) {
      const row = getTokenRow(c.ctx, path.token);
      if (!row) throw resourceMissing('token', path.token, 'token');
      return row.token;
    },
  }),
];
