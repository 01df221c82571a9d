/**
 * The tools agents use: the tool set of Stripe's MCP server, same names and arguments, so an agent trained here meets
 * the same interface there. Each tool runs the same operation as the REST endpoint it stands for (`toolOp`), and
 * answers with the API's JSON body. The four `stripe_api_*` tools reach every operation by its operationId.
 */
import { defineTool, ToolError, z, type Ctx, type ToolAnnotations } from '../../kit/index.ts';
import { toolOp, type StripeOp } from './lib/op.ts';
import type { Spec } from './lib/params.ts';
import { operations } from './operations.ts';
import { searchDocs, wordsOf } from './docs-corpus.ts';

const limit = z
  .number()
  .int()
  .min(1)
  .max(100)
  .optional()
  .describe('How many to return, 1 to 100 (default 10).');

/** Drop unset arguments, so an absent optional argument is absent from the request too. */
function given<T extends Record<string, unknown>>(input: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

const byId = new Map<string, StripeOp>(operations.map((o) => [o.id, o]));

/** The `{name}` placeholders of a path, in order. */
function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** An operation for a generic tool, or an error that sends the agent to `stripe_api_search`. */
function operationFor(id: string, methods: readonly string[], tool: string): StripeOp {
  const o = byId.get(id);
  if (!o)
    throw new ToolError(
      'unknown_operation',
      `Unknown stripe_api_operation_id "${id}". Use stripe_api_search to find the operation you need.`,
    );
  if (!methods.includes(o.method)) {
    const other = o.method === 'GET' ? 'stripe_api_read' : 'stripe_api_write';
    throw new ToolError(
      'wrong_operation_kind',
      `${id} is a ${o.method} operation, which ${tool} does not run; use ${other} instead, or stripe_api_search to find a ${methods.join('/')} operation.`,
    );
  }
  return o;
}

/**
 * Run an operation from generic `parameters`. Path parameters come by their own names, or as `id` for the last one (the
 * object the path names); they are taken out of the parameters. Stripe's own server clamps an out-of-range `limit`
 * rather than refusing it, so this does too.
 */
function runGeneric(ctx: Ctx, o: StripeOp, parameters: Record<string, unknown> = {}): unknown {
  const params = { ...parameters };
  const path: Record<string, string> = {};
  const names = placeholders(o.path);
  names.forEach((name, i) => {
    let v = params[name];
    if (v !== undefined) delete params[name];
    else if (i === names.length - 1 && params.id !== undefined) {
      v = params.id;
      delete params.id;
    }
    if (typeof v !== 'string' || v === '') {
      throw new ToolError(
        'missing_path_parameter',
        `${o.id} needs the path parameter "${name}" (${o.path}); pass it in parameters${i === names.length - 1 ? ' as "id" or' : ' as'} "${name}". Use stripe_api_details to see every parameter.`,
      );
    }
    path[name] = v;
  });
  if (typeof params.limit === 'number')
    params.limit = Math.min(100, Math.max(1, Math.trunc(params.limit)));
  return toolOp(ctx, o.id, params, path);
}

/** A parameter's spec as `stripe_api_details` shows it: its type, whether it is required, and what it holds. */
function describeSpec(s: Spec): Record<string, unknown> {
  const out: Record<string, unknown> = { type: s.kind, required: s.required === true };
  if (s.kind === 'enum') out.values = s.values;
  if (s.kind === 'object')
    out.fields = Object.fromEntries(Object.entries(s.fields).map(([k, f]) => [k, describeSpec(f)]));
  if (s.kind === 'array') out.items = describeSpec(s.item);
  return out;
}

/** The words of an operation for matching: its id split at capitals, and its path's segments. */
function opWords(o: StripeOp): Set<string> {
  const fromId = o.id
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
  const fromPath = o.path
    .toLowerCase()
    .split(/[^a-z]+/)
    .flatMap((w) => [w, ...w.split('_')]);
  return new Set([...fromId, ...fromPath].filter((w) => w !== '' && w !== 'v1'));
}

/** Verbs an agent may use, by the HTTP method they suggest. */
const VERBS: Record<string, readonly string[]> = {
  create: ['POST'],
  add: ['POST'],
  new: ['POST'],
  update: ['POST'],
  change: ['POST'],
  modify: ['POST'],
  set: ['POST'],
  confirm: ['POST'],
  capture: ['POST'],
  finalize: ['POST'],
  pay: ['POST'],
  send: ['POST'],
  void: ['POST'],
  attach: ['POST'],
  detach: ['POST'],
  refund: ['POST'],
  list: ['GET'],
  get: ['GET'],
  retrieve: ['GET'],
  read: ['GET'],
  fetch: ['GET'],
  show: ['GET'],
  find: ['GET'],
  search: ['GET'],
  view: ['GET'],
  // Most objects are cancelled with a POST to `/cancel`, which the word itself finds; a subscription with DELETE.
  cancel: ['DELETE'],
  delete: ['DELETE'],
  remove: ['DELETE'],
};

/** Singular forms, so "customer" finds `/v1/customers` and "invoice items" finds `invoiceitems`. */
function variants(w: string): string[] {
  const out = [w];
  if (w.endsWith('ies')) out.push(w.slice(0, -3) + 'y');
  else if (w.endsWith('s')) out.push(w.slice(0, -1));
  else out.push(w + 's', w.endsWith('y') ? w.slice(0, -1) + 'ies' : w + 'es');
  return out;
}

/**
 * Operations ranked by how well their id and path match the request's words. A word naming a whole path segment
 * (`refunds`) counts more than one naming part of an id; two words naming one segment together (`invoice items` →
 * `invoiceitems`) count most. A sub-action or sub-resource the request does not mention (`/discount`, `/lines`) counts
 * against an operation, so the plain endpoint comes before its relatives.
 */
function rankOperations(
  query: string,
  max: number,
): { operation_id: string; method: string; path: string }[] {
  const words = wordsOf(query);
  const pairs = words.slice(1).map((w, i) => words[i] + w);
  const named = new Set([...words, ...pairs].flatMap(variants));
  const scored = operations.map((o, i) => {
    const ow = opWords(o);
    const segs = o.path
      .toLowerCase()
      .split('/')
      .filter((seg) => seg !== '' && seg !== 'v1');
    const plain = segs.filter((seg) => !seg.startsWith('{')).map((seg) => seg.replace(/_/g, ''));
    let score = 0;
    for (const w of words) {
      if (variants(w).some((v) => ow.has(v))) score += 2;
      if (variants(w).some((v) => plain.includes(v))) score += 2;
      if (VERBS[w]?.includes(o.method)) score += 1;
    }
    for (const pair of pairs) if (variants(pair).some((v) => plain.includes(v))) score += 6;
    for (const seg of plain.slice(1)) if (!named.has(seg)) score -= 1;
    score -= (segs.length - plain.length) * 0.1 + (o.id.includes('TestHelpers') ? 1 : 0);
    return { o, score, i };
  });
  return scored
    .filter((s) => s.score > 0.5)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .map(({ o }) => ({ operation_id: o.id, method: o.method, path: o.path }));
}

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

const evidenceText = z.string().max(20000);

/*
 * MCP annotations, set the way Stripe's toolkit sets them: every hint given, each tool reaching the account (an open
 * world), reads read-only and idempotent, writes neither, and cancelling a subscription the one destructive tool.
 */
const reads = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
});
const writes = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
});
/** A write that changes nothing more when repeated (finalizing an invoice that is already open). */
const writesIdempotently = (title: string): ToolAnnotations => ({
  ...writes(title),
  idempotentHint: true,
});
/** A write that ends something for good; repeating it changes nothing more. */
const destroys = (title: string): ToolAnnotations => ({
  ...writes(title),
  destructiveHint: true,
  idempotentHint: true,
});

