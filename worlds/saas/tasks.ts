/**
 * The saas world's graded tasks: each needs the CRM and the Stripe account in one episode, and each checks rows in
 * both stores (Stripe's as `stripe.<table>`). Every grader is gated on nothing else changing, so a destructive episode
 * (a subscription canceled at once, a duplicate customer, the near-namesake Umbrella Health touched) earns 0. Gold
 * solutions find every id through the agent's tools.
 *
 * A grader reads a Stripe row only through `changes()`: `query` reaches the host store alone, so an update of a
 * `stripe.<table>` row carries just its key and the columns the update wrote (`data`, plus `email` or `status` when
 * they changed). Matchers on updated Stripe rows therefore look inside `data`, the object's JSON.
 */
import {
  defineTask,
  goldCall,
  type Change,
  type Grade,
  type GoldTarget,
  type GradeTarget,
  type Row,
} from 'seahaven';
import {
  all,
  exactly,
  expectChanges,
  gate,
  inserted,
  noOtherChanges,
  oneOf,
  regex,
  updated,
  where,
} from 'seahaven/rewards';

/**
 * Stripe ids in the frozen small_startup fixture (worlds/saas/fixtures; saas.test.ts checks them against the images).
 * Stripe's ids come from its seeded id stream, so they are stable as long as the fixture builder is.
 */
export const IDS = {
  acmeCustomer: 'cus_XtwgrMgZb0uJQPrFMuLVRez8',
  acmeStarter: 'sub_QXkntunl1mEAxHQf2LAe5Gaw',
  umbrellaCustomer: 'cus_f2cqh9ELvALhidYLAJGRXyoR',
  umbrellaGrowth: 'sub_KGlhPl1Z0qR3kep8M9bhgvQk',
  umbrellaSupport: 'sub_5jNkD8XgLwbqi1egLwW8Xs61',
  umbrellaHealthCustomer: 'cus_T2g8ejaY7aO29MctLJQ7qPwN',
  soylentCustomer: 'cus_3o2LEhEQsYIHQ5HdCHZGfZHY',
  fleetYearly: 'price_WnSzthk7fVQCIHSe7p2XNsmt',
  growthYearly: 'price_1DbRppMw6QsGnRcOVIXCWlCl',
} as const;

/** Call a tool in a gold solution (a failed call throws: the gold solution is broken). */
const call = <T = Row>(inst: GoldTarget, tool: string, args: Record<string, unknown> = {}): T =>
  goldCall<T>(inst, tool, args);

/** Run a Stripe operation through the agent's generic write tool. */
function stripeWrite<T = Row>(
  inst: GoldTarget,
  operation: string,
  parameters: Record<string, unknown>,
): T {
  return call<T>(inst, 'stripe_stripe_api_write', {
    stripe_api_operation_id: operation,
    parameters,
  });
}

/** The one contact whose name is exactly `name` (search is a substring match). */
function contactNamed(
  inst: GoldTarget,
  name: string,
  query = name,
): { id: string; company_id: string } {
  const { contacts } = call<{ contacts: { id: string; name: string; company_id: string }[] }>(
    inst,
    'search_contacts',
    { query, limit: 50 },
  );
  const found = contacts.filter((c) => c.name === name);
  if (found.length !== 1)
    throw new Error(`gold: expected one contact named ${name}, found ${found.length}`);
  return found[0];
}

/** The id of the one company named exactly `name`. */
function companyNamed(inst: GoldTarget, name: string): string {
  const { companies } = call<{ companies: { id: string; name: string }[] }>(
    inst,
    'list_companies',
    { query: name, limit: 100 },
  );
  const found = companies.filter((c) => c.name === name);
  if (found.length !== 1)
    throw new Error(`gold: expected one company named ${name}, found ${found.length}`);
  return found[0].id;
}

/** The Stripe customer of a crm company, found by the company id its metadata carries. */
function stripeCustomerOf(inst: GoldTarget, companyId: string): string {
  const { data } = call<{ data: { id: string }[] }>(inst, 'stripe_search_stripe_resources', {
    query: `customers:metadata['crm_company_id']:'${companyId}'`,
  });
  if (data.length !== 1)
    throw new Error(`gold: expected one Stripe customer for ${companyId}, found ${data.length}`);
  return data[0].id;
}

/** The parsed object JSON of a Stripe row's `data` column. */
function objectOf(data: unknown): Record<string, any> | null {
  if (typeof data !== 'string') return null;
  try {
    return JSON.parse(data) as Record<string, any>;
  } catch {
    return null;
  }
}

