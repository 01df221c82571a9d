/**
 * Two copies of the kit in one process: a world (or a mounted world) built on one copy, run by a host on another.
 * The errors of either copy are recognised by the other, so the agent sees a tool's own error codes, not `internal`.
 */
import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, DefinitionError, InstanceError, ToolError, z } from '../index.ts';

// A second instance of the errors module: what a second copy of the kit (another path to the same files) defines.
// @ts-expect-error: the query, which makes Vite load the file again as another module, is not a path TypeScript knows.
const other = (await import('../errors.ts?second-copy')) as typeof import('../errors.ts');

describe('errors from another copy of the kit', () => {
  it('are a separate copy of the classes', () => {
    expect(other.ToolError).not.toBe(ToolError);
  });

  it('are instances of this copy\'s classes, and of the other\'s', () => {
    expect(new other.ToolError('x', 'y')).toBeInstanceOf(ToolError);
    expect(new ToolError('x', 'y')).toBeInstanceOf(other.ToolError);
    expect(new other.DefinitionError('d')).toBeInstanceOf(DefinitionError);
    expect(new other.InstanceError('c', 'm')).toBeInstanceOf(InstanceError);
  });

  it('do not pass for one another, nor does a look-alike without the brand', () => {
    expect(new other.ToolError('x', 'y')).not.toBeInstanceOf(InstanceError);
    expect(new other.InstanceError('c', 'm')).not.toBeInstanceOf(ToolError);
    const lookalike = Object.assign(new Error('m'), { name: 'ToolError', code: 'x' });
    expect(lookalike).not.toBeInstanceOf(ToolError);
    expect(null).not.toBeInstanceOf(ToolError);
  });

  it('keep ordinary instanceof for subclasses', () => {
    class PaymentError extends ToolError {}
    expect(new PaymentError('card_declined', 'declined')).toBeInstanceOf(PaymentError);
    expect(new PaymentError('card_declined', 'declined')).toBeInstanceOf(ToolError);
    expect(new ToolError('card_declined', 'declined')).not.toBeInstanceOf(PaymentError);
  });

  it('reach the agent as the tool error they are, also from a mounted world', () => {
    const billing = defineWorld({
      name: 'billing',
      version: '1.0.0',
      schema: 'CREATE TABLE invoices (id TEXT PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'pay_invoice',
          description: 'Pay an invoice by id.',
          input: z.object({ id: z.string().describe('Invoice id, like in_1.') }),
          run(_ctx, { id }) {
            throw new other.ToolError('resource_missing', `No such invoice: ${id}`, { param: 'id' });
          },
        }),
      ],
    });
    const host = defineWorld({
      name: 'shop',
      version: '1.0.0',
      schema: 'CREATE TABLE orders (id TEXT PRIMARY KEY) STRICT;',
      tools: [defineTool({ name: 'noop', description: 'Do nothing at all.', input: z.object({}), run: () => null })],
      worlds: { billing: { world: billing, prefix: 'billing_' } },
    });
    const inst = host.instance();
    try {
      expect(inst.call('billing_pay_invoice', { id: 'in_1' })).toEqual({ ok: false, error: { code: 'resource_missing', message: 'No such invoice: in_1', details: { param: 'id' } } });
    } finally {
      inst.destroy();
    }
  });
});
