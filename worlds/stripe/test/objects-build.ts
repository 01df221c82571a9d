/**
 * Print `lib/objects.ts`: a TypeScript interface for every object type Stripe World stores or serves, read off
 * `reference/shapes.json` (Stripe's own example objects with their values emptied), and `Tables`, the object type each
 * resource table of schema.sql holds. A field is typed by its example value: a string, number or boolean as such, an
 * object as its fields, an array by its first element; a field the example leaves `null` (or an empty array) carries
 * no type there and is `unknown`, to be narrowed where it is read. `objects.test.ts` fails when the committed file
 * differs from what this prints. Run `npx tsx worlds/stripe/test/objects-build.ts > worlds/stripe/lib/objects.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';

const HERE = fileURLToPath(new URL('../', import.meta.url));

type Shape = null | boolean | number | string | Shape[] | { [k: string]: Shape };

/** The resource tables (store.ts) and the object type each holds, by its name in shapes.json. */
export const TABLE_OBJECTS = {
  customers: 'customer',
  customer_balance_transactions: 'customer_balance_transaction',
  products: 'product',
  prices: 'price',
  coupons: 'coupon',
  promotion_codes: 'promotion_code',
  tax_rates: 'tax_rate',
  tax_ids: 'tax_id',
  payment_methods: 'payment_method',
  setup_intents: 'setup_intent',
  payment_intents: 'payment_intent',
  charges: 'charge',
  refunds: 'refund',
  disputes: 'dispute',
  balance_transactions: 'balance_transaction',
  payouts: 'payout',
  events: 'event',
  invoices: 'invoice',
  invoice_line_items: 'line_item',
  invoiceitems: 'invoiceitem',
  subscriptions: 'subscription',
  subscription_items: 'subscription_item',
  credit_notes: 'credit_note',
  payment_links: 'payment_link',
  checkout_sessions: 'checkout.session',
  invoice_payments: 'invoice_payment',
  webhook_endpoints: 'webhook_endpoint',
  webhook_deliveries: 'test_helpers.webhook_delivery',
} as const;

/**
 * Objects Stripe World serves that Stripe has no example of (world-only routes under `/v1/test_helpers/`), in the
 * form shapes.json gives Stripe's: a webhook delivery and its attempts (resources/webhook-endpoints.ts).
 */
const WORLD_SHAPES: Record<string, { [k: string]: Shape }> = {
  'test_helpers.webhook_delivery': {
    id: '',
    object: '',
    created: 0,
    event: '',
    event_type: '',
    webhook_endpoint: '',
    url: '',
    target: '',
    status: '',
    attempts: [{ attempted_at: 0, status_code: null, error: null }],
    next_attempt: null,
    livemode: false,
  },
};

/** `checkout.session` → `CheckoutSession`, `line_item` → `LineItem`. */
export function interfaceName(type: string): string {
  return type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function typeOf(shape: Shape, key: string, indent: string): string {
  if (shape === null) return 'unknown';
  if (Array.isArray(shape)) {
    if (shape.length === 0) return 'unknown[]';
    const element = typeOf(shape[0], key, indent);
    return /^[A-Za-z]+$/.test(element) ? `${element}[]` : `Array<${element}>`;
  }
  if (typeof shape === 'object') {
    const entries = Object.entries(shape);
    // An empty example object is a map: metadata's values are strings, anything else is not known.
    if (entries.length === 0)
      return key === 'metadata' ? 'Record<string, string>' : 'Record<string, unknown>';
    return fieldsOf(shape, indent);
  }
  return typeof shape;
}

function fieldsOf(shape: { [k: string]: Shape }, indent: string): string {
  const inner = `${indent}  `;
  const lines = Object.entries(shape).map(
    ([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${typeOf(v, k, inner)};`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** The source of `lib/objects.ts`, formatted as the repository formats TypeScript. */
export async function objectsSource(): Promise<string> {
  const shapes = {
    ...(JSON.parse(readFileSync(HERE + 'reference/shapes.json', 'utf8')) as Record<
      string,
      { [k: string]: Shape }
    >),
    ...WORLD_SHAPES,
  };
  const parts = [
    '/**',
    ' * The objects Stripe World stores and serves, as TypeScript interfaces: generated from reference/shapes.json',
    " * (Stripe's example objects) by test/objects-build.ts; do not edit by hand. A field Stripe's example leaves",
    ' * `null` is `unknown` here. `Tables` says which object each resource table holds.',
    ' */',
  ];
  for (const [type, shape] of Object.entries(shapes)) {
    parts.push(`\n/** Stripe's \`${type}\` object. */`);
    parts.push(`export interface ${interfaceName(type)} ${fieldsOf(shape, '')}`);
  }
  parts.push('\n/** The object type each resource table holds in its `data` column. */');
  parts.push('export interface Tables {');
  for (const [table, type] of Object.entries(TABLE_OBJECTS)) {
    if (!shapes[type]) throw new Error(`shapes.json has no ${type}, which table ${table} holds`);
    parts.push(`  ${table}: ${interfaceName(type)};`);
  }
  parts.push('}');
  const config = (await prettier.resolveConfig(HERE + 'lib/objects.ts')) ?? {};
  return prettier.format(parts.join('\n') + '\n', { ...config, filepath: HERE + 'lib/objects.ts' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(await objectsSource());
}
