/**
 * The tools that find things rather than change them: `search_stripe_resources` (Stripe's search syntax, routed by the
 * resource before the first colon), `fetch_stripe_resources` (any object by its id prefix) and
 * `search_stripe_documentation` (the bundled notes).
 */
import { defineTool, ToolError, z } from 'seahaven';
import { toolOp } from './lib/op.ts';
import { searchDocs } from './docs-corpus.ts';
import { byId, placeholders } from './api-tools.ts';
import { argsOf, reads } from './tool-args.ts';

/** Search endpoints by the resource named before the first colon of `search_stripe_resources`'s query. */
const SEARCHES: Record<string, string> = {
  customers: 'GetCustomersSearch',
  charges: 'GetChargesSearch',
  invoices: 'GetInvoicesSearch',
  payment_intents: 'GetPaymentIntentsSearch',
  prices: 'GetPricesSearch',
  products: 'GetProductsSearch',
  subscriptions: 'GetSubscriptionsSearch',
};

/** Retrieve operations by id prefix, for `fetch_stripe_resources`. Longest prefix first, so `cs_test_` wins over shorter ones. */
const FETCHES: readonly (readonly [prefix: string, op: string])[] = (
  [
    ['cus_', 'GetCustomersCustomer'],
    ['pi_', 'GetPaymentIntentsIntent'],
    ['ch_', 'GetChargesCharge'],
    ['py_', 'GetChargesCharge'],
    ['in_', 'GetInvoicesInvoice'],
    ['sub_', 'GetSubscriptionsSubscriptionExposedId'],
    ['prod_', 'GetProductsId'],
    ['price_', 'GetPricesPrice'],
    ['plan_', 'GetPlansPlan'],
    ['re_', 'GetRefundsRefund'],
    ['pyr_', 'GetRefundsRefund'],
    ['du_', 'GetDisputesDispute'],
    ['dp_', 'GetDisputesDispute'],
    ['txn_', 'GetBalanceTransactionsId'],
    ['po_', 'GetPayoutsPayout'],
    ['evt_', 'GetEventsId'],
    ['pm_', 'GetPaymentMethodsPaymentMethod'],
    ['seti_', 'GetSetupIntentsIntent'],
    ['cn_', 'GetCreditNotesId'],
    ['plink_', 'GetPaymentLinksPaymentLink'],
    ['cs_test_', 'GetCheckoutSessionsSession'],
    ['cs_live_', 'GetCheckoutSessionsSession'],
    ['ii_', 'GetInvoiceitemsInvoiceitem'],
    ['si_', 'GetSubscriptionItemsItem'],
    ['promo_', 'GetPromotionCodesPromotionCode'],
    ['txr_', 'GetTaxRatesTaxRate'],
    ['inpay_', 'GetInvoicePaymentsInvoicePayment'],
    ['acct_', 'GetAccountsAccount'],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

export const lookupTools = [
  defineTool({
    name: 'search_stripe_resources',
    annotations: reads('Search objects by query'),
    description: `Search one kind of object with Stripe's search syntax, as "resource:query", like customers:email:"jane@example.com" or payment_intents:status:"succeeded". Resources: ${Object.keys(SEARCHES).join(', ')}.`,
    // Every search operation takes the same `query`; the customers one stands for them all.
    input: argsOf('GetCustomersSearch', {
      query: '"resource:query", the resource before the first colon.',
    }),
    run: (ctx, { query }) => {
      const at = query.indexOf(':');
      const resource = at < 0 ? '' : query.slice(0, at).trim();
      const op = SEARCHES[resource];
      if (!op)
        throw new ToolError(
          'invalid_query',
          `The query must start with a resource and a colon, like customers:email:"jane@example.com"; resources: ${Object.keys(SEARCHES).join(', ')}.`,
        );
      return toolOp(ctx, op, { query: query.slice(at + 1).trim() });
    },
  }),
  defineTool({
    name: 'fetch_stripe_resources',
    annotations: reads('Fetch an object by id'),
    description:
      "Fetch any object by its id; the kind of object is read from the id's prefix (cus_, pi_, ch_, in_, sub_, prod_, price_, re_, du_, …).",
    input: z.object({ id: z.string().min(1).describe('The object id, like cus_… or pi_….') }),
    run: (ctx, { id }) => {
      const hit = FETCHES.find(([prefix]) => id.startsWith(prefix));
      if (!hit)
        throw new ToolError(
          'unknown_id_prefix',
          `Cannot tell what kind of object "${id}" is from its prefix. Known prefixes: ${FETCHES.map(([p]) => p).join(', ')}. For other objects (like coupons) use stripe_api_search and stripe_api_read.`,
        );
      const o = byId.get(hit[1])!;
      const names = placeholders(o.path);
      return toolOp(ctx, o.id, {}, { [names[names.length - 1]]: id });
    },
  }),
  defineTool({
    name: 'search_stripe_documentation',
    annotations: reads('Look up how Stripe works'),
    description:
      'Look up how Stripe objects and flows work (payments, refunds, invoices, subscriptions, search syntax…). Returns short notes.',
    input: z.object({
      question: z.string().min(1).describe('What you want to know, in plain words.'),
      language: z
        .enum(['dotnet', 'go', 'java', 'node', 'php', 'ruby', 'python', 'curl'])
        .optional()
        .describe('The programming language you work in, for code examples.'),
      search_only_api_ref: z
        .boolean()
        .optional()
        .describe('Only notes about single objects and endpoints, not guides.'),
    }),
    run: (_ctx, { question, search_only_api_ref }) => {
      const found = searchDocs(question, search_only_api_ref === true);
      return { results: found.map((d) => ({ title: d.title, content: d.text })) };
    },
  }),
];
