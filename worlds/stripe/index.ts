/**
 * Stripe World: a stateful Stripe in SQLite. Its REST face (`/v1/...`) is faithful enough that the official SDKs run
 * against it unmodified; agents reach the same operations through tools. Ids come from the seeded streams and times
 * from the world clock, so every episode replays exactly.
 */
import { defineWorld, readSql } from 'seahaven';
import { stripeFace } from './face.ts';
import { operations } from './operations.ts';
import { tools } from './tools.ts';
import { registerOps } from './lib/op.ts';
import { billingSteps, contextAt } from './billing/subscription-cycle.ts';
import { verifyTaxIds } from './resources/tax-ids.ts';
import { expireClocks } from './billing/test-clock-advance.ts';
import { deliverDue } from './lib/webhooks.ts';
import { fixtures } from './fixtures/definitions.ts';
import { tasks } from './tasks.ts';
import { stripeBasics } from './curriculum.ts';

registerOps(operations);

export const stripe = defineWorld({
  name: 'stripe',
  version: '0.1.0',
  description:
    "Stripe World: customers, products and prices, payment methods and intents, charges, refunds, disputes, balance and payouts, served as Stripe's REST API.",
  schema: readSql(import.meta.url, 'schema.sql'),
  tools,
  epoch: '2026-06-01T09:00:00.000Z',
  http: stripeFace(operations),
  // Stored replies for Idempotency-Key replays: bookkeeping of the API, not the account's state, so not graded.
  untracked: ['idempotency_keys'],
  fixturesDir: new URL('./fixtures/', import.meta.url),
  // Time passing renews subscriptions, ends trials, retries payments and collects due invoices; then the webhooks
  // due by the new time are handed to the composed world's handler (lib/webhooks.ts). Test clocks past their
  // `deletes_after` are deleted; the subscriptions on test clocks are billed by their clock's advance, not here.
  *onClockAdvance(ctx, passed) {
    const summary = yield* billingSteps(ctx, passed);
    verifyTaxIds(contextAt, ctx, Math.floor(passed.to / 1000));
    expireClocks(contextAt(ctx, Math.floor(passed.to / 1000)));
    deliverDue(ctx, Math.floor(passed.to / 1000));
    return summary;
  },
  fixtures,
  tasks,
  curricula: [stripeBasics],
  // Introduced as Stripe's own MCP server is: the name its toolkit's server reports, and instructions in our words.
  mcp: {
    name: 'Stripe',
    instructions: [
      'You are connected to a Stripe account in test mode: no real money moves.',
      "The tools are those of Stripe's MCP server, with the same names and arguments. Named tools cover the common tasks (customers, products and prices, invoices, payment links, subscriptions, refunds, disputes); stripe_api_search, stripe_api_details, stripe_api_read and stripe_api_write reach any other API operation by its operation id.",
      "Amounts are whole numbers in the currency's smallest unit: 1500 with currency usd is $15.00.",
      'Every object id starts with a prefix naming its kind (cus_ customer, prod_ product, price_ price, pi_ payment intent, ch_ charge, in_ invoice, sub_ subscription, re_ refund, du_ dispute), and fetch_stripe_resources reads any object by its id.',
    ].join(' '),
  },
});

export default stripe;

export { forwardWebhooks, type ForwardOptions, type ForwardedAttempt } from './forward.ts';
export type { WebhookAnswer, WebhookRequest } from './lib/webhooks.ts';
