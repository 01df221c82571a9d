// The invoice state machine is data (billing/invoice-states.ts): what it allows, and that a move it does not list fails.
import { describe, expect, it } from 'vitest';
import { canMove, INVOICE_TRANSITIONS, moveInvoice } from '../billing/invoice-states.ts';

describe('invoice states', () => {
  it('finalizes drafts, settles open and uncollectible invoices, and keeps paid and void final', () => {
    expect(INVOICE_TRANSITIONS).toEqual({
      draft: ['open', 'paid'],
      open: ['paid', 'void', 'uncollectible'],
      uncollectible: ['paid', 'void'],
      paid: [],
      void: [],
    });
    expect(canMove('draft', 'open')).toBe(true);
    expect(canMove('paid', 'void')).toBe(false);
    expect(canMove('deleted', 'open')).toBe(false);
  });

  it('moves an invoice only along a listed transition', () => {
    const invoice = { id: 'in_1', status: 'open' };
    moveInvoice(invoice, 'uncollectible');
    expect(invoice.status).toBe('uncollectible');
    expect(() => moveInvoice(invoice, 'open')).toThrow(
      'invoice in_1: uncollectible → open is not a transition of INVOICE_TRANSITIONS',
    );
    expect(invoice.status).toBe('uncollectible');
  });
});
