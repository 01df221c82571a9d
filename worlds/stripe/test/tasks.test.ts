import { describe, expect, it } from 'vitest';
import type { Grade, Instance } from 'seahaven';
import { checkGrader, explain } from 'seahaven/rewards';
import { stripe } from '../index.ts';
import { IDS, tasks } from '../tasks.ts';

// Stripe World's graded tasks: each passes checkGrader (gold 1, do-nothing and chaos agents 0), the ids the graders
// name are the fixture's, the damage each hard task warns about scores 0, and other right ways of doing a task score 1.

type Obj = Record<string, any>;

/** Play `moves` on a fresh small_startup instance and grade it with `taskId`'s grader. */
function episode(
  taskId: string,
  moves: (call: (tool: string, args?: Obj) => Obj, inst: Instance) => void,
): Grade {
  const task = stripe.task(taskId)!;
  const inst = stripe.instance({ fixture: task.fixture });
  try {
    const call = (tool: string, args: Obj = {}): Obj => {
      const r = inst.call(tool, args);
      if (!r.ok) throw new Error(`${tool} failed: ${r.error.code}: ${r.error.message}`);
      return r.result as Obj;
    };
    moves(call, inst);
    return task.grade(inst);
  } finally {
    inst.destroy();
  }
}

/** The task's gold solution, then `more` moves. */
function afterGold(taskId: string, more: (call: (tool: string, args?: Obj) => Obj) => void): Grade {
  return episode(taskId, (call, inst) => {
    stripe.task(taskId)!.gold!(inst);
    more(call);
  });
}

const write = (call: (tool: string, args?: Obj) => Obj, op: string, parameters: Obj) =>
  call('stripe_api_write', { stripe_api_operation_id: op, parameters });

describe('stripe tasks', () => {
  it('has 12+ tasks over three levels, all on small_startup, each with a gold solution', () => {
    expect(stripe.tasks.map((t) => t.id)).toEqual(tasks.map((t) => t.id));
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    expect(new Set(tasks.map((t) => t.difficulty))).toEqual(new Set([1, 2, 3]));
    expect(
      tasks.every(
        (t) =>
          t.fixture === 'small_startup' &&
          typeof t.gold === 'function' &&
          (t.tags ?? []).length > 0,
      ),
    ).toBe(true);
  });

  it("the ids the graders name are the fixture's rows", () => {
    const inst = stripe.instance({ fixture: 'small_startup' });
    const row = (table: string, id: string): Obj => {
      const found = inst.query<{ data: string }>(`SELECT data FROM ${table} WHERE id = ?`, id);
      expect(found, `${table} ${id}`).toHaveLength(1);
      return JSON.parse(found[0].data) as Obj;
    };
    const names: [keyof typeof IDS, string][] = [
      ['priya', 'Priya Raman'],
      ['tomas', 'Tomás Alvarez'],
      ['grace', 'Grace Whitaker'],
      ['henrik', 'Henrik Larsen'],
      ['alma', 'Alma Whitfield'],
      ['mateo', 'Mateo Jensen'],
      ['liamNovak2', 'Liam Novak'],
      ['sofiaFischer', 'Sofia Fischer'],
      ['desmondJensen', 'Desmond Jensen'],
      ['arjunPatel', 'Arjun Patel'],
    ];
    for (const [key, name] of names) expect(row('customers', IDS[key] as string).name).toBe(name);
    expect(
      row('payment_intents', IDS.priyaDuplicatePayment).created -
        row('payment_intents', IDS.priyaFirstPayment).created,
    ).toBe(90);
    expect([
      row('charges', IDS.priyaFirstCharge).payment_intent,
      row('charges', IDS.priyaDuplicateCharge).payment_intent,
    ]).toEqual([IDS.priyaFirstPayment, IDS.priyaDuplicatePayment]);
    expect(row('prices', IDS.supportYearly)).toMatchObject({
      lookup_key: 'support_yearly',
      product: IDS.supportProduct,
      active: true,
    });
    expect(row('prices', IDS.analyticsMonthly)).toMatchObject({ lookup_key: 'analytics_monthly' });
    expect(row('subscriptions', IDS.tomasSupport)).toMatchObject({
      customer: IDS.tomas,
      status: 'active',
    });
    for (const id of IDS.graceOpenInvoices)
      expect(row('invoices', id)).toMatchObject({ customer: IDS.grace, status: 'open' });
    for (const id of IDS.mateoOpenInvoices)
      expect(row('invoices', id)).toMatchObject({ customer: IDS.mateo, status: 'open' });
    for (const id of IDS.mateoSubscriptions)
      expect(row('subscriptions', id)).toMatchObject({ customer: IDS.mateo, status: 'past_due' });
    expect(row('subscriptions', IDS.henrikSubscription)).toMatchObject({
      customer: IDS.henrik,
      status: 'past_due',
      latest_invoice: IDS.henrikOpenInvoice,
    });
    expect(row('customers', IDS.henrik).invoice_settings.default_payment_method).toBe(
      IDS.henrikFailingCard,
    );
    expect(row('payment_methods', IDS.henrikOtherCard)).toMatchObject({
      customer: IDS.henrik,
      card: { last4: '4444' },
    });
    expect(row('disputes', IDS.almaDispute)).toMatchObject({
      charge: IDS.almaCharge,
      status: 'needs_response',
      reason: 'fraudulent',
    });
    expect(row('payment_intents', IDS.liamNovak2Training)).toMatchObject({
      customer: IDS.liamNovak2,
      description: 'Additional training session',
      amount: 35_000,
    });
    expect(row('charges', IDS.liamNovak2TrainingCharge)).toMatchObject({
      payment_intent: IDS.liamNovak2Training,
      amount_refunded: 0,
    });
    expect(row('subscriptions', IDS.desmondSubscription)).toMatchObject({
      customer: IDS.desmondJensen,
      status: 'active',
    });
    inst.destroy();
  }, 60_000);

  for (const task of tasks) {
    it(`${task.id} passes checkGrader: gold 1, doing nothing and chaos 0`, () => {
      const report = checkGrader(stripe, task);
      expect(report.problems, report.gold ? explain(report.gold) : 'no gold grade').toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.gold).toMatchObject({ reward: 1, passed: true });
      expect(report.idle).toMatchObject({ reward: 0, passed: false });
      expect(report.chaos.map((c) => c.reward)).toEqual([0, 0, 0]);
    });
  }
});

