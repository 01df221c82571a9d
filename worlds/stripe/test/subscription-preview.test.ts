// `POST /v1/invoices/create_preview` with `subscription`: the invoice a subscription bills when its period ends; with
// `subscription_details`, the invoice a change would bring (prorations when the price changes mid-period), or a new
// subscription's first invoice.
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

  it('refuses a subscription that ends at the end of its period', async () => {
    const { s, sub } = await subscribed();
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

  it('previews a price change mid-period: the prorations at proration_date and the next period at the new price', async () => {
    const { inst, s, cus, sub } = await subscribed();
    const bigger = await s.prices.create({
      product_data: { name: 'Bigger box' },
      unit_amount: 4000,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const item = sub.items.data[0];
    // A third of the way through the period: two thirds of it are credited at the old price and charged at the new.
    const length = item.current_period_end - item.current_period_start;
    const at = item.current_period_start + length / 3;
    const before = JSON.stringify(inst.changes());
    const preview = await s.invoices.createPreview({
      customer: cus.id,
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: bigger.id }],
        proration_date: at,
      },
    });
    const credit = -Math.round((5000 * (item.current_period_end - at)) / length);
    const charge = Math.round((8000 * (item.current_period_end - at)) / length);
    const prorations = preview.lines.data.filter(
      (l) => l.parent?.invoice_item_details?.proration === true,
    );
    expect(prorations.map((l) => l.amount)).toEqual([credit, charge]);
    expect(prorations[0].description).toMatch(/^Unused time on 2 × Box after /);
    expect(prorations[1].description).toMatch(/^Remaining time on 2 × Bigger box after /);
    const next = preview.lines.data.filter((l) => l.parent?.type === 'subscription_item_details');
    expect(next.map((l) => [l.amount, l.period.start])).toEqual([[8000, item.current_period_end]]);
    expect(preview).toMatchObject({
      billing_reason: 'upcoming',
      total: credit + charge + 8000,
    });
    // Nothing of the change stays: the subscription, its items and the account are as they were.
    expect(JSON.stringify(inst.changes())).toBe(before);
    const still = await s.subscriptions.retrieve(sub.id);
    expect(still.items.data[0].price.id).toBe(item.price.id);
    expect((await s.invoiceItems.list({ customer: cus.id })).data).toEqual([]);
    expect((await s.events.list({ type: 'customer.subscription.updated' })).data).toEqual([]);
  });

  it('previews always_invoice as the invoice billed now, and none as the renewal without prorations', async () => {
    const { s, sub } = await subscribed();
    const item = sub.items.data[0];
    const now = await s.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, quantity: 3 }],
        proration_behavior: 'always_invoice',
      },
    });
    expect(now.billing_reason).toBe('subscription_update');
    expect(now.lines.data.every((l) => l.parent?.invoice_item_details?.proration)).toBe(true);
    // The clock has not moved since the subscription began: the whole period at 3 less the whole at 2.
    expect(now.total).toBe(7500 - 5000);
    const none = await s.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, quantity: 3 }],
        proration_behavior: 'none',
      },
    });
    expect(none.lines.data.map((l) => l.amount)).toEqual([7500]);
    expect(
      await err(
        s.invoices.createPreview({
          subscription: sub.id,
          subscription_details: { proration_date: item.current_period_end + 86_400 },
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'proration_date' });
  });

  it("previews a new subscription's first invoice from customer and subscription_details", async () => {
    const { inst, s, cus, price } = await subscribed();
    const before = JSON.stringify(inst.changes());
    const preview = await s.invoices.createPreview({
      customer: cus.id,
      subscription_details: {
        items: [
          { price: price.id, quantity: 3 },
          {
            price_data: {
              currency: 'usd',
              product: (await s.prices.retrieve(price.id)).product as string,
              unit_amount: 999,
              recurring: { interval: 'month' },
            },
          },
        ],
      },
    });
    expect(preview).toMatchObject({ billing_reason: 'subscription_create', total: 7500 + 999 });
    expect(preview.lines.data.map((l) => l.amount)).toEqual([7500, 999]);
    const start = Math.floor(inst.clock.now() / 1000);
    expect(preview.lines.data[0].period.start).toBe(start);
    expect(JSON.stringify(inst.changes())).toBe(before);
    const trial = await s.invoices.createPreview({
      customer: cus.id,
      subscription_details: { items: [{ price: price.id }], trial_end: start + 7 * 86_400 },
    });
    expect(trial.total).toBe(0);
    expect(trial.lines.data[0].description).toBe('Trial period for Box');
    expect(
      await err(
        s.invoices.createPreview({ subscription_details: { items: [{ price: price.id }] } }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'customer' });
  });
});