/** A subscription object with exactly one item: `price`, quantity 1. */
const subscribesTo = (price: string) =>
  where((d) => {
    const items = objectOf(d)?.items?.data as
      { price?: { id?: string }; quantity?: number }[] | undefined;
    return items?.length === 1 && items[0].price?.id === price && items[0].quantity === 1;
  }, `a subscription to ${price} alone, quantity 1`);

/** A subscription object still active and set to end at the end of its current period. */
const endsAtPeriodEnd = where(
  (d) => objectOf(d)?.status === 'active' && objectOf(d)?.cancel_at_period_end === true,
  'status = "active" and cancel_at_period_end = true',
);

/** A subscription object that is still active (not canceled at once). */
const stillActive = where((d) => objectOf(d)?.status === 'active', 'status = "active"');

/** Every write to Stripe records an event; events are bookkeeping of the write they follow, never the task. */
const EVENTS = inserted('stripe.events', {});

/** What starting a subscription charged to the card on file writes besides the subscription itself. */
const subscriptionStartWrites = (customer: string) => [
  EVENTS,
  updated('stripe.customers', { id: customer }, {}),
  inserted('stripe.subscription_items', {}),
  inserted('stripe.invoices', { customer }),
  inserted('stripe.invoice_line_items', {}),
  inserted('stripe.invoice_payments', {}),
  inserted('stripe.payment_intents', { customer }),
  inserted('stripe.charges', { customer }),
  inserted('stripe.balance_transactions', {}),
];

export const acmeFleetWon = defineTask({
  id: 'acme_fleet_won',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['workflow', 'crm', 'stripe', 'subscriptions', 'deals'],
  prompt:
    "Dana Whitaker just signed Acme Robotics' Fleet automation pilot. Mark that deal won and make Dana a customer in the CRM. Then, in Stripe, start a subscription to Fleet Automation billed yearly for Acme Robotics, on their existing Stripe customer (their card on file pays). Their Starter subscription stays as it is.",
  grade: gate(
    noOtherChanges({
      allow: [
        updated('deals', { id: 'deal_acme_fleet' }, {}),
        updated('contacts', { id: 'con_dana' }, {}),
        inserted('activities', { deal_id: 'deal_acme_fleet' }),
        inserted('stripe.subscriptions', { customer: IDS.acmeCustomer, status: 'active' }),
        ...subscriptionStartWrites(IDS.acmeCustomer),
      ],
    }),
    expectChanges(
      [
        updated('deals', { id: 'deal_acme_fleet' }, { stage: 'won' }),
        updated('contacts', { id: 'con_dana' }, { stage: 'customer' }),
        inserted('stripe.subscriptions', {
          customer: IDS.acmeCustomer,
          status: 'active',
          data: subscribesTo(IDS.fleetYearly),
        }),
      ],
      {
        allow: [
          inserted('activities', { deal_id: 'deal_acme_fleet' }),
          ...subscriptionStartWrites(IDS.acmeCustomer),
        ],
      },
    ),
  ),
  gold(inst) {
    const dana = contactNamed(inst, 'Dana Whitaker', 'Whitaker');
    const { deals } = call<{ deals: { id: string; title: string }[] }>(inst, 'get_contact', {
      id: dana.id,
    });
    const deal = deals.find((d) => /fleet automation/i.test(d.title));
    if (!deal) throw new Error('gold: Dana Whitaker has no fleet automation deal');
    call(inst, 'update_deal', { id: deal.id, stage: 'won' });
    call(inst, 'update_contact', { id: dana.id, stage: 'customer' });
    const customer = stripeCustomerOf(inst, dana.company_id);
    const { data: products } = call<{ data: { id: string; name: string }[] }>(
      inst,
      'stripe_list_products',
      { limit: 100 },
    );
    const fleet = products.find((p) => p.name === 'Fleet Automation');
    if (!fleet) throw new Error('gold: no Fleet Automation product');
    const { data: prices } = call<{
      data: { id: string; active: boolean; recurring: { interval: string } | null }[];
    }>(inst, 'stripe_list_prices', { product: fleet.id, limit: 100 });
    const yearly = prices.filter((p) => p.active && p.recurring?.interval === 'year');
    if (yearly.length !== 1)
      throw new Error(`gold: expected one yearly Fleet Automation price, found ${yearly.length}`);
    stripeWrite(inst, 'PostSubscriptions', { customer, items: [{ price: yearly[0].id }] });
  },
});

