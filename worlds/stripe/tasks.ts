/**
 * Stripe World's graded tasks, all on `small_startup`: the simple requests of a support queue (a customer, a product
 * and its price, a coupon and its code, a payment link, an email change, a partial refund, an invoice sent) and the
 * fixture's story rows (a duplicate charge, a price to retire, an open dispute, a card that keeps failing, customers
 * leaving with open invoices). Levels 1 to 3 are the measured difficulty's tiers (curriculum.ts says how it is
 * measured; test/curriculum.test.ts holds the levels to it), not a judgement of which mistakes are tempting.
 *
 * Every grader is gated on nothing else changing: a write to any row the task does not name (a refund of the wrong
 * charge, a subscription canceled at once, a namesake's account touched) scores 0. Inside the gate, expected changes
 * keep their partial credit. Graders read Stripe rows as stored: the object's JSON in `data` plus the indexed columns
 * (schema.sql); an update's `data` is the whole object after it.
 *
 * Gold solutions use only the agent's tools, and find customers, payments, invoices and prices through them (search by
 * name, list by customer or price). Graders name rows by id; the ids they need are in `IDS` below. */
import {
  defineTask,
  goldCall,
  type Change,
  type Grade,
  type GoldTarget,
  type GradeTarget,
} from 'seahaven';
import {
  all,
  atLeast,
  deleted,
  expectChanges,
  gate,
  inserted,
  noOtherChanges,
  oneOf,
  regex,
  rubric,
  updated,
  where,
  type Allowance,
  type Expectation,
  type Rubric,
  type RubricPart,
} from 'seahaven/rewards';
import type {
  Customer,
  Dispute,
  Invoice,
  PaymentIntent,
  PaymentMethod,
  Price,
  Product,
  Subscription,
} from './lib/objects.ts';
import type { Stored, Table } from './lib/store.ts';

/**
 * Ids of `small_startup` rows the graders name. They come from the fixture builder's seeded id streams, so they stay
 * the same while the builder's sequence of operations does (test/tasks.test.ts checks each against the fixture).
 */
export const IDS = {
  // Duplicate charge (a story row): two $750 "Onboarding workshop" payments 90 seconds apart; the later one is the duplicate.
  priya: 'cus_1b19wRwaLRxCP7m8B8PZWQwJ',
  priyaFirstPayment: 'pi_IWGEUyY9A4Fn07gDO4Tr1k7H',
  priyaFirstCharge: 'ch_UHXy0fWEP7J7Vtr0U4G0WHEk',
  priyaDuplicatePayment: 'pi_iryOgtkaQsn8DNcTtz6OoPMp',
  priyaDuplicateCharge: 'ch_EGGTvuYHC2YhNwLDWjdbaFZM',
  // A price to retire (a story row): Priority Support yearly, whose only subscriber is Tomás Alvarez.
  supportProduct: 'prod_ZSGIDP1jXMua7PRFKCeK1LN9',
  supportYearly: 'price_yPFZYXroMYuJyumxGz6adLyf',
  tomas: 'cus_Ea1IjOsAO4h6RttWS8dw8IZ5',
  tomasSupport: 'sub_4eTBxKx2Mnp3c6wgwSPKoqMI',
  // Churned with open invoices (a story row): both subscriptions already canceled for failed payment.
  grace: 'cus_alutKQhyDHwDgxZyb2FlvrQk',
  graceOpenInvoices: ['in_ULIfHlS511GuZ5l08u3v1lBG', 'in_Pk8IFKTFBa1yV4mTadPcBu4r'],
  // A default card that keeps failing (a story row); his older Mastercard is still on file.
  henrik: 'cus_b5ciVhis0kcsFnRhal8Y3PJt',
  henrikSubscription: 'sub_6qyU5qn2Pyp1F6S0jdUWaQSK',
  henrikOpenInvoice: 'in_fiCsgCELuwOiCmrXOr7q9YF9',
  henrikFailingCard: 'pm_PM1OjbGlKU6jXOhP599Rd354',
  henrikOtherCard: 'pm_5vWAd6MTXoRbS2Wu6UuMqdaD',
  // The open dispute (a story row), on a fraud claim.
  alma: 'cus_QWoosKvDp4isTW9WrEc0grqn',
  almaDispute: 'du_XCN9dn1FZOVEjM2HBWd8xkdN',
  almaCharge: 'ch_dZ7Flu6atOJSkkEp5JwVKpXj',
  // Past due on two subscriptions after failed renewals; leaving.
  mateo: 'cus_vFiK88dCliwFHX46X6qBttuC',
  mateoSubscriptions: ['sub_ULED3NDbSq0xb6vo2hQ2TPQO', 'sub_VY1NUzClzLkfI1GIEjFPwqqz'],
  mateoOpenInvoices: ['in_0OFwmRJt1fdlbfd6bSiTbNaQ', 'in_fGPDEKXsUmT6q7fZVmKtlfOx'],
  // Two customers named Liam Novak: the second (liam.novak2@) bought a training session nobody refunded yet.
  liamNovak2: 'cus_slEZUo6Sxw0YJq6yaKrOz9rm',
  liamNovak2Training: 'pi_HnGbaTj9caxvMebVWSRvhDd4',
  liamNovak2TrainingCharge: 'ch_vlVrZOpIkgkDk3UtIzFx3I1L',
  sofiaFischer: 'cus_NShXpMKaT0A0TAPnGgOyzJgg',
  desmondJensen: 'cus_7VEv01a0knURTWV34lt4P41o',
  desmondSubscription: 'sub_u1a9ooxNYHmDFyoEN9KyaXBP',
  arjunPatel: 'cus_tPnQiptXpQClOqzk1Vfv5nwL',
  analyticsMonthly: 'price_uXP5t1O3JqF7L2ttPXSDOnh0',
} as const;

