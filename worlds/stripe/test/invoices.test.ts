import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Invoices, their lines and payments, and invoice items, through the official SDK in process: the state machine
// (draft → open → paid | void | uncollectible), numbering, collection by card, the customer balance, pending items.

function fresh() {
  const inst = stripe.instance({ fixture: 'empty', seed: 11 });
  return { inst, s: sdkFor(inst) };
}

type SdkError = InstanceType<typeof Stripe.errors.StripeError>;
const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as SdkError;

/** A customer whose default payment method is the given test card. */
async function customerWith(
  s: Stripe,
  card = 'pm_card_visa',
  extra: Stripe.CustomerCreateParams = {},
) {
  const cus = await s.customers.create({
    name: 'Grace Hopper',
    email: 'grace@example.com',
    ...extra,
  });
  const pm = await s.paymentMethods.attach(card, { customer: cus.id });
  await s.customers.update(cus.id, { invoice_settings: { default_payment_method: pm.id } });
  return { cus: (await s.customers.retrieve(cus.id)) as Stripe.Customer, pm };
}

describe('invoices', () => {
  it('draft with items → finalize (numbered per customer) → pay by card; shapes match Stripe', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    const draft = await s.invoices.create({ customer: cus.id, description: 'Consulting' });
    expect(draft).toMatchObject({
      object: 'invoice',
      status: 'draft',
      customer: cus.id,
      number: null,
      amount_due: 0,
      collection_method: 'charge_automatically',
      auto_advance: false,
      billing_reason: 'manual',
      currency: 'usd',
    });
    expect(draft.id).toMatch(/^in_/);
    expect(shapeDifferences('invoice', plain(draft))).toEqual([]);
    const ii = await s.invoiceItems.create({
      customer: cus.id,
      invoice: draft.id,
      amount: 2500,
      currency: 'usd',
      description: 'Design review',
    });
    expect(shapeDifferences('invoiceitem', plain(ii))).toEqual([]);
    expect(plain(ii)).toMatchObject({
      object: 'invoiceitem',
      amount: 2500,
      invoice: draft.id,
      quantity: 1,
      pricing: { type: 'price_details', unit_amount_decimal: '2500' },
    });
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: draft.id,
      amount: 1500,
      currency: 'usd',
      description: 'Travel',
    });
    const withLines = await s.invoices.retrieve(draft.id);
    expect(withLines).toMatchObject({
      subtotal: 4000,
      total: 4000,
      amount_due: 4000,
      amount_remaining: 4000,
    });
    expect(withLines.lines.data.map((l) => l.amount)).toEqual([2500, 1500]);
    const lines = await s.invoices.listLineItems(draft.id);
    expect(lines.data).toHaveLength(2);
    expect(shapeDifferences('line_item', plain(lines.data[0]))).toEqual([]);
    expect(lines.data[0].parent).toMatchObject({
      type: 'invoice_item_details',
      invoice_item_details: { invoice_item: ii.id },
    });

    const open = await s.invoices.finalizeInvoice(draft.id);
    expect(open).toMatchObject({
      status: 'open',
      number: `${cus.invoice_prefix}-0001`,
      amount_due: 4000,
      attempt_count: 0,
    });
    expect(open.hosted_invoice_url).toMatch(/^https:\/\/invoice\.stripe\.com\/i\//);
    expect(open.invoice_pdf).toMatch(/\/pdf/);
    expect(open.status_transitions.finalized_at).toBe(Math.floor(inst.clock.now() / 1000));
    expect(shapeDifferences('invoice', plain(open))).toEqual([]);
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).next_invoice_sequence).toBe(2);

    const paid = await s.invoices.pay(open.id, { payment_method: 'pm_card_visa' });
    expect(paid).toMatchObject({
      status: 'paid',
      amount_paid: 4000,
      amount_remaining: 0,
      attempt_count: 1,
      attempted: true,
    });
    expect(paid.status_transitions.paid_at).not.toBeNull();
    const payments = await s.invoicePayments.list({ invoice: open.id });
    expect(payments.data).toHaveLength(1);
    const payment = payments.data[0];
    expect(shapeDifferences('invoice_payment', plain(payment))).toEqual([]);
    expect(payment).toMatchObject({
      object: 'invoice_payment',
      status: 'paid',
      amount_paid: 4000,
      amount_requested: 4000,
      is_default: true,
      invoice: open.id,
    });
    expect(plain(await s.invoicePayments.retrieve(payment.id))).toEqual(plain(payment));
    const pi = await s.paymentIntents.retrieve(payment.payment.payment_intent as string);
    expect(pi).toMatchObject({ status: 'succeeded', amount: 4000, customer: cus.id });
    const charge = await s.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ status: 'succeeded', amount: 4000 });
    expect(charge.balance_transaction).toMatch(/^txn_/);

    // The next invoice of the same customer takes the next number.
    const second = await s.invoices.create({ customer: cus.id });
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: second.id,
      amount: 700,
      currency: 'usd',
    });
    expect((await s.invoices.finalizeInvoice(second.id)).number).toBe(`${cus.invoice_prefix}-0002`);

    const types = inst.query('SELECT type FROM events ORDER BY seq').map((r) => r.type as string);
    for (const t of [
      'invoice.created',
      'invoiceitem.created',
      'invoice.updated',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'invoice_payment.paid',
    ])
      expect(types).toContain(t);
  });

  it('a declining card: 402 card_error, the invoice stays open with attempt_count 1', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s, 'pm_card_chargeCustomerFail');
    const inv = await s.invoices.create({ customer: cus.id });
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 5000,
      currency: 'usd',
    });
    await s.invoices.finalizeInvoice(inv.id);
    const e = await err(s.invoices.pay(inv.id));
    expect(e).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(e).toMatchObject({ statusCode: 402, code: 'card_declined' });
    const after = await s.invoices.retrieve(inv.id);
    expect(after).toMatchObject({
      status: 'open',
      attempt_count: 1,
      attempted: true,
      amount_paid: 0,
      amount_remaining: 5000,
    });
    expect(inst.query("SELECT count(*) AS n FROM charges WHERE status = 'failed'")).toEqual([
      { n: 1 },
    ]);
    expect(
      inst.query("SELECT type FROM events WHERE type = 'invoice.payment_failed'"),
    ).toHaveLength(1);
    // A retry with a good card pays it, on the same payment intent.
    const paid = await s.invoices.pay(inv.id, { payment_method: 'pm_card_visa' });
    expect(paid).toMatchObject({ status: 'paid', attempt_count: 2, amount_paid: 5000 });
    expect((await s.invoicePayments.list({ invoice: inv.id })).data).toHaveLength(1);
  });

  it('auto_advance collects at finalization and schedules a retry after a decline', async () => {
    const { s } = fresh();
    const { cus } = await customerWith(s, 'pm_card_chargeCustomerFail');
    const inv = await s.invoices.create({ customer: cus.id, auto_advance: true });
    expect(inv.automatically_finalizes_at).toBe(inv.created + 3600);
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 5000,
      currency: 'usd',
    });
    const open = await s.invoices.finalizeInvoice(inv.id);
    expect(open).toMatchObject({ status: 'open', attempt_count: 1 });
    expect(open.next_payment_attempt).toBe(open.status_transitions.finalized_at! + 3 * 86400);
  });

  it('void, mark_uncollectible, paid_out_of_band, and a zero invoice paid at finalization', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    const make = async (amount: number) => {
      const inv = await s.invoices.create({ customer: cus.id });
      if (amount)
        await s.invoiceItems.create({ customer: cus.id, invoice: inv.id, amount, currency: 'usd' });
      return s.invoices.finalizeInvoice(inv.id);
    };
    const a = await make(1000);
    const voided = await s.invoices.voidInvoice(a.id);
    expect(voided).toMatchObject({ status: 'void' });
    expect(voided.status_transitions.voided_at).not.toBeNull();
    expect(await err(s.invoices.pay(a.id))).toMatchObject({ statusCode: 400 });
    expect(await err(s.invoices.voidInvoice(a.id))).toMatchObject({ statusCode: 400 });

    const b = await make(1000);
    const unc = await s.invoices.markUncollectible(b.id);
    expect(unc).toMatchObject({ status: 'uncollectible' });
    expect(unc.status_transitions.marked_uncollectible_at).not.toBeNull();
    expect(await s.invoices.pay(b.id, { paid_out_of_band: true })).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      amount_remaining: 0,
    });

    const zero = await make(0);
    expect(zero).toMatchObject({ status: 'paid', amount_due: 0 });
    const types = inst.query('SELECT type FROM events').map((r) => r.type);
    expect(types).toContain('invoice.voided');
    expect(types).toContain('invoice.marked_uncollectible');
  });

  it('send_invoice with days_until_due gets a due date; send announces it', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({ email: 'ap@example.com' });
    const inv = await s.invoices.create({
      customer: cus.id,
      collection_method: 'send_invoice',
      days_until_due: 30,
    });
    expect(inv.due_date).toBe(inv.created + 30 * 86400);
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 9900,
      currency: 'usd',
    });
    const sent = await s.invoices.sendInvoice(inv.id);
    expect(sent).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      due_date: inv.created + 30 * 86400,
    });
    expect(inst.query("SELECT count(*) AS n FROM events WHERE type = 'invoice.sent'")).toEqual([
      { n: 1 },
    ]);
    expect(
      await err(s.invoices.create({ customer: cus.id, collection_method: 'send_invoice' })),
    ).toMatchObject({ statusCode: 400, param: 'days_until_due' });
    const list = await s.invoices.list({
      collection_method: 'send_invoice',
      due_date: { gte: inv.created },
    });
    expect(list.data.map((i) => i.id)).toEqual([inv.id]);
  });

  it('only drafts are editable and deletable', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    const inv = await s.invoices.create({ customer: cus.id });
    const ii = await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 1000,
      currency: 'usd',
    });
    const updated = await s.invoices.update(inv.id, {
      description: 'Edited',
      metadata: { po: '42' },
      collection_method: 'send_invoice',
      days_until_due: 7,
    });
    expect(updated).toMatchObject({
      description: 'Edited',
      metadata: { po: '42' },
      collection_method: 'send_invoice',
    });
    await s.invoices.finalizeInvoice(inv.id);
    const frozen = await err(
      s.invoices.update(inv.id, { collection_method: 'charge_automatically' }),
    );
    expect(frozen).toMatchObject({
      statusCode: 400,
      code: 'invoice_not_editable',
      param: 'collection_method',
    });
    expect(await s.invoices.update(inv.id, { metadata: { po: '43' } })).toMatchObject({
      metadata: { po: '43' },
    });
    expect(await err(s.invoices.del(inv.id))).toMatchObject({
      statusCode: 400,
      message: 'You can only delete draft invoices.',
    });
    expect(await err(s.invoiceItems.update(ii.id, { amount: 5 }))).toMatchObject({
      statusCode: 400,
      code: 'invoice_not_editable',
    });
    expect(await err(s.invoiceItems.del(ii.id))).toMatchObject({ statusCode: 400 });
    expect(await err(s.invoices.addLines(inv.id, { lines: [{ amount: 100 }] }))).toMatchObject({
      statusCode: 400,
      code: 'invoice_not_editable',
    });
    expect(await err(s.invoices.finalizeInvoice(inv.id))).toMatchObject({ statusCode: 400 });

    // A draft can go; its items go back to pending.
    const other = await s.invoices.create({ customer: cus.id });
    const item = await s.invoiceItems.create({
      customer: cus.id,
      invoice: other.id,
      amount: 300,
      currency: 'usd',
    });
    const del = await s.invoices.del(other.id);
    expect(plain(del)).toEqual({ id: other.id, object: 'invoice', deleted: true });
    expect(shapeDifferences('deleted_invoice', plain(del))).toEqual([]);
    expect(await err(s.invoices.retrieve(other.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect((await s.invoiceItems.retrieve(item.id)).invoice).toBeNull();
    expect(inst.query("SELECT count(*) AS n FROM events WHERE type = 'invoice.deleted'")).toEqual([
      { n: 1 },
    ]);
  });

  it('pending invoice items join the next invoice that asks for them; price and pricing[price] both work', async () => {
    const { s } = fresh();
    const { cus } = await customerWith(s);
    const product = await s.products.create({ name: 'Widget' });
    const price = await s.prices.create({
      product: product.id,
      unit_amount: 1200,
      currency: 'usd',
    });
    const byPricing = await s.invoiceItems.create({
      customer: cus.id,
      pricing: { price: price.id },
      quantity: 2,
    });
    expect(plain(byPricing)).toMatchObject({
      amount: 2400,
      invoice: null,
      quantity: 2,
      pricing: {
        price_details: { price: price.id, product: product.id },
        unit_amount_decimal: '1200',
      },
    });
    const byPrice = await s.invoiceItems.create({
      customer: cus.id,
      price: price.id,
    } as Stripe.InvoiceItemCreateParams);
    expect(byPrice).toMatchObject({
      amount: 1200,
      pricing: { price_details: { price: price.id } },
    });
    const byData = await s.invoiceItems.create({
      customer: cus.id,
      price_data: { currency: 'usd', product: product.id, unit_amount: 50 },
      quantity: 3,
    });
    expect(byData.amount).toBe(150);
    expect((await s.invoiceItems.list({ customer: cus.id, pending: true })).data).toHaveLength(3);

    // Since 2022-08-01 pending items stay out unless the invoice asks for them.
    const without = await s.invoices.create({ customer: cus.id });
    expect(without.lines.data).toHaveLength(0);
    const inv = await s.invoices.create({
      customer: cus.id,
      pending_invoice_items_behavior: 'include',
    });
    expect(inv.lines.data).toHaveLength(3);
    expect(inv.total).toBe(3750);
    expect((await s.invoiceItems.list({ invoice: inv.id })).data).toHaveLength(3);
    expect((await s.invoiceItems.list({ customer: cus.id, pending: true })).data).toHaveLength(0);

    // Updating an item on a draft moves the invoice's totals.
    const changed = await s.invoiceItems.update(byPricing.id, { quantity: 5 });
    expect(changed).toMatchObject({ amount: 6000, quantity: 5 });
    expect((await s.invoices.retrieve(inv.id)).total).toBe(7350);
    const gone = await s.invoiceItems.del(byData.id);
    expect(shapeDifferences('deleted_invoiceitem', plain(gone))).toEqual([]);
    expect((await s.invoices.retrieve(inv.id)).total).toBe(7200);
    expect(await err(s.invoiceItems.retrieve(byData.id))).toMatchObject({ statusCode: 404 });
  });

  it('lines: add, update one, update many, remove', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    const product = await s.products.create({ name: 'Seat' });
    const price = await s.prices.create({
      product: product.id,
      unit_amount: 1000,
      currency: 'usd',
    });
    const inv = await s.invoices.create({ customer: cus.id });
    const added = await s.invoices.addLines(inv.id, {
      lines: [
        { amount: 500, description: 'Setup' },
        { pricing: { price: price.id }, quantity: 3 },
      ],
      invoice_metadata: { batch: '1' },
    });
    expect(added.total).toBe(3500);
    expect(added.metadata).toEqual({ batch: '1' });
    const [setup, seats] = added.lines.data;
    const one = await s.invoices.updateLineItem(inv.id, setup.id, {
      amount: 800,
      description: 'Setup fee',
    });
    expect(one).toMatchObject({ id: setup.id, amount: 800, description: 'Setup fee' });
    expect(shapeDifferences('line_item', plain(one))).toEqual([]);
    const many = await s.invoices.updateLines(inv.id, { lines: [{ id: seats.id, quantity: 4 }] });
    expect(many.total).toBe(4800);
    const removed = await s.invoices.removeLines(inv.id, {
      lines: [{ id: setup.id, behavior: 'unassign' }],
    });
    expect(removed.lines.data.map((l) => l.id)).toEqual([seats.id]);
    expect(removed.total).toBe(4000);
    expect((await s.invoiceItems.list({ customer: cus.id, pending: true })).data).toHaveLength(1);
    const afterDelete = await s.invoices.removeLines(inv.id, {
      lines: [{ id: seats.id, behavior: 'delete' }],
    });
    expect(afterDelete.total).toBe(0);
    expect(inst.query('SELECT count(*) AS n FROM invoiceitems')).toEqual([{ n: 1 }]);
    expect(await err(s.invoices.updateLineItem(inv.id, 'il_nope', { amount: 1 }))).toMatchObject({
      statusCode: 404,
    });
  });

  it('pages through many lines in order', async () => {
    const { s } = fresh();
    const cus = await s.customers.create({});
    const inv = await s.invoices.create({ customer: cus.id });
    await s.invoices.addLines(inv.id, {
      lines: Array.from({ length: 12 }, (_, i) => ({ amount: 100 + i })),
    });
    const got = await s.invoices.retrieve(inv.id);
    expect(got.lines.data).toHaveLength(10);
    expect(got.lines.has_more).toBe(true);
    const all: number[] = [];
    for await (const line of s.invoices.listLineItems(inv.id, { limit: 5 })) all.push(line.amount);
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => 100 + i));
  });

  it('applies the customer balance at finalization', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    await s.customers.createBalanceTransaction(cus.id, { amount: -1500, currency: 'usd' });
    const inv = await s.invoices.create({ customer: cus.id });
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 4000,
      currency: 'usd',
    });
    const open = await s.invoices.finalizeInvoice(inv.id);
    expect(open).toMatchObject({
      total: 4000,
      amount_due: 2500,
      starting_balance: -1500,
      ending_balance: 0,
    });
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).balance).toBe(0);
    expect(
      inst.query(
        "SELECT count(*) AS n FROM customer_balance_transactions WHERE json_extract(data, '$.type') = 'applied_to_invoice'",
      ),
    ).toEqual([{ n: 1 }]);
    const paid = await s.invoices.pay(open.id);
    expect(paid.amount_paid).toBe(2500);
  });

  it('lists with filters, searches, previews, and attaches an outside payment', async () => {
    const { inst, s } = fresh();
    const { cus } = await customerWith(s);
    const other = await s.customers.create({});
    const a = await s.invoices.create({ customer: cus.id });
    await s.invoiceItems.create({ customer: cus.id, invoice: a.id, amount: 1000, currency: 'usd' });
    await s.invoices.finalizeInvoice(a.id);
    const b = await s.invoices.create({ customer: other.id });
    expect((await s.invoices.list({ customer: cus.id })).data.map((i) => i.id)).toEqual([a.id]);
    expect((await s.invoices.list({ status: 'draft' })).data.map((i) => i.id)).toEqual([b.id]);
    const found = await s.invoices.search({ query: 'status:"open"' });
    expect(found.data.map((i) => i.id)).toEqual([a.id]);

    await s.invoiceItems.create({ customer: cus.id, amount: 300, currency: 'usd' });
    const preview = await s.invoices.createPreview({
      customer: cus.id,
      invoice_items: [{ amount: 200, currency: 'usd', description: 'Extra' }],
    });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview).toMatchObject({
      object: 'invoice',
      status: 'draft',
      total: 500,
      amount_due: 500,
    });
    expect(preview.lines.data).toHaveLength(2);
    expect(shapeDifferences('invoice', plain(preview))).toEqual([]);
    expect(await err(s.invoices.retrieve(preview.id))).toMatchObject({ statusCode: 404 });
    // A preview names what it previews: a customer alone (their pending items) is not enough since basil.
    const before = inst.changes().length;
    expect(await err(s.invoices.createPreview({ customer: cus.id }))).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      message:
        'You must provide at least one of: `subscription`, `schedule`, `subscription_details.items`, `schedule_details.phases`, `invoice_items`.',
    });
    expect(
      await err(
        s.invoices.createPreview({ customer: cus.id, subscription_details: { cancel_now: true } }),
      ),
    ).toMatchObject({ statusCode: 400 });
    expect(inst.changes()).toHaveLength(before);

    const pi = await s.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: cus.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const paid = await s.invoices.attachPayment(a.id, { payment_intent: pi.id });
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 1000, amount_remaining: 0 });
    const payments = await s.invoicePayments.list({ invoice: a.id, status: 'paid' });
    expect(payments.data.map((p) => p.payment.payment_intent)).toEqual([pi.id]);
  });

  it('failed requests change nothing', async () => {
    const { inst, s } = fresh();
    const cus = await s.customers.create({});
    const inv = await s.invoices.create({ customer: cus.id });
    const start = inst.changes().length;
    expect(await err(s.invoices.create({}))).toMatchObject({ statusCode: 400, param: 'customer' });
    expect(await err(s.invoices.create({ customer: 'cus_nope' }))).toMatchObject({
      statusCode: 404,
      param: 'customer',
    });
    expect(await err(s.invoices.retrieve('in_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such invoice: 'in_nope'",
    });
    expect(await err(s.invoiceItems.create({ customer: cus.id, currency: 'usd' }))).toMatchObject({
      statusCode: 400,
    });
    expect(
      await err(
        s.invoiceItems.create({ customer: cus.id, amount: 100, currency: 'eur', invoice: inv.id }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'currency' });
    // Paying a draft finalizes it first, but with nothing to charge the whole call is undone.
    await s.invoiceItems.create({
      customer: cus.id,
      invoice: inv.id,
      amount: 1000,
      currency: 'usd',
    });
    const before = inst.changes().length;
    expect(await err(s.invoices.pay(inv.id))).toMatchObject({ statusCode: 400 });
    expect(inst.changes().length).toBe(before);
    expect((await s.invoices.retrieve(inv.id)).status).toBe('draft');
    expect(start).toBeLessThan(before);
  });
});
