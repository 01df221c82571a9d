/**
 * The story's test clocks chapter: all five operations of `/v1/test_helpers/test_clocks` through the SDK, with a
 * customer and a trialing subscription on a clock that two advances take through its trial's end and a renewal, a
 * second customer whose card fails going past due on the same clock, and the clock's deletion ending them all; then
 * an existing customer attached to a new clock as it is created.
 */
import type Stripe from 'stripe';

const DAY = 86_400;

export async function testClocksChapter(s: Stripe, monthly: string): Promise<void> {
  const start = 1_798_761_600; // 2027-01-01
  const clock = await s.testHelpers.testClocks.create({ frozen_time: start, name: 'Story' });
  await s.testHelpers.testClocks.retrieve(clock.id);
  await s.testHelpers.testClocks.list({ limit: 3 });
  const paying = async (card: string) => {
    const customer = await s.customers.create({ test_clock: clock.id, email: 'clock@example.com' });
    const pm = await s.paymentMethods.attach(card, { customer: customer.id });
    await s.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
    return customer;
  };
  const ok = await paying('pm_card_visa');
  const failing = await paying('pm_card_chargeCustomerFail');
  await s.subscriptions.create({
    customer: ok.id,
    items: [{ price: monthly }],
    trial_period_days: 10,
  });
  await s.subscriptions.create({
    customer: failing.id,
    items: [{ price: monthly }],
    trial_period_days: 5,
  });
  await s.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 20 * DAY });
  await s.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 45 * DAY });
  await s.subscriptions.list({ test_clock: clock.id, status: 'all' });
  await s.customers.list({ test_clock: clock.id });
  await s.testHelpers.testClocks.del(clock.id);
  // An existing customer without subscriptions joins a new clock at its creation.
  const later = await s.customers.create({ email: 'later@example.com' });
  const second = await s.testHelpers.testClocks.create({ frozen_time: start, customer: later.id });
  await s.testHelpers.testClocks.del(second.id);
}
