/**
 * One story, told through the official `stripe` SDK, that drives every operation of reference/operations.json at
 * least once: a catalog, customers with balances and discounts, cards set up and charged, refunds and disputes,
 * payouts, invoices from draft to paid, subscriptions through their life, credit notes, payment links and Checkout;
 * then the states that first pass does not reach (3D Secure, declines, trials and renewals on the world clock …), and
 * test clocks (story-clocks.ts).
 * Every request the SDK sends is recorded with the reply it got, and every event the story caused is read back
 * through the events list. conformance.test.ts validates the replies against Stripe's declared schemas.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import type { FaceReply, FaceRequest, Instance } from 'seahaven';
import { stripe } from '../../index.ts';
import { sdkFor } from '../sdk.ts';
import { cardsChapter } from './story-cards.ts';
import { invoiceTaxesChapter, subscriptionPreviewChapter, taxIdsChapter } from './story-taxes.ts';
import { testClocksChapter } from './story-clocks.ts';

/** One request of the story and the reply it got. */
export interface Exchange {
  /** The operationId of reference/operations.json the request matched, or undefined for a world hook. */
  operation: string | undefined;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface StoryRecord {
  exchanges: Exchange[];
  /** Every event the story caused, as the events list returns them. */
  events: Stripe.Event[];
  /** The operations of reference/operations.json, in its order. */
  operations: string[];
}

interface Reference {
  method: string;
  path: string;
  operationId: string;
}

const REFERENCE = fileURLToPath(new URL('../../reference/operations.json', import.meta.url));

/** Each operation's method and path as a pattern (`/v1/customers/{customer}` → `^/v1/customers/[^/]+$`). */
function routes(): { id: string; method: string; pattern: RegExp; literal: number }[] {
  const ops = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Reference[];
  return (
    ops
      .map((o) => ({
        id: o.operationId,
        method: o.method,
        pattern: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literal: o.path.replace(/\{[^}]+\}/g, '').length,
      }))
      // `/v1/customers/search` before `/v1/customers/{customer}`: the more literal path wins.
      .sort((a, b) => b.literal - a.literal)
  );
}

const DAY_MS = 86_400_000;

/** Tells the story on a fresh instance of the empty fixture and returns what it saw. */
export async function tellStory(seed = 35): Promise<StoryRecord> {
  const table = routes();
  const exchanges: Exchange[] = [];
  const inst = stripe.instance({ fixture: 'empty', seed });
  const recording = {
    request(req: FaceRequest): FaceReply {
      const reply = inst.request(req);
      const path = `/v1${req.path}`;
      const route = table.find((r) => r.method === req.method && r.pattern.test(path));
      const body =
        typeof reply.body === 'string' ? (JSON.parse(reply.body) as unknown) : reply.body;
      exchanges.push({
        operation: route?.id,
        method: req.method,
        path,
        status: reply.status,
        body,
      });
      return reply;
    },
  } as unknown as Instance;
  const s = sdkFor(recording);
  // Stripe lists the last 30 days of events: read them before the story moves the clock past that, and at the end.
  const events = new Map<string, Stripe.Event>();
  const readEvents = async () => {
    for await (const e of s.events.list({ limit: 100 })) events.set(e.id, e);
  };
  await drive(s, inst, readEvents);
  await readEvents();
  const byTime = [...events.values()].sort((a, b) => a.created - b.created);
  return { exchanges, events: byTime, operations: routes().map((r) => r.id) };
}

/** A request that must fail (only where Stripe World has no way to succeed). */
async function refused(p: Promise<unknown>): Promise<void> {
  const failed = await p.then(
    () => false,
    () => true,
  );
  if (!failed) throw new Error('the story expected this request to be refused');
}

