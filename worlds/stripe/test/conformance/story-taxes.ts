/**
 * The story's chapters on taxes (story.ts tells them): tax IDs, a customer's and the account's, through every
 * operation of both families, with a number the registry verifies on the world clock the story later advances.
 */
import type Stripe from 'stripe';

/** Tax IDs: a customer's through `/v1/customers/{customer}/tax_ids`, and the top-level `/v1/tax_ids`. */
export async function taxIdsChapter(s: Stripe, customer: string): Promise<void> {
  const vat = await s.customers.createTaxId(customer, { type: 'eu_vat', value: 'DE000000000' });
  await s.customers.createTaxId(customer, { type: 'gb_vat', value: 'GB111111111' });
  const ein = await s.customers.createTaxId(customer, { type: 'us_ein', value: '12-3456789' });
  await s.customers.retrieveTaxId(customer, vat.id);
  await s.customers.listTaxIds(customer, { limit: 2 });
  await s.customers.deleteTaxId(customer, ein.id);
  await s.customers.retrieve(customer, { expand: ['tax_ids'] });
  await s.customers.create({
    name: 'Tax ID data',
    tax_id_data: [{ type: 'au_abn', value: '12345678912' }],
  });
  const own = await s.taxIds.create({ type: 'eu_vat', value: 'IE1234567AB' });
  const theirs = await s.taxIds.create({
    type: 'ch_vat',
    value: 'CHE-123.456.789 MWST',
    owner: { type: 'customer', customer },
  });
  await s.taxIds.retrieve(own.id);
  await s.taxIds.list({ limit: 3 });
  await s.taxIds.list({ owner: { type: 'customer', customer } });
  await s.taxIds.del(theirs.id);
  await s.taxIds.del((await s.taxIds.create({ type: 'us_ein', value: '98-7654321' })).id);
}

/**
 * Tax rates on an invoice: an item's exclusive rate, an inclusive one, the invoice's defaults for the rest; changed
 * on the draft, then finalized and paid, so the taxed lines and totals appear in replies and in invoice events.
 */
export async function invoiceTaxesChapter(s: Stripe, customer: string): Promise<void> {
  const sales = await s.taxRates.create({
    display_name: 'Sales tax',
    percentage: 8.25,
    inclusive: false,
  });
  const vat = await s.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: true });
  const invoice = await s.invoices.create({ customer, default_tax_rates: [sales.id] });
  await s.invoiceItems.create({ customer, invoice: invoice.id, amount: 3333, currency: 'usd' });
  const item = await s.invoiceItems.create({
    customer,
    invoice: invoice.id,
    amount: 1200,
    currency: 'usd',
    tax_rates: [vat.id],
  });
  await s.invoiceItems.update(item.id, { tax_rates: [vat.id, sales.id] });
  await s.invoices.update(invoice.id, { default_tax_rates: [sales.id, vat.id] });
  await s.invoices.listLineItems(invoice.id);
  await s.invoices.finalizeInvoice(invoice.id);
  await s.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' });
}

/**
 * Previews of subscription changes: a price change mid-period with its prorations, billed at once, without
 * prorations, and a new subscription's first invoice (its trial too); then the subscription taxed.
 */
export async function subscriptionPreviewChapter(
  s: Stripe,
  subscription: Stripe.Subscription,
  price: string,
): Promise<void> {
  const item = subscription.items.data[0];
  const customer = subscription.customer as string;
  const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
  for (const proration_behavior of ['create_prorations', 'always_invoice', 'none'] as const)
    await s.invoices.createPreview({
      customer,
      subscription: subscription.id,
      subscription_details: {
        items: [{ id: item.id, price, quantity: 3 }],
        proration_behavior,
        proration_date: half,
      },
    });
  await s.invoices.createPreview({
    customer,
    subscription_details: { items: [{ price, quantity: 2 }] },
  });
  await s.invoices.createPreview({
    customer,
    subscription_details: {
      items: [{ price }],
      trial_end: item.current_period_start + 14 * 86_400,
    },
  }); // The subscription taxed from now on: its defaults and the item's own rate, shown in its next invoice.
  const gst = await s.taxRates.create({ display_name: 'GST', percentage: 5, inclusive: false });
  await s.subscriptions.update(subscription.id, {
    default_tax_rates: [gst.id],
    items: [{ id: item.id, tax_rates: [gst.id] }],
    proration_behavior: 'none',
  });
  await s.invoices.createPreview({ subscription: subscription.id });
}
