import { describe, expect, it } from 'vitest';
import type { Instance } from 'seahaven';
import { advanceInSlices, storeDatabases } from 'seahaven/internal/core/instance-internals';
import { stripe } from '../index.ts';
import { withoutCoalescing } from '../lib/coalesce.ts';
import { sdkFor } from './sdk.ts';

// Billing coalesces each subscription step's writes (lib/coalesce.ts): an object the step writes several times is
// written once, with its last value. The state it leaves, and every call's net change, is what writing each put at
// once leaves.

const DAY = 86_400_000;

/** Subscriptions that renew, fail and retry, end their trials and cancel, on top of small_startup's own. */
async function scenario(inst: Instance): Promise<void> {
  const sdk = sdkFor(inst);
  const product = await sdk.products.create({ name: 'Box' }, { idempotencyKey: 'k-product' });
  const price = await sdk.prices.create(
    { product: product.id, currency: 'usd', unit_amount: 1500, recurring: { interval: 'month' } },
    { idempotencyKey: 'k-price' },
  );
  const cards = ['pm_card_visa', 'pm_card_chargeCustomerFail', 'pm_card_visa', 'pm_card_visa'];
  for (const [i, card] of cards.entries()) {
    const customer = await sdk.customers.create(
      { email: `c${i}@example.com` },
      { idempotencyKey: `k-customer-${i}` },
    );
    const pm = await sdk.paymentMethods.attach(
      card,
      { customer: customer.id },
      { idempotencyKey: `k-attach-${i}` },
    );
    await sdk.customers.update(
      customer.id,
      { invoice_settings: { default_payment_method: pm.id } },
      { idempotencyKey: `k-default-${i}` },
    );
    await sdk.subscriptions.create(
      {
        customer: customer.id,
        items: [{ price: price.id, quantity: i + 1 }],
        ...(i === 2 ? { trial_period_days: 10 } : {}),
        ...(i === 3 ? { cancel_at_period_end: true } : {}),
      },
      { idempotencyKey: `k-subscription-${i}` },
    );
  }
}

/**
 * Record the values written to rows of `tables` from now on (a temporary trigger per table and kind of write on the
 * instance's own database): each row's distinct values, one per time it was written with something new. (A statement
 * the kit runs again after reading a row's old value fires the trigger twice with the same value.)
 */
function countWrites(inst: Instance, tables: string[]): Map<string, Set<string>> {
  const db = inst[storeDatabases]().get(null)!;
  const written = new Map<string, Set<string>>();
  db.function('count_write', (table: string, id: string, data: string) => {
    const key = `${table} ${id}`;
    let values = written.get(key);
    if (values === undefined) written.set(key, (values = new Set()));
    values.add(data);
    return null;
  });
  for (const t of tables)
    for (const [name, kind] of [
      ['insert', 'INSERT'],
      ['update', 'UPDATE'],
      // A subscription's step ends by saving it, which sets its `billing_due` (subscription-model.ts).
      ['due', 'UPDATE OF billing_due'],
    ])
      db.exec(
        `CREATE TEMP TRIGGER count_${name}_${t} AFTER ${kind} ON main.${t} BEGIN SELECT count_write('${name === 'due' ? 'due' : t}', NEW.id, ${name === 'due' ? 'NEW.billing_due' : 'NEW.data'}); END`,
      );
  return written;
}

/** How many rows of `table` were written how many times: `{ times: rows }`. */
function histogram(written: Map<string, Set<string>>, table: string): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [key, values] of written)
    if (key.startsWith(`${table} `)) out[values.size] = (out[values.size] ?? 0) + 1;
  return out;
}

describe('coalesced billing writes', () => {
  it('leave the state and change log that writing every put at once leaves', async () => {
    const COUNTED = ['invoices', 'payment_intents', 'invoice_payments'];
    const coalesced = stripe.instance({ fixture: 'small_startup', seed: 4, slowCallMs: Infinity });
    const plain = stripe.instance({ fixture: 'small_startup', seed: 4, slowCallMs: Infinity });
    try {
      await scenario(coalesced);
      await scenario(plain);
      const once = countWrites(coalesced, [...COUNTED, 'subscriptions']);
      const each = countWrites(plain, COUNTED);
      // The advance in small slices (`slice(0)`): those that saved one subscription once ran one step
      // of it.
      const run = coalesced[advanceInSlices](75 * DAY);
      const mostPerStep = new Map<string, number>();
      let outcome = null;
      let oneStep = 0;
      while (outcome === null) {
        once.clear();
        outcome = run.slice(0);
        const subscriptionWrites = Object.entries(histogram(once, 'due'));
        if (subscriptionWrites.reduce((sum, [times, rows]) => sum + Number(times) * rows, 0) !== 1)
          continue;
        oneStep++;
        for (const t of COUNTED)
          for (const times of Object.keys(histogram(once, t)).map(Number))
            mostPerStep.set(t, Math.max(mostPerStep.get(t) ?? 0, times));
      }
      expect(oneStep).toBeGreaterThan(20);
      expect(outcome.ok).toBe(true);
      expect(withoutCoalescing(() => plain.advanceClock(75 * DAY)).ok).toBe(true);
      expect(outcome).toMatchObject({
        result: (plain.callLog().at(-1) as { result: unknown }).result,
      });
      expect(coalesced.changes()).toEqual(plain.changes());
      expect(coalesced.changeLog()).toEqual(plain.changeLog());
      // The advance did bill: renewals, a declined payment and its retries, a trial's end, a cancellation.
      const written = new Set(coalesced.changeLog().map((c) => c.table));
      for (const t of ['invoices', 'payment_intents', 'charges', 'invoice_payments', 'events'])
        expect(written).toContain(t);
      // Within a step, a renewal's invoice, payment intent and payment record are written once each; writing every
      // put at once writes each of them twice or more.
      for (const t of COUNTED) {
        expect(mostPerStep.get(t)).toBe(1);
        expect(Math.max(...Object.keys(histogram(each, t)).map(Number))).toBeGreaterThan(1);
      }
    } finally {
      coalesced.destroy();
      plain.destroy();
    }
  });
});
