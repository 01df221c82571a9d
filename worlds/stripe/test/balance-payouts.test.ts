import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Instance } from 'seahaven';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';
import { plain, shapeDifferences } from './shape.ts';

// Balance, balance transactions, payouts and events through the official SDK. Money comes in through card payments:
// `pm_card_bypassPending` funds are available at once, `pm_card_visa` funds wait two days on the world clock.

const DAY_MS = 86_400_000;

function fresh(seed = 21) {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

/** Take a card payment of `amount` cents; returns its charge's balance transaction. */
async function fund(
  s: Stripe,
  amount: number,
  card: 'pm_card_bypassPending' | 'pm_card_visa' = 'pm_card_bypassPending',
): Promise<Stripe.BalanceTransaction> {
  const pi = await s.paymentIntents.create({
    amount,
    currency: 'usd',
    confirm: true,
    payment_method: card,
    expand: ['latest_charge.balance_transaction'],
  });
  const charge = pi.latest_charge as Stripe.Charge;
  return charge.balance_transaction as Stripe.BalanceTransaction;
}

const err = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as InstanceType<typeof Stripe.errors.StripeError>;
const eventTypes = (inst: Instance) =>
  inst.query('SELECT type FROM events ORDER BY seq').map((r) => String(r.type));
const nowSec = (inst: Instance) => Math.floor(inst.clock.now() / 1000);

describe('balance', () => {
  it("is zero in the account currency for a new account, in Stripe's shape", async () => {
    const { s } = fresh();
    const b = await s.balance.retrieve();
    expect(plain(b)).toEqual({
      object: 'balance',
      available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      connect_reserved: [{ amount: 0, currency: 'usd' }],
      livemode: false,
      pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
    });
    expect(shapeDifferences('balance', plain(b))).toEqual([]);
    expect((await s.balanceTransactions.list()).data).toEqual([]);
  });

  it('splits funds into available and pending by available_on, and settles them as the clock passes', async () => {
    const { inst, s } = fresh();
    const now = await fund(s, 10_000);
    const later = await fund(s, 5_000, 'pm_card_visa');
    expect(now).toMatchObject({
      object: 'balance_transaction',
      type: 'charge',
      amount: 10_000,
      status: 'available',
      currency: 'usd',
    });
    expect(later).toMatchObject({ status: 'pending', available_on: nowSec(inst) + 2 * 86_400 });
    expect(now.net).toBe(now.amount - now.fee);
    expect(
      shapeDifferences('balance_transaction', plain(await s.balanceTransactions.retrieve(now.id))),
    ).toEqual([]);
    let b = await s.balance.retrieve();
    expect(b.available).toEqual([
      { amount: now.net, currency: 'usd', source_types: { card: now.net } },
    ]);
    expect(b.pending).toEqual([
      { amount: later.net, currency: 'usd', source_types: { card: later.net } },
    ]);

    inst.clock.advance(2 * DAY_MS);
    expect((await s.balanceTransactions.retrieve(later.id)).status).toBe('available');
    b = await s.balance.retrieve();
    expect(b.available[0].amount).toBe(now.net + later.net);
    expect(b.pending[0].amount).toBe(0);
    expect(eventTypes(inst)).toContain('balance.available');
    expect(inst.query('SELECT status FROM balance_transactions WHERE id = ?', later.id)).toEqual([
      { status: 'available' },
    ]);
  });

  it('lists balance transactions with filters, and refuses bad ones', async () => {
    const { inst, s } = fresh();
    const a = await fund(s, 2_000);
    const b = await fund(s, 3_000);
    const po = await s.payouts.create({ amount: 1_000, currency: 'usd' });
    const all = await s.balanceTransactions.list();
    expect(all.data.map((t) => t.id)).toEqual([po.balance_transaction, b.id, a.id]);
    expect((await s.balanceTransactions.list({ type: 'charge' })).data.map((t) => t.id)).toEqual([
      b.id,
      a.id,
    ]);
    expect((await s.balanceTransactions.list({ type: 'payout' })).data).toMatchObject([
      { amount: -1_000, source: po.id, reporting_category: 'payout' },
    ]);
    expect(
      (await s.balanceTransactions.list({ source: a.source as string })).data.map((t) => t.id),
    ).toEqual([a.id]);
    expect((await s.balanceTransactions.list({ currency: 'eur' })).data).toEqual([]);
    expect((await s.balanceTransactions.list({ currency: 'usd', limit: 1 })).has_more).toBe(true);
    expect((await s.balanceTransactions.list({ created: { gt: nowSec(inst) } })).data).toEqual([]);
    const ids: string[] = [];
    for await (const t of s.balanceTransactions.list({ limit: 1 })) ids.push(t.id);
    expect(ids).toEqual(all.data.map((t) => t.id));
    const before = inst.changes();
    expect(await err(s.balanceTransactions.list({ type: 'nonsense' }))).toMatchObject({
      statusCode: 400,
      param: 'type',
    });
    expect(await err(s.balanceTransactions.list({ payout: po.id }))).toMatchObject({
      statusCode: 400,
      param: 'payout',
      message: expect.stringMatching(/automatic/),
    });
    expect(await err(s.balanceTransactions.list({ payout: 'po_nope' }))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await err(s.balanceTransactions.retrieve('txn_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such balance transaction: 'txn_nope'",
    });
    expect(inst.changes()).toEqual(before);
  });
});

describe('payouts', () => {
  it('pays out from the available balance only, then settles to paid when the clock passes arrival_date', async () => {
    const { inst, s } = fresh();
    const t = await fund(s, 10_000);
    await fund(s, 50_000, 'pm_card_visa');
    const before = inst.changes();
    const tooMuch = await err(s.payouts.create({ amount: t.net + 1, currency: 'usd' }));
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, code: 'balance_insufficient' });
    expect(
      await err(s.payouts.create({ amount: 100, currency: 'usd', source_type: 'bank_account' })),
    ).toMatchObject({ code: 'balance_insufficient' });
    expect(await err(s.payouts.create({ amount: 100, currency: 'eur' }))).toMatchObject({
      code: 'balance_insufficient',
    });
    expect(await err(s.payouts.create({ amount: 0, currency: 'usd' }))).toMatchObject({
      statusCode: 400,
      param: 'amount',
    });
    expect(
      await err(s.payouts.create({ currency: 'usd' } as Stripe.PayoutCreateParams)),
    ).toMatchObject({ code: 'parameter_missing', param: 'amount' });
    expect(inst.changes()).toEqual(before);

    const po = await s.payouts.create({
      amount: t.net,
      currency: 'usd',
      description: 'Weekly',
      metadata: { batch: '7' },
    });
    expect(po).toMatchObject({
      object: 'payout',
      amount: t.net,
      currency: 'usd',
      status: 'pending',
      automatic: false,
      method: 'standard',
      description: 'Weekly',
      metadata: { batch: '7' },
      original_payout: null,
      reversed_by: null,
    });
    expect(po.id).toMatch(/^po_/);
    expect(po.arrival_date).toBeGreaterThan(nowSec(inst));
    expect(po.arrival_date % 86_400).toBe(0);
    expect(shapeDifferences('payout', plain(po))).toEqual([]);
    const txn = await s.balanceTransactions.retrieve(po.balance_transaction as string);
    expect(txn).toMatchObject({
      type: 'payout',
      amount: -t.net,
      net: -t.net,
      source: po.id,
      status: 'available',
    });
    expect((await s.balance.retrieve()).available[0].amount).toBe(0);

    const updated = await s.payouts.update(po.id, { metadata: { batch: '', note: 'ok' } });
    expect(updated.metadata).toEqual({ note: 'ok' });
    expect((await s.payouts.list({ status: 'pending' })).data.map((p) => p.id)).toEqual([po.id]);
    expect((await s.payouts.list({ status: 'paid' })).data).toEqual([]);
    expect((await s.payouts.list({ arrival_date: { gte: po.arrival_date } })).data).toHaveLength(1);
    expect((await s.payouts.list({ arrival_date: { lt: po.arrival_date } })).data).toHaveLength(0);
    expect(
      (await s.payouts.list({ arrival_date: po.arrival_date, created: { lte: po.created } })).data,
    ).toHaveLength(1);

    inst.clock.advance(3 * DAY_MS);
    const paid = await s.payouts.retrieve(po.id);
    expect(paid.status).toBe('paid');
    expect((await s.payouts.list({ status: 'paid' })).data.map((p) => p.id)).toEqual([po.id]);
    expect(await err(s.payouts.cancel(po.id))).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/only pending payouts/),
    });
    const types = eventTypes(inst);
    expect(types.filter((x) => x.startsWith('payout.'))).toEqual([
      'payout.created',
      'payout.updated',
      'payout.paid',
    ]);
    const paidEvent = (await s.events.list({ type: 'payout.paid' })).data[0];
    expect(paidEvent.data.object).toMatchObject({ id: po.id, status: 'paid' });
  });

  it('cancels a pending payout, returning its funds', async () => {
    const { inst, s } = fresh();
    const t = await fund(s, 4_000);
    const po = await s.payouts.create({ amount: 1_500, currency: 'usd' });
    expect((await s.balance.retrieve()).available[0].amount).toBe(t.net - 1_500);
    const canceled = await s.payouts.cancel(po.id);
    expect(canceled).toMatchObject({ id: po.id, status: 'canceled' });
    const back = await s.balanceTransactions.retrieve(
      canceled.failure_balance_transaction as string,
    );
    expect(back).toMatchObject({ type: 'payout_cancel', amount: 1_500, source: po.id });
    expect((await s.balance.retrieve()).available[0].amount).toBe(t.net);
    expect(await err(s.payouts.cancel(po.id))).toMatchObject({ statusCode: 400 });
    expect(await err(s.payouts.reverse(po.id))).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/only paid payouts/),
    });
    // Canceled payouts never become paid.
    inst.clock.advance(5 * DAY_MS);
    expect((await s.payouts.retrieve(po.id)).status).toBe('canceled');
    expect(eventTypes(inst)).toContain('payout.canceled');
  });

  it('reverses a paid payout with a new payout that credits the balance', async () => {
    const { s } = fresh();
    const t = await fund(s, 6_000);
    const po = await s.payouts.create({ amount: 2_000, currency: 'usd', method: 'instant' });
    // An instant payout arrives the moment it is made: the next call finds it paid.
    expect(po.arrival_date).toBe(po.created);
    const reversal = await s.payouts.reverse(po.id, { metadata: { why: 'wrong account' } });
    expect(reversal).toMatchObject({
      object: 'payout',
      amount: 2_000,
      original_payout: po.id,
      status: 'pending',
      metadata: { why: 'wrong account' },
    });
    expect(reversal.id).not.toBe(po.id);
    expect(await s.payouts.retrieve(po.id)).toMatchObject({
      status: 'paid',
      reversed_by: reversal.id,
    });
    expect((await s.balance.retrieve()).available[0].amount).toBe(t.net);
    expect(await err(s.payouts.reverse(po.id))).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/already been reversed/),
    });
    expect(await err(s.payouts.retrieve('po_nope'))).toMatchObject({
      statusCode: 404,
      message: "No such payout: 'po_nope'",
    });
    expect(await err(s.payouts.update('po_nope', { metadata: { a: 'b' } }))).toMatchObject({
      statusCode: 404,
    });
    const all: string[] = [];
    for await (const p of s.payouts.list({ limit: 1 })) all.push(p.id);
    expect(all).toEqual([reversal.id, po.id]);
  });
});