describe('destructive episodes score 0', () => {
  it('refund_duplicate_charge: refunding both payments, or the first one instead', () => {
    expect(
      afterGold('refund_duplicate_charge', (call) =>
        call('create_refund', { payment_intent: IDS.priyaFirstPayment, reason: 'duplicate' }),
      ).reward,
    ).toBe(0);
    expect(
      episode('refund_duplicate_charge', (call) =>
        call('create_refund', { payment_intent: IDS.priyaFirstPayment, reason: 'duplicate' }),
      ).reward,
    ).toBe(0);
    // The right payment without the reason is a detail missed, not damage: the refund row is 3 of 4 fields right.
    const noReason = episode('refund_duplicate_charge', (call) =>
      call('create_refund', { payment_intent: IDS.priyaDuplicatePayment }),
    );
    expect(noReason.reward).toBe(0.875);
    expect(noReason.passed).toBe(false);
  });

  it('migrate_retired_price: canceling the subscription and starting a new one, or billing the proration now', () => {
    const recreated = episode('migrate_retired_price', (call) => {
      const successor = write(call, 'PostPrices', {
        product: IDS.supportProduct,
        unit_amount: 219_000,
        currency: 'usd',
        recurring: { interval: 'year' },
        lookup_key: 'support_yearly',
        transfer_lookup_key: true,
      });
      call('cancel_subscription', { subscription: IDS.tomasSupport });
      write(call, 'PostSubscriptions', { customer: IDS.tomas, items: [{ price: successor.id }] });
      write(call, 'PostPricesPrice', { id: IDS.supportYearly, active: false });
    });
    expect(recreated.reward).toBe(0);
    const billedNow = episode('migrate_retired_price', (call) => {
      const successor = write(call, 'PostPrices', {
        product: IDS.supportProduct,
        unit_amount: 219_000,
        currency: 'usd',
        recurring: { interval: 'year' },
        lookup_key: 'support_yearly',
        transfer_lookup_key: true,
      });
      const sub = call('fetch_stripe_resources', { id: IDS.tomasSupport });
      call('update_subscription', {
        subscription: IDS.tomasSupport,
        proration_behavior: 'always_invoice',
        items: [{ id: sub.items.data[0].id, price: successor.id }],
      });
      write(call, 'PostPricesPrice', { id: IDS.supportYearly, active: false });
    });
    expect(billedNow.reward).toBe(0);
    expect(billedNow.criteria[0].reason).toMatch(
      /^invoices in_\w+ \(inserted\)|which no expected change or allow rule covers/,
    );
  });

  it('respond_to_dispute: accepting the dispute after adding the evidence', () => {
    const accepted = afterGold('respond_to_dispute', (call) =>
      write(call, 'PostDisputesDisputeClose', { id: IDS.almaDispute }),
    );
    expect(accepted.reward).toBe(0);
    // Evidence staged but never submitted: the evidence counts, the submission does not.
    const staged = episode('respond_to_dispute', (call) =>
      write(call, 'PostDisputesDispute', {
        id: IDS.almaDispute,
        submit: false,
        evidence: {
          customer_name: 'Alma Whitfield',
          customer_email_address: 'alma.whitfield@tinder.com',
          product_description: 'Onboarding workshop',
          service_date: '2026-05-12',
          uncategorized_text: 'She attended.',
        },
      }),
    );
    expect(staged.reward).toBeCloseTo(5 / 6, 10);
    expect(staged.passed).toBe(false);
  });

  it('fix_failing_card: canceling his subscription, voiding the invoice, or touching another past-due customer', () => {
    expect(
      afterGold('fix_failing_card', (call) =>
        call('cancel_subscription', { subscription: IDS.henrikSubscription }),
      ).reward,
    ).toBe(0);
    const voided = episode('fix_failing_card', (call) => {
      write(call, 'PostCustomersCustomer', {
        id: IDS.henrik,
        invoice_settings: { default_payment_method: IDS.henrikOtherCard },
      });
      write(call, 'PostInvoicesInvoiceVoid', { id: IDS.henrikOpenInvoice });
      write(call, 'PostPaymentMethodsPaymentMethodDetach', { id: IDS.henrikFailingCard });
    });
    expect(voided.reward).toBe(0);
    const other = afterGold('fix_failing_card', (call) =>
      write(call, 'PostInvoicesInvoicePay', {
        id: IDS.mateoOpenInvoices[1],
        payment_method: 'pm_card_visa',
      }),
    );
    expect(other.reward).toBe(0);
  });

  it('churn_at_period_end: canceling the subscriptions at once', () => {
    const atOnce = episode('churn_at_period_end', (call) => {
      for (const id of IDS.mateoOpenInvoices) write(call, 'PostInvoicesInvoiceVoid', { id });
      for (const subscription of IDS.mateoSubscriptions)
        call('cancel_subscription', { subscription });
    });
    expect(atOnce.reward).toBe(0);
    // One of the two set to end at period end, the other canceled now: still 0.
    expect(
      afterGold('churn_at_period_end', (call) =>
        call('cancel_subscription', { subscription: IDS.mateoSubscriptions[0] }),
      ).reward,
    ).toBe(0);
  });

  it('void_churned_invoices: marking them uncollectible instead, or deleting the customer', () => {
    expect(
      episode('void_churned_invoices', (call) => {
        for (const id of IDS.graceOpenInvoices)
          write(call, 'PostInvoicesInvoiceMarkUncollectible', { id });
      }).reward,
    ).toBe(0);
    expect(
      afterGold('void_churned_invoices', (call) =>
        write(call, 'DeleteCustomersCustomer', { id: IDS.grace }),
      ).reward,
    ).toBe(0);
  });

  it('partial_refund_with_reason: refunding the other Liam Novak', () => {
    const other = episode('partial_refund_with_reason', (call) => {
      const [liam] = call('list_customers', { email: 'liam.novak@heron.com' }).data as Obj[];
      const training = (
        call('list_payment_intents', { customer: liam.id, limit: 100 }).data as Obj[]
      ).find((p) => p.description === 'Additional training session')!;
      call('create_refund', {
        payment_intent: training.id,
        amount: 10_000,
        reason: 'requested_by_customer',
      });
    });
    expect(other.reward).toBe(0);
  });

  it('apply_coupon_next_invoice: the coupon on another Jensen', () => {
    const wrong = episode('apply_coupon_next_invoice', (call) => {
      const coupon = call('create_coupon', {
        name: 'Outage apology',
        percent_off: 25,
        duration: 'once',
      });
      const [fatima] = call('search_stripe_resources', { query: 'customers:name:"Fatima Jensen"' })
        .data as Obj[];
      write(call, 'PostCustomersCustomer', { id: fatima.id, discounts: [{ coupon: coupon.id }] });
    });
    expect(wrong.reward).toBe(0);
  });
});

