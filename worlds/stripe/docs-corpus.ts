/**
 * The documentation `search_stripe_documentation` answers from. The world has no network, so a short bundled set of
 * notes stands in for Stripe's docs search: each entry names its topic, the words it should match, and a few sentences
 * written for this world about the objects and flows an agent meets here.
 */

export interface DocEntry {
  title: string;
  /** `guide` for flows, `api` for notes on a single object or endpoint. */
  kind: 'guide' | 'api';
  keywords: readonly string[];
  text: string;
}

export const DOCS: readonly DocEntry[] = [
  {
    title: 'Customers',
    kind: 'api',
    keywords: ['customer', 'customers', 'email', 'cus', 'create', 'delete'],
    text: 'A customer (id cus_…) holds a person or business you bill: name, email, metadata, a default payment method and a credit balance. Create one with POST /v1/customers; list with GET /v1/customers, filtering by exact email; search with GET /v1/customers/search.',
  },
  {
    title: 'Products and prices',
    kind: 'api',
    keywords: [
      'product',
      'products',
      'price',
      'prices',
      'catalog',
      'recurring',
      'unit_amount',
      'currency',
    ],
    text: 'A product (prod_…) is what you sell; a price (price_…) says how much and how often. unit_amount is in the smallest currency unit (cents for usd). Give a price `recurring[interval]` to make it usable in subscriptions; without it the price is one-time.',
  },
  {
    title: 'Accepting a payment with PaymentIntents',
    kind: 'guide',
    keywords: [
      'payment',
      'payments',
      'paymentintent',
      'intent',
      'intents',
      'confirm',
      'capture',
      'charge',
      'card',
      'pay',
    ],
    text: 'Create a PaymentIntent (pi_…) with amount and currency, attach a payment method, then confirm it. A successful confirmation creates a charge (ch_…) and a balance transaction. With capture_method=manual the intent waits in requires_capture until you capture it. Test cards like pm_card_visa succeed; pm_card_chargeDeclined is declined.',
  },
  {
    title: 'Refunds',
    kind: 'guide',
    keywords: ['refund', 'refunds', 'return', 'money', 'back', 'partial', 'reason'],
    text: 'Refund a succeeded payment with POST /v1/refunds and a payment_intent or charge. Leave amount out to refund what remains; pass a smaller amount for a partial refund. reason may be duplicate, fraudulent or requested_by_customer. A charge cannot be refunded beyond its captured amount.',
  },
  {
    title: 'Disputes',
    kind: 'guide',
    keywords: ['dispute', 'disputes', 'chargeback', 'evidence', 'submit', 'close'],
    text: 'A dispute (du_…) opens when a cardholder contests a charge; the amount is withdrawn from your balance. Add evidence with POST /v1/disputes/{dispute} and set submit=true to send it; until then evidence can be changed. Closing a dispute accepts the loss.',
  },
  {
    title: 'Invoices',
    kind: 'guide',
    keywords: [
      'invoice',
      'invoices',
      'finalize',
      'draft',
      'send',
      'due',
      'items',
      'invoiceitem',
      'bill',
    ],
    text: 'An invoice (in_…) starts as a draft. Add invoice items (ii_…) for a customer and attach them to the draft, then finalize it: it gets a number and a hosted_invoice_url and becomes open. With collection_method=send_invoice the customer pays by the due date (days_until_due); with charge_automatically the default payment method is charged.',
  },
  {
    title: 'Subscriptions',
    kind: 'guide',
    keywords: [
      'subscription',
      'subscriptions',
      'recurring',
      'trial',
      'cancel',
      'upgrade',
      'downgrade',
      'proration',
      'items',
      'renew',
    ],
    text: "A subscription (sub_…) bills a customer for recurring prices through its items (si_…). Changing an item's price or quantity prorates by default; proration_behavior=none skips that, always_invoice bills the difference at once. Cancelling ends the subscription now; cancel_at_period_end lets it run to the end of the period.",
  },
  {
    title: 'Coupons and promotion codes',
    kind: 'api',
    keywords: ['coupon', 'coupons', 'discount', 'promotion', 'promo', 'code', 'percent', 'off'],
    text: 'A coupon takes either percent_off or amount_off (with a currency) and a duration: once, repeating (with duration_in_months) or forever. A promotion code (promo_…) is a customer-facing code for a coupon. Apply either to invoices, subscriptions or checkout.',
  },
  {
    title: 'Payment links and Checkout',
    kind: 'guide',
    keywords: ['payment', 'link', 'links', 'checkout', 'session', 'url', 'redirect', 'hosted'],
    text: "A payment link (plink_…) is a shareable URL that opens a Checkout page for fixed line items. after_completion can redirect to your own URL. A Checkout Session (cs_…) is one buyer's visit; completing it creates the payment and, for recurring prices, a subscription.",
  },
  {
    title: 'Balance and payouts',
    kind: 'api',
    keywords: [
      'balance',
      'available',
      'pending',
      'payout',
      'payouts',
      'transaction',
      'transactions',
      'fees',
    ],
    text: 'The balance shows funds available and pending per currency. Each charge, refund and dispute leaves a balance transaction (txn_…) with its fee and net. A payout (po_…) moves available funds to the bank account and can be cancelled while pending.',
  },
  {
    title: 'Search query language',
    kind: 'api',
    keywords: ['search', 'query', 'find', 'filter', 'metadata', 'status', 'email'],
    text: 'Search endpoints take a query such as email:"jane@example.com", status:"succeeded" AND amount>1000, or metadata["order"]:"42". Clauses combine with AND or OR (not both); ~ matches a substring. Results come newest first with a next_page token.',
  },
  {
    title: 'Errors',
    kind: 'api',
    keywords: ['error', 'errors', 'declined', 'invalid', 'missing', 'idempotency', 'retry'],
    text: 'Failed requests return an error with a type (invalid_request_error, card_error…), a code such as resource_missing or parameter_missing, and the param at fault. A declined card is a card_error with a decline_code. Retrying a POST with the same Idempotency-Key returns the first result.',
  },
  {
    title: 'Events',
    kind: 'api',
    keywords: ['event', 'events', 'webhook', 'webhooks', 'notification', 'evt'],
    text: 'Every change writes an event (evt_…) such as customer.created or invoice.paid, holding the object as it was. List events with GET /v1/events, filtering by type, to see what happened and in what order.',
  },
];

const STOP = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'how',
  'do',
  'i',
  'is',
  'with',
  'what',
  'can',
  'my',
  'it',
  'be',
]);

/** The words of a text, lower case, without the commonest filler words. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((w) => w !== '' && !STOP.has(w));
}

/** The best entries for a question: keyword hits count three times a word of the text. */
export function searchDocs(question: string, apiOnly = false, max = 3): DocEntry[] {
  const asked = new Set(wordsOf(question));
  const scored = DOCS.filter((d) => !apiOnly || d.kind === 'api').map((d, i) => {
    let score = 0;
    for (const k of d.keywords) if (asked.has(k)) score += 3;
    for (const w of new Set(wordsOf(`${d.title} ${d.text}`))) if (asked.has(w)) score += 1;
    return { d, score, i };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .map((s) => s.d);
}
