/** Deterministic generators for the crm fixtures: realistic names, companies, amounts and dates from `ctx.rng`. */
import type { Ctx } from 'seahaven';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Ken',
  'Dennis',
  'Frances',
  'John',
  'Radia',
  'Tim',
  'Katherine',
  'Linus',
  'Guido',
  'Hedy',
  'Claude',
  'Sophie',
  'Leslie',
  'Anita',
  'Bjarne',
  'Shafi',
  'Niklaus',
  'Adele',
  'Vint',
  'Jean',
  'Carol',
  'Whitfield',
  'Lynn',
  'Marissa',
  'Raj',
  'Priya',
  'Wei',
  'Yuki',
  'Omar',
  'Fatima',
  'Lucas',
  'Mateo',
  'Chloe',
  'Ines',
  'Kwame',
  'Amara',
  'Noah',
  'Elena',
  'Diego',
  'Sara',
  'Mei',
  'Arjun',
  'Zara',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Thompson',
  'Ritchie',
  'Allen',
  'McCarthy',
  'Perlman',
  'Berners-Lee',
  'Johnson',
  'Torvalds',
  'van Rossum',
  'Lamarr',
  'Shannon',
  'Wilson',
  'Lamport',
  'Borg',
  'Stroustrup',
  'Goldwasser',
  'Wirth',
  'Goldberg',
  'Cerf',
  'Bartik',
  'Shaw',
  'Diffie',
  'Conway',
  'Mayer',
  'Reddy',
  'Patel',
  'Zhang',
  'Tanaka',
  'Haddad',
  'Okafor',
  'Silva',
  'Garcia',
  'Martin',
  'Moreau',
  'Mensah',
  'Nwosu',
  'Schmidt',
  'Rossi',
  'Fernandez',
  'Nilsson',
  'Chen',
  'Iyer',
  'Khan',
];
const PREFIX = [
  'Blue',
  'Bright',
  'North',
  'Iron',
  'Silver',
  'Quantum',
  'Harbor',
  'Summit',
  'Cedar',
  'Nova',
  'Atlas',
  'Pioneer',
  'Vertex',
  'Lumen',
  'Orbit',
  'Granite',
  'Maple',
  'Falcon',
  'Coral',
  'Apex',
];
const SUFFIX = [
  'Labs',
  'Systems',
  'Analytics',
  'Logistics',
  'Health',
  'Robotics',
  'Foods',
  'Energy',
  'Media',
  'Capital',
  'Works',
  'Networks',
  'Bio',
  'Cloud',
  'Studios',
];
const INDUSTRIES = [
  'software',
  'logistics',
  'healthcare',
  'manufacturing',
  'retail',
  'finance',
  'energy',
  'media',
  'education',
  'biotech',
];
const TITLES = [
  'CEO',
  'CTO',
  'VP Sales',
  'Head of Operations',
  'Engineering Manager',
  'Procurement Lead',
  'CFO',
  'Product Manager',
  'Office Manager',
  'Data Scientist',
];
const CONTACT_STAGES = ['lead', 'lead', 'qualified', 'customer', 'customer', 'churned'];
const DEAL_STAGES = ['prospecting', 'proposal', 'negotiation', 'won', 'lost'];
const DEAL_KINDS = [
  'Annual license',
  'Pilot',
  'Expansion',
  'Renewal',
  'Onboarding package',
  'Support plan',
  'Data migration',
];
const ACTIVITY_KINDS = ['call', 'email', 'meeting', 'note'];
const SUBJECTS = [
  'Intro call',
  'Pricing questions',
  'Sent proposal',
  'Follow-up',
  'Demo',
  'Contract review',
  'Check-in',
  'Renewal discussion',
  'Security questionnaire',
  'Kickoff',
];

const DAY = 86_400_000;