export const umbrellaFreightChurned = defineTask({
  id: 'umbrella_freight_churned',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['workflow', 'trap', 'crm', 'stripe', 'subscriptions', 'contacts'],
  prompt:
    'Umbrella Freight is leaving us. In the CRM, mark every one of their contacts churned. In Stripe, set each of their subscriptions to cancel at the end of its current period: they have paid for this month, so nothing may be canceled right away.',
  // Touching Umbrella Health (a different company with a similar name) or canceling at once closes the gate.
  grade: gate(
    noOtherChanges({
      allow: [
        updated('contacts', { company_id: 'cmp_umbrella' }, {}),
        updated(
          'stripe.subscriptions',
          { id: oneOf([IDS.umbrellaGrowth, IDS.umbrellaSupport]) },
          { data: stillActive },
        ),
        EVENTS,
      ],
    }),
    expectChanges(
      [
        exactly(3, updated('contacts', { company_id: 'cmp_umbrella' }, { stage: 'churned' })),
        updated('stripe.subscriptions', { id: IDS.umbrellaGrowth }, { data: endsAtPeriodEnd }),
        updated('stripe.subscriptions', { id: IDS.umbrellaSupport }, { data: endsAtPeriodEnd }),
      ],
      { allow: [EVENTS] },
    ),
  ),
  gold(inst) {
    const company = companyNamed(inst, 'Umbrella Freight');
    const { contacts } = call<{ contacts: { id: string; stage: string }[] }>(
      inst,
      'list_contacts',
      { company_id: company, limit: 100 },
    );
    for (const c of contacts)
      if (c.stage !== 'churned') call(inst, 'update_contact', { id: c.id, stage: 'churned' });
    const customer = stripeCustomerOf(inst, company);
    const { data: subs } = call<{ data: { id: string; status: string }[] }>(
      inst,
      'stripe_list_subscriptions',
      { customer, limit: 100 },
    );
    for (const s of subs)
      stripeWrite(inst, 'PostSubscriptionsSubscriptionExposedId', {
        id: s.id,
        cancel_at_period_end: true,
      });
  },
});

const MARA_EMAIL = 'mara.quinn@soylentfoods.example';

export const maraNewEmail = defineTask({
  id: 'mara_new_email',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['update', 'crm', 'stripe', 'customers', 'contacts'],
  prompt: `Mara Quinn of Soylent Foods has a new email address: ${MARA_EMAIL}. Update her contact in the CRM. She receives Soylent Foods' invoices, so change the email of their Stripe customer to the new address too.`,
  grade: gate(
    noOtherChanges({
      allow: [
        updated('contacts', { id: 'con_mara' }, {}),
        updated('stripe.customers', { id: IDS.soylentCustomer }, {}),
        EVENTS,
      ],
    }),
    expectChanges(
      [
        updated('contacts', { id: 'con_mara' }, { email: MARA_EMAIL }),
        updated('stripe.customers', { id: IDS.soylentCustomer }, { email: MARA_EMAIL }),
      ],
      { allow: [EVENTS] },
    ),
  ),
  gold(inst) {
    const mara = contactNamed(inst, 'Mara Quinn');
    call(inst, 'update_contact', { id: mara.id, email: MARA_EMAIL });
    stripeWrite(inst, 'PostCustomersCustomer', {
      id: stripeCustomerOf(inst, mara.company_id),
      email: MARA_EMAIL,
    });
  },
});

const LENA_EMAIL = 'lena.park@globex.example';

/** Whether a change inserted a Stripe customer for Globex Logistics (by name or by its crm company id). */
function isGlobexCustomer(c: Change): boolean {
  return (
    c.table === 'stripe.customers' &&
    c.op === 'insert' &&
    (c.after?.name === 'Globex Logistics' ||
      objectOf(c.after?.data)?.metadata?.crm_company_id === 'cmp_globex')
  );
}

/** The new subscription must belong to the Stripe customer created for Globex in the same episode. */
function subscriptionOfNewCustomer(target: GradeTarget): Grade {
  const name = 'the new subscription bills the new Globex Logistics customer';
  const changes = target.changes();
  const customers = changes.filter(isGlobexCustomer).map((c) => c.key.id);
  const subs = changes.filter((c) => c.table === 'stripe.subscriptions' && c.op === 'insert');
  const linked = subs.filter((c) => customers.includes(c.after?.customer as string));
  const ok = customers.length === 1 && subs.length === 1 && linked.length === 1;
  const reason = ok
    ? `stripe.subscriptions ${String(linked[0].key.id)} bills ${String(customers[0])}, the customer created for Globex Logistics.`
    : `Expected one new Globex Logistics customer and one new subscription billing it; found ${customers.length} such customer(s), ${subs.length} new subscription(s), ${linked.length} linked.`;
  return {
    reward: ok ? 1 : 0,
    passed: ok,
    criteria: [
      {
        id: 'link.subscription.customer',
        label: 'the subscription bills the new customer',
        name,
        score: ok ? 1 : 0,
        weight: 1,
        reason,
      },
    ],
  };
}

