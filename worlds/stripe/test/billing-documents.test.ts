import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Instance } from 'seahaven';
import { stripe } from '../index.ts';
import { operations } from '../operations.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Payment links, checkout sessions and credit notes through the official SDK: the objects' shapes, the buyer's
// side through the world's completion hooks (no browser exists), and credit notes on open and paid invoices.

function fresh(seed = 53) {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as InstanceType<typeof Stripe.errors.StripeError>;
const eventTypes = (inst: Instance) =>
  inst.query<{ type: string }>('SELECT type FROM events ORDER BY seq').map((r) => r.type);
const served = (id: string) => operations.some((o) => o.id === id);
const HOUR_MS = 3_600_000;

async function catalog(s: Stripe) {
  const product = await s.products.create({ name: 'Tea towel' });
  const price = await s.prices.create({ product: product.id, currency: 'usd', unit_amount: 1500 });
  const monthly = await s.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 900,
    recurring: { interval: 'month' },
  });
  return { product, price, monthly };
}

describe('payment links', () => {
  it('create, retrieve, update, list and line items: shapes match Stripe, line_items only when asked for', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const link = await s.paymentLinks.create({
      line_items: [{ price: price.id, quantity: 2 }],
      after_completion: { type: 'redirect', redirect: { url: 'https://shop.example.com/thanks' } },
      metadata: { campaign: 'spring' },
    });
    expect(link).toMatchObject({
      object: 'payment_link',
      active: true,
      currency: 'usd',
      after_completion: { type: 'redirect', redirect: { url: 'https://shop.example.com/thanks' } },
      metadata: { campaign: 'spring' },
    });
    expect(link.id).toMatch(/^plink_/);
    expect(link.url).toMatch(/^https:\/\/buy\.stripe\.com\/test_[A-Za-z0-9]+$/);
    expect(link.line_items).toBeUndefined();
    expect(shapeDifferences('payment_link', plain(link))).toEqual([]);

    const withItems = await s.paymentLinks.retrieve(link.id, { expand: ['line_items'] });
    expect(withItems.line_items?.data).toHaveLength(1);
    const [item] = withItems.line_items!.data;
    expect(item).toMatchObject({
      object: 'item',
      quantity: 2,
      amount_subtotal: 3000,
      amount_total: 3000,
      currency: 'usd',
      description: 'Tea towel',
      price: { id: price.id },
    });
    expect(item.id).toMatch(/^li_/);
    expect(shapeDifferences('item', plain(item))).toEqual([]);

    const items = await s.paymentLinks.listLineItems(link.id);
    expect(items).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/payment_links/${link.id}/line_items`,
    });
    expect(plain(items.data)).toEqual(plain(withItems.line_items!.data));

    const updated = await s.paymentLinks.update(link.id, {
      active: false,
      line_items: [{ id: item.id, quantity: 3 }],
      after_completion: {
        type: 'hosted_confirmation',
        hosted_confirmation: { custom_message: 'Thanks!' },
      },
    });
    expect(updated).toMatchObject({
      active: false,
      after_completion: {
        type: 'hosted_confirmation',
        hosted_confirmation: { custom_message: 'Thanks!' },
      },
    });
    expect((await s.paymentLinks.listLineItems(link.id)).data[0]).toMatchObject({
      id: item.id,
      quantity: 3,
      amount_total: 4500,
    });

    const other = await s.paymentLinks.create({ line_items: [{ price: price.id, quantity: 1 }] });
    expect((await s.paymentLinks.list()).data.map((l) => l.id)).toEqual([other.id, link.id]);
    expect((await s.paymentLinks.list({ active: true })).data.map((l) => l.id)).toEqual([other.id]);
    expect((await s.paymentLinks.list({ active: false })).data.map((l) => l.id)).toEqual([link.id]);
    expect((await s.paymentLinks.list()).data[0].line_items).toBeUndefined();
    expect(eventTypes(inst).filter((t) => t.startsWith('payment_link.'))).toEqual([
      'payment_link.created',
      'payment_link.updated',
      'payment_link.created',
    ]);
  });

  it('completing a link opens a checkout session from it and pays: a customer, a succeeded payment intent, checkout.session.completed', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const link = await s.paymentLinks.create({
      line_items: [{ price: price.id, quantity: 2 }],
      restrictions: { completed_sessions: { limit: 1 } },
    });
    const session = (await s.rawRequest(
      'POST',
      `/v1/test_helpers/payment_links/${link.id}/complete`,
      {
        payment_method: 'pm_card_visa',
        customer_details: { email: 'buyer@example.com', name: 'Grace Hopper' },
      },
    )) as unknown as Stripe.Checkout.Session;
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      payment_link: link.id,
      amount_total: 3000,
      customer_details: { email: 'buyer@example.com', name: 'Grace Hopper' },
    });
    expect(shapeDifferences('checkout.session', plain(session))).toEqual([]);
    const pi = await s.paymentIntents.retrieve(session.payment_intent as string);
    expect(pi).toMatchObject({ status: 'succeeded', amount: 3000, customer: session.customer });
    expect(await s.customers.retrieve(session.customer as string)).toMatchObject({
      email: 'buyer@example.com',
      name: 'Grace Hopper',
    });
    expect(eventTypes(inst)).toContain('checkout.session.completed');
    expect(
      (await s.checkout.sessions.list({ payment_link: link.id })).data.map((x) => x.id),
    ).toEqual([session.id]);
    // The link allowed one completed session: now it is inactive, and a second visit is refused.
    expect((await s.paymentLinks.retrieve(link.id)).active).toBe(false);
    const before = inst.changes();
    expect(
      await err(s.rawRequest('POST', `/v1/test_helpers/payment_links/${link.id}/complete`, {})),
    ).toMatchObject({ statusCode: 400, param: 'payment_link' });
    expect(inst.changes()).toEqual(before);
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const before = inst.changes();
    expect(await err(s.paymentLinks.create({} as Stripe.PaymentLinkCreateParams))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'line_items',
    });
    expect(
      await err(s.paymentLinks.create({ line_items: [{ price: 'price_nope', quantity: 1 }] })),
    ).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'line_items[0][price]' });
    expect(
      await err(
        s.paymentLinks.create({
          line_items: [{ price: price.id, quantity: 1 }],
          after_completion: { type: 'redirect' },
        }),
      ),
    ).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'after_completion[redirect][url]',
    });
    expect(await err(s.paymentLinks.retrieve('plink_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such payment link: 'plink_nope'",
    });
    expect(await err(s.paymentLinks.listLineItems('plink_nope'))).toMatchObject({
      statusCode: 404,
    });
    expect(inst.changes()).toEqual(before);
  });
});

describe('checkout sessions', () => {
  it('payment mode: create (shapes, url, 24 h expiry), line items, update, then the buyer pays', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const cus = await s.customers.create({ email: 'known@example.com' });
    const cs = await s.checkout.sessions.create({
      mode: 'payment',
      customer: cus.id,
      success_url: 'https://shop.example.com/ok',
      line_items: [
        { price: price.id, quantity: 1 },
        {
          price_data: { currency: 'usd', unit_amount: 250, product_data: { name: 'Gift wrap' } },
          quantity: 2,
        },
      ],
      payment_intent_data: { metadata: { order: 'A-7' } },
    });
    expect(cs).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2000,
      amount_subtotal: 2000,
      currency: 'usd',
      customer: cus.id,
      payment_intent: null,
      url: `https://checkout.stripe.com/c/pay/${cs.id}`,
    });
    expect(cs.id).toMatch(/^cs_test_/);
    expect(cs.expires_at).toBe(Math.floor(inst.clock.now() / 1000) + 24 * 3600);
    expect(shapeDifferences('checkout.session', plain(cs))).toEqual([]);
    expect((cs as unknown as Record<string, unknown>).payment_intent_data).toBeUndefined();

    const lines = await s.checkout.sessions.listLineItems(cs.id, { limit: 1 });
    expect(lines).toMatchObject({
      has_more: true,
      url: `/v1/checkout/sessions/${cs.id}/line_items`,
    });
    expect(lines.data[0]).toMatchObject({ description: 'Tea towel', amount_total: 1500 });
    const rest = await s.checkout.sessions.listLineItems(cs.id, {
      starting_after: lines.data[0].id,
    });
    expect(rest.data[0]).toMatchObject({
      description: 'Gift wrap',
      quantity: 2,
      amount_total: 500,
      price: { unit_amount: 250, active: false },
    });
    expect(shapeDifferences('item', plain(rest.data[0]))).toEqual([]);
    const expanded = await s.checkout.sessions.retrieve(cs.id, { expand: ['line_items'] });
    expect(expanded.line_items?.data).toHaveLength(2);
    expect(
      (await s.checkout.sessions.update(cs.id, { metadata: { note: 'gift' } })).metadata,
    ).toEqual({ note: 'gift' });

    const done = (await s.rawRequest(
      'POST',
      `/v1/test_helpers/checkout/sessions/${cs.id}/complete`,
      { payment_method: 'pm_card_visa' },
    )) as unknown as Stripe.Checkout.Session;
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      customer: cus.id,
      customer_details: { email: 'known@example.com' },
    });
    const pi = await s.paymentIntents.retrieve(done.payment_intent as string);
    expect(pi).toMatchObject({
      status: 'succeeded',
      amount: 2000,
      customer: cus.id,
      metadata: { order: 'A-7' },
    });
    expect(
      shapeDifferences('checkout.session', plain(await s.checkout.sessions.retrieve(cs.id))),
    ).toEqual([]);
    expect(
      (await s.checkout.sessions.list({ payment_intent: pi.id })).data.map((x) => x.id),
    ).toEqual([cs.id]);
    expect(
      (await s.checkout.sessions.list({ customer: cus.id, status: 'complete' })).data,
    ).toHaveLength(1);
    expect((await s.checkout.sessions.list({ status: 'open' })).data).toHaveLength(0);
    const completed = inst
      .query<{ data: string }>("SELECT data FROM events WHERE type = 'checkout.session.completed'")
      .map((r) => JSON.parse(r.data));
    expect(completed).toHaveLength(1);
    expect(completed[0].data.object).toMatchObject({ id: cs.id, status: 'complete' });
    // A completed session cannot be completed again or expired.
    expect(
      await err(s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${cs.id}/complete`, {})),
    ).toMatchObject({ statusCode: 400 });
    expect(await err(s.checkout.sessions.expire(cs.id))).toMatchObject({ statusCode: 400 });
  });

  it('a declined card fails with 402 and the session stays open; another card then completes it', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const cs = await s.checkout.sessions.create({
      mode: 'payment',
      customer_email: 'new@example.com',
      success_url: 'https://shop.example.com/ok',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    expect(cs.customer_details).toMatchObject({ email: 'new@example.com' });
    const declined = await err(
      s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${cs.id}/complete`, {
        payment_method: 'pm_card_visa_chargeDeclined',
      }),
    );
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    const open = await s.checkout.sessions.retrieve(cs.id);
    expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect(open.customer).toMatch(/^cus_/);
    expect(await s.paymentIntents.retrieve(open.payment_intent as string)).toMatchObject({
      status: 'requires_payment_method',
    });
    const done = (await s.rawRequest(
      'POST',
      `/v1/test_helpers/checkout/sessions/${cs.id}/complete`,
      { payment_method: 'pm_card_authenticationRequired' },
    )) as unknown as Stripe.Checkout.Session;
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      customer: open.customer,
    });
    expect(done.payment_intent).not.toBe(open.payment_intent);
    expect((await s.customers.list({ email: 'new@example.com' })).data).toHaveLength(1);
    expect(eventTypes(inst).filter((t) => t === 'checkout.session.completed')).toHaveLength(1);
  });

  it('setup mode saves the card on the customer', async () => {
    const { s } = fresh();
    const cs = await s.checkout.sessions.create({
      mode: 'setup',
      currency: 'usd',
      success_url: 'https://shop.example.com/ok',
    });
    expect(cs).toMatchObject({
      mode: 'setup',
      payment_status: 'no_payment_required',
      amount_total: null,
    });
    expect(shapeDifferences('checkout.session', plain(cs))).toEqual([]);
    const done = (await s.rawRequest(
      'POST',
      `/v1/test_helpers/checkout/sessions/${cs.id}/complete`,
      { payment_method: 'pm_card_mastercard', customer_details: { email: 'saver@example.com' } },
    )) as unknown as Stripe.Checkout.Session;
    expect(done).toMatchObject({ status: 'complete', payment_status: 'no_payment_required' });
    const si = await s.setupIntents.retrieve(done.setup_intent as string);
    expect(si).toMatchObject({ status: 'succeeded', customer: done.customer });
    expect((await s.customers.listPaymentMethods(done.customer as string)).data).toHaveLength(1);
  });

  it.skipIf(!served('PostSubscriptions'))(
    'subscription mode starts a subscription on the recurring price',
    async () => {
      const { inst, s } = fresh();
      const { monthly } = await catalog(s);
      const cs = await s.checkout.sessions.create({
        mode: 'subscription',
        success_url: 'https://shop.example.com/ok',
        line_items: [{ price: monthly.id, quantity: 1 }],
        subscription_data: { metadata: { plan: 'basic' } },
      });
      expect(cs).toMatchObject({
        mode: 'subscription',
        amount_total: 900,
        customer_creation: null,
      });
      const done = (await s.rawRequest(
        'POST',
        `/v1/test_helpers/checkout/sessions/${cs.id}/complete`,
        { customer_details: { email: 'sub@example.com' } },
      )) as unknown as Stripe.Checkout.Session;
      expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
      const sub = await s.subscriptions.retrieve(done.subscription as string);
      expect(sub).toMatchObject({
        status: 'active',
        customer: done.customer,
        metadata: { plan: 'basic' },
      });
      expect(
        (await s.checkout.sessions.list({ subscription: sub.id })).data.map((x) => x.id),
      ).toEqual([cs.id]);
      expect(eventTypes(inst)).toContain('checkout.session.completed');
    },
  );

  it('expires on request, or when the world clock passes expires_at', async () => {
    const { inst, s } = fresh();
    const { price } = await catalog(s);
    const a = await s.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://shop.example.com/ok',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    const expired = await s.checkout.sessions.expire(a.id);
    expect(expired).toMatchObject({ id: a.id, status: 'expired' });
    expect(await err(s.checkout.sessions.expire(a.id))).toMatchObject({ statusCode: 400 });
    expect(
      await err(s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${a.id}/complete`, {})),
    ).toMatchObject({ statusCode: 400 });
    const b = await s.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://shop.example.com/ok',
      line_items: [{ price: price.id, quantity: 1 }],
      expires_at: Math.floor(inst.clock.now() / 1000) + 3600,
    });
    inst.clock.advance(2 * HOUR_MS);
    expect((await s.checkout.sessions.retrieve(b.id)).status).toBe('expired');
    expect(eventTypes(inst).filter((t) => t === 'checkout.session.expired')).toHaveLength(2);
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const { price, monthly } = await catalog(s);
    const cs = await s.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://shop.example.com/ok',
      line_items: [{ price: price.id, quantity: 1 }],
    });
    const before = inst.changes();
    expect(
      await err(
        s.checkout.sessions.create({
          success_url: 'https://x.example.com',
          line_items: [{ price: price.id, quantity: 1 }],
        } as Stripe.Checkout.SessionCreateParams),
      ),
    ).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'mode' });
    expect(
      await err(
        s.checkout.sessions.create({ mode: 'payment', success_url: 'https://x.example.com' }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'line_items' });
    expect(
      await err(
        s.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ price: monthly.id, quantity: 1 }],
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'line_items' });
    expect(
      await err(
        s.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: price.id, quantity: 1 }],
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'line_items' });
    expect(
      await err(
        s.checkout.sessions.create({
          mode: 'payment',
          customer: 'cus_nope',
          line_items: [{ price: price.id, quantity: 1 }],
        }),
      ),
    ).toMatchObject({ statusCode: 404, param: 'customer' });
    expect(
      await err(
        s.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ price: price.id, quantity: 1 }],
          expires_at: Math.floor(inst.clock.now() / 1000) + 60,
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'expires_at' });
    expect(await err(s.checkout.sessions.retrieve('cs_test_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(
      await err(
        s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${cs.id}/complete`, {
          payment_method: 'pm_nope',
        }),
      ),
    ).toMatchObject({ statusCode: 404, param: 'payment_method' });
    expect(
      await err(
        s.rawRequest('POST', '/v1/test_helpers/checkout/sessions/cs_test_nope/complete', {}),
      ),
    ).toMatchObject({ statusCode: 404 });
    expect(inst.changes()).toEqual(before);
  });
});