describe('events', () => {
  it('retrieves and lists events by type, wildcard group and types[]', async () => {
    const { inst, s } = fresh();
    const c = await s.customers.create({ name: 'Evt' });
    await s.customers.update(c.id, { name: 'Evt 2' });
    await fund(s, 3_000);
    await s.payouts.create({ amount: 500, currency: 'usd' });
    const all = await s.events.list({ limit: 100 });
    expect(all.data.length).toBeGreaterThanOrEqual(4);
    expect(all.data.map((e) => e.type)).toEqual([...eventTypes(inst)].reverse());
    const first = await s.events.retrieve(all.data[all.data.length - 1].id);
    expect(first).toMatchObject({
      object: 'event',
      type: 'customer.created',
      data: { object: { id: c.id } },
      livemode: false,
      pending_webhooks: 0,
    });
    expect(first.request).toEqual({
      id: expect.stringMatching(/^req_/),
      idempotency_key: expect.any(String),
    });
    expect(shapeDifferences('event', plain(first))).toEqual([]);
    const upd = (await s.events.list({ type: 'customer.updated' })).data;
    expect(upd).toHaveLength(1);
    expect(upd[0].data.previous_attributes).toEqual({ name: 'Evt' });
    expect((await s.events.list({ type: 'customer.*' })).data.map((e) => e.type)).toEqual([
      'customer.updated',
      'customer.created',
    ]);
    expect(
      (await s.events.list({ types: ['customer.created', 'payout.created'] })).data.map(
        (e) => e.type,
      ),
    ).toEqual(['payout.created', 'customer.created']);
    expect((await s.events.list({ type: 'nothing.here' })).data).toEqual([]);
    expect((await s.events.list({ delivery_success: true, limit: 2 })).data).toHaveLength(2);
    const ids: string[] = [];
    for await (const e of s.events.list({ limit: 2, created: { lte: nowSec(inst) } }))
      ids.push(e.id);
    expect(ids).toEqual(all.data.map((e) => e.id));
    const before = inst.changes();
    expect(
      await err(s.events.list({ type: 'customer.created', types: ['customer.updated'] })),
    ).toMatchObject({ statusCode: 400, param: 'types' });
    expect(
      await err(s.events.list({ types: Array.from({ length: 21 }, (_, i) => `t${i}.x`) })),
    ).toMatchObject({ statusCode: 400, param: 'types' });
    expect(await err(s.events.retrieve('evt_nope'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such event: 'evt_nope'",
    });
    expect(inst.changes()).toEqual(before);
  });
});
