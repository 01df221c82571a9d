// `POST /v1/invoices/create_preview` with `subscription`: the invoice a subscription bills when its period ends.
import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';

type SdkError = InstanceType<typeof Stripe.errors.StripeError>;
const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as SdkError;

async function subscribed() {
  const inst = stripe.instance({ fixture: 'empty', seed: 5 });
  const s = sdkFor(inst);
  const cus = await s.customers.create({ name: 'Grace Hopper', email: 'grace@example.com' });
  const pm = await s.paymentMethods.attach('pm_card_visa', { customer: cus.id });
  await s.customers.update(cus.id, { invoice_settings: { default_payment_method: pm.id } });
  const product = await s.products.create({ name: 'Box' });
  const price = await s.prices.create({
    product: product.id,
    unit_amount: 2500,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const sub = await s.subscriptions.create({
    customer: cus.id,
    items: [{ price: price.id, quantity: 2 }],
  });
  return { inst, s, cus, price, sub };
}

describe('invoice preview of a subscription', () => {
  it("shows the next period's invoice, a line per item, and stores nothing", async () => {
    const { inst, s, cus, price, sub } = await subscribed();
    const before = inst.changes().length;
    const preview = await s.invoices.createPreview({ subscription: sub.id });
    expect(preview).toMatchObject({
      object: 'invoice',
      customer: cus.id,
      billing_reason: 'upcoming',
      total: 5000,
      amount_due: 5000,
    });
    expect(JSON.stringify(preview.parent)).toContain(sub.id);
    expect(preview.id).toMatch(/^upcoming_in_/);
    const item = sub.items.data[0];
    expect(preview.lines.data).toHaveLength(1);
    expect(preview.lines.data[0]).toMatchObject({
      amount: 5000,
      quantity: 2,
      period: { start: item.current_period_end },
    });
    expect(preview.lines.data[0].period.end).toBeGreaterThan(item.current_period_end);
    expect(preview.lines.data[0].pricing?.price_details?.price).toBe(price.id);
    expect(inst.changes().length).toBe(before);
  });

  it('refuses a subscription that ends at the end of its period, and previews of changes', async () => {
    const { s, sub } = await subscribed();
    expect(
      await err(
        s.invoices.createPreview({
          subscription: sub.id,
          subscription_details: { items: [{ id: sub.items.data[0].id, quantity: 3 }] },
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'subscription_details' });
    await s.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(await err(s.invoices.createPreview({ subscription: sub.id }))).toMatchObject({
      statusCode: 400,
      code: 'invoice_upcoming_none',
    });
    expect(await err(s.invoices.createPreview({ subscription: 'sub_missing' }))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });
});
