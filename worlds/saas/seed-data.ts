/**
 * The saas small_startup fixture: crm's small_startup rows in the host store, a few saas story companies beside them,
 * and the billing of the paying companies in the Stripe store, created through Stripe World's own tools (so every
 * object is the one the API would have written). Stripe customers carry `metadata.crm_company_id` and the email of the
 * company's billing contact; prices carry lookup keys (`starter_monthly`, `fleet_yearly`, …).
 */
import type { Ctx, Row } from 'seahaven';
import { crm } from '@seahaven/crm';

/** A company of the story: its crm rows and, when it pays, its plans. */
interface StoryCompany {
  id: string;
  name: string;
  domain: string;
  industry: string;
  employees: number;
  /** Contacts: [id, name, email local part, title, stage]; the first is the billing contact. */
  contacts: [string, string, string, string, string][];
  /** Lookup keys of the prices it is subscribed to, one subscription each. */
  plans: string[];
}

/** Companies added for the saas tasks. Umbrella Freight and Umbrella Health are near-namesakes on purpose. */
export const STORY: StoryCompany[] = [
  {
    id: 'cmp_umbrella',
    name: 'Umbrella Freight',
    domain: 'umbrellafreight.example',
    industry: 'logistics',
    employees: 310,
    contacts: [
      ['con_una', 'Una Brandt', 'una.brandt', 'CFO', 'customer'],
      ['con_ivo', 'Ivo Marsh', 'ivo.marsh', 'Head of Operations', 'customer'],
      ['con_tess', 'Tess Holm', 'tess.holm', 'Data Scientist', 'qualified'],
    ],
    plans: ['growth_monthly', 'support_monthly'],
  },
  {
    id: 'cmp_umbrella_health',
    name: 'Umbrella Health',
    domain: 'umbrellahealth.example',
    industry: 'healthcare',
    employees: 95,
    contacts: [
      ['con_uri', 'Uri Sandoval', 'uri.sandoval', 'CTO', 'customer'],
      ['con_pia', 'Pia Lund', 'pia.lund', 'Office Manager', 'customer'],
    ],
    plans: ['growth_monthly'],
  },
  {
    id: 'cmp_soylent',
    name: 'Soylent Foods',
    domain: 'soylent.example',
    industry: 'retail',
    employees: 60,
    contacts: [
      ['con_mara', 'Mara Quinn', 'mara.quinn', 'Procurement Lead', 'customer'],
      ['con_otto', 'Otto Varga', 'otto.varga', 'CEO', 'qualified'],
    ],
    plans: ['starter_monthly'],
  },
];

/** The catalog: product name, description, and its prices as [lookup key, unit amount in cents, interval]. */
const CATALOG: [string, string, [string, number, 'month' | 'year'][]][] = [
  [
    'Starter',
    'Up to 5 seats.',
    [
      ['starter_monthly', 4_900, 'month'],
      ['starter_yearly', 49_000, 'year'],
    ],
  ],
  [
    'Growth',
    'Up to 50 seats, integrations included.',
    [
      ['growth_monthly', 19_900, 'month'],
      ['growth_yearly', 199_000, 'year'],
    ],
  ],
  [
    'Fleet Automation',
    'Robot fleet orchestration, priced per site.',
    [
      ['fleet_monthly', 400_000, 'month'],
      ['fleet_yearly', 4_800_000, 'year'],
    ],
  ],
  [
    'Premium Support',
    '24/7 support with a named engineer.',
    [['support_monthly', 50_000, 'month']],
  ],
];

/** How many of crm's generated companies (by name) with a customer contact get billing too. */
const GENERATED_PAYING = 2;

/** A call into the mounted Stripe store; a failure is a broken builder, so it throws with Stripe's message. */
function stripeCall(ctx: Ctx, tool: string, args: Record<string, unknown>): Row {
  return ctx.worlds.stripe.call(tool, args) as Row;
}

function write(ctx: Ctx, operation: string, parameters: Record<string, unknown>): Row {
  return stripeCall(ctx, 'stripe_api_write', { stripe_api_operation_id: operation, parameters });
}

/** A Stripe customer for a crm company, paying by a test Visa card, subscribed to each of `plans`. */
function bill(
  ctx: Ctx,
  prices: Map<string, string>,
  company: { id: string; name: string },
  email: string,
  plans: string[],
): void {
  const customer = write(ctx, 'PostCustomers', {
    name: company.name,
    email,
    metadata: { crm_company_id: company.id },
  });
  const pm = write(ctx, 'PostPaymentMethodsPaymentMethodAttach', {
    id: 'pm_card_visa',
    customer: customer.id,
  });
  write(ctx, 'PostCustomersCustomer', {
    id: customer.id,
    invoice_settings: { default_payment_method: pm.id },
  });
  for (const plan of plans)
    write(ctx, 'PostSubscriptions', {
      customer: customer.id,
      items: [{ price: prices.get(plan) }],
    });
}

/** Build saas's small_startup: crm's fixture, the story companies, then the Stripe catalog and billing. */
export function buildSmallStartup(ctx: Ctx): void {
  crm.fixtures.small_startup.build(ctx);
  const at = ctx.clock.iso();
  for (const c of STORY) {
    ctx.db.run(
      'INSERT INTO companies (id, name, domain, industry, employees, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      c.id,
      c.name,
      c.domain,
      c.industry,
      c.employees,
      at,
    );
    for (const [id, name, local, title, stage] of c.contacts) {
      ctx.db.run(
        'INSERT INTO contacts (id, company_id, name, email, title, stage, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        id,
        c.id,
        name,
        `${local}@${c.domain}`,
        title,
        stage,
        at,
        at,
      );
    }
  }
  ctx.db.run(
    `INSERT INTO deals (id, company_id, contact_id, title, amount_cents, stage, close_date, created_at, updated_at) VALUES ('deal_umbrella_platform', 'cmp_umbrella', 'con_una', 'Growth plan and support', 2988000, 'won', '2026-01-15', ?, ?)`,
    at,
    at,
  );

  const prices = new Map<string, string>();
  for (const [name, description, list] of CATALOG) {
    const product = stripeCall(ctx, 'create_product', { name, description });
    for (const [key, amount, interval] of list) {
      const price = write(ctx, 'PostPrices', {
        product: product.id,
        unit_amount: amount,
        currency: 'usd',
        recurring: { interval },
        lookup_key: key,
        nickname: `${name} ${interval}ly`,
      });
      prices.set(key, String(price.id));
    }
  }

  // Acme Robotics pays for Starter already; its Fleet automation pilot (deal_acme_fleet) is still a proposal.
  bill(ctx, prices, { id: 'cmp_acme', name: 'Acme Robotics' }, 'ravi.menon@acmerobotics.example', [
    'starter_monthly',
  ]);
  for (const c of STORY) bill(ctx, prices, c, `${c.contacts[0][2]}@${c.domain}`, c.plans);
  // A few generated companies with a customer contact pay too, on Starter or Growth.
  const paying = ctx.db.all<{ id: string; name: string; email: string }>(
    `SELECT co.id, co.name, min(c.email) AS email FROM companies co JOIN contacts c ON c.company_id = co.id
      WHERE c.stage = 'customer' AND co.id NOT IN ('cmp_acme', 'cmp_globex', 'cmp_umbrella', 'cmp_umbrella_health', 'cmp_soylent')
      GROUP BY co.id ORDER BY co.name, co.id LIMIT ?`,
    GENERATED_PAYING,
  );
  paying.forEach((c, i) =>
    bill(ctx, prices, c, c.email, [i % 2 === 0 ? 'starter_monthly' : 'growth_monthly']),
  );
}