describe('namesakes and neighbours score 0', () => {
  it('update_customer_email: the new address on another Fischer as well', () => {
    const both = afterGold('update_customer_email', (call) => {
      const [other] = call('search_stripe_resources', { query: 'customers:name:"Saanvi Fischer"' })
        .data as Obj[];
      write(call, 'PostCustomersCustomer', { id: other.id, email: 'saanvi.fischer@northwind.io' });
    });
    expect(both.reward).toBe(0);
  });

  it('invoice_finalize_and_send: the invoice sent to Aisha Patel instead of Arjun', () => {
    const wrong = episode('invoice_finalize_and_send', (call) => {
      const [aisha] = call('search_stripe_resources', { query: 'customers:name:"Aisha Patel"' })
        .data as Obj[];
      const invoice = call('create_invoice', { customer: aisha.id, days_until_due: 14 });
      write(call, 'PostInvoiceitems', {
        customer: aisha.id,
        invoice: invoice.id,
        amount: 35_000,
        currency: 'usd',
        description: 'Additional training session',
      });
      call('finalize_invoice', { invoice: invoice.id });
      write(call, 'PostInvoicesInvoiceSend', { id: invoice.id });
    });
    expect(wrong.reward).toBe(0);
  });
});

describe('other right ways score 1', () => {
  it('apply_coupon_next_invoice: the discount on his subscription instead of his account', () => {
    const onSubscription = episode('apply_coupon_next_invoice', (call) => {
      const coupon = call('create_coupon', {
        name: 'Sorry about the outage',
        percent_off: 25,
        duration: 'once',
      });
      const [sub] = call('list_subscriptions', { customer: IDS.desmondJensen }).data as Obj[];
      write(call, 'PostSubscriptionsSubscriptionExposedId', {
        id: sub.id,
        discounts: [{ coupon: coupon.id }],
      });
    });
    expect(onSubscription).toMatchObject({ reward: 1, passed: true });
  });

  it('invoice_finalize_and_send: a line billed through a one-time price, sent as a draft (sending finalizes it)', () => {
    const viaPrice = episode('invoice_finalize_and_send', (call) => {
      const product = call('create_product', { name: 'Additional training session' });
      const price = call('create_price', {
        product: product.id,
        unit_amount: 35_000,
        currency: 'usd',
      });
      const invoice = call('create_invoice', { customer: IDS.arjunPatel, days_until_due: 14 });
      call('create_invoice_item', {
        customer: IDS.arjunPatel,
        price: price.id,
        invoice: invoice.id,
      });
      write(call, 'PostInvoicesInvoiceSend', { id: invoice.id });
    });
    expect(viaPrice.reward, explain(viaPrice)).toBe(1);
  });

  it('migrate_retired_price: the named create_price tool, the lookup key moved afterwards, the item swapped by remove and add', () => {
    const stepwise = episode('migrate_retired_price', (call) => {
      const successor = call('create_price', {
        product: IDS.supportProduct,
        unit_amount: 219_000,
        currency: 'usd',
        recurring: { interval: 'year' },
      });
      const sub = call('fetch_stripe_resources', { id: IDS.tomasSupport });
      call('update_subscription', {
        subscription: IDS.tomasSupport,
        items: [
          { id: sub.items.data[0].id, deleted: true },
          { price: successor.id, quantity: 1 },
        ],
      });
      write(call, 'PostPricesPrice', { id: IDS.supportYearly, active: false });
      write(call, 'PostPricesPrice', {
        id: successor.id,
        lookup_key: 'support_yearly',
        transfer_lookup_key: true,
      });
    });
    expect(stepwise.reward, explain(stepwise)).toBe(1);
  });

  it('respond_to_dispute: evidence drafted with update_dispute and the generic write, then submitted', () => {
    const twoSteps = episode('respond_to_dispute', (call) => {
      call('update_dispute', {
        dispute: IDS.almaDispute,
        evidence: { uncategorized_text: 'Our attendance log shows she attended the workshop.' },
        submit: false,
      });
      write(call, 'PostDisputesDispute', {
        id: IDS.almaDispute,
        evidence: {
          customer_name: 'Alma Whitfield',
          customer_email_address: 'alma.whitfield@tinder.com',
          product_description: 'Onboarding workshop',
          service_date: '2026-05-12',
        },
        submit: true,
      });
    });
    expect(twoSteps.reward, explain(twoSteps)).toBe(1);
  });
});
