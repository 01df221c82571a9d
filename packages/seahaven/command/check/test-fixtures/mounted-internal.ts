/**
 * A shop that mounts a billing world whose failures are not ToolErrors of any copy of the kit: what a mounted world
 * built on a copy of the kit that cannot be recognised throws. The agent sees `internal` for each of its failures.
 */
import { defineTask, defineTool, defineWorld, z } from '../../../core/index.ts';
import { expectChanges, inserted } from '../../../libraries/rewards/index.ts';

/** An error shaped like a ToolError without the kit's brand. */
const unrecognised = (code: string, message: string) => Object.assign(new Error(message), { name: 'ToolError', code });

const billing = defineWorld({
  name: 'billing',
  version: '1.0.0',
  schema: 'CREATE TABLE invoices (id TEXT PRIMARY KEY, order_id TEXT NOT NULL) STRICT;',
  tools: [
    defineTool({
      name: 'pay_invoice',
      description: 'Pay an invoice by its id; fails when there is no such invoice.',
      input: z.object({ id: z.string().max(40).describe('Invoice id, like in_1.') }),
      run(ctx, { id }) {
        if (!ctx.db.one('SELECT 1 FROM invoices WHERE id = ?', id)) throw unrecognised('resource_missing', `No such invoice: ${id}`);
        return { id, paid: true };
      },
    }),
  ],
});

/** The shop; with `fixturesDir`, its fixture is read from there. */
export const shopWorld = (fixturesDir?: string) => defineWorld({
  name: 'shop',
  version: '1.0.0',
  schema: 'CREATE TABLE orders (id TEXT PRIMARY KEY, item TEXT NOT NULL) STRICT;',
  tools: [
    defineTool({
      name: 'add_order',
      description: 'Add an order for an item; returns the order.',
      input: z.object({ item: z.string().min(1).max(40).describe('What was ordered, like "lamp".') }),
      run(ctx, { item }) {
        const id = ctx.ids.token('ord_', 8);
        ctx.db.run('INSERT INTO orders (id, item) VALUES (?, ?)', id, item);
        return { id, item };
      },
    }),
  ],
  worlds: { billing: { world: billing, prefix: 'billing_' } },
  tasks: [
    defineTask({
      id: 'order_lamp',
      fixture: 'empty',
      prompt: 'Order a lamp, then pay invoice in_1.',
      grade: expectChanges([inserted('orders', { item: 'lamp' })]),
      gold(inst) {
        inst.call('add_order', { item: 'lamp' });
        inst.call('billing_pay_invoice', { id: 'in_1' });
      },
    }),
  ],
  fixtures: { empty: { description: 'No orders, no invoices.', now: '2026-06-01T09:00:00.000Z', build() {} } },
  ...(fixturesDir === undefined ? {} : { fixturesDir }),
});

export const mountedInternalWorld = shopWorld();