export const tools = [
  defineTool({
    name: 'get_stripe_account_info',
    annotations: reads('Show the account'),
    description:
      'Read the Stripe account this session works in: its id, business name, country and default currency.',
    input: z.object({}),
    run: (ctx) => toolOp(ctx, 'GetAccount'),
  }),
  defineTool({
    name: 'retrieve_balance',
    annotations: reads('Check the balance'),
    description: 'Read the account balance: funds available and pending, per currency.',
    input: z.object({}),
    run: (ctx) => toolOp(ctx, 'GetBalance'),
  }),
  defineTool({
    name: 'create_coupon',
    annotations: writes('Make a coupon'),
    description:
      'Create a coupon that takes either a percentage or a fixed amount off, once, for some months, or forever.',
    input: z.object({
      name: z.string().min(1).describe('The coupon name customers see, like "Summer sale".'),
      percent_off: z
        .number()
        .min(0)
        .max(100)
        .optional()
        .describe(
          'Percentage off, 0 to 100, like 25 for 25% off. Give this or amount_off, not both.',
        ),
      amount_off: z
        .number()
        .int()
        .optional()
        .describe(
          'Fixed amount off in the smallest currency unit (cents for usd), like 500 for $5.00. Give this or percent_off, not both.',
        ),
      currency: z
        .string()
        .default('USD')
        .describe(
          'Three-letter ISO currency code of amount_off, like USD or eur (default USD); ignored for a percent_off coupon.',
        ),
      duration: z
        .enum(['once', 'repeating', 'forever'])
        .default('once')
        .describe(
          'How long the discount applies to a customer: once (one invoice), repeating (for duration_in_months) or forever. Default once.',
        ),
      duration_in_months: z
        .number()
        .optional()
        .describe(
          'Months a repeating coupon applies, like 3; required when duration is repeating, not used otherwise.',
        ),
    }),
    run: (ctx, { currency, ...rest }) =>
      toolOp(
        ctx,
        'PostCoupons',
        given({
          ...rest,
          ...(rest.amount_off !== undefined ? { currency: currency.toLowerCase() } : {}),
        }),
      ),
  }),
  defineTool({
    name: 'list_coupons',
    annotations: reads('List the coupons'),
    description: 'List coupons, newest first.',
    input: z.object({ limit }),
    run: (ctx, input) => toolOp(ctx, 'GetCoupons', given(input)),
  }),
  defineTool({
    name: 'create_customer',
    annotations: writes('Add a customer'),
    description:
      'Create a customer with a name and, optionally, an email address. Returns the new customer.',
    input: z.object({
      name: z.string().min(1).describe("The customer's full name or business name."),
      email: z
        .string()
        .email()
        .optional()
        .describe("The customer's email address, like jane@example.com."),
    }),
    run: (ctx, input) => toolOp(ctx, 'PostCustomers', given(input)),
  }),
  defineTool({
    name: 'list_customers',
    annotations: reads('List the customers'),
    description: 'List customers, newest first; filter by exact (case-sensitive) email.',
    input: z.object({
      limit,
      email: z
        .string()
        .optional()
        .describe('Only customers with exactly this email (case-sensitive).'),
    }),
    run: (ctx, input) => toolOp(ctx, 'GetCustomers', given(input)),
  }),
  defineTool({
    name: 'list_disputes',
    annotations: reads('List the disputes'),
    description: 'List disputes, newest first; filter by the disputed charge or payment intent.',
    input: z.object({
      charge: z.string().optional().describe('Only disputes of this charge (ch_…).'),
      payment_intent: z
        .string()
        .optional()
        .describe('Only disputes of this payment intent (pi_…).'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(10)
        .describe('How many to return, 1 to 100 (default 10).'),
    }),
    run: (ctx, input) => toolOp(ctx, 'GetDisputes', given(input)),
  }),
  defineTool({
    name: 'update_dispute',
    annotations: writes('Add dispute evidence'),
    description:
      'Add evidence to a dispute, and optionally submit it to the card network (after which it can no longer change).',
    input: z.object({
      dispute: z.string().min(1).describe('The id of the dispute to update (du_…).'),
      evidence: z
        .object({
          cancellation_policy_disclosure: evidenceText
            .optional()
            .describe('How the cancellation policy was shown to the customer.'),
          duplicate_charge_explanation: evidenceText
            .optional()
            .describe('Why the charge is not a duplicate.'),
          uncategorized_text: evidenceText.optional().describe('Any other facts in your favour.'),
        })
        .optional()
        .describe('Evidence texts, up to 20000 characters each.'),
      submit: z
        .boolean()
        .optional()
        .describe('Submit the evidence now (default false: keep it as a draft).'),
    }),
    run: (ctx, { dispute, ...rest }) =>
      toolOp(ctx, 'PostDisputesDispute', given(rest), { dispute }),
  }),
  defineTool({
    name: 'create_invoice',
    annotations: writes('Draft an invoice'),
    description:
      'Create a draft invoice for a customer, to be sent and paid by its due date. Add items, then finalize it.',
    input: z.object({
      customer: z.string().min(1).describe('The customer to bill (cus_…).'),
      days_until_due: z
        .number()
        .int()
        .optional()
        .describe('Days the customer has to pay once the invoice is finalized and sent, like 30.'),
    }),
    run: (ctx, input) =>
      toolOp(ctx, 'PostInvoices', given({ ...input, collection_method: 'send_invoice' })),
  }),
  defineTool({
    name: 'create_invoice_item',
    annotations: writes('Add an invoice line'),
    description: 'Add a line for a price to a draft invoice of a customer.',
    input: z.object({
      customer: z.string().min(1).describe('The customer the invoice belongs to (cus_…).'),
      price: z.string().min(1).describe('The price to bill (price_…).'),
      invoice: z.string().min(1).describe('The draft invoice to add the line to (in_…).'),
    }),
    run: (ctx, { price, ...rest }) =>
      toolOp(ctx, 'PostInvoiceitems', { ...rest, pricing: { price } }),
  }),
  defineTool({
    name: 'finalize_invoice',
    annotations: writesIdempotently('Finalize a draft invoice'),
    description:
      'Finalize a draft invoice: it gets its number and payment page and can no longer be edited.',
    input: z.object({ invoice: z.string().min(1).describe('The draft invoice (in_…).') }),
    run: (ctx, { invoice }) => toolOp(ctx, 'PostInvoicesInvoiceFinalize', {}, { invoice }),
  }),
  defineTool({
    name: 'list_invoices',
    annotations: reads('List the invoices'),
    description: 'List invoices, newest first; filter by customer.',
    input: z.object({
      customer: z.string().optional().describe('Only invoices of this customer (cus_…).'),
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetInvoices', given(input)),
  }),
  defineTool({
    name: 'create_payment_link',
    annotations: writes('Make a payment link'),
    description:
      'Create a shareable payment page selling a quantity of one price; optionally send the buyer to a URL afterwards.',
    input: z.object({
      price: z.string().min(1).describe('The price to sell (price_…).'),
      quantity: z.number().int().describe('How many units of the price one purchase buys, like 1.'),
      redirect_url: z
        .string()
        .optional()
        .describe(
          "Where to send the buyer after paying, an http or https URL like https://example.com/thanks; leave out to show Stripe's confirmation page.",
        ),
    }),
    run: (ctx, { price, quantity, redirect_url }) =>
      toolOp(ctx, 'PostPaymentLinks', {
        line_items: [{ price, quantity }],
        ...(redirect_url !== undefined
          ? { after_completion: { type: 'redirect', redirect: { url: redirect_url } } }
          : {}),
      }),
  }),
  defineTool({
    name: 'list_payment_intents',
    annotations: reads('List the payment intents'),
    description: 'List payment intents, newest first; filter by customer.',
    input: z.object({
      customer: z.string().optional().describe('Only payments of this customer (cus_…).'),
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetPaymentIntents', given(input)),
  }),
  defineTool({
    name: 'create_price',
    annotations: writes('Set a price for a product'),
    description: 'Create a price for a product: an amount in a currency, one-time or recurring.',
    input: z.object({
      product: z.string().min(1).describe('The product this price is for (prod_…).'),
      unit_amount: z
        .number()
        .int()
        .describe(
          'Price per unit in the smallest currency unit (cents for usd), like 1500 for $15.00.',
        ),
      currency: z.string().min(1).describe('Three-letter ISO currency code, like usd or eur.'),
      recurring: z
        .object({
          interval: z
            .enum(['day', 'week', 'month', 'year'])
            .describe('The billing period: day, week, month or year.'),
          interval_count: z
            .number()
            .int()
            .optional()
            .describe('Intervals between bills, like 3 with month for quarterly (default 1).'),
        })
        .optional()
        .describe('Make the price recurring, for subscriptions; leave out for a one-time price.'),
    }),
    run: (ctx, input) =>
      toolOp(ctx, 'PostPrices', given({ ...input, currency: input.currency.toLowerCase() })),
  }),
  defineTool({
    name: 'list_prices',
    annotations: reads('List the prices'),
    description: 'List prices, newest first; filter by product.',
    input: z.object({
      product: z.string().optional().describe('Only prices of this product (prod_…).'),
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetPrices', given(input)),
  }),
  defineTool({
    name: 'create_product',
    annotations: writes('Add a product'),
    description: 'Create a product to sell; give it prices with create_price.',
    input: z.object({
      name: z.string().min(1).describe('The product name customers see.'),
      description: z.string().optional().describe('A longer description of the product.'),
    }),
    run: (ctx, input) => toolOp(ctx, 'PostProducts', given(input)),
  }),
  defineTool({
    name: 'list_products',
    annotations: reads('List the products'),
    description: 'List products, newest first.',
    input: z.object({ limit }),
    run: (ctx, input) => toolOp(ctx, 'GetProducts', given(input)),
  }),
  defineTool({
    name: 'create_refund',
    annotations: writes('Refund a payment'),
    description: 'Refund a succeeded payment, in full or in part.',
    input: z.object({
      payment_intent: z.string().min(1).describe('The payment to refund (pi_…).'),
      amount: z
        .number()
        .int()
        .optional()
        .describe(
          'Amount to refund in the smallest currency unit (cents for usd), at most what is not yet refunded; leave out to refund all that remains.',
        ),
      reason: z
        .enum(['duplicate', 'fraudulent', 'requested_by_customer'])
        .optional()
        .describe('Why the payment is refunded: duplicate, fraudulent or requested_by_customer.'),
    }),
    run: (ctx, input) => toolOp(ctx, 'PostRefunds', given(input)),
  }),
  defineTool({
    name: 'cancel_subscription',
    annotations: destroys('End a subscription now'),
    description: 'Cancel a subscription at once. It stops billing and cannot be resumed.',
    input: z.object({
      subscription: z.string().min(1).describe('The subscription to cancel (sub_…).'),
    }),
    run: (ctx, { subscription }) =>
      toolOp(
        ctx,
        'DeleteSubscriptionsSubscriptionExposedId',
        {},
        { subscription_exposed_id: subscription },
      ),
  }),
  defineTool({
    name: 'list_subscriptions',
    annotations: reads('List the subscriptions'),
    description:
      'List subscriptions, newest first; filter by customer, price or status (by default, all but canceled ones).',
    input: z.object({
      customer: z.string().optional().describe('Only subscriptions of this customer (cus_…).'),
      price: z.string().optional().describe('Only subscriptions with this price (price_…).'),
      status: z
        .enum([
          'active',
          'past_due',
          'unpaid',
          'canceled',
          'incomplete',
          'incomplete_expired',
          'trialing',
          'all',
        ])
        .optional()
        .describe('Only subscriptions in this state; "all" includes canceled ones.'),
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetSubscriptions', given(input)),
  }),
  defineTool({
    name: 'update_subscription',
    annotations: writes("Change a subscription's items"),
    description:
      "Change a subscription's items: swap a price, change a quantity, add or remove an item.",
    input: z.object({
      subscription: z.string().min(1).describe('The subscription to change (sub_…).'),
      proration_behavior: z
        .enum(['create_prorations', 'none', 'always_invoice', 'none_implicit'])
        .optional()
        .describe('How to bill the change part-way through a period (default create_prorations).'),
      items: z
        .array(
          z.object({
            id: z
              .string()
              .optional()
              .describe('The subscription item to change (si_…); leave out to add a new item.'),
            price: z
              .string()
              .optional()
              .describe('The price the item should have (price_…); required for a new item.'),
            quantity: z
              .number()
              .int()
              .min(1)
              .optional()
              .describe('The item quantity, 1 or more (default 1 for a new item).'),
            deleted: z
              .boolean()
              .optional()
              .describe('true removes the item (given by id) from the subscription.'),
          }),
        )
        .optional()
        .describe('The items to change, add or remove.'),
    }),
    run: (ctx, { subscription, ...rest }) =>
      toolOp(
        ctx,
        'PostSubscriptionsSubscriptionExposedId',
        given({ ...rest, ...(rest.items ? { items: rest.items.map(given) } : {}) }),
        { subscription_exposed_id: subscription },
      ),
  }),
  defineTool({
    name: 'search_stripe_resources',
    annotations: reads('Search objects by query'),
    description: `Search one kind of object with Stripe's search syntax, as "resource:query", like customers:email:"jane@example.com" or payment_intents:status:"succeeded". Resources: ${Object.keys(SEARCHES).join(', ')}.`,
    input: z.object({
      query: z.string().min(1).describe('"resource:query", the resource before the first colon.'),
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
  defineTool({
    name: 'stripe_api_search',
    annotations: reads('Find an API operation'),
    description:
      'Find API operations for what you want to do, like "refund a payment" or "list invoice items". Returns operation ids to use with stripe_api_details, stripe_api_read and stripe_api_write.',
    input: z.object({
      query: z.string().min(1).describe('What you want to do, and to which kind of object.'),
    }),
    run: (_ctx, { query }) => ({ operations: rankOperations(query, 10) }),
  }),
  defineTool({
    name: 'stripe_api_details',
    annotations: reads('Describe an API operation'),
    description:
      'Show one API operation: its method, path and every parameter with its type and whether it is required.',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('An operation id from stripe_api_search, like GetCustomers.'),
    }),
    run: (_ctx, { stripe_api_operation_id: id }) => {
      const o = operationFor(id, ['GET', 'POST', 'DELETE'], 'stripe_api_details');
      const names = placeholders(o.path);
      return {
        operation_id: o.id,
        method: o.method,
        path: o.path,
        tool: o.method === 'GET' ? 'stripe_api_read' : 'stripe_api_write',
        path_parameters: names.map((name, i) => ({
          name,
          pass_as: i === names.length - 1 ? ['id', name] : [name],
        })),
        parameters: Object.fromEntries(
          Object.entries({
            ...o.params,
            expand: { kind: 'array', item: { kind: 'string' } } as Spec,
          }).map(([k, s]) => [k, describeSpec(s)]),
        ),
      };
    },
  }),
  defineTool({
    name: 'stripe_api_read',
    annotations: reads('Run a read operation'),
    description:
      'Run a read (GET) API operation by its id, with its parameters; path parameters go in parameters too (the object\'s id as "id").',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('A GET operation id, like GetCustomersCustomer.'),
      parameters: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The operation\'s parameters, like {"id": "cus_…"} or {"limit": 5}.'),
    }),
    run: (ctx, { stripe_api_operation_id: id, parameters }) =>
      runGeneric(ctx, operationFor(id, ['GET'], 'stripe_api_read'), parameters),
  }),
  defineTool({
    name: 'stripe_api_write',
    annotations: writes('Run a write operation'),
    description:
      'Run a write (POST or DELETE) API operation by its id, with its parameters; path parameters go in parameters too (the object\'s id as "id").',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('A POST or DELETE operation id, like PostCustomers or DeleteCustomersCustomer.'),
      parameters: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'The operation\'s parameters, like {"name": "Jane"} or {"id": "cus_…", "email": "j@example.com"}.',
        ),
    }),
    run: (ctx, { stripe_api_operation_id: id, parameters }) =>
      runGeneric(ctx, operationFor(id, ['POST', 'DELETE'], 'stripe_api_write'), parameters),
  }),
];
