/**
 * The operations table of docs/stripe.md: every operation of reference/operations.json (then those of
 * `BEYOND_REFERENCE`) with its HTTP method and
 * path, its stripe-node method, and the test files that call that method (found by its call text, `.customers.create(`,
 * in worlds/stripe/test/*.test.ts). The table sits between `<!-- operations:begin -->` and `<!-- operations:end -->`;
 * operations-table.test.ts fails when it is stale. Regenerate it with `npx tsx worlds/stripe/test/operations-table.ts`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REFERENCE = fileURLToPath(new URL('../reference/operations.json', import.meta.url));
const TESTS = fileURLToPath(new URL('.', import.meta.url));
export const DOCS = fileURLToPath(new URL('../../../docs/stripe.md', import.meta.url));

export const BEGIN = '<!-- operations:begin -->';
export const END = '<!-- operations:end -->';
export const REGENERATE = 'npx tsx worlds/stripe/test/operations-table.ts';

interface Reference {
  table: string;
  method: string;
  path: string;
  operationId: string;
  sdk: string;
}

/**
 * Stripe operations served beyond the reference list, with their paths and methods as stripe-node 23 calls them:
 * webhook endpoints (resources/webhook-endpoints.ts), tax IDs (resources/tax-ids.ts) and test clocks
 * (billing/test-clocks.ts). They follow the reference rows in the table.
 */
const WEBHOOK_ENDPOINT_ROWS: Reference[] = [
  ['POST', '/v1/webhook_endpoints', 'PostWebhookEndpoints', 'stripe.webhookEndpoints.create'],
  ['GET', '/v1/webhook_endpoints', 'GetWebhookEndpoints', 'stripe.webhookEndpoints.list'],
  [
    'GET',
    '/v1/webhook_endpoints/{webhook_endpoint}',
    'GetWebhookEndpointsWebhookEndpoint',
    'stripe.webhookEndpoints.retrieve',
  ],
  [
    'POST',
    '/v1/webhook_endpoints/{webhook_endpoint}',
    'PostWebhookEndpointsWebhookEndpoint',
    'stripe.webhookEndpoints.update',
  ],
  [
    'DELETE',
    '/v1/webhook_endpoints/{webhook_endpoint}',
    'DeleteWebhookEndpointsWebhookEndpoint',
    'stripe.webhookEndpoints.del',
  ],
  [
    'POST',
    '/v1/test_helpers/test_clocks',
    'PostTestHelpersTestClocks',
    'stripe.testHelpers.testClocks.create',
  ],
  [
    'GET',
    '/v1/test_helpers/test_clocks',
    'GetTestHelpersTestClocks',
    'stripe.testHelpers.testClocks.list',
  ],
  [
    'GET',
    '/v1/test_helpers/test_clocks/{test_clock}',
    'GetTestHelpersTestClocksTestClock',
    'stripe.testHelpers.testClocks.retrieve',
  ],
  [
    'DELETE',
    '/v1/test_helpers/test_clocks/{test_clock}',
    'DeleteTestHelpersTestClocksTestClock',
    'stripe.testHelpers.testClocks.del',
  ],
  [
    'POST',
    '/v1/test_helpers/test_clocks/{test_clock}/advance',
    'PostTestHelpersTestClocksTestClockAdvance',
    'stripe.testHelpers.testClocks.advance',
  ],
].map(([method, path, operationId, sdk]) => ({
  table: operationId.includes('TestClock') ? 'test_clocks' : 'webhook_endpoints',
  method,
  path,
  operationId,
  sdk,
}));

const TAX_ID_ROWS: Reference[] = [
  [
    'POST',
    '/v1/customers/{customer}/tax_ids',
    'PostCustomersCustomerTaxIds',
    'stripe.customers.createTaxId',
  ],
  [
    'GET',
    '/v1/customers/{customer}/tax_ids',
    'GetCustomersCustomerTaxIds',
    'stripe.customers.listTaxIds',
  ],
  [
    'GET',
    '/v1/customers/{customer}/tax_ids/{id}',
    'GetCustomersCustomerTaxIdsId',
    'stripe.customers.retrieveTaxId',
  ],
  [
    'DELETE',
    '/v1/customers/{customer}/tax_ids/{id}',
    'DeleteCustomersCustomerTaxIdsId',
    'stripe.customers.deleteTaxId',
  ],
  ['POST', '/v1/tax_ids', 'PostTaxIds', 'stripe.taxIds.create'],
  ['GET', '/v1/tax_ids', 'GetTaxIds', 'stripe.taxIds.list'],
  ['GET', '/v1/tax_ids/{id}', 'GetTaxIdsId', 'stripe.taxIds.retrieve'],
  ['DELETE', '/v1/tax_ids/{id}', 'DeleteTaxIdsId', 'stripe.taxIds.del'],
].map(([method, path, operationId, sdk]) => ({ table: 'tax_ids', method, path, operationId, sdk }));

/** The SDK method of an operation stripe-node has none for, which tests call by its path. */
const RAW_REQUEST = 'stripe.rawRequest';

/**
 * Whether a test's text drives an operation through the SDK: calls its stripe-node method (`.customers.create(`), or,
 * for an operation without one, `rawRequest` with its method and path (`.rawRequest('GET', \`/v1/customers/${id}/cards\``).
 */
