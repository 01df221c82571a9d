import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { taxesFor } from '../billing/invoice-taxes.ts';

// Tax rates on invoices through the official SDK: an invoice item's `tax_rates`, an invoice's `default_tax_rates`,
// exclusive and inclusive rates, each line's `taxes`, the invoice's `total_taxes`, `subtotal_excluding_tax`,
// `total_excluding_tax`, and the amount charged.

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 13 });
  return { inst, s: sdkFor(inst) };
}

async function customerWithCard(s: Stripe) {
  const cus = await s.customers.create({ name: 'Tax payer', payment_method: 'pm_card_visa' });
  const pm = (await s.customers.listPaymentMethods(cus.id)).data[0];
  await s.customers.update(cus.id, { invoice_settings: { default_payment_method: pm.id } });
  return cus;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e as Stripe.errors.StripeError,
  );

describe('invoice taxes', () => {
  it('reckons tax per line and rate, rounded half away from zero', () => {
    const exclusive = { id: 'txr_a', percentage: 8.25, inclusive: false };
    const vat = { id: 'txr_b', percentage: 20, inclusive: true };
    expect(taxesFor(3333, [exclusive]).map((t) => t.amount)).toEqual([275]);
    expect(taxesFor(10_000, [exclusive])[0]).toMatchObject({ amount: 825, taxable_amount: 10_000 });
    // 1000 with 20% inside: net 833.33…, tax 166.67 → 167; the taxable amount is what is left.
    expect(taxesFor(1000, [vat])[0]).toMatchObject({
      amount: 167,
      taxable_amount: 833,
      tax_behavior: 'inclusive',
    });
    // Half a cent rounds away from zero, for credits too.
    const half = { id: 'txr_c', percentage: 5, inclusive: false };
    expect(taxesFor(10, [half])[0].amount).toBe(1);
    expect(taxesFor(-10, [half])[0].amount).toBe(-1);
    // Inclusive and exclusive together: the exclusive rate applies to the net.
    expect(taxesFor(1200, [vat, exclusive]).map((t) => [t.amount, t.taxable_amount])).toEqual([
      [200, 1000],
      [83, 1000],
    ]);
  });

  it("an invoice item's exclusive and inclusive rates: line taxes, totals, and the amount charged", async () => {
    const { s } = fresh();
    const cus = await customerWithCard(s);
    const sales = await s.taxRates.create({
      display_name: 'Sales tax',
      percentage: 8.25,
      inclusive: false,
      jurisdiction: 'CA',
    });
    const vat = await s.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: true });
    const invoice = await s.invoices.create({ customer: cus.id });
    const a = await s.invoiceItems.create({
      customer: cus.id,
      invoice: invoice.id,
      amount: 3333,
      currency: 'usd',
      tax_rates: [sales.id],
    });
    expect(a.tax_rates?.map((r) => r.id)).toEqual([sales.id]);
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: invoice.id,
      amount: 1000,
      currency: 'usd',
      tax_rates: [vat.id],
    });
    const draft = await s.invoices.retrieve(invoice.id);
    expect(draft).toMatchObject({
      subtotal: 4333,
      subtotal_excluding_tax: 4333 - 167,
      total_excluding_tax: 4333 - 167,
      total: 4333 + 275,
      amount_due: 4333 + 275,
    });
    expect(draft.total_taxes).toEqual([
      {
        amount: 275,
        tax_behavior: 'exclusive',
        tax_rate_details: { tax_rate: sales.id },
        taxability_reason: 'not_available',
        taxable_amount: 3333,
        type: 'tax_rate_details',
      },
      {
        amount: 167,
        tax_behavior: 'inclusive',
        tax_rate_details: { tax_rate: vat.id },
        taxability_reason: 'not_available',
        taxable_amount: 833,
        type: 'tax_rate_details',
      },
    ]);
    const lines = await s.invoices.listLineItems(invoice.id);
    expect(lines.data.map((l) => l.taxes?.map((t) => t.amount))).toEqual(
      draft.lines.data.map((l) => l.taxes?.map((t) => t.amount)),
    );
    expect(lines.data.flatMap((l) => l.taxes?.map((t) => t.amount))).toEqual(
      expect.arrayContaining([275, 167]),
    );
    const paid = await s.invoices.pay(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 4608, total: 4608 });
    const pi = await s.paymentIntents.list({ customer: cus.id });
    expect(pi.data[0].amount).toBe(4608);
  });

  it("the invoice's default_tax_rates tax lines without their own, and changing them re-taxes", async () => {
    const { s } = fresh();
    const cus = await customerWithCard(s);
    const gst = await s.taxRates.create({ display_name: 'GST', percentage: 10, inclusive: false });
    const pst = await s.taxRates.create({ display_name: 'PST', percentage: 7, inclusive: false });
    const invoice = await s.invoices.create({ customer: cus.id, default_tax_rates: [gst.id] });
    expect(invoice.default_tax_rates.map((r) => r.id)).toEqual([gst.id]);
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: invoice.id,
      amount: 5000,
      currency: 'usd',
    });
    const own = await s.invoiceItems.create({
      customer: cus.id,
      invoice: invoice.id,
      amount: 2000,
      currency: 'usd',
      tax_rates: [pst.id],
    });
    expect((await s.invoices.retrieve(invoice.id)).total).toBe(7000 + 500 + 140);
    const both = await s.invoices.update(invoice.id, { default_tax_rates: [gst.id, pst.id] });
    expect(both.total).toBe(7000 + 500 + 350 + 140);
    // An empty string clears them (stripe-node sends nothing for an empty array).
    await s.invoiceItems.update(own.id, { tax_rates: '' });
    expect((await s.invoices.retrieve(invoice.id)).total).toBe(7000 + 700 + 490);
    const open = await s.invoices.finalizeInvoice(invoice.id);
    expect(open).toMatchObject({ status: 'open', total: 8190, amount_due: 8190 });
    expect(open.total_taxes?.map((t) => t.amount)).toEqual([700, 490]);
  });

  it('refuses a tax rate that does not exist or is archived, writing nothing', async () => {
    const { inst, s } = fresh();
    const cus = await customerWithCard(s);
    const old = await s.taxRates.create({ display_name: 'Old', percentage: 5, inclusive: false });
    await s.taxRates.update(old.id, { active: false });
    const before = JSON.stringify(inst.changes());
    const missing = await failure(
      s.invoiceItems.create({
        customer: cus.id,
        amount: 100,
        currency: 'usd',
        tax_rates: ['txr_nope'],
      }),
    );
    expect(missing).toMatchObject({ statusCode: 400, param: 'tax_rates[0]' });
    const archived = await failure(
      s.invoices.create({ customer: cus.id, default_tax_rates: [old.id] }),
    );
    expect(archived).toMatchObject({ statusCode: 400, param: 'default_tax_rates[0]' });
    expect(archived.message).toMatch(/archived/);
    expect(JSON.stringify(inst.changes())).toBe(before);
  });

  it("subscriptions: an item's tax_rates and the subscription's default_tax_rates tax its invoices and prorations", async () => {
    const { inst, s } = fresh();
    const cus = await customerWithCard(s);
    const vat = await s.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: true });
    const sales = await s.taxRates.create({
      display_name: 'Sales',
      percentage: 10,
      inclusive: false,
    });
    const price = await s.prices.create({
      product_data: { name: 'Seat' },
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const addOn = await s.prices.create({
      product_data: { name: 'Add-on' },
      unit_amount: 500,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const sub = await s.subscriptions.create({
      customer: cus.id,
      default_tax_rates: [sales.id],
      items: [{ price: price.id, tax_rates: [vat.id] }, { price: addOn.id }],
      expand: ['latest_invoice'],
    });
    expect(sub.default_tax_rates?.map((r) => r.id)).toEqual([sales.id]);
    expect(sub.items.data[0].tax_rates?.map((r) => r.id)).toEqual([vat.id]);
    const first = sub.latest_invoice as Stripe.Invoice;
    // 1200 with 20 % inside (200 of tax), and 500 + 10 % on top.
    expect(first).toMatchObject({
      status: 'paid',
      subtotal: 1700,
      subtotal_excluding_tax: 1500,
      total: 1750,
      amount_paid: 1750,
    });
    expect(first.default_tax_rates.map((r) => r.id)).toEqual([sales.id]);
    // Half-way through, two seats: the prorations carry the item's rate.
    const item = sub.items.data[0];
    inst.advanceClock(((item.current_period_end - item.current_period_start) / 2) * 1000);
    await s.subscriptionItems.update(item.id, { quantity: 2 });
    const pending = (await s.invoiceItems.list({ customer: cus.id })).data;
    expect(pending.every((ii) => ii.tax_rates?.[0]?.id === vat.id)).toBe(true);
    const next = await s.invoices.createPreview({ subscription: sub.id });
    const seatTaxes = next.lines.data
      .filter((l) => l.parent?.subscription_item_details?.subscription_item === item.id)
      .flatMap((l) => l.taxes ?? []);
    expect(seatTaxes.map((t) => [t.amount, t.tax_behavior])).toEqual([[400, 'inclusive']]);
    await s.subscriptions.update(sub.id, { default_tax_rates: '' });
    const untaxed = await s.invoices.createPreview({ subscription: sub.id });
    const addOnLine = untaxed.lines.data.find((l) => l.amount === 500)!;
    expect(addOnLine.taxes).toEqual([]);
  });
});
