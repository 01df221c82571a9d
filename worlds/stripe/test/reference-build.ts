/**
 * Regenerate the reference facts the tests check against, from Stripe's published material kept beside the
 * repository (`../shared/stripe/`): `operations.json` (the 155 operations: table, method, path, operationId, SDK
 * method) and `shapes.json` (for each object type Stripe World returns, the field names and nesting of Stripe's own
 * example object, with every value replaced by an empty value of its type). Run `npx tsx worlds/stripe/test/reference-build.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('../../../../shared/stripe/', import.meta.url));
const HERE = fileURLToPath(new URL('../reference/', import.meta.url));

/** The object types whose shapes the tests compare. */
export const SHAPE_TYPES = [
  'account',
  'balance',
  'balance_transaction',
  'charge',
  'coupon',
  'customer',
  'customer_balance_transaction',
  'deleted_coupon',
  'deleted_customer',
  'deleted_plan',
  'deleted_product',
  'discount',
  'dispute',
  'event',
  'payment_intent',
  'payment_intent_amount_details_line_item',
  'payment_method',
  'payout',
  'plan',
  'price',
  'product',
  'promotion_code',
  'refund',
  'setup_intent',
  'tax_rate',
  'tax_id',
  'deleted_tax_id',
  'deleted_price',
  // Billing (invoices, subscriptions, credit notes, checkout).
  'invoice',
  'line_item',
  'invoiceitem',
  'deleted_invoice',
  'deleted_invoiceitem',
  'invoice_payment',
  'subscription',
  'subscription_item',
  'deleted_subscription_item',
  'credit_note',
  'credit_note_line_item',
  'payment_link',
  'checkout.session',
  'item',
  // Webhooks.
  'webhook_endpoint',
  'deleted_webhook_endpoint',
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The value's shape: objects and arrays kept (an array's first element only), leaves emptied to their type. */
export function skeleton(v: Json): Json {
  if (v === null) return null;
  if (Array.isArray(v)) return v.length === 0 ? [] : [skeleton(v[0])];
  if (typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, skeleton(x)]));
  if (typeof v === 'string') return '';
  if (typeof v === 'number') return 0;
  return false;
}

export function buildReference(): { operations: unknown[]; shapes: Record<string, Json> } {
  const operations = (
    JSON.parse(readFileSync(SOURCE + 'operations.json', 'utf8')) as Record<string, string>[]
  ).map((r) => ({
    table: r.table,
    method: r.http,
    path: r.path,
    operationId: r.opid,
    sdk: r.sdk,
    mcp: r.mcp || null,
  }));
  const resources = (
    JSON.parse(readFileSync(SOURCE + 'fixtures3.json', 'utf8')) as {
      resources: Record<string, Json>;
    }
  ).resources;
  const shapes = Object.fromEntries(
    SHAPE_TYPES.filter((t) => resources[t] !== undefined).map((t) => [t, skeleton(resources[t])]),
  );
  return { operations, shapes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { operations, shapes } = buildReference();
  writeFileSync(HERE + 'operations.json', JSON.stringify(operations, null, 1) + '\n');
  writeFileSync(HERE + 'shapes.json', JSON.stringify(shapes, null, 1) + '\n');
  console.log(`wrote ${operations.length} operations and ${Object.keys(shapes).length} shapes`);
}
