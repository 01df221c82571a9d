/**
 * The saas world: a company's CRM with its billing system inside. The host is the crm world (its schema and tools,
 * reused as they are); Stripe World is mounted at `stripe`, so the agent sees crm's tools, then Stripe's prefixed
 * `stripe_`. Each store keeps its own rows: crm's tables by name, Stripe's as `stripe.<table>` in `changes()`.
 * Stripe World's REST API is served too (`/v1/...`), acting on the Stripe store of the session a key belongs to.
 */
import { defineWorld } from 'seahaven';
import { crm } from '@seahaven/crm';
import { stripe } from '@seahaven/stripe';
import { buildSmallStartup } from './seed-data.ts';
import { tasks } from './tasks.ts';

export const saas = defineWorld({
  name: 'saas',
  version: '1.0.0',
  description:
    'A SaaS company: its CRM (companies, contacts, deals, activities) and its Stripe account (customers, prices, subscriptions, invoices) in one episode.',
  schema: crm.schema,
  tools: [...crm.tools],
  tasks,
  // http: Stripe World's REST API is served as saas's own, so code written with the official SDK during an episode
  // acts on the episode's Stripe store (each session's key is in its reset metadata).
  worlds: { stripe: { world: stripe, prefix: 'stripe_', http: true } },
  fixturesDir: new URL('./fixtures/', import.meta.url),
  fixtures: {
    small_startup: {
      description:
        "crm's small_startup plus three story companies; in Stripe, a four-product catalog and 6 paying companies with 7 active subscriptions, each customer tied to its crm company by metadata.crm_company_id.",
      difficulty: 2,
      now: '2026-06-01T09:00:00.000Z',
      build: buildSmallStartup,
    },
  },
  mcp: {
    name: 'saas',
    instructions:
      "A SaaS company's CRM and, behind the stripe_ tools, its Stripe account in test mode. Stripe customers carry the id of their CRM company in metadata.crm_company_id.",
  },
});

export default saas;
