/**
 * Stripe World: a stateful Stripe in SQLite. Its REST face (`/v1/...`) is faithful enough that the official SDKs run
 * against it unmodified; agents reach the same operations through tools. Ids come from the seeded streams and times
 * from the world clock, so every episode replays exactly.
 */
import { defineWorld, readSql } from '../../kit/index.ts';
import { stripeFace } from './face.ts';
import { operations } from './operations.ts';
import { tools } from './tools.ts';
import { registerOps } from './lib/run-op.ts';
import { billingTick } from './lib/billing.ts';

registerOps(operations);

export const stripe = defineWorld({
  name: 'stripe',
  version: '0.1.0',
  description: 'Stripe World: customers, products and prices, payment methods and intents, charges, refunds, disputes, balance and payouts, served as Stripe\'s REST API.',
  schema: readSql(import.meta.url, 'schema.sql'),
  tools,
  epoch: '2026-06-01T09:00:00.000Z',
  http: stripeFace(operations),
  // Stored replies for Idempotency-Key replays: bookkeeping of the API, not the account's state, so not graded.
  untracked: ['idempotency_keys'],
  fixturesDir: new URL('./fixtures/', import.meta.url),
  // Time passing renews subscriptions, ends trials, retries payments and collects due invoices.
  onClockAdvance: billingTick,
  fixtures: {
    empty: {
      description: 'A new Stripe account in test mode: no customers, products or payments yet.',
      difficulty: 1,
      now: '2026-06-01T09:00:00.000Z',
      build() {},
    },
  },
  mcp: {
    name: 'stripe',
    instructions: 'A Stripe account in test mode. Use the tools to read and change customers, products, prices and payments.',
  },
});

export default stripe;
