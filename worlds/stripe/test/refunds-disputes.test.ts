import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Instance } from 'seahaven';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Refunds and disputes through the official SDK: partial and full refunds, the refund test cards' second step on the
// world clock, dispute cards opening disputes, evidence deciding them, and the balance transactions each writes.

function fresh(seed = 41) {
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
const txns = (inst: Instance) =>
  inst
    .query<{ data: string }>('SELECT data FROM balance_transactions ORDER BY seq')
    .map((r) => JSON.parse(r.data) as Stripe.BalanceTransaction);

async function pay(
  s: Stripe,
  card: string,
  amount = 2000,
): Promise<{ pi: Stripe.PaymentIntent; charge: string }> {
  const pi = await s.paymentIntents.create({
    amount,
    currency: 'usd',
    confirm: true,
    payment_method: card,
  });
  return { pi, charge: pi.latest_charge as string };
}

describe('refunds', () => {
  it('partial then full refunds: negative balance transactions, charge totals, the refunds list, and the limits', async () => {
    const { inst, s } = fresh();
    const { pi, charge } = await pay(s, 'pm_card_visa');
    const first = await s.refunds.create({
      payment_intent: pi.id,
      amount: 500,
      reason: 'requested_by_customer',
      metadata: { ticket: 'T1' },
    });
    expect(first).toMatchObject({
      object: 'refund',
      amount: 500,
      charge,
      payment_intent: pi.id,
      status: 'succeeded',
      reason: 'requested_by_customer',
      metadata: { ticket: 'T1' },
    });
    expect(shapeDifferences('refund', plain(first))).toEqual([]);
    expect(await s.charges.retrieve(charge)).toMatchObject({
      amount_refunded: 500,
      refunded: false,
    });
    expect(await err(s.refunds.create({ charge, amount: 1600 }))).toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
      param: 'amount',
    });
    const rest = await s.refunds.create({ charge });
    expect(rest.amount).toBe(1500);
    const ch = await s.charges.retrieve(charge);
    expect(ch).toMatchObject({ amount_refunded: 2000, refunded: true });
    expect(ch.refunds?.data.map((r) => r.id)).toEqual([rest.id, first.id]);
    expect(shapeDifferences('charge', plain(ch))).toEqual([]);
    expect(await err(s.refunds.create({ charge }))).toMatchObject({
      statusCode: 400,
      code: 'charge_already_refunded',
    });
    expect(txns(inst).map((t) => [t.type, t.amount, t.fee])).toEqual([
      ['charge', 2000, 88],
      ['refund', -500, 0],
      ['refund', -1500, 0],
    ]);
    expect(txns(inst)[1]).toMatchObject({ id: first.balance_transaction, source: first.id });
    // Retrieve, update (metadata only), list by charge and by payment intent.
    expect(plain(await s.refunds.retrieve(first.id))).toEqual(plain(first));
    const up = await s.refunds.update(first.id, { metadata: { ticket: 'T2' } });
    expect(up.metadata).toEqual({ ticket: 'T2' });
    expect((await s.refunds.list({ charge })).data.map((r) => r.id)).toEqual([rest.id, first.id]);
    expect((await s.refunds.list({ payment_intent: pi.id, limit: 1 })).has_more).toBe(true);
    expect((await s.refunds.list({ charge: 'ch_other' })).data).toEqual([]);
    expect(eventTypes(inst).slice(3)).toEqual([
      'refund.created',
      'charge.refunded',
      'refund.created',
      'charge.refunded',
      'refund.updated',
      'charge.refund.updated',
    ]);
    // Wrong states and missing objects.
    expect(await err(s.refunds.cancel(first.id))).toMatchObject({
      statusCode: 400,
      code: 'refund_unexpected_state',
    });
    expect(await err(s.testHelpers.refunds.expire(first.id))).toMatchObject({
      statusCode: 400,
      code: 'refund_unexpected_state',
    });
    expect(await err(s.refunds.retrieve('re_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await err(s.refunds.create({ charge: 'ch_nope' }))).toMatchObject({
      statusCode: 404,
      param: 'charge',
    });
    const open = await s.paymentIntents.create({ amount: 1000, currency: 'usd' });
    expect(await err(s.refunds.create({ payment_intent: open.id }))).toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
  });

  it('pm_card_pendingRefund: pending, then succeeded once the clock moves on; a pending refund can be canceled or expired', async () => {
    const { inst, s } = fresh();
    const { charge } = await pay(s, 'pm_card_pendingRefund', 3000);
    const r1 = await s.refunds.create({ charge, amount: 1000 });
    expect(r1.status).toBe('pending');
    expect((await s.refunds.retrieve(r1.id)).status).toBe('pending');
    inst.clock.advance(1000);
    expect((await s.refunds.retrieve(r1.id)).status).toBe('succeeded');
    expect(eventTypes(inst).slice(-2)).toEqual(['refund.updated', 'charge.refund.updated']);
    const r2 = await s.refunds.create({ charge, amount: 1000 });
    const canceled = await s.refunds.cancel(r2.id);
    expect(canceled.status).toBe('canceled');
    expect(await s.charges.retrieve(charge)).toMatchObject({ amount_refunded: 1000 });
    const r3 = await s.refunds.create({ charge, amount: 500 });
    expect((await s.testHelpers.refunds.expire(r3.id)).status).toBe('canceled');
    inst.clock.advance(5000);
    expect((await s.refunds.retrieve(r3.id)).status).toBe('canceled');
    expect(txns(inst).map((t) => [t.type, t.amount])).toEqual([
      ['charge', 3000],
      ['refund', -1000],
      ['refund', -1000],
      ['refund_failure', 1000],
      ['refund', -500],
      ['refund_failure', 500],
    ]);
  });

  it('pm_card_refundFail: succeeded, then failed with the money returned', async () => {
    const { inst, s } = fresh();
    const { charge } = await pay(s, 'pm_card_refundFail');
    const r = await s.refunds.create({ charge });
    expect(r.status).toBe('succeeded');
    expect(await s.charges.retrieve(charge)).toMatchObject({ refunded: true });
    inst.clock.advance(1000);
    const failedRefund = await s.refunds.retrieve(r.id);
    expect(failedRefund).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
    expect(shapeDifferences('refund', plain(failedRefund))).toEqual([]);
    expect(await s.charges.retrieve(charge)).toMatchObject({ refunded: false, amount_refunded: 0 });
    expect(txns(inst).map((t) => t.type)).toEqual(['charge', 'refund', 'refund_failure']);
    expect(eventTypes(inst)).toContain('refund.failed');
  });
});

