// The invoice and subscription state machines are data (billing/invoice-states.ts, subscription-states.ts): what they
// allow, and that a move they do not list fails.
import { describe, expect, it } from 'vitest';
import { canMove, INVOICE_TRANSITIONS, moveInvoice } from '../billing/invoice-states.ts';
import {
  canMoveSubscription,
  moveSubscription,
  SUBSCRIPTION_TRANSITIONS,
} from '../billing/subscription-states.ts';

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

describe('subscription states', () => {
  it('lets every live status be canceled, keeps canceled and expired final, and allows staying put', () => {
    for (const [from, to] of Object.entries(SUBSCRIPTION_TRANSITIONS)) {
      const live = from !== 'canceled' && from !== 'incomplete_expired';
      expect(to.includes('canceled'), from).toBe(live);
    }
    expect(canMoveSubscription('active', 'active')).toBe(true);
    expect(canMoveSubscription('incomplete', 'trialing')).toBe(false);
  });

  it('moves a subscription only along a listed transition', () => {
    const sub = { id: 'sub_1', status: 'incomplete' };
    moveSubscription(sub, 'active');
    expect(sub.status).toBe('active');
    moveSubscription(sub, 'canceled');
    expect(() => moveSubscription(sub, 'active')).toThrow(
      'subscription sub_1: canceled → active is not a transition of SUBSCRIPTION_TRANSITIONS',
    );
  });
});