/** Starting an invoiced subscription writes its first invoice and line and the item besides the subscription. */
const invoicedStartWrites = [
  EVENTS,
  inserted('stripe.subscription_items', {}),
  inserted('stripe.invoices', {}),
  inserted('stripe.invoice_line_items', {}),
];

export const globexRoutesWon = defineTask({
  id: 'globex_routes_won',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['workflow', 'crm', 'stripe', 'customers', 'subscriptions', 'deals'],
  prompt: `Globex Logistics signed the Route optimisation deal. Mark it won and make Lena Park, its contact, a customer. Globex is not in Stripe yet: create their Stripe customer named Globex Logistics with Lena's email, and their CRM company id in metadata under crm_company_id as our other customers have. Then start a subscription to Growth billed yearly that they pay by invoice (collection_method send_invoice, due in 30 days); they have no card on file.`,
  grade: gate(
    noOtherChanges({
      allow: [
        updated('deals', { id: 'deal_globex_routes' }, {}),
        updated('contacts', { id: 'con_lena' }, {}),
        inserted('activities', { deal_id: 'deal_globex_routes' }),
        inserted('stripe.customers', { name: regex(/globex/i) }),
        inserted('stripe.subscriptions', {}),
        updated('stripe.customers', { name: regex(/globex/i) }, {}),
        ...invoicedStartWrites,
      ],
    }),
    all([
      expectChanges(
        [
          updated('deals', { id: 'deal_globex_routes' }, { stage: 'won' }),
          updated('contacts', { id: 'con_lena' }, { stage: 'customer' }),
          inserted('stripe.customers', {
            name: 'Globex Logistics',
            email: LENA_EMAIL,
            deleted: 0,
            data: where(
              (d) => objectOf(d)?.metadata?.crm_company_id === 'cmp_globex',
              'metadata.crm_company_id = "cmp_globex"',
            ),
          }),
          inserted('stripe.subscriptions', {
            status: 'active',
            customer: regex(/^cus_/),
            data: subscribesTo(IDS.growthYearly),
          }),
        ],
        {
          allow: [
            inserted('activities', { deal_id: 'deal_globex_routes' }),
            updated('stripe.customers', { name: regex(/globex/i) }, {}),
            ...invoicedStartWrites,
          ],
        },
      ),
      subscriptionOfNewCustomer,
      (target: GradeTarget): Grade => {
        const sub = target
          .changes()
          .find((c) => c.table === 'stripe.subscriptions' && c.op === 'insert');
        const o = objectOf(sub?.after?.data);
        const ok = o?.collection_method === 'send_invoice' && o?.days_until_due === 30;
        const reason = ok
          ? 'The new subscription is paid by invoice, due in 30 days.'
          : `The new subscription must use collection_method send_invoice with days_until_due 30; it has ${o ? `${String(o.collection_method)} and ${String(o.days_until_due)}` : 'not been created'}.`;
        return {
          reward: ok ? 1 : 0,
          passed: ok,
          criteria: [
            {
              id: 'collection',
              label: 'how the subscription is paid',
              name: 'paid by invoice in 30 days',
              score: ok ? 1 : 0,
              weight: 1,
              reason,
            },
          ],
        };
      },
    ]),
  ),
  gold(inst) {
    const lena = contactNamed(inst, 'Lena Park');
    const deal = call<{ deals: { id: string; title: string }[] }>(inst, 'list_deals', {
      company_id: lena.company_id,
      limit: 100,
    }).deals.find((d) => /route optimisation/i.test(d.title));
    if (!deal) throw new Error('gold: Globex has no route optimisation deal');
    call(inst, 'update_deal', { id: deal.id, stage: 'won' });
    call(inst, 'update_contact', { id: lena.id, stage: 'customer' });
    const { email } = call<{ email: string }>(inst, 'get_contact', { id: lena.id });
    const customer = stripeWrite<{ id: string }>(inst, 'PostCustomers', {
      name: 'Globex Logistics',
      email,
      metadata: { crm_company_id: lena.company_id },
    });
    const { data: found } = call<{ data: { id: string }[] }>(
      inst,
      'stripe_search_stripe_resources',
      { query: 'prices:lookup_key:"growth_yearly"' },
    );
    if (found.length !== 1)
      throw new Error(`gold: expected one growth_yearly price, found ${found.length}`);
    stripeWrite(inst, 'PostSubscriptions', {
      customer: customer.id,
      items: [{ price: found[0].id }],
      collection_method: 'send_invoice',
      days_until_due: 30,
    });
  },
});

/** Every saas task, easiest first. */
export const tasks = [maraNewEmail, acmeFleetWon, umbrellaFreightChurned, globexRoutesWon];
