import type Stripe from 'stripe';

/** Card tokens and a customer's card sources, on a customer of their own (its default source changes). */
export async function cardsChapter(s: Stripe): Promise<void> {
  const holder = await s.customers.create({ name: 'Card holder' });
  const tok = await s.tokens.create({
    card: { number: '4242424242424242', exp_month: '12', exp_year: '2030', cvc: '123' },
  });
  await s.tokens.retrieve(tok.id);
  const first = await s.customers.createSource(holder.id, { source: tok.id });
  const second = await s.customers.createSource(holder.id, { source: 'tok_mastercard' });
  await s.customers.listSources(holder.id, { object: 'card' });
  await s.customers.retrieveSource(holder.id, first.id);
  await s.customers.updateSource(holder.id, first.id, { name: 'Card Holder' });
  await s.charges.create({ customer: holder.id, amount: 700, currency: 'usd' });
  await s.customers.deleteSource(holder.id, second.id);
}