/** A list tool's reply, as gold solutions read it. */
type Listed<T> = { data: T[] };

/** Call a tool in a gold solution (a failed call throws: the gold solution is broken). */
const call = <T = unknown>(inst: GoldTarget, tool: string, args: Record<string, unknown> = {}): T =>
  goldCall<T>(inst, tool, args);

/** Run any API operation through the agent's generic write tool. */
function apiWrite<T = unknown>(
  inst: GoldTarget,
  operation: string,
  parameters: Record<string, unknown>,
): T {
  return call<T>(inst, 'stripe_api_write', { stripe_api_operation_id: operation, parameters });
}

/** Run any read operation through the agent's generic read tool. */
function apiRead<T = unknown>(
  inst: GoldTarget,
  operation: string,
  parameters: Record<string, unknown>,
): T {
  return call<T>(inst, 'stripe_api_read', { stripe_api_operation_id: operation, parameters });
}

/** The one customer named exactly `name` (and, among namesakes, with `email`), found by search. */
function customerNamed(inst: GoldTarget, name: string, email?: string): Customer {
  const { data } = call<Listed<Customer>>(inst, 'search_stripe_resources', {
    query: `customers:name:"${name}"`,
  });
  const found = data.filter((c) => c.name === name && (email === undefined || c.email === email));
  if (found.length !== 1)
    throw new Error(
      `gold: expected one customer named ${name}${email ? ` <${email}>` : ''}, found ${found.length}`,
    );
  return found[0];
}

/** The active recurring price with a lookup key. */
function priceByLookupKey(inst: GoldTarget, key: string): Price {
  const { data } = apiRead<Listed<Price>>(inst, 'GetPrices', {
    lookup_keys: [key],
    active: true,
  });
  if (data.length !== 1)
    throw new Error(`gold: expected one active price with lookup key ${key}, found ${data.length}`);
  return data[0];
}

/**
 * The parsed object of a Stripe row's `data` column in table `T`; null when it is not an object's JSON. The column
 * holds what the world stored (store.ts), so it is read as the table's object.
 */
function objectOf<T extends Table>(data: unknown): Stored<T> | null {
  if (typeof data !== 'string') return null;
  try {
    const o = JSON.parse(data) as unknown;
    return o !== null && typeof o === 'object' ? (o as Stored<T>) : null;
  } catch {
    return null;
  }
}

/** A `data` matcher: the stored object satisfies `test`, described by `label` in reasons. */
const object = <T extends Table>(label: string, test: (o: Stored<T>) => boolean) =>
  where((d) => {
    const o = objectOf<T>(d);
    return o !== null && test(o);
  }, label);

/** The id of a reference that may be expanded. */
const idOf = (v: unknown): unknown =>
  v !== null && typeof v === 'object' ? (v as { id?: unknown }).id : v;

/**
 * Bookkeeping every write brings along, never the task: the events Stripe records, and balance transactions turning
 * available as their date passes (reading the balance settles them).
 */
const BOOKKEEPING: Allowance[] = [
  inserted('events', {}),
  updated('balance_transactions', {}, { status: 'available' }),
];

/**
 * The shape of every grader here: nothing may change but the rows `touch` covers (else 0), and then the `expected`
 * changes earn their partial credit (plus any `extra` rubrics, averaged in).
 */
function strict(
  touch: readonly Allowance[],
  expected: readonly Expectation[],
  extra: readonly RubricPart[] = [],
): Rubric {
  const allow = [...touch, ...BOOKKEEPING];
  const changes = expectChanges(expected, { allow });
  return gate(
    noOtherChanges({ allow, name: 'nothing else changed' }),
    extra.length ? all([changes, ...extra]) : changes,
  );
}

/**
 * One succeeded refund of `amount` cents with `reason` on a payment and its charge (refunded in full, or partly), with
 * its balance transaction: the only rows the episode may touch.
 */
function oneRefund(
  paymentIntent: string,
  charge: string,
  amount: number,
  reason: string,
  full: boolean,
): Rubric {
  return strict(
    [
      inserted('refunds', { payment_intent: paymentIntent }),
      updated('charges', { id: charge }, {}),
      inserted('balance_transactions', { type: 'refund' }),
    ],
    [
      inserted('refunds', {
        payment_intent: paymentIntent,
        charge,
        status: 'succeeded',
        data: object<'refunds'>(
          `amount = ${amount}, reason = "${reason}"`,
          (o) => o.amount === amount && o.reason === reason,
        ),
      }),
      full
        ? updated(
            'charges',
            { id: charge },
            {
              data: object<'charges'>(
                'refunded in full',
                (o) => o.refunded === true && o.amount_refunded === amount,
              ),
            },
          )
        : updated(
            'charges',
            { id: charge },
            {
              data: object<'charges'>(
                `amount_refunded = ${amount}, not fully refunded`,
                (o) => o.amount_refunded === amount && o.refunded === false,
              ),
            },
          ),
    ],
  );
}
/**
 * A check that a row inserted in `child` (one that fits `childFits`) refers by `column` to a row inserted in `parent`
 * that fits `parentFits`: "the price belongs to the new product", which no single-row matcher can say.
 */
