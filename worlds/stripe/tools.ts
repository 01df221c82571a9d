/**
 * The tools agents use: the tool set of Stripe's MCP server, same names and arguments, so an agent trained here meets
 * the same interface there. A named tool's arguments are its operation's own parameters (`argsOf` reads their types
 * from the operation's spec, the one REST validates), and it runs that operation as the REST endpoint does (`toolOp`),
 * answering with the API's JSON body. The lookup tools (lookup-tools.ts) find objects and notes; the four `stripe_api_*`
 * tools (api-tools.ts) reach every operation by its id.
 */
import { defineTool } from 'seahaven';
import { toolOp } from './lib/op.ts';
import { apiTools } from './api-tools.ts';
import { lookupTools } from './lookup-tools.ts';
import { argsOf, destroys, reads, writes, writesIdempotently } from './tool-args.ts';

const limit = 'How many to return, 1 to 100 (default 10).';

/** Drop unset arguments, so an absent optional argument is absent from the request too. */
function given<T extends Record<string, unknown>>(input: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export const tools = [
  defineTool({
    name: 'get_stripe_account_info',
    annotations: reads('Show the account'),
    description:
      'Read the Stripe account this session works in: its id, business name, country and default currency.',
    input: argsOf('GetAccount', {}),
    run: (ctx) => toolOp(ctx, 'GetAccount'),
  }),
  defineTool({
    name: 'retrieve_balance',
    annotations: reads('Check the balance'),
    description: 'Read the account balance: funds available and pending, per currency.',
    input: argsOf('GetBalance', {}),
    run: (ctx) => toolOp(ctx, 'GetBalance'),
  }),
  defineTool({
    name: 'create_coupon',
    annotations: writes('Make a coupon'),
    description:
      'Create a coupon that takes either a percentage or a fixed amount off, once, for some months, or forever.',
    input: argsOf('PostCoupons', {
      name: { describe: 'The coupon name customers see, like "Summer sale".', required: true },
      percent_off:
        'Percentage off, 0 to 100, like 25 for 25% off. Give this or amount_off, not both.',
      amount_off:
        'Fixed amount off in the smallest currency unit (cents for usd), like 500 for $5.00. Give this or percent_off, not both.',
      currency: {
        describe:
          'Three-letter ISO currency code of amount_off, like USD or eur (default USD); ignored for a percent_off coupon.',
        default: 'USD',
      },
      duration: {
        describe:
          'How long the discount applies to a customer: once (one invoice), repeating (for duration_in_months) or forever. Default once.',
        default: 'once',
      },
      duration_in_months: {
        describe:
          'Months a repeating coupon applies, like 3; required when duration is repeating, not used otherwise.',
        number: true,
      },
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
    input: argsOf('GetCoupons', { limit }),
    run: (ctx, input) => toolOp(ctx, 'GetCoupons', given(input)),
  }),
  defineTool({
    name: 'create_customer',
    annotations: writes('Add a customer'),
    description:
      'Create a customer with a name and, optionally, an email address. Returns the new customer.',
    input: argsOf('PostCustomers', {
      name: { describe: "The customer's full name or business name.", required: true },
      email: "The customer's email address, like jane@example.com.",
    }),
    run: (ctx, input) => toolOp(ctx, 'PostCustomers', given(input)),
  }),
  defineTool({
    name: 'list_customers',
    annotations: reads('List the customers'),
    description: 'List customers, newest first; filter by exact (case-sensitive) email.',
    input: argsOf('GetCustomers', {
      limit,
      email: 'Only customers with exactly this email (case-sensitive).',
    }),
    run: (ctx, input) => toolOp(ctx, 'GetCustomers', given(input)),
  }),
  defineTool({
    name: 'list_disputes',
    annotations: reads('List the disputes'),
    description: 'List disputes, newest first; filter by the disputed charge or payment intent.',
    input: argsOf('GetDisputes', {
      charge: 'Only disputes of this charge (ch_…).',
      payment_intent: 'Only disputes of this payment intent (pi_…).',
      limit: { describe: limit, default: 10 },
    }),
    run: (ctx, input) => toolOp(ctx, 'GetDisputes', given(input)),
  }),
  defineTool({
    name: 'update_dispute',
    annotations: writes('Add dispute evidence'),
    description:
      'Add evidence to a dispute, and optionally submit it to the card network (after which it can no longer change).',
    input: argsOf('PostDisputesDispute', {
      dispute: 'The id of the dispute to update (du_…).',
      evidence: {
        describe: 'Evidence texts, up to 20000 characters each.',
        fields: {
          cancellation_policy_disclosure: 'How the cancellation policy was shown to the customer.',
          duplicate_charge_explanation: 'Why the charge is not a duplicate.',
          uncategorized_text: 'Any other facts in your favour.',
        },
      },
      submit: 'Submit the evidence now (default false: keep it as a draft).',
    }),
    run: (ctx, { dispute, ...rest }) =>
      toolOp(ctx, 'PostDisputesDispute', given(rest), { dispute }),
  }),
  defineTool({
    name: 'create_invoice',
    annotations: writes('Draft an invoice'),
    description:
      'Create a draft invoice for a customer, to be sent and paid by its due date. Add items, then finalize it.',
    input: argsOf('PostInvoices', {
      customer: { describe: 'The customer to bill (cus_…).', required: true },
      days_until_due:
        'Days the customer has to pay once the invoice is finalized and sent, like 30.',
    }),
    run: (ctx, input) =>
      toolOp(ctx, 'PostInvoices', given({ ...input, collection_method: 'send_invoice' })),
  }),
  defineTool({
    name: 'create_invoice_item',
    annotations: writes('Add an invoice line'),
    description: 'Add a line for a price to a draft invoice of a customer.',
    input: argsOf('PostInvoiceitems', {
      customer: { describe: 'The customer the invoice belongs to (cus_…).', required: true },
      price: { describe: 'The price to bill (price_…).', from: 'pricing.price', required: true },
      invoice: { describe: 'The draft invoice to add the line to (in_…).', required: true },
    }),
    run: (ctx, { price, ...rest }) =>
      toolOp(ctx, 'PostInvoiceitems', { ...rest, pricing: { price } }),
  }),
  defineTool({
    name: 'finalize_invoice',
    annotations: writesIdempotently('Finalize a draft invoice'),
    description:
      'Finalize a draft invoice: it gets its number and payment page and can no longer be edited.',
    input: argsOf('PostInvoicesInvoiceFinalize', { invoice: 'The draft invoice (in_…).' }),
    run: (ctx, { invoice }) => toolOp(ctx, 'PostInvoicesInvoiceFinalize', {}, { invoice }),
  }),
  defineTool({
    name: 'list_invoices',
    annotations: reads('List the invoices'),
    description: 'List invoices, newest first; filter by customer.',
    input: argsOf('GetInvoices', { customer: 'Only invoices of this customer (cus_…).', limit }),
    run: (ctx, input) => toolOp(ctx, 'GetInvoices', given(input)),
  }),
  defineTool({
    name: 'create_payment_link',
    annotations: writes('Make a payment link'),
    description:
      'Create a shareable payment page selling a quantity of one price; optionally send the buyer to a URL afterwards.',
    input: argsOf('PostPaymentLinks', {
      price: { describe: 'The price to sell (price_…).', from: 'line_items.price', required: true },
      quantity: {
        describe: 'How many units of the price one purchase buys, like 1.',
        from: 'line_items.quantity',
        required: true,
      },
      redirect_url: {
        describe:
          "Where to send the buyer after paying, an http or https URL like https://example.com/thanks; leave out to show Stripe's confirmation page.",
        from: 'after_completion.redirect.url',
      },
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
    input: argsOf('GetPaymentIntents', {
      customer: 'Only payments of this customer (cus_…).',
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetPaymentIntents', given(input)),
  }),
  defineTool({
    name: 'create_price',
    annotations: writes('Set a price for a product'),
    description: 'Create a price for a product: an amount in a currency, one-time or recurring.',
    input: argsOf('PostPrices', {
      product: { describe: 'The product this price is for (prod_…).', required: true },
      unit_amount: {
        describe:
          'Price per unit in the smallest currency unit (cents for usd), like 1500 for $15.00.',
        required: true,
      },
      currency: 'Three-letter ISO currency code, like usd or eur.',
      recurring: {
        describe: 'Make the price recurring, for subscriptions; leave out for a one-time price.',
        fields: {
          interval: 'The billing period: day, week, month or year.',
          interval_count: 'Intervals between bills, like 3 with month for quarterly (default 1).',
        },
      },
    }),
    run: (ctx, input) =>
      toolOp(ctx, 'PostPrices', given({ ...input, currency: input.currency.toLowerCase() })),
  }),
  defineTool({
    name: 'list_prices',
    annotations: reads('List the prices'),
    description: 'List prices, newest first; filter by product.',
    input: argsOf('GetPrices', { product: 'Only prices of this product (prod_…).', limit }),
    run: (ctx, input) => toolOp(ctx, 'GetPrices', given(input)),
  }),
  defineTool({
    name: 'create_product',
    annotations: writes('Add a product'),
    description: 'Create a product to sell; give it prices with create_price.',
    input: argsOf('PostProducts', {
      name: 'The product name customers see.',
      description: 'A longer description of the product.',
    }),
    run: (ctx, input) => toolOp(ctx, 'PostProducts', given(input)),
  }),
  defineTool({
    name: 'list_products',
    annotations: reads('List the products'),
    description: 'List products, newest first.',
    input: argsOf('GetProducts', { limit }),
    run: (ctx, input) => toolOp(ctx, 'GetProducts', given(input)),
  }),
  defineTool({
    name: 'create_refund',
    annotations: writes('Refund a payment'),
    description: 'Refund a succeeded payment, in full or in part.',
    input: argsOf('PostRefunds', {
      payment_intent: { describe: 'The payment to refund (pi_…).', required: true },
      amount:
        'Amount to refund in the smallest currency unit (cents for usd), at most what is not yet refunded; leave out to refund all that remains.',
      reason: 'Why the payment is refunded: duplicate, fraudulent or requested_by_customer.',
    }),
    run: (ctx, input) => toolOp(ctx, 'PostRefunds', given(input)),
  }),
  defineTool({
    name: 'cancel_subscription',
    annotations: destroys('End a subscription now'),
    description: 'Cancel a subscription at once. It stops billing and cannot be resumed.',
    input: argsOf('DeleteSubscriptionsSubscriptionExposedId', {
      subscription: {
        describe: 'The subscription to cancel (sub_…).',
        from: 'subscription_exposed_id',
      },
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
    input: argsOf('GetSubscriptions', {
      customer: 'Only subscriptions of this customer (cus_…).',
      price: 'Only subscriptions with this price (price_…).',
      status: 'Only subscriptions in this state; "all" includes canceled ones.',
      limit,
    }),
    run: (ctx, input) => toolOp(ctx, 'GetSubscriptions', given(input)),
  }),
  defineTool({
    name: 'update_subscription',
    annotations: writes("Change a subscription's items"),
    description:
      "Change a subscription's items: swap a price, change a quantity, add or remove an item.",
    input: argsOf('PostSubscriptionsSubscriptionExposedId', {
      subscription: {
        describe: 'The subscription to change (sub_…).',
        from: 'subscription_exposed_id',
      },
      proration_behavior:
        'How to bill the change part-way through a period (default create_prorations).',
      items: {
        describe: 'The items to change, add or remove.',
        fields: {
          id: 'The subscription item to change (si_…); leave out to add a new item.',
          price: 'The price the item should have (price_…); required for a new item.',
          quantity: 'The item quantity, 1 or more (default 1 for a new item).',
          deleted: 'true removes the item (given by id) from the subscription.',
        },
      },
    }),
    run: (ctx, { subscription, ...rest }) =>
      toolOp(
        ctx,
        'PostSubscriptionsSubscriptionExposedId',
        given({ ...rest, ...(rest.items ? { items: rest.items.map(given) } : {}) }),
        { subscription_exposed_id: subscription },
      ),
  }),
  ...lookupTools,
  ...apiTools,
];
