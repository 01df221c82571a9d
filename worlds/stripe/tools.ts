/** The tools agents use; each runs the same operation as the REST endpoint it names. */
import { defineTool, z } from '../../kit/index.ts';
import { toolOp } from './lib/run-op.ts';

const limit = z.number().int().min(1).max(100).optional().describe('How many to return, 1 to 100 (default 10).');

export const tools = [
  defineTool({
    name: 'get_stripe_account_info',
    description: 'Read the Stripe account this session works in: its id, business name, country and default currency.',
    input: z.object({}),
    run: (ctx) => toolOp(ctx, 'GetAccount'),
  }),
  defineTool({
    name: 'create_customer',
    description: 'Create a customer with a name and, optionally, an email address. Returns the new customer.',
    input: z.object({ name: z.string().min(1).describe('The customer\'s full name or business name.'), email: z.string().email().optional().describe('The customer\'s email address.') }),
    run: (ctx, input) => toolOp(ctx, 'PostCustomers', input),
  }),
  defineTool({
    name: 'list_customers',
    description: 'List customers, newest first; filter by exact (case-sensitive) email.',
    input: z.object({ limit, email: z.string().optional().describe('Only customers with exactly this email.') }),
    run: (ctx, input) => toolOp(ctx, 'GetCustomers', input),
  }),
];