/** A stored object, read directly (the invoice endpoints are not what these tests are about). */
const stored = (inst: Instance, table: 'invoices' | 'customers', id: string) =>
  JSON.parse(inst.query<{ data: string }>(`SELECT data FROM ${table} WHERE id = ?`, id)[0].data);
const invoiceLines = (inst: Instance, invoice: string) =>
  inst
    .query<{ data: string }>(
      'SELECT data FROM invoice_line_items WHERE invoice = ? ORDER BY seq',
      invoice,
    )
    .map((r) => JSON.parse(r.data));

/** A customer with a subscription to two units of a $9 monthly price: its first invoice, open (sent) or paid by card. */
async function invoiced(inst: Instance, s: Stripe, paid: boolean) {
  const { monthly } = await catalog(s);
  const cus = await s.customers.create({ email: 'billing@example.com' });
  const pm = await s.paymentMethods.attach('pm_card_visa', { customer: cus.id });
  const sub = await s.subscriptions.create(
    paid
      ? {
          customer: cus.id,
          items: [{ price: monthly.id, quantity: 2 }],
          default_payment_method: pm.id,
        }
      : {
          customer: cus.id,
          items: [{ price: monthly.id, quantity: 2 }],
          collection_method: 'send_invoice',
          days_until_due: 30,
        },
  );
  const invoice = stored(inst, 'invoices', sub.latest_invoice as string);
  expect(invoice).toMatchObject({ status: paid ? 'paid' : 'open', total: 1800 });
  return { cus, invoice, line: invoiceLines(inst, invoice.id)[0] };
}