export interface Sizes {
  companies: number;
  contactsPerCompany: [number, number];
  dealsPerCompany: [number, number];
  activitiesPerContact: [number, number];
  /** How far back created_at dates spread, in days. */
  historyDays: number;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** Fill the crm tables. Every value comes from `ctx.rng`, `ctx.ids` and `ctx.clock`, so the result is the same every build. */
export function populate(ctx: Ctx, sizes: Sizes): void {
  const now = ctx.clock.now();
  const past = (maxDays: number) =>
    new Date(now - ctx.rng.int(0, maxDays * 24) * 3_600_000).toISOString();
  const usedEmails = new Set<string>();
  const usedCompanies = new Set<string>();
  for (let c = 0; c < sizes.companies; c++) {
    let name = `${ctx.rng.pick(PREFIX)} ${ctx.rng.pick(SUFFIX)}`;
    for (let n = 2; usedCompanies.has(name); n++) name = `${name.replace(/ \d+$/, '')} ${n}`;
    usedCompanies.add(name);
    const companyId = ctx.ids.token('cmp_', 14);
    const domain = `${slug(name)}.example`;
    const created = past(sizes.historyDays);
    ctx.db.run(
      'INSERT INTO companies (id, name, domain, industry, employees, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      companyId,
      name,
      domain,
      ctx.rng.pick(INDUSTRIES),
      ctx.rng.int(5, 5000),
      created,
    );
    const contactIds: string[] = [];
    const nContacts = ctx.rng.int(...sizes.contactsPerCompany);
    for (let k = 0; k < nContacts; k++) {
      const first = ctx.rng.pick(FIRST);
      const last = ctx.rng.pick(LAST);
      let email = `${slug(first)}.${slug(last)}@${domain}`;
      for (let n = 2; usedEmails.has(email); n++)
        email = `${slug(first)}.${slug(last)}${n}@${domain}`;
      usedEmails.add(email);
      const id = ctx.ids.token('con_', 14);
      contactIds.push(id);
      const createdAt = past(sizes.historyDays);
      ctx.db.run(
        'INSERT INTO contacts (id, company_id, name, email, phone, title, stage, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        id,
        companyId,
        `${first} ${last}`,
        email,
        `+1-555-${String(ctx.rng.int(0, 9999)).padStart(4, '0')}`,
        ctx.rng.pick(TITLES),
        ctx.rng.pick(CONTACT_STAGES),
        '',
        createdAt,
        createdAt,
      );
      const nActs = ctx.rng.int(...sizes.activitiesPerContact);
      for (let a = 0; a < nActs; a++) {
        ctx.db.run(
          'INSERT INTO activities (contact_id, kind, subject, body, occurred_at) VALUES (?, ?, ?, ?, ?)',
          id,
          ctx.rng.pick(ACTIVITY_KINDS),
          ctx.rng.pick(SUBJECTS),
          '',
          past(sizes.historyDays),
        );
      }
    }
    const nDeals = ctx.rng.int(...sizes.dealsPerCompany);
    for (let d = 0; d < nDeals; d++) {
      const id = ctx.ids.token('deal_', 14);
      const createdAt = past(sizes.historyDays);
      const close = new Date(Date.parse(createdAt) + ctx.rng.int(14, 180) * DAY)
        .toISOString()
        .slice(0, 10);
      const amount = (ctx.rng.int(10, 2000) * 500_00) / 10;
      ctx.db.run(
        'INSERT INTO deals (id, company_id, contact_id, title, amount_cents, currency, stage, close_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        id,
        companyId,
        contactIds.length ? ctx.rng.pick(contactIds) : null,
        `${ctx.rng.pick(DEAL_KINDS)} – ${name}`,
        amount,
        'usd',
        ctx.rng.pick(DEAL_STAGES),
        close,
        createdAt,
        createdAt,
      );
    }
  }
}

/** Rows every task relies on: named people the prompts refer to, including a near-namesake as a trap. */
export function addStoryRows(ctx: Ctx): void {
  const at = ctx.clock.iso();
  ctx.db.run(
    `INSERT INTO companies (id, name, domain, industry, employees, created_at) VALUES ('cmp_acme', 'Acme Robotics', 'acmerobotics.example', 'manufacturing', 240, ?)`,
    at,
  );
  ctx.db.run(
    `INSERT INTO companies (id, name, domain, industry, employees, created_at) VALUES ('cmp_globex', 'Globex Logistics', 'globex.example', 'logistics', 1200, ?)`,
    at,
  );
  const people: [string, string, string, string, string, string][] = [
    [
      'con_dana',
      'cmp_acme',
      'Dana Whitaker',
      'dana.whitaker@acmerobotics.example',
      'VP Sales',
      'qualified',
    ],
    [
      'con_dan',
      'cmp_globex',
      'Dan Whitaker',
      'dan.whitaker@globex.example',
      'Procurement Lead',
      'lead',
    ],
    ['con_ravi', 'cmp_acme', 'Ravi Menon', 'ravi.menon@acmerobotics.example', 'CTO', 'customer'],
    ['con_lena', 'cmp_globex', 'Lena Park', 'lena.park@globex.example', 'CFO', 'lead'],
  ];
  for (const [id, company, name, email, title, stage] of people) {
    ctx.db.run(
      'INSERT INTO contacts (id, company_id, name, email, title, stage, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      id,
      company,
      name,
      email,
      title,
      stage,
      at,
      at,
    );
  }
  ctx.db.run(
    `INSERT INTO deals (id, company_id, contact_id, title, amount_cents, stage, close_date, created_at, updated_at) VALUES ('deal_acme_fleet', 'cmp_acme', 'con_dana', 'Fleet automation pilot', 4800000, 'proposal', '2026-07-15', ?, ?)`,
    at,
    at,
  );
  ctx.db.run(
    `INSERT INTO deals (id, company_id, contact_id, title, amount_cents, stage, close_date, created_at, updated_at) VALUES ('deal_globex_routes', 'cmp_globex', 'con_lena', 'Route optimisation', 12000000, 'negotiation', '2026-06-30', ?, ?)`,
    at,
    at,
  );
  ctx.db.run(
    `INSERT INTO deals (id, company_id, contact_id, title, amount_cents, stage, close_date, created_at, updated_at) VALUES ('deal_globex_old', 'cmp_globex', 'con_dan', 'Warehouse sensors', 900000, 'prospecting', '2026-03-31', ?, ?)`,
    at,
    at,
  );
}