function refersToNew(
  child: string,
  column: string,
  parent: string,
  parentFits: (c: Change) => boolean,
  what: string,
  childFits: (c: Change) => boolean = () => true,
): Rubric {
  return rubric(what, (target: GradeTarget): Grade => {
    const changes = target.changes();
    const parents = new Set(
      changes
        .filter((c) => c.table === parent && c.op === 'insert' && parentFits(c))
        .map((c) => c.key.id),
    );
    const children = changes.filter((c) => c.table === child && c.op === 'insert' && childFits(c));
    const linked = children.filter((c) => parents.has(idOf(c.after?.[column]) as string));
    const ok = linked.length > 0;
    const reason = ok
      ? `${child} ${String(linked[0].key.id)} has ${column} = ${String(idOf(linked[0].after?.[column]))}, the new ${parent} row.`
      : `No new ${child} row refers by ${column} to a new ${parent} row as required (${children.length} new ${child} row(s), ${parents.size} fitting ${parent} row(s)).`;
    return {
      reward: ok ? 1 : 0,
      passed: ok,
      criteria: [
        {
          id: `link.${child}.${column}`,
          label: `${child} refers to a new ${parent} row`,
          name: what,
          score: ok ? 1 : 0,
          weight: 1,
          reason,
        },
      ],
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Requests that name everything: one or two writes.

const NADIA = { name: 'Nadia Okafor', email: 'nadia.okafor@brightloop.io', crmId: 'CRM-2041' };

export const createCustomerWithMetadata = defineTask({
  id: 'create_customer_with_metadata',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['customers', 'insert', 'metadata'],
  prompt: `New signup from sales: please add ${NADIA.name} (${NADIA.email}) as a customer, and put her CRM record id in the customer's metadata under crm_id (${NADIA.crmId}) so our sync can match her.`,
  grade: strict(
    [inserted('customers', { email: NADIA.email })],
    [
      inserted('customers', {
        name: NADIA.name,
        email: NADIA.email,
        deleted: 0,
        data: object<'customers'>(
          `metadata.crm_id = "${NADIA.crmId}"`,
          (o) => o.metadata?.crm_id === NADIA.crmId,
        ),
      }),
    ],
  ),
  gold(inst) {
    apiWrite(inst, 'PostCustomers', {
      name: NADIA.name,
      email: NADIA.email,
      metadata: { crm_id: NADIA.crmId },
    });
  },
});

const SOFIA_EMAIL = 'sofia.fischer@northwind.io';

export const updateCustomerEmail = defineTask({
  id: 'update_customer_email',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['customers', 'update'],
  prompt: `Sofia Fischer at Northwind wrote in: their invoices should go to ${SOFIA_EMAIL} from now on (the old .app address is being shut down). Please update her customer's email.`,
  grade: strict(
    [updated('customers', { id: IDS.sofiaFischer }, {})],
    [updated('customers', { id: IDS.sofiaFischer }, { email: SOFIA_EMAIL, deleted: 0 })],
  ),
  gold(inst) {
    const sofia = customerNamed(inst, 'Sofia Fischer');
    apiWrite(inst, 'PostCustomersCustomer', { id: sofia.id, email: SOFIA_EMAIL });
  },
});

const AUDIT = { name: 'Audit Log Export', amount: 1500 };
const isAuditProduct = (c: Change) => objectOf<'products'>(c.after?.data)?.name === AUDIT.name;

export const productWithMonthlyPrice = defineTask({
  id: 'product_with_monthly_price',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['catalog', 'products', 'prices', 'insert'],
  prompt: `We're launching a new add-on. Create a product called "${AUDIT.name}" and give it a recurring price of $15.00 a month in USD, so sales can start putting it on subscriptions.`,
  grade: strict(
    [inserted('products', {}), inserted('prices', {})],
    [
      inserted('products', {
        active: 1,
        deleted: 0,
        data: object<'products'>(`name = "${AUDIT.name}"`, (o) => o.name === AUDIT.name),
      }),
      inserted('prices', {
        active: 1,
        type: 'recurring',
        currency: 'usd',
        interval: 'month',
        data: object<'prices'>(
          'unit_amount = 1500, every 1 month',
          (o) => o.unit_amount === AUDIT.amount && (o.recurring?.interval_count ?? 1) === 1,
        ),
      }),
    ],
    [
      refersToNew(
        'prices',
        'product',
        'products',
        isAuditProduct,
        `the price belongs to the new ${AUDIT.name} product`,
      ),
    ],
  ),
  gold(inst) {
    const product = call<Product>(inst, 'create_product', {
      name: AUDIT.name,
      description: 'Export of the audit log to your own storage, daily.',
    });
    call(inst, 'create_price', {
      product: product.id,
      unit_amount: AUDIT.amount,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
  },
});

const SPRING = { name: 'Spring launch', code: 'SPRING20' };
/** 20% off, repeating for 3 months. */
const springTerms = (o: Stored<'coupons'> | null) =>
  o?.percent_off === 20 && o?.duration === 'repeating' && o?.duration_in_months === 3;

export const couponWithPromotionCode = defineTask({
  id: 'coupon_with_promotion_code',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['coupons', 'promotion_codes', 'insert'],
  prompt: `Marketing needs a discount for the spring campaign: a coupon named "${SPRING.name}" giving 20% off for the first 3 months, and a promotion code ${SPRING.code} that customers can type in to get it.`,
  grade: strict(
    [inserted('coupons', {}), inserted('promotion_codes', {})],
    [
      inserted('coupons', {
        deleted: 0,
        data: object<'coupons'>(
          `name = "${SPRING.name}", 20% off, repeating for 3 months`,
          (o) => o.name === SPRING.name && springTerms(o),
        ),
      }),
      inserted('promotion_codes', { code: SPRING.code, active: 1, customer: null }),
    ],
    [
      refersToNew(
        'promotion_codes',
        'coupon',
        'coupons',
        (c) => springTerms(objectOf<'coupons'>(c.after?.data)),
        'the promotion code redeems the new coupon',
      ),
    ],
  ),
  gold(inst) {
    const coupon = call<Stored<'coupons'>>(inst, 'create_coupon', {
      name: SPRING.name,
      percent_off: 20,
      duration: 'repeating',
      duration_in_months: 3,
    });
    apiWrite(inst, 'PostPromotionCodes', {
      promotion: { type: 'coupon', coupon: coupon.id },
      code: SPRING.code,
    });
  },
});

const WELCOME_URL = 'https://example.com/analytics/welcome';

export const paymentLinkForPrice = defineTask({
  id: 'payment_link_for_price',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['payment_links', 'prices', 'insert'],
  prompt: `Customer success wants a link they can send to existing customers to buy the Analytics Add-on, billed monthly (one unit). Please create a payment link for it that sends buyers to ${WELCOME_URL} after they pay.`,
  grade: strict(
    [inserted('payment_links', {})],
    [
      inserted('payment_links', {
        active: 1,
        data: object<'payment_links'>(
          `one line: the analytics_monthly price (${IDS.analyticsMonthly}), quantity 1`,
          (o) => {
            const items = o.line_items?.data ?? [];
            return (
              items.length === 1 &&
              idOf(items[0].price) === IDS.analyticsMonthly &&
              items[0].quantity === 1
            );
          },
        ),
      }),
    ],
    [
      rubric('buyers are sent to the welcome page', (target) => {
        const links = target
          .changes()
          .filter((c) => c.table === 'payment_links' && c.op === 'insert');
        const ok = links.some(
          (c) =>
            objectOf<'payment_links'>(c.after?.data)?.after_completion?.redirect?.url ===
            WELCOME_URL,
        );
        const reason = ok
          ? `The new payment link redirects to ${WELCOME_URL}.`
          : `No new payment link redirects to ${WELCOME_URL} after payment.`;
        return {
          reward: ok ? 1 : 0,
          passed: ok,
          criteria: [
            {
              id: 'redirect',
              label: 'where buyers go after paying',
              name: 'redirect',
              score: ok ? 1 : 0,
              weight: 1,
              reason,
            },
          ],
        };
      }),
    ],
  ),
  gold(inst) {
    const { data: products } = call<Listed<Product>>(inst, 'list_products', { limit: 100 });
    const analytics = products.find((p) => p.name === 'Analytics Add-on');
    if (!analytics) throw new Error('gold: no Analytics Add-on product');
    const { data: prices } = call<Listed<Price>>(inst, 'list_prices', {
      product: analytics.id,
      limit: 100,
    });
    const monthly = prices.filter((p) => p.active && p.recurring?.interval === 'month');
    if (monthly.length !== 1)
      throw new Error(`gold: expected one monthly Analytics price, found ${monthly.length}`);
    call(inst, 'create_payment_link', {
      price: monthly[0].id,
      quantity: 1,
      redirect_url: WELCOME_URL,
    });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Find the customer (or the payment, or the invoices) first; one detail decides the grade.

export const partialRefundWithReason = defineTask({
  id: 'partial_refund_with_reason',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['refunds', 'payments', 'lookup', 'trap'],
  prompt:
    'Liam Novak (liam.novak2@heron.com) says his Additional training session ($350) ended an hour early. We agreed to give him $100 back: refund $100 of that payment, with the reason "requested by customer".',
  // There are two customers named Liam Novak; the other one's payments must stay as they are.
  grade: oneRefund(
    IDS.liamNovak2Training,
    IDS.liamNovak2TrainingCharge,
    10_000,
    'requested_by_customer',
    false,
  ),
  gold(inst) {
    const liam = customerNamed(inst, 'Liam Novak', 'liam.novak2@heron.com');
    const { data } = call<Listed<PaymentIntent>>(inst, 'list_payment_intents', {
      customer: liam.id,
      limit: 100,
    });
    const training = data.filter(
      (p) => p.status === 'succeeded' && p.description === 'Additional training session',
    );
    if (training.length !== 1)
      throw new Error(`gold: expected one training session payment, found ${training.length}`);
    call(inst, 'create_refund', {
      payment_intent: training[0].id,
      amount: 10_000,
      reason: 'requested_by_customer',
    });
  },
});

/** The fixture's `now` (2026-06-01T09:00:00Z) in unix seconds: the gold solutions run at it, as agents do. */
const NOW = Date.UTC(2026, 5, 1, 9) / 1000;
const DAY = 86_400;
const isArjunInvoice = (c: Change) => c.after?.customer === IDS.arjunPatel;

/**
 * The new invoice line says it is for a training session: in its own description, or through the product of the price
 * it bills (a one-time price made for it in the episode).
 */
const trainingLine = rubric('the line is for an additional training session', (target) => {
  const changes = target.changes();
  // A row whose data is not an object's JSON reads as an object without fields.
  const inserts = <T extends Table>(table: T): Partial<Stored<T>>[] =>
    changes
      .filter((c) => c.table === table && c.op === 'insert')
      .map((c) => objectOf<T>(c.after?.data) ?? {});
  const productNames = new Map(inserts('products').map((p) => [p.id, String(p.name ?? '')]));
  const lines = inserts('invoiceitems').filter((ii) => ii.customer === IDS.arjunPatel);
  const named = lines.filter(
    (ii) =>
      /training/i.test(String(ii.description ?? '')) ||
      /training/i.test(productNames.get(ii.pricing?.price_details?.product) ?? ''),
  );
  const ok = named.length > 0;
  const reason = ok
    ? `invoiceitems ${String(named[0].id)} is described as an additional training session.`
    : `No new invoice item of ${IDS.arjunPatel} is described (or priced through a product named) as a training session (${lines.length} new item(s)).`;
  return {
    reward: ok ? 1 : 0,
    passed: ok,
    criteria: [
      {
        id: 'line.description',
        label: 'what the invoice line is for',
        name: 'training session line',
        score: ok ? 1 : 0,
        weight: 1,
        reason,
      },
    ],
  };
});

export const invoiceFinalizeAndSend = defineTask({
  id: 'invoice_finalize_and_send',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['invoices', 'invoice_items', 'lookup', 'workflow'],
  prompt:
    'Arjun Patel (Foxglove) booked an extra training session. Invoice him $350.00 for "Additional training session", payable within 14 days. The invoice must be finalized and sent to him today.',
  grade: strict(
    [
      inserted('invoices', { customer: IDS.arjunPatel }),
      inserted('invoiceitems', { customer: IDS.arjunPatel }),
      inserted('invoice_line_items', {}),
      // Invoice numbering advances on the customer.
      updated('customers', { id: IDS.arjunPatel }, { deleted: 0 }),
      // A line may also be billed through a one-time price made for it.
      inserted('prices', { type: 'one_time' }),
      inserted('products', {}),
    ],
    [
      inserted('invoices', {
        customer: IDS.arjunPatel,
        status: 'open',
        collection_method: 'send_invoice',
        due_date: where(
          (v) => typeof v === 'number' && Math.abs(v - (NOW + 14 * DAY)) <= DAY / 2,
          'due 14 days from today',
        ),
        data: object<'invoices'>('amount_due = 35000', (o) => o.amount_due === 35_000),
      }),
      inserted('invoiceitems', {
        customer: IDS.arjunPatel,
        invoice: regex(/^in_/),
        data: object<'invoiceitems'>('amount = 35000', (o) => o.amount === 35_000),
      }),
    ],
    [
      refersToNew(
        'events',
        'object_id',
        'invoices',
        isArjunInvoice,
        'the new invoice was sent',
        (c) => c.after?.type === 'invoice.sent',
      ),
      trainingLine,
    ],
  ),
  gold(inst) {
    const arjun = customerNamed(inst, 'Arjun Patel');
    const invoice = call<Invoice>(inst, 'create_invoice', {
      customer: arjun.id,
      days_until_due: 14,
    });
    apiWrite(inst, 'PostInvoiceitems', {
      customer: arjun.id,
      invoice: invoice.id,
      amount: 35_000,
      currency: 'usd',
      description: 'Additional training session',
    });
    call(inst, 'finalize_invoice', { invoice: invoice.id });
    apiWrite(inst, 'PostInvoicesInvoiceSend', { id: invoice.id });
  },
});

/** 25% off, once. */
const apologyTerms = (o: Stored<'coupons'> | null) =>
  o?.percent_off === 25 && o?.duration === 'once';
/** A discount as graders read it: its source's coupon, or (older API versions) the coupon itself. */
type DiscountLike = { source?: { coupon?: unknown } | null; coupon?: unknown };
/** The coupon a discount object draws on. */
const couponOfDiscount = (d: DiscountLike | null | undefined): unknown =>
  d?.source?.coupon ?? idOf(d?.coupon);

/** Desmond's account or his subscription carries a discount from a coupon created in the episode with the terms asked. */
const apologyApplied = rubric(
  "the new coupon discounts Desmond Jensen's next invoice",
  (target) => {
    const changes = target.changes();
    const coupons = new Set(
      changes
        .filter(
          (c) =>
            c.table === 'coupons' &&
            c.op === 'insert' &&
            apologyTerms(objectOf<'coupons'>(c.after?.data)),
        )
        .map((c) => c.key.id),
    );
    const onCustomer = changes.some(
      (c) =>
        c.table === 'customers' &&
        c.op === 'update' &&
        c.key.id === IDS.desmondJensen &&
        coupons.has(couponOfDiscount(objectOf<'customers'>(c.after?.data)?.discount) as string),
    );
    const onSubscription = changes.some(
      (c) =>
        c.table === 'subscriptions' &&
        c.op === 'update' &&
        c.key.id === IDS.desmondSubscription &&
        (objectOf<'subscriptions'>(c.after?.data)?.discounts ?? []).some((d) =>
          coupons.has(couponOfDiscount(typeof d === 'string' ? { coupon: d } : d) as string),
        ),
    );
    const ok = onCustomer || onSubscription;
    const reason = ok
      ? `${onCustomer ? `customers ${IDS.desmondJensen}` : `subscriptions ${IDS.desmondSubscription}`} carries a discount from the new 25%-once coupon.`
      : `Neither customers ${IDS.desmondJensen} nor subscriptions ${IDS.desmondSubscription} got a discount from a new 25% off, once coupon (${coupons.size} such coupon(s) created).`;
    return {
      reward: ok ? 1 : 0,
      passed: ok,
      criteria: [
        {
          id: 'discount',
          label: 'the discount reaches the customer',
          name: 'discount applied',
          score: ok ? 1 : 0,
          weight: 1,
          reason,
        },
      ],
    };
  },
);

export const applyCouponNextInvoice = defineTask({
  id: 'apply_coupon_next_invoice',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['coupons', 'discounts', 'lookup'],
  prompt:
    "Desmond Jensen (Saltmarsh) lost a day of work to last week's outage. As an apology, give him 25% off his next invoice, that invoice only: create a coupon for it and apply it to his account.",
  grade: strict(
    [
      inserted('coupons', {}),
      inserted('promotion_codes', {}),
      updated('customers', { id: IDS.desmondJensen }, { deleted: 0 }),
      updated('subscriptions', { id: IDS.desmondSubscription }, { status: 'active' }),
    ],
    [inserted('coupons', { deleted: 0, data: object<'coupons'>('25% off, once', apologyTerms) })],
    [apologyApplied],
  ),
  gold(inst) {
    const desmond = customerNamed(inst, 'Desmond Jensen');
    const coupon = call<Stored<'coupons'>>(inst, 'create_coupon', {
      name: 'Outage apology',
      percent_off: 25,
      duration: 'once',
    });
    apiWrite(inst, 'PostCustomersCustomer', { id: desmond.id, discounts: [{ coupon: coupon.id }] });
  },
});

export const voidChurnedInvoices = defineTask({
  id: 'void_churned_invoices',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['invoices', 'churn', 'lookup'],
  prompt:
    "Grace Whitaker (Yardarm) has churned: her card kept failing and both her subscriptions were canceled after the last retry. Her unpaid renewal invoices are still open and clutter our receivables; we won't pursue them, so void them. Her paid invoices stay as they are.",
  grade: strict(
    [
      updated('invoices', { id: oneOf([...IDS.graceOpenInvoices]) }, {}),
      // Voiding an invoice cancels its payment intent and its payment attempt.
      updated('payment_intents', { customer: IDS.grace }, { status: 'canceled' }),
      updated('invoice_payments', { invoice: oneOf([...IDS.graceOpenInvoices]) }, {}),
    ],
    IDS.graceOpenInvoices.map((id) => updated('invoices', { id }, { status: 'void' })),
  ),
  gold(inst) {
    const grace = customerNamed(inst, 'Grace Whitaker');
    const { data } = call<Listed<Invoice>>(inst, 'list_invoices', {
      customer: grace.id,
      limit: 100,
    });
    for (const invoice of data.filter((i) => i.status === 'open'))
      apiWrite(inst, 'PostInvoicesInvoiceVoid', { id: invoice.id });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// The fixture's stories. Each has a tempting wrong move that scores 0.

export const refundDuplicateCharge = defineTask({
  id: 'refund_duplicate_charge',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['refunds', 'payments', 'story', 'trap'],
  prompt:
    'Priya Raman (Heron) was charged twice for her Onboarding workshop: two $750 payments 90 seconds apart. Refund the second (later) payment in full as a duplicate. The first payment is the real one and stays as it is.',
  // Refunding the first payment too (or instead) touches a row outside the gate: 0.
  grade: oneRefund(IDS.priyaDuplicatePayment, IDS.priyaDuplicateCharge, 75_000, 'duplicate', true),
  gold(inst) {
    const priya = customerNamed(inst, 'Priya Raman');
    const { data } = call<Listed<PaymentIntent>>(inst, 'list_payment_intents', {
      customer: priya.id,
      limit: 100,
    });
    const workshop = data
      .filter((p) => p.status === 'succeeded' && p.description === 'Onboarding workshop')
      .sort((a, b) => a.created - b.created);
    if (workshop.length !== 2)
      throw new Error(`gold: expected two workshop payments, found ${workshop.length}`);
    call(inst, 'create_refund', { payment_intent: workshop[1].id, reason: 'duplicate' });
  },
});

const NEW_SUPPORT_YEARLY = 219_000;

export const migrateRetiredPrice = defineTask({
  id: 'migrate_retired_price',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['prices', 'subscriptions', 'prorations', 'story', 'workflow'],
  prompt:
    "We are retiring the Priority Support yearly price ($1,990 a year). Its successor is a new yearly price of $2,190 for the same product: create it and move our lookup key support_yearly over to it. Then move every subscriber of the old yearly price onto the new one, prorating the difference onto their next renewal invoice (don't bill anyone now, don't reset their billing cycle, don't cancel anything). Finally archive the old price so nobody new can buy it.",
  // Billing now (always_invoice), a new cycle, or a canceled and recreated subscription all write rows outside the gate.
  grade: strict(
    [
      inserted('prices', { product: IDS.supportProduct }),
      updated('prices', { id: IDS.supportYearly }, {}),
      updated('subscriptions', { id: IDS.tomasSupport }, { status: 'active' }),
      updated('subscription_items', { subscription: IDS.tomasSupport }, {}),
      inserted('subscription_items', { subscription: IDS.tomasSupport }),
      deleted('subscription_items', { subscription: IDS.tomasSupport }),
      inserted('invoiceitems', { customer: IDS.tomas, invoice: null }),
    ],
    [
      inserted('prices', {
        product: IDS.supportProduct,
        active: 1,
        type: 'recurring',
        currency: 'usd',
        interval: 'year',
        lookup_key: 'support_yearly',
        data: object<'prices'>('unit_amount = 219000', (o) => o.unit_amount === NEW_SUPPORT_YEARLY),
      }),
      updated('prices', { id: IDS.supportYearly }, { active: 0, deleted: 0 }),
      updated(
        'subscriptions',
        { id: IDS.tomasSupport },
        {
          status: 'active',
          data: object<'subscriptions'>(
            'one item: the new $2,190 yearly Priority Support price, quantity 1; no cancellation',
            (o) => {
              const items = o.items?.data ?? [];
              const price: Price | undefined = items[0]?.price;
              return (
                items.length === 1 &&
                items[0].quantity === 1 &&
                price?.id !== IDS.supportYearly &&
                price?.unit_amount === NEW_SUPPORT_YEARLY &&
                idOf(price?.product) === IDS.supportProduct &&
                price?.recurring?.interval === 'year' &&
                o.cancel_at_period_end === false &&
                o.cancel_at === null
              );
            },
          ),
        },
      ),
      atLeast(
        1,
        inserted('invoiceitems', {
          customer: IDS.tomas,
          invoice: null,
          data: object<'invoiceitems'>('a pending proration', (o) => o.proration === true),
        }),
      ),
    ],
  ),
  gold(inst) {
    const old = priceByLookupKey(inst, 'support_yearly');
    const successor = apiWrite<Price>(inst, 'PostPrices', {
      product: idOf(old.product),
      unit_amount: NEW_SUPPORT_YEARLY,
      currency: 'usd',
      recurring: { interval: 'year' },
      lookup_key: 'support_yearly',
      transfer_lookup_key: true,
    });
    const { data: subscriptions } = call<Listed<Subscription>>(inst, 'list_subscriptions', {
      price: old.id,
      limit: 100,
    });
    for (const sub of subscriptions) {
      const items = sub.items.data.filter((it) => it.price.id === old.id);
      call(inst, 'update_subscription', {
        subscription: sub.id,
        proration_behavior: 'create_prorations',
        items: items.map((it) => ({ id: it.id, price: successor.id })),
      });
    }
    apiWrite(inst, 'PostPricesPrice', { id: old.id, active: false });
  },
});

const ALMA = {
  name: 'Alma Whitfield',
  email: 'alma.whitfield@tinder.com',
  serviceDate: '2026-05-12',
};
/** One evidence field of the dispute, as its own criterion (so partial evidence earns partial credit). */
const evidence = (field: keyof Dispute['evidence'], test: (v: unknown) => boolean, label: string) =>
  updated(
    'disputes',
    { id: IDS.almaDispute },
    { data: object<'disputes'>(`evidence.${field} ${label}`, (o) => test(o.evidence?.[field])) },
  );

export const respondToDispute = defineTask({
  id: 'respond_to_dispute',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['disputes', 'evidence', 'story'],
  prompt: `Alma Whitfield's $750 Onboarding workshop payment was disputed as fraudulent, but she attended the workshop herself on ${ALMA.serviceDate}: our attendance log shows her signing in with her account email. Respond to the dispute with evidence: her name and email exactly as on her customer record, a product description saying it was the Onboarding workshop, the service date ${ALMA.serviceDate}, and a short note in the uncategorized text that she attended. Then submit the evidence to the bank. Do not accept the dispute and do not refund the payment.`,
  // Accepting (closing) the dispute leaves it lost, outside the gate: 0. So does a refund.
  grade: gate(
    noOtherChanges({
      allow: [
        updated(
          'disputes',
          { id: IDS.almaDispute },
          { status: oneOf(['needs_response', 'under_review']) },
        ),
        ...BOOKKEEPING,
      ],
      name: 'nothing else changed',
    }),
    all([
      updated('disputes', { id: IDS.almaDispute }, { status: 'under_review' }),
      evidence('customer_name', (v) => v === ALMA.name, `= "${ALMA.name}"`),
      evidence('customer_email_address', (v) => v === ALMA.email, `= "${ALMA.email}"`),
      evidence(
        'product_description',
        (v) => typeof v === 'string' && /onboarding workshop/i.test(v),
        'names the Onboarding workshop',
      ),
      evidence(
        'service_date',
        (v) => typeof v === 'string' && v.includes(ALMA.serviceDate),
        `includes ${ALMA.serviceDate}`,
      ),
      evidence(
        'uncategorized_text',
        (v) => typeof v === 'string' && /attend/i.test(v),
        'says she attended',
      ),
    ]),
  ),
  gold(inst) {
    const alma = customerNamed(inst, ALMA.name);
    const { data: payments } = call<Listed<PaymentIntent>>(inst, 'list_payment_intents', {
      customer: alma.id,
      limit: 100,
    });
    const workshop = payments.find((p) => p.description === 'Onboarding workshop');
    if (!workshop) throw new Error('gold: no Onboarding workshop payment');
    const { data: disputes } = call<Listed<Dispute>>(inst, 'list_disputes', {
      payment_intent: workshop.id,
    });
    const open = disputes.filter((d) => d.status === 'needs_response');
    if (open.length !== 1) throw new Error(`gold: expected one open dispute, found ${open.length}`);
    apiWrite(inst, 'PostDisputesDispute', {
      id: open[0].id,
      evidence: {
        customer_name: alma.name,
        customer_email_address: alma.email,
        product_description:
          "Onboarding workshop: a three-hour live session setting up the customer's workspace.",
        service_date: ALMA.serviceDate,
        uncategorized_text: `The cardholder attended the workshop herself on ${ALMA.serviceDate}; our attendance log shows her signing in with ${alma.email}.`,
      },
      submit: true,
    });
  },
});

export const fixFailingCard = defineTask({
  id: 'fix_failing_card',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['payment_methods', 'invoices', 'subscriptions', 'story', 'workflow'],
  prompt:
    'Henrik Larsen (Fernway) says his monthly renewal keeps failing; we have tried his card three times. He has another card on file with us that works. Make that other card his default payment method for invoices, collect his open invoice with it now so his subscription is current again, and remove the card that keeps failing from his account.',
  // Canceling his subscription, voiding the invoice, or touching any other customer's billing closes the gate: 0.
  grade: strict(
    [
      updated('customers', { id: IDS.henrik }, { deleted: 0 }),
      updated('invoices', { id: IDS.henrikOpenInvoice }, { status: oneOf(['open', 'paid']) }),
      updated(
        'subscriptions',
        { id: IDS.henrikSubscription },
        { status: oneOf(['past_due', 'active']) },
      ),
      updated('payment_methods', { id: IDS.henrikFailingCard }, {}),
      updated('payment_intents', { customer: IDS.henrik }, {}),
      inserted('payment_intents', { customer: IDS.henrik }),
      inserted('charges', { customer: IDS.henrik }),
      inserted('invoice_payments', { invoice: IDS.henrikOpenInvoice }),
      updated('invoice_payments', { invoice: IDS.henrikOpenInvoice }, {}),
      inserted('balance_transactions', { type: 'charge' }),
    ],
    [
      updated(
        'customers',
        { id: IDS.henrik },
        {
          data: object<'customers'>(
            `invoice_settings.default_payment_method = ${IDS.henrikOtherCard}`,
            (o) => idOf(o.invoice_settings?.default_payment_method) === IDS.henrikOtherCard,
          ),
        },
      ),
      updated('invoices', { id: IDS.henrikOpenInvoice }, { status: 'paid' }),
      updated('subscriptions', { id: IDS.henrikSubscription }, { status: 'active' }),
      updated('payment_methods', { id: IDS.henrikFailingCard }, { customer: null }),
    ],
  ),
  gold(inst) {
    const henrik = customerNamed(inst, 'Henrik Larsen');
    const failing = idOf(henrik.invoice_settings?.default_payment_method) as string;
    const { data: cards } = apiRead<Listed<PaymentMethod>>(
      inst,
      'GetCustomersCustomerPaymentMethods',
      {
        customer: henrik.id,
        type: 'card',
      },
    );
    const others = cards.filter((c) => c.id !== failing);
    if (others.length !== 1)
      throw new Error(`gold: expected one other card, found ${others.length}`);
    apiWrite(inst, 'PostCustomersCustomer', {
      id: henrik.id,
      invoice_settings: { default_payment_method: others[0].id },
    });
    const { data: invoices } = call<Listed<Invoice>>(inst, 'list_invoices', {
      customer: henrik.id,
      limit: 100,
    });
    for (const invoice of invoices.filter((i) => i.status === 'open'))
      apiWrite(inst, 'PostInvoicesInvoicePay', { id: invoice.id });
    apiWrite(inst, 'PostPaymentMethodsPaymentMethodDetach', { id: failing });
  },
});

export const churnAtPeriodEnd = defineTask({
  id: 'churn_at_period_end',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['invoices', 'subscriptions', 'churn', 'workflow'],
  prompt:
    'Mateo Jensen (Heron) is leaving us. We are writing off the renewals his card failed to pay: void his open invoices. His subscriptions should run until the end of their current period and then stop: set each of them to cancel at period end. Nothing may be canceled right away.',
  // Canceling a subscription at once leaves it canceled, outside the gate: 0.
  grade: strict(
    [
      updated('invoices', { id: oneOf([...IDS.mateoOpenInvoices]) }, {}),
      updated(
        'subscriptions',
        { id: oneOf([...IDS.mateoSubscriptions]) },
        { status: oneOf(['past_due', 'active']) },
      ),
      updated('payment_intents', { customer: IDS.mateo }, { status: 'canceled' }),
      updated('invoice_payments', { invoice: oneOf([...IDS.mateoOpenInvoices]) }, {}),
    ],
    [
      ...IDS.mateoOpenInvoices.map((id) => updated('invoices', { id }, { status: 'void' })),
      ...IDS.mateoSubscriptions.map((id) =>
        updated(
          'subscriptions',
          { id },
          {
            data: object<'subscriptions'>(
              'cancel_at_period_end = true, not canceled yet',
              (o) => o.cancel_at_period_end === true && o.status !== 'canceled',
            ),
          },
        ),
      ),
    ],
  ),
  gold(inst) {
    const mateo = customerNamed(inst, 'Mateo Jensen');
    const { data: invoices } = call<Listed<Invoice>>(inst, 'list_invoices', {
      customer: mateo.id,
      limit: 100,
    });
    for (const invoice of invoices.filter((i) => i.status === 'open'))
      apiWrite(inst, 'PostInvoicesInvoiceVoid', { id: invoice.id });
    const { data: subscriptions } = call<Listed<Subscription>>(inst, 'list_subscriptions', {
      customer: mateo.id,
      limit: 100,
    });
    for (const sub of subscriptions)
      apiWrite(inst, 'PostSubscriptionsSubscriptionExposedId', {
        id: sub.id,
        cancel_at_period_end: true,
      });
  },
});

/** Every Stripe World task, by level (the curriculum's stages), each level easiest first by the measured score. */
export const tasks = [
  createCustomerWithMetadata,
  updateCustomerEmail,
  couponWithPromotionCode,
  paymentLinkForPrice,
  productWithMonthlyPrice,
  respondToDispute,
  applyCouponNextInvoice,
  partialRefundWithReason,
  refundDuplicateCharge,
  voidChurnedInvoices,
  invoiceFinalizeAndSend,
  migrateRetiredPrice,
  churnAtPeriodEnd,
  fixFailingCard,
];