describe.skipIf(!served('PostSubscriptions'))('credit notes', () => {
  it('on an open invoice: preview, create by lines, lower amount_due and amount_remaining; retrieve, update, list, lines; void gives it back', async () => {
    const { inst, s } = fresh();
    const { cus, invoice, line } = await invoiced(inst, s, false);
    const preview = await s.creditNotes.preview({
      invoice: invoice.id,
      lines: [{ type: 'invoice_line_item', invoice_line_item: line.id, quantity: 1 }],
    });
    expect(preview).toMatchObject({
      object: 'credit_note',
      amount: 900,
      total: 900,
      type: 'pre_payment',
      invoice: invoice.id,
      number: `${invoice.number}-CN-01`,
    });
    expect(shapeDifferences('credit_note', plain(preview))).toEqual([]);
    const previewLines = await s.creditNotes.listPreviewLineItems({
      invoice: invoice.id,
      lines: [{ type: 'invoice_line_item', invoice_line_item: line.id, quantity: 1 }],
    });
    expect(previewLines.data).toHaveLength(1);
    expect(previewLines.data[0]).toMatchObject({
      object: 'credit_note_line_item',
      amount: 900,
      quantity: 1,
      invoice_line_item: line.id,
    });
    const untouched = inst.changes();

    const cn = await s.creditNotes.create({
      invoice: invoice.id,
      lines: [{ type: 'invoice_line_item', invoice_line_item: line.id, quantity: 1 }],
      reason: 'order_change',
      memo: 'One seat less',
    });
    expect(cn.id).toMatch(/^cn_/);
    expect(cn).toMatchObject({
      status: 'issued',
      amount: 900,
      pre_payment_amount: 900,
      post_payment_amount: 0,
      customer: cus.id,
      reason: 'order_change',
      memo: 'One seat less',
      number: `${invoice.number}-CN-01`,
    });
    expect(shapeDifferences('credit_note', plain(cn))).toEqual([]);
    expect(shapeDifferences('credit_note_line_item', plain(cn.lines.data[0]))).toEqual([]);
    expect(untouched).not.toEqual(inst.changes());
    expect(stored(inst, 'invoices', invoice.id)).toMatchObject({
      status: 'open',
      amount_due: 900,
      amount_remaining: 900,
      pre_payment_credit_notes_amount: 900,
    });

    expect(plain(await s.creditNotes.retrieve(cn.id))).toEqual(plain(cn));
    expect((await s.creditNotes.update(cn.id, { metadata: { ticket: 'T-1' } })).metadata).toEqual({
      ticket: 'T-1',
    });
    const lines = await s.creditNotes.listLineItems(cn.id);
    expect(lines).toMatchObject({ object: 'list', url: `/v1/credit_notes/${cn.id}/lines` });
    expect(lines.data.map((l) => l.id)).toEqual([cn.lines.data[0].id]);
    expect((await s.creditNotes.list({ invoice: invoice.id })).data.map((x) => x.id)).toEqual([
      cn.id,
    ]);
    expect((await s.creditNotes.list({ customer: cus.id })).data).toHaveLength(1);
    expect((await s.creditNotes.list({ customer: 'cus_other' })).data).toHaveLength(0);

    // The line has one unit left to credit.
    expect(
      await err(
        s.creditNotes.create({
          invoice: invoice.id,
          lines: [{ type: 'invoice_line_item', invoice_line_item: line.id, quantity: 2 }],
        }),
      ),
    ).toMatchObject({ statusCode: 400 });

    const voided = await s.creditNotes.voidCreditNote(cn.id);
    expect(voided).toMatchObject({ status: 'void' });
    expect(voided.voided_at).toBe(Math.floor(inst.clock.now() / 1000));
    expect(stored(inst, 'invoices', invoice.id)).toMatchObject({
      amount_due: 1800,
      amount_remaining: 1800,
      pre_payment_credit_notes_amount: 0,
    });
    expect(await err(s.creditNotes.voidCreditNote(cn.id))).toMatchObject({ statusCode: 400 });
    expect(eventTypes(inst).filter((t) => t.startsWith('credit_note.'))).toEqual([
      'credit_note.created',
      'credit_note.updated',
      'credit_note.voided',
    ]);
  });

  it('on a paid invoice: refund_amount refunds the charge, credit_amount credits the balance; voiding takes the credit back', async () => {
    const { inst, s } = fresh();
    const { cus, invoice } = await invoiced(inst, s, true);
    const cn = await s.creditNotes.create({
      invoice: invoice.id,
      amount: 1000,
      refund_amount: 600,
      credit_amount: 400,
    });
    expect(cn).toMatchObject({ type: 'post_payment', post_payment_amount: 1000, total: 1000 });
    expect(shapeDifferences('credit_note', plain(cn))).toEqual([]);
    expect(cn.refunds).toHaveLength(1);
    const refund = await s.refunds.retrieve(cn.refunds[0].refund as string);
    expect(refund).toMatchObject({ amount: 600, status: 'succeeded' });
    expect((await s.charges.retrieve(refund.charge as string)).amount_refunded).toBe(600);
    const txn = await s.customers.retrieveBalanceTransaction(
      cus.id,
      cn.customer_balance_transaction as string,
    );
    expect(txn).toMatchObject({
      amount: -400,
      type: 'credit_note',
      credit_note: cn.id,
      invoice: invoice.id,
    });
    expect((await s.customers.retrieve(cus.id)) as Stripe.Customer).toMatchObject({
      balance: -400,
    });
    expect(stored(inst, 'invoices', invoice.id)).toMatchObject({
      status: 'paid',
      post_payment_credit_notes_amount: 1000,
    });
    // A note that refunded cannot be voided; one that only credited can, and the credit goes back.
    expect(await err(s.creditNotes.voidCreditNote(cn.id))).toMatchObject({ statusCode: 400 });
    const second = await s.creditNotes.create({
      invoice: invoice.id,
      amount: 300,
      out_of_band_amount: 100,
    });
    expect(second).toMatchObject({ number: `${invoice.number}-CN-02`, out_of_band_amount: 100 });
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).balance).toBe(-600);
    await s.creditNotes.voidCreditNote(second.id);
    expect(((await s.customers.retrieve(cus.id)) as Stripe.Customer).balance).toBe(-400);
    expect(stored(inst, 'invoices', invoice.id).post_payment_credit_notes_amount).toBe(1000);
  });

  it('answers mistakes as Stripe does, and a failed request changes nothing', async () => {
    const { inst, s } = fresh();
    const { invoice, line } = await invoiced(inst, s, true);
    const before = inst.changes();
    expect(await err(s.creditNotes.create({} as Stripe.CreditNoteCreateParams))).toMatchObject({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'invoice',
    });
    expect(await err(s.creditNotes.create({ invoice: 'in_nope', amount: 100 }))).toMatchObject({
      statusCode: 404,
      param: 'invoice',
    });
    expect(await err(s.creditNotes.create({ invoice: invoice.id, amount: 5000 }))).toMatchObject({
      statusCode: 400,
      param: 'amount',
    });
    expect(
      await err(
        s.creditNotes.create({
          invoice: invoice.id,
          amount: 500,
          refund_amount: 100,
          credit_amount: 100,
        }),
      ),
    ).toMatchObject({ statusCode: 400 });
    expect(
      await err(
        s.creditNotes.create({
          invoice: invoice.id,
          lines: [{ type: 'invoice_line_item', invoice_line_item: 'il_nope', quantity: 1 }],
        }),
      ),
    ).toMatchObject({ statusCode: 404, param: 'lines[0][invoice_line_item]' });
    expect(
      await err(
        s.creditNotes.create({
          invoice: invoice.id,
          lines: [{ type: 'invoice_line_item', invoice_line_item: line.id, quantity: 3 }],
        }),
      ),
    ).toMatchObject({ statusCode: 400, param: 'lines[0][quantity]' });
    expect(await err(s.creditNotes.preview({ invoice: invoice.id }))).toMatchObject({
      statusCode: 400,
    });
    expect(await err(s.creditNotes.retrieve('cn_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such credit note: 'cn_nope'",
    });
    expect(await err(s.creditNotes.voidCreditNote('cn_nope'))).toMatchObject({ statusCode: 404 });
    expect(inst.changes()).toEqual(before);
  });
});