export function drives(text: string, o: { method: string; path: string; sdk: string }): boolean {
  if (o.sdk !== RAW_REQUEST) return text.includes(`${o.sdk.replace(/^stripe/, '')}(`);
  const path = o.path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\/]/g, '\\$&'))
    .join('\\$\\{[^}]+\\}');
  return new RegExp(`\\.rawRequest\\(\\s*'${o.method}',\\s*\`${path}\``).test(text);
}

/** Card tokens (resources/tokens.ts) and customer card sources (resources/sources.ts and its /cards paths). */
const CARD_ROWS: Reference[] = [
  ['POST', '/v1/tokens', 'PostTokens', 'stripe.tokens.create', 'tokens'],
  ['GET', '/v1/tokens/{token}', 'GetTokensToken', 'stripe.tokens.retrieve', 'tokens'],
  [
    'POST',
    '/v1/customers/{customer}/sources',
    'PostCustomersCustomerSources',
    'stripe.customers.createSource',
    'payment_methods',
  ],
  [
    'GET',
    '/v1/customers/{customer}/sources',
    'GetCustomersCustomerSources',
    'stripe.customers.listSources',
    'payment_methods',
  ],
  [
    'GET',
    '/v1/customers/{customer}/sources/{id}',
    'GetCustomersCustomerSourcesId',
    'stripe.customers.retrieveSource',
    'payment_methods',
  ],
  [
    'POST',
    '/v1/customers/{customer}/sources/{id}',
    'PostCustomersCustomerSourcesId',
    'stripe.customers.updateSource',
    'payment_methods',
  ],
  [
    'DELETE',
    '/v1/customers/{customer}/sources/{id}',
    'DeleteCustomersCustomerSourcesId',
    'stripe.customers.deleteSource',
    'payment_methods',
  ],
  // stripe-node has no methods for /cards: tests call these paths with the SDK's rawRequest.
  ...[
    ['POST', '/v1/customers/{customer}/cards', 'PostCustomersCustomerCards'],
    ['GET', '/v1/customers/{customer}/cards', 'GetCustomersCustomerCards'],
    ['GET', '/v1/customers/{customer}/cards/{id}', 'GetCustomersCustomerCardsId'],
    ['POST', '/v1/customers/{customer}/cards/{id}', 'PostCustomersCustomerCardsId'],
    ['DELETE', '/v1/customers/{customer}/cards/{id}', 'DeleteCustomersCustomerCardsId'],
  ].map((row) => [...row, RAW_REQUEST, 'payment_methods']),
].map(([method, path, operationId, sdk, table]) => ({ table, method, path, operationId, sdk }));

/** A customer's subscriptions under the customer (billing/subscriptions.ts), as older clients list them. */
const CUSTOMER_SUBSCRIPTION_ROWS: Reference[] = [
  ['GET', '/v1/customers/{customer}/subscriptions', 'GetCustomersCustomerSubscriptions'],
  [
    'GET',
    '/v1/customers/{customer}/subscriptions/{subscription_exposed_id}',
    'GetCustomersCustomerSubscriptionsSubscriptionExposedId',
  ],
].map(([method, path, operationId]) => ({
  table: 'subscriptions',
  method,
  path,
  operationId,
  sdk: RAW_REQUEST,
}));

export const BEYOND_REFERENCE: Reference[] = [
  ...WEBHOOK_ENDPOINT_ROWS,
  ...TAX_ID_ROWS,
  ...CARD_ROWS,
  ...CUSTOMER_SUBSCRIPTION_ROWS,
];

/** Each test file's text, calls split across lines joined (`s.customers\n  .create(` reads `s.customers.create(`). */
function testTexts(): [string, string][] {
  return readdirSync(TESTS)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => [f, readFileSync(TESTS + f, 'utf8').replace(/\s+(?=\.)/g, '')]);
}

/** The table's markdown, from the reference list and the tests as they are now. */
export function generateTable(): string {
  const ops = [
    ...(JSON.parse(readFileSync(REFERENCE, 'utf8')) as Reference[]),
    ...BEYOND_REFERENCE,
  ];
  const texts = testTexts();
  const rows = ops.map((o) => {
    const files = texts.filter(([, text]) => drives(text, o)).map(([f]) => `\`${f}\``);
    return `| \`${o.operationId}\` | \`${o.method} ${o.path}\` | \`${o.sdk}\` | ${files.length ? files.join(', ') : '—'} |`;
  });
  return ['| Operation | HTTP | SDK method | Tested in |', '|---|---|---|---|', ...rows].join('\n');
}

/** The table as docs/stripe.md has it now (between the markers), or undefined without them. */
export function documentedTable(text = readFileSync(DOCS, 'utf8')): string | undefined {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from) return undefined;
  return text.slice(from + BEGIN.length, to).trim();
}

/** docs/stripe.md with the table between the markers replaced by `table`. */
export function withTable(text: string, table: string): string {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from)
    throw new Error(`docs/stripe.md has no ${BEGIN} … ${END} markers for the operations table`);
  return `${text.slice(0, from + BEGIN.length)}\n${table}\n${text.slice(to)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const table = generateTable();
  writeFileSync(DOCS, withTable(readFileSync(DOCS, 'utf8'), table));
  console.log(`wrote ${table.split('\n').length - 2} operations to docs/stripe.md`);
}