async function drive(s: Stripe, inst: Instance, readEvents: () => Promise<void>): Promise<void> {
  // The account.
  const account = await s.accounts.retrieveCurrent();
  await s.accounts.retrieve(account.id);

  // The catalog: products, prices, plans, coupons, promotion codes, tax rates.
  const product = await s.products.create({
    name: 'Pro plan',
    description: 'Everything',
    metadata: { tier: 'pro' },
  });
  await s.products.retrieve(product.id);
  await s.products.update(product.id, { statement_descriptor: 'PRO PLAN' });
  await s.products.list({ limit: 3 });
  await s.products.search({ query: 'active:"true"' });
  const spare = await s.products.create({ name: 'Spare' });
  await s.products.del(spare.id);
  const monthly = await s.prices.create({
    product: product.id,
    unit_amount: 1500,
    currency: 'usd',
    recurring: { interval: 'month' },
    lookup_key: 'pro_monthly',
  });
  const oneOff = await s.prices.create({
    product: product.id,
    unit_amount: 2500,
    currency: 'usd',
    nickname: 'one-off',
  });
  const addOn = await s.prices.create({
    product: product.id,
    unit_amount: 500,
    currency: 'usd',
    recurring: { interval: 'month' },
    nickname: 'add-on',
  });
  await s.prices.retrieve(monthly.id);
  await s.prices.update(oneOff.id, { metadata: { kind: 'one-off' } });
  await s.prices.list({ product: product.id });
  await s.prices.search({ query: `product:"${product.id}"` });
  const plan = await s.plans.create({
    amount: 9000,
    currency: 'usd',
    interval: 'year',
    product: { name: 'Yearly' },
  });
  await s.plans.retrieve(plan.id);
  await s.plans.update(plan.id, { nickname: 'yearly' });
  await s.plans.list({ limit: 5 });
  const oldPlan = await s.plans.create({
    amount: 100,
    currency: 'usd',
    interval: 'month',
    product: product.id,
  });
  await s.plans.del(oldPlan.id);
  const coupon = await s.coupons.create({ percent_off: 10, duration: 'forever', id: 'TENOFF' });
  await s.coupons.retrieve(coupon.id);
  await s.coupons.update(coupon.id, { name: 'Ten off' });
  await s.coupons.list();
  const once = await s.coupons.create({ amount_off: 500, currency: 'usd', duration: 'once' });
  const retired = await s.coupons.create({ percent_off: 50, duration: 'once' });
  await s.coupons.del(retired.id);
  const promo = await s.promotionCodes.create({
    promotion: { type: 'coupon', coupon: coupon.id },
    code: 'TEN',
  });
  await s.promotionCodes.retrieve(promo.id);
  await s.promotionCodes.update(promo.id, { metadata: { channel: 'mail' } });
  await s.promotionCodes.list({ code: 'TEN' });
  const vat = await s.taxRates.create({ display_name: 'VAT', percentage: 19, inclusive: false });
  await s.taxRates.retrieve(vat.id);
  await s.taxRates.update(vat.id, { description: 'German VAT' });
  await s.taxRates.list();

  // Customers, their balance and a discount.
  const ada = await s.customers.create({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    address: { line1: '1 Main St', city: 'London', country: 'GB', postal_code: 'N1' },
    metadata: { plan: 'pro' },
  });
  await s.customers.retrieve(ada.id);
  // The SDK no longer declares `coupon` here, and Stripe still accepts it.
  await s.customers.update(ada.id, {
    description: 'first customer',
    coupon: once.id,
  } as Stripe.CustomerUpdateParams);
  await s.customers.deleteDiscount(ada.id);
  await s.customers.list({ limit: 2 });
  await s.customers.search({ query: 'email:"ada@example.com"' });
  const credit = await s.customers.createBalanceTransaction(ada.id, {
    amount: -500,
    currency: 'usd',
    description: 'Goodwill',
  });
  await s.customers.retrieveBalanceTransaction(ada.id, credit.id);
  await s.customers.updateBalanceTransaction(ada.id, credit.id, { metadata: { why: 'late' } });
  await s.customers.listBalanceTransactions(ada.id);
  const gone = await s.customers.create({ name: 'Gone' });
  await s.customers.del(gone.id);
  await taxIdsChapter(s, ada.id);
  await cardsChapter(s);

  // Payment methods and setup intents.
  const card = await s.paymentMethods.create({ type: 'card', card: { token: 'tok_visa' } });
  await s.paymentMethods.retrieve(card.id);
  await s.paymentMethods.attach(card.id, { customer: ada.id });
  await s.paymentMethods.update(card.id, { billing_details: { name: 'Ada Lovelace' } });
  await s.paymentMethods.list({ customer: ada.id, type: 'card' });
  await s.customers.listPaymentMethods(ada.id);
  await s.customers.retrievePaymentMethod(ada.id, card.id);
  await s.customers.update(ada.id, { invoice_settings: { default_payment_method: card.id } });
  const spareCard = await s.paymentMethods.attach('pm_card_mastercard', { customer: ada.id });
  await s.paymentMethods.detach(spareCard.id);
  const si = await s.setupIntents.create({ customer: ada.id, usage: 'off_session' });
  await s.setupIntents.retrieve(si.id);
  await s.setupIntents.update(si.id, { metadata: { step: 'one' } });
  await s.setupIntents.confirm(si.id, { payment_method: 'pm_card_visa' });
  await s.setupIntents.list({ customer: ada.id });
  const si3ds = await s.setupIntents.create({ payment_method: 'pm_card_authenticationRequired' });
  await s.setupIntents.confirm(si3ds.id);
  const abandoned = await s.setupIntents.create({});
  await s.setupIntents.cancel(abandoned.id);
  // Microdeposits verify bank accounts, and the world saves only cards: Stripe refuses this for a card intent too.
  await refused(s.setupIntents.verifyMicrodeposits(abandoned.id, { amounts: [32, 45] }));

  // Payment intents.
  const pi = await s.paymentIntents.create({
    amount: 2000,
    currency: 'usd',
    customer: ada.id,
    payment_method: card.id,
    confirm: true,
    expand: ['latest_charge'],
  });
  await s.paymentIntents.retrieve(pi.id);
  await s.paymentIntents.update(pi.id, { metadata: { order: '42' } });
  await s.paymentIntents.list({ customer: ada.id });
  await s.paymentIntents.search({ query: `customer:"${ada.id}"` });
  const later = await s.paymentIntents.create({
    amount: 1200,
    currency: 'usd',
    payment_method_types: ['card'],
  } as Stripe.PaymentIntentCreateParams);
  await s.paymentIntents.confirm(later.id, { payment_method: 'pm_card_visa' });
  const held = await s.paymentIntents.create({
    amount: 1000,
    currency: 'usd',
    capture_method: 'manual',
    confirm: true,
    payment_method: 'pm_card_visa',
    payment_method_options: { card: { request_incremental_authorization: 'if_available' } },
  });
  await s.paymentIntents.incrementAuthorization(held.id, { amount: 1500 });
  await s.paymentIntents.capture(held.id, { amount_to_capture: 1200 });
  const dropped = await s.paymentIntents.create({ amount: 700, currency: 'usd' });
  await s.paymentIntents.cancel(dropped.id, { cancellation_reason: 'abandoned' });
  const itemised = await s.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    customer: ada.id,
    amount_details: {
      line_items: [
        { product_name: 'Tea', quantity: 2, unit_cost: 1000 },
        { product_name: 'Cup', quantity: 1, unit_cost: 500 },
      ],
    },
  } as Stripe.PaymentIntentCreateParams);
  await s.paymentIntents.listAmountDetailsLineItems(itemised.id);
  const fromBalance = await s.paymentIntents.create({
    amount: 2500,
    currency: 'usd',
    customer: ada.id,
    payment_method_types: ['customer_balance'],
  } as Stripe.PaymentIntentCreateParams);
  await s.paymentIntents.applyCustomerBalance(fromBalance.id, { amount: 100 });
  // As for setup intents: only a bank debit awaiting microdeposits can be verified.
  await refused(s.paymentIntents.verifyMicrodeposits(dropped.id, { amounts: [32, 45] }));

  // Charges, refunds and disputes.
  const ch = await s.charges.create({ amount: 1200, currency: 'usd', source: 'tok_visa' });
  await s.charges.retrieve(ch.id);
  await s.charges.update(ch.id, { description: 'legacy', metadata: { a: '1' } });
  await s.charges.list({ limit: 3 });
  await s.charges.search({ query: 'amount>1000' });
  const auth = await s.charges.create({
    amount: 2000,
    currency: 'usd',
    source: 'tok_mastercard',
    capture: false,
  });
  await s.charges.capture(auth.id, { amount: 1500 });
  const refund = await s.refunds.create({ payment_intent: pi.id, amount: 500 });
  await s.refunds.retrieve(refund.id);
  await s.refunds.update(refund.id, { metadata: { ticket: 'T1' } });
  await s.refunds.list({ payment_intent: pi.id });
  const slow = await s.paymentIntents.create({
    amount: 3000,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_pendingRefund',
  });
  const pending = await s.refunds.create({ payment_intent: slow.id, amount: 1000 });
  await s.refunds.cancel(pending.id);
  const expiring = await s.refunds.create({ payment_intent: slow.id, amount: 500 });
  await s.testHelpers.refunds.expire(expiring.id);
  const disputed = await s.paymentIntents.create({
    amount: 5000,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_createDispute',
  });
  const disputes = await s.disputes.list({ payment_intent: disputed.id });
  const dispute = disputes.data[0];
  await s.disputes.retrieve(dispute.id);
  await s.disputes.update(dispute.id, {
    evidence: { customer_name: 'Jenny Rosen' },
    submit: false,
  });
  await s.disputes.close(dispute.id);

  // Balance and payouts.
  await s.paymentIntents.create({
    amount: 10_000,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_bypassPending',
  });
  await s.balance.retrieve();
  const txns = await s.balanceTransactions.list({ limit: 5 });
  await s.balanceTransactions.retrieve(txns.data[0].id);
  const payout = await s.payouts.create({ amount: 1000, currency: 'usd' });
  await s.payouts.retrieve(payout.id);
  await s.payouts.update(payout.id, { metadata: { batch: '1' } });
  await s.payouts.list();
  await s.payouts.cancel(payout.id);
  const instant = await s.payouts.create({ amount: 2000, currency: 'usd', method: 'instant' });
  await s.payouts.reverse(instant.id);

  // Invoices and invoice items.
  const item = await s.invoiceItems.create({
    customer: ada.id,
    amount: 300,
    currency: 'usd',
    description: 'Setup',
  });
  await s.invoiceItems.retrieve(item.id);
  await s.invoiceItems.update(item.id, { description: 'Setup fee' });
  await s.invoiceItems.list({ customer: ada.id });
  const stray = await s.invoiceItems.create({ customer: ada.id, amount: 100, currency: 'usd' });
  await s.invoiceItems.del(stray.id);
  const inv = await s.invoices.create({
    customer: ada.id,
    collection_method: 'send_invoice',
    days_until_due: 30,
    pending_invoice_items_behavior: 'include',
  });
  await s.invoices.retrieve(inv.id);
  await s.invoices.update(inv.id, { description: 'March' });
  const added = await s.invoices.addLines(inv.id, {
    lines: [{ amount: 500, description: 'Extra' }, { pricing: { price: oneOff.id } }],
  });
  const [first, second] = added.lines.data;
  await s.invoices.updateLineItem(inv.id, first.id, { description: 'Extra work' });
  await s.invoices.updateLines(inv.id, { lines: [{ id: second.id, quantity: 2 }] });
  await s.invoices.removeLines(inv.id, { lines: [{ id: first.id, behavior: 'delete' }] });
  await s.invoices.listLineItems(inv.id);
  await s.invoices.finalizeInvoice(inv.id);
  await s.invoices.sendInvoice(inv.id);
  await s.invoices.pay(inv.id, { payment_method: 'pm_card_visa' });
  await s.invoices.list({ customer: ada.id });
  await s.invoices.search({ query: 'status:"paid"' });
  const payments = await s.invoicePayments.list({ invoice: inv.id });
  await s.invoicePayments.retrieve(payments.data[0].id);
  const draft = await s.invoices.create({ customer: ada.id });
  await s.invoices.del(draft.id);
  const doomed = await s.invoices.create({
    customer: ada.id,
    collection_method: 'send_invoice',
    days_until_due: 7,
  });
  await s.invoices.addLines(doomed.id, { lines: [{ amount: 800, description: 'Consulting' }] });
  await s.invoices.finalizeInvoice(doomed.id);
  await s.invoices.voidInvoice(doomed.id);
  const bad = await s.invoices.create({
    customer: ada.id,
    collection_method: 'send_invoice',
    days_until_due: 7,
  });
  await s.invoices.addLines(bad.id, { lines: [{ amount: 900, description: 'Hours' }] });
  await s.invoices.finalizeInvoice(bad.id);
  await s.invoices.markUncollectible(bad.id);
  const outside = await s.invoices.create({
    customer: ada.id,
    collection_method: 'send_invoice',
    days_until_due: 7,
  });
  await s.invoices.addLines(outside.id, { lines: [{ amount: 1000, description: 'Training' }] });
  await s.invoices.finalizeInvoice(outside.id);
  const wire = await s.paymentIntents.create({
    amount: 1000,
    currency: 'usd',
    customer: ada.id,
    payment_method: 'pm_card_visa',
    confirm: true,
  });
  await s.invoices.attachPayment(outside.id, { payment_intent: wire.id });
  await s.invoices.createPreview({
    customer: ada.id,
    invoice_items: [{ amount: 200, currency: 'usd', description: 'Preview' }],
  });
  await invoiceTaxesChapter(s, ada.id);

  // Subscriptions and their items.
  const grace = await s.customers.create({ name: 'Grace Hopper', email: 'grace@example.com' });
  const graceCard = await s.paymentMethods.attach('pm_card_visa', { customer: grace.id });
  const sub = await s.subscriptions.create({
    customer: grace.id,
    items: [{ price: monthly.id, quantity: 2 }],
    default_payment_method: graceCard.id,
    discounts: [{ coupon: coupon.id }],
  });
  await s.subscriptions.retrieve(sub.id);
  await s.subscriptions.update(sub.id, { metadata: { seats: '2' } });
  await subscriptionPreviewChapter(s, sub, monthly.id);
  await s.subscriptions.list({ customer: grace.id });
  await s.subscriptions.search({ query: 'status:"active"' });
  const extra = await s.subscriptionItems.create({
    subscription: sub.id,
    price: addOn.id,
    quantity: 1,
  });
  await s.subscriptionItems.retrieve(extra.id);
  await s.subscriptionItems.update(extra.id, { quantity: 2 });
  await s.subscriptionItems.list({ subscription: sub.id });
  await s.subscriptionItems.del(extra.id);
  await s.subscriptions.deleteDiscount(sub.id);
  await s.subscriptions.pause(sub.id, {});
  await s.subscriptions.resume(sub.id, { billing_cycle_anchor: { type: 'now' } });
  await s.subscriptions.migrate(sub.id, { billing_mode: { type: 'flexible' } });
  inst.clock.advance(3 * DAY_MS);
  await s.subscriptions.cancel(sub.id);

  // Credit notes, on a paid subscription invoice.
  const paidSub = await s.subscriptions.create({
    customer: grace.id,
    items: [{ price: monthly.id, quantity: 2 }],
    default_payment_method: graceCard.id,
  });
  const invoiceId = paidSub.latest_invoice as string;
  const lines = await s.invoices.listLineItems(invoiceId);
  const line = lines.data[0];
  const byLine = {
    invoice: invoiceId,
    lines: [{ type: 'invoice_line_item' as const, invoice_line_item: line.id, quantity: 1 }],
  };
  await s.creditNotes.preview(byLine);
  await s.creditNotes.listPreviewLineItems(byLine);
  const cn = await s.creditNotes.create({ ...byLine, reason: 'order_change' });
  await s.creditNotes.retrieve(cn.id);
  await s.creditNotes.update(cn.id, { memo: 'One seat less' });
  await s.creditNotes.list({ invoice: invoiceId });
  await s.creditNotes.listLineItems(cn.id);
  const small = await s.creditNotes.create({ invoice: invoiceId, amount: 100 });
  await s.creditNotes.voidCreditNote(small.id);

  // Payment links and Checkout.
  const link = await s.paymentLinks.create({ line_items: [{ price: oneOff.id, quantity: 2 }] });
  await s.paymentLinks.retrieve(link.id);
  await s.paymentLinks.update(link.id, { metadata: { campaign: 'spring' } });
  await s.paymentLinks.list();
  await s.paymentLinks.listLineItems(link.id);
  const cs = await s.checkout.sessions.create({
    mode: 'payment',
    customer: ada.id,
    success_url: 'https://shop.example.com/ok',
    line_items: [{ price: oneOff.id, quantity: 1 }],
  });
  await s.checkout.sessions.retrieve(cs.id);
  await s.checkout.sessions.update(cs.id, { metadata: { note: 'gift' } });
  await s.checkout.sessions.listLineItems(cs.id);
  await s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${cs.id}/complete`, {
    payment_method: 'pm_card_visa',
  });
  const subCs = await s.checkout.sessions.create({
    mode: 'subscription',
    success_url: 'https://shop.example.com/ok',
    line_items: [{ price: monthly.id, quantity: 1 }],
  });
  await s.checkout.sessions.expire(subCs.id);
  await s.checkout.sessions.list({ limit: 5 });

  await states(s, inst, readEvents, { customer: ada.id, monthly: monthly.id, oneOff: oneOff.id });
  await testClocksChapter(s, monthly.id);

  // Events.
  const recent = await s.events.list({ limit: 3 });
  await s.events.retrieve(recent.data[0].id);
}

/** A declined card's error, which the story reads back from the object it left behind. */
async function declined(p: Promise<unknown>): Promise<void> {
  const status = await p.then(
    () => 200,
    (e: { statusCode?: number }) => e.statusCode,
  );
  if (status !== 402) throw new Error(`the story expected a card decline (402), got ${status}`);
}

/**
 * The objects in the states the first pass does not reach: 3D Secure, declines and failures, trials and renewals on
 * the world clock, tiered prices, discounts and taxes on invoices, expanded references, search totals, and Checkout
 * in its other modes.
 */
async function states(
  s: Stripe,
  inst: Instance,
  readEvents: () => Promise<void>,
  ids: { customer: string; monthly: string; oneOff: string },
): Promise<void> {
  // 3D Secure: a payment waiting for the challenge, then passing it; a setup intent waiting too.
  const challenged = await s.paymentIntents.create({
    amount: 1800,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_authenticationRequired',
  });
  await s.rawRequest('POST', `/v1/test_helpers/authenticate/${challenged.id}`, {
    outcome: 'succeed',
  });
  await s.paymentIntents.retrieve(challenged.id, { expand: ['latest_charge.balance_transaction'] });
  await s.paymentIntents.create({
    amount: 3000,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_threeDSecure2Required',
    return_url: 'https://example.com/back',
  });

  // Declines leave their error on the intent; a failed refund and a risky charge.
  const failing = await s.paymentIntents.create({ amount: 900, currency: 'usd' });
  await declined(
    s.paymentIntents.confirm(failing.id, { payment_method: 'pm_card_chargeDeclined' }),
  );
  await s.paymentIntents.retrieve(failing.id);
  const badSetup = await s.setupIntents.create({});
  await declined(s.setupIntents.confirm(badSetup.id, { payment_method: 'pm_card_chargeDeclined' }));
  await s.setupIntents.retrieve(badSetup.id);
  const refundable = await s.paymentIntents.create({
    amount: 1500,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_refundFail',
  });
  const failed = await s.refunds.create({ payment_intent: refundable.id });
  inst.clock.advance(60_000);
  await s.refunds.retrieve(failed.id);
  await s.paymentIntents.create({
    amount: 1100,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_riskLevelElevated',
  });
  const inquiry = await s.paymentIntents.create({
    amount: 2200,
    currency: 'usd',
    confirm: true,
    payment_method: 'pm_card_createDisputeInquiry',
  });
  const [question] = (await s.disputes.list({ payment_intent: inquiry.id })).data;
  await s.disputes.update(question.id, { evidence: { uncategorized_text: 'winning_evidence' } });

  // Tiered and transformed prices, a repeating coupon, a promotion code with restrictions.
  const seats = await s.products.create({ name: 'Seats', tax_code: 'txcd_10103001' });
  const tiered = await s.prices.create({
    product: seats.id,
    currency: 'usd',
    recurring: { interval: 'month' },
    billing_scheme: 'tiered',
    tiers_mode: 'graduated',
    tiers: [
      { up_to: 5, unit_amount: 1000 },
      { up_to: 'inf', unit_amount: 800 },
    ],
  });
  await s.prices.create({
    product: seats.id,
    currency: 'usd',
    unit_amount: 100,
    transform_quantity: { divide_by: 10, round: 'up' },
  });
  // Tiers are shown only on request: a price's, a plan's, a list's, and a volume price's with flat and decimal amounts.
  await s.prices.retrieve(tiered.id, { expand: ['tiers'] });
  await s.plans.retrieve(tiered.id, { expand: ['tiers'] });
  await s.prices.create({
    product: seats.id,
    currency: 'usd',
    recurring: { interval: 'month' },
    billing_scheme: 'tiered',
    tiers_mode: 'volume',
    tiers: [
      { up_to: 10, unit_amount_decimal: Stripe.Decimal.from('99.5'), flat_amount: 500 },
      { up_to: 'inf', unit_amount: 90, flat_amount_decimal: Stripe.Decimal.from('250') },
    ],
    expand: ['tiers'],
  });
  await s.prices.list({ product: seats.id, expand: ['data.tiers'] });
  const onlySeats = await s.coupons.create({
    percent_off: 20,
    duration: 'repeating',
    duration_in_months: 3,
  });
  await s.promotionCodes.create({
    promotion: { type: 'coupon', coupon: onlySeats.id },
    restrictions: { minimum_amount: 1000, minimum_amount_currency: 'usd' },
    max_redemptions: 10,
  });

  // A trial that ends and renews on the world clock, a subscription set to cancel at its period's end, and one whose
  // card fails at renewal.
  const lin = await s.customers.create({ name: 'Lin', email: 'lin@example.com' });
  await s.paymentMethods.attach('pm_card_visa', { customer: lin.id });
  await s.customers.update(lin.id, {
    invoice_settings: {
      default_payment_method: (await s.customers.listPaymentMethods(lin.id)).data[0].id,
    },
  });
  const trial = await s.subscriptions.create({
    customer: lin.id,
    items: [{ price: tiered.id, quantity: 7 }],
    trial_period_days: 7,
    trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
    expand: ['latest_invoice'],
  });
  await s.subscriptions.retrieve(trial.id, { expand: ['items.data.price.tiers'] });
  const leaving = await s.subscriptions.create({
    customer: lin.id,
    items: [{ price: ids.monthly }],
    cancel_at_period_end: true,
  });
  const kim = await s.customers.create({ name: 'Kim' });
  await s.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: kim.id });
  const doomed = await s.subscriptions.create({
    customer: kim.id,
    items: [{ price: ids.monthly }],
    default_payment_method: (await s.customers.listPaymentMethods(kim.id)).data[0].id,
    payment_behavior: 'allow_incomplete',
  });
  await readEvents();
  inst.clock.advance(35 * DAY_MS);
  await s.subscriptions.retrieve(trial.id, {
    expand: ['latest_invoice', 'default_payment_method'],
  });
  await s.subscriptions.retrieve(leaving.id);
  await s.subscriptions.retrieve(doomed.id, { expand: ['customer'] });
  await s.invoices.list({ customer: kim.id, expand: ['data.customer'] });
  await s.subscriptions.update(trial.id, {
    cancellation_details: { comment: 'moving', feedback: 'switched_service' },
    cancel_at_period_end: true,
  });

  // An invoice under the customer's discount, paid, then credited with a refund and out of band.
  const mo = await s.customers.create({
    name: 'Mo',
    coupon: onlySeats.id,
  } as Stripe.CustomerCreateParams);
  const discounted = await s.invoices.create({ customer: mo.id, expand: ['customer'] });
  await s.invoiceItems.create({
    customer: mo.id,
    invoice: discounted.id,
    pricing: { price: ids.oneOff },
  });
  await s.invoiceItems.create({
    customer: mo.id,
    invoice: discounted.id,
    amount: 700,
    currency: 'usd',
  });
  const paid = await s.invoices.pay((await s.invoices.finalizeInvoice(discounted.id)).id, {
    payment_method: 'pm_card_visa',
    expand: ['payments.data.payment.payment_intent'],
  });
  await s.creditNotes.create({
    invoice: paid.id,
    amount: 500,
    refund_amount: 300,
    credit_amount: 200,
  });
  await s.creditNotes.create({ invoice: paid.id, amount: 100, out_of_band_amount: 100 });
  await s.invoices.retrieve(paid.id);

  // Search totals, expanded references on lists.
  await s.customers.search({ query: 'name~"Lov"', expand: ['total_count'] });
  await s.charges.list({ limit: 3, expand: ['data.balance_transaction', 'data.customer'] });
  await s.subscriptions.list({ status: 'all', limit: 5 });
  await s.products.retrieve(seats.id);

  // Checkout in setup and subscription mode, and a payment link bought through its page.
  const setup = await s.checkout.sessions.create({
    mode: 'setup',
    currency: 'usd',
    success_url: 'https://shop.example.com/ok',
  });
  await s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${setup.id}/complete`, {});
  const signup = await s.checkout.sessions.create({
    mode: 'subscription',
    success_url: 'https://shop.example.com/ok',
    line_items: [{ price: ids.monthly, quantity: 1 }],
    subscription_data: { metadata: { plan: 'pro' } },
  });
  await s.rawRequest('POST', `/v1/test_helpers/checkout/sessions/${signup.id}/complete`, {
    payment_method: 'pm_card_visa',
    customer_details: { email: 'new@example.com', name: 'New Buyer' },
  });
  await s.checkout.sessions.retrieve(signup.id, { expand: ['subscription', 'line_items'] });
  const link = await s.paymentLinks.create({
    line_items: [{ price: ids.oneOff, quantity: 1 }],
    after_completion: { type: 'redirect', redirect: { url: 'https://shop.example.com/thanks' } },
  });
  await s.rawRequest('POST', `/v1/test_helpers/payment_links/${link.id}/complete`, {
    payment_method: 'pm_card_visa',
  });
}