describe('disputes', () => {
  it('a dispute card opens a chargeback at once; winning evidence wins it and gives the money back', async () => {
    const { inst, s } = fresh();
    const { pi, charge } = await pay(s, 'pm_card_createDispute', 5000);
    expect(await s.charges.retrieve(charge)).toMatchObject({ disputed: true, status: 'succeeded' });
    const [d] = (await s.disputes.list({ charge })).data;
    expect(d).toMatchObject({
      object: 'dispute',
      status: 'needs_response',
      reason: 'fraudulent',
      amount: 5000,
      charge,
      payment_intent: pi.id,
      is_charge_refundable: false,
    });
    expect(shapeDifferences('dispute', plain(d))).toEqual([]);
    expect(plain(await s.disputes.retrieve(d.id))).toEqual(plain(d));
    expect((await s.disputes.list({ payment_intent: pi.id })).data.map((x) => x.id)).toEqual([
      d.id,
    ]);
    expect(txns(inst).map((t) => [t.type, t.amount, t.fee])).toEqual([
      ['charge', 5000, 175],
      ['adjustment', -5000, 1500],
    ]);
    expect(await err(s.refunds.create({ charge }))).toMatchObject({
      statusCode: 400,
      code: 'charge_disputed',
    });
    const staged = await s.disputes.update(d.id, {
      evidence: { customer_name: 'Jenny Rosen' },
      submit: false,
    });
    expect(staged).toMatchObject({
      status: 'needs_response',
      evidence: { customer_name: 'Jenny Rosen' },
      evidence_details: { has_evidence: true, submission_count: 0 },
    });
    const won = await s.disputes.update(d.id, {
      evidence: { uncategorized_text: 'winning_evidence' },
      metadata: { case: '1' },
    });
    expect(won).toMatchObject({
      status: 'won',
      metadata: { case: '1' },
      evidence_details: { submission_count: 1 },
    });
    expect(won.balance_transactions.map((t) => t.amount)).toEqual([-5000, 5000]);
    expect(txns(inst).reduce((sum, t) => sum + t.net, 0)).toBe(5000 - 175);
    expect(eventTypes(inst)).toEqual([
      'payment_intent.created',
      'charge.succeeded',
      'charge.dispute.created',
      'charge.dispute.funds_withdrawn',
      'charge.updated',
      'payment_intent.succeeded',
      'charge.dispute.updated',
      'charge.dispute.updated',
      'charge.dispute.closed',
      'charge.dispute.funds_reinstated',
    ]);
    expect(
      await err(s.disputes.update(d.id, { evidence: { uncategorized_text: 'more' } })),
    ).toMatchObject({ statusCode: 400 });
    expect(await err(s.disputes.close(d.id))).toMatchObject({ statusCode: 400 });
    expect(await err(s.disputes.retrieve('du_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('losing evidence loses; closing accepts the loss; the money stays withdrawn', async () => {
    const { inst, s } = fresh();
    const a = await pay(s, 'pm_card_createDisputeProductNotReceived');
    const [da] = (await s.disputes.list({ charge: a.charge })).data;
    expect(da.reason).toBe('product_not_received');
    expect(
      (await s.disputes.update(da.id, { evidence: { uncategorized_text: 'losing_evidence' } }))
        .status,
    ).toBe('lost');
    const b = await pay(s, 'pm_card_createDispute');
    const [db] = (await s.disputes.list({ charge: b.charge })).data;
    expect((await s.disputes.close(db.id)).status).toBe('lost');
    expect(
      txns(inst)
        .filter((t) => t.type === 'adjustment')
        .map((t) => t.amount),
    ).toEqual([-2000, -2000]);
    expect(eventTypes(inst).filter((t) => t === 'charge.dispute.closed')).toHaveLength(2);
  });

  it('an inquiry moves no money until escalated; it can be won without a chargeback', async () => {
    const { inst, s } = fresh();
    const { charge } = await pay(s, 'pm_card_createDisputeInquiry');
    const [d] = (await s.disputes.list({ charge })).data;
    expect(d).toMatchObject({
      status: 'warning_needs_response',
      balance_transactions: [],
      payment_method_details: { card: { case_type: 'inquiry' } },
    });
    expect(txns(inst).map((t) => t.type)).toEqual(['charge']);
    const esc = await s.disputes.update(d.id, {
      evidence: { uncategorized_text: 'escalate_inquiry_evidence' },
    });
    expect(esc).toMatchObject({
      status: 'needs_response',
      payment_method_details: { card: { case_type: 'chargeback' } },
    });
    expect(txns(inst).map((t) => t.amount)).toEqual([2000, -2000]);
    const other = await pay(s, 'pm_card_createDisputeInquiry');
    const [d2] = (await s.disputes.list({ charge: other.charge })).data;
    expect(
      (await s.disputes.update(d2.id, { evidence: { uncategorized_text: 'winning_evidence' } }))
        .status,
    ).toBe('warning_closed');
    expect(eventTypes(inst)).toContain('charge.dispute.closed');
  });
});
