/**
 * The crm world's graded tasks, in three levels: 1 a single insert, 2 several rows found by lookups, 3 multi-step
 * workflows with a trap (Dana Whitaker at Acme and Dan Whitaker at Globex are different people). Story rows (con_dana,
 * deal_acme_fleet, …) come from `addStoryRows`; gold solutions find everything else through the tools.
 */
import { defineTask, goldCall, type GoldTarget, type Row } from 'seahaven';
import {
  all,
  approx,
  count,
  deleted,
  exactly,
  expectChanges,
  gate,
  inserted,
  oneOf,
  regex,
  unchanged,
  updated,
  weighted,
  where,
} from 'seahaven/rewards';

/** Call a tool in a gold solution (a failed call throws: the gold solution is broken). */
const call = <T = Row>(inst: GoldTarget, tool: string, args: Record<string, unknown> = {}): T =>
  goldCall<T>(inst, tool, args);

/** Every page of a listing tool. */
function listAll<T extends Row>(
  inst: GoldTarget,
  tool: string,
  field: string,
  args: Record<string, unknown>,
): T[] {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = call<Record<string, unknown>>(inst, tool, {
      ...args,
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    out.push(...(page[field] as T[]));
    cursor = (page.next_cursor as string | null) ?? undefined;
  } while (cursor);
  return out;
}

function companyId(inst: GoldTarget, name: string): string {
  const found = listAll<{ id: string; name: string }>(inst, 'list_companies', 'companies', {
    query: name,
  }).filter((c) => c.name === name);
  if (found.length !== 1)
    throw new Error(`gold: expected one company named ${name}, found ${found.length}`);
  return found[0].id;
}

/** The contact whose name is exactly `name` (search is a substring match, so near-namesakes come back too). */
function contactId(inst: GoldTarget, name: string, query = name): string {
  const { contacts } = call<{ contacts: { id: string; name: string }[] }>(inst, 'search_contacts', {
    query,
    limit: 50,
  });
  const exactMatches = contacts.filter((c) => c.name === name);
  if (exactMatches.length !== 1)
    throw new Error(`gold: expected one contact named ${name}, found ${exactMatches.length}`);
  return exactMatches[0].id;
}

const TODAY = '2026-06-01';
const OPEN = ['prospecting', 'proposal', 'negotiation'];
/** Whitfield Schmidt of Quantum Cloud in the frozen small_startup fixture; his activities go with him. */
const WHITFIELD = 'con_ese1cxJDH0sIKR';

export const addLead = defineTask({
  id: 'add_lead',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['insert', 'contacts'],
  prompt:
    'Add Ada Lovelace (ada.lovelace@acmerobotics.example), Head of Research at Acme Robotics, as a new lead.',
  grade: expectChanges([
    inserted('contacts', {
      name: 'Ada Lovelace',
      email: 'ada.lovelace@acmerobotics.example',
      company_id: 'cmp_acme',
      title: regex(/^head of research$/i),
      stage: 'lead',
    }),
  ]),
  gold(inst) {
    const company = companyId(inst, 'Acme Robotics');
    call(inst, 'create_contact', {
      name: 'Ada Lovelace',
      email: 'ada.lovelace@acmerobotics.example',
      company_id: company,
      title: 'Head of Research',
    });
  },
});

export const logCall = defineTask({
  id: 'log_call',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['insert', 'activities'],
  prompt:
    'Log a call with Ravi Menon (Acme Robotics) with the subject "Renewal check-in" and the note "Wants a quote for 40 more units." in the body.',
  grade: expectChanges([
    inserted('activities', {
      contact_id: 'con_ravi',
      kind: 'call',
      subject: regex(/^renewal check-in$/i),
      body: regex(/40 more units/i),
      deal_id: null,
    }),
  ]),
  gold(inst) {
    const ravi = contactId(inst, 'Ravi Menon');
    call(inst, 'log_activity', {
      contact_id: ravi,
      kind: 'call',
      subject: 'Renewal check-in',
      body: 'Wants a quote for 40 more units.',
    });
  },
});

export const addCompany = defineTask({
  id: 'add_company',
  fixture: 'small_startup',
  difficulty: 1,
  tags: ['insert', 'companies'],
  prompt: 'Create the company Initech: domain initech.example, industry software, 85 employees.',
  grade: expectChanges([
    inserted('companies', {
      name: 'Initech',
      domain: 'initech.example',
      industry: regex(/^software$/i),
      employees: 85,
    }),
  ]),
  gold(inst) {
    call(inst, 'create_company', {
      name: 'Initech',
      domain: 'initech.example',
      industry: 'software',
      employees: 85,
    });
  },
});

export const qualifyGlobexLeads = defineTask({
  id: 'qualify_globex_leads',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['update', 'lookup', 'contacts'],
  prompt:
    'Every contact at Globex Logistics who is still a lead has now been qualified. Update their stage; leave everyone else as they are.',
  grade: all([
    expectChanges([
      exactly(
        2,
        updated('contacts', { company_id: 'cmp_globex', stage: 'lead' }, { stage: 'qualified' }),
      ),
    ]),
    count("SELECT 1 FROM contacts WHERE company_id = 'cmp_globex' AND stage = 'lead'", 0),
  ]),
  gold(inst) {
    const globex = companyId(inst, 'Globex Logistics');
    for (const c of listAll<{ id: string }>(inst, 'list_contacts', 'contacts', {
      company_id: globex,
      stage: 'lead',
    })) {
      call(inst, 'update_contact', { id: c.id, stage: 'qualified' });
    }
  },
});

export const loseStaleNegotiations = defineTask({
  id: 'lose_stale_negotiations',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['update', 'lookup', 'deals'],
  prompt: `Deals still in negotiation whose expected close date is before today (${TODAY}) have gone cold. Mark each of them lost and do not touch any other deal.`,
  grade: all([
    // small_startup holds nine such deals; the count below catches any the agent left behind.
    expectChanges([
      exactly(
        9,
        updated(
          'deals',
          {
            stage: 'negotiation',
            close_date: where((d) => typeof d === 'string' && d < TODAY, `a date before ${TODAY}`),
          },
          { stage: 'lost' },
        ),
      ),
    ]),
    count("SELECT 1 FROM deals WHERE stage = 'negotiation' AND close_date < ?", 0, {
      params: [TODAY],
    }),
  ]),
  gold(inst) {
    for (const d of listAll<{ id: string; close_date: string | null }>(
      inst,
      'list_deals',
      'deals',
      { stage: 'negotiation' },
    )) {
      if (d.close_date !== null && d.close_date < TODAY)
        call(inst, 'update_deal', { id: d.id, stage: 'lost' });
    }
  },
});

export const globexDiscount = defineTask({
  id: 'globex_discount',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['update', 'lookup', 'deals', 'arithmetic'],
  prompt:
    'Globex Logistics negotiated 10% off: reduce the amount of each of their open deals by 10%. Won and lost deals stay as they are.',
  // Amounts are whole cents; a cent either way is rounding, not a mistake.
  grade: expectChanges([
    updated('deals', { id: 'deal_globex_routes' }, { amount_cents: approx(10_800_000, 1) }),
    updated('deals', { id: 'deal_globex_old' }, { amount_cents: approx(810_000, 1) }),
  ]),
  gold(inst) {
    const globex = companyId(inst, 'Globex Logistics');
    for (const d of listAll<{ id: string; stage: string; amount_cents: number }>(
      inst,
      'list_deals',
      'deals',
      { company_id: globex },
    )) {
      if (OPEN.includes(d.stage))
        call(inst, 'update_deal', { id: d.id, amount_cents: Math.round(d.amount_cents * 0.9) });
    }
  },
});

export const forgetContact = defineTask({
  id: 'forget_contact',
  fixture: 'small_startup',
  difficulty: 2,
  tags: ['delete', 'lookup', 'contacts'],
  prompt: 'Whitfield Schmidt of Quantum Cloud asked to be forgotten. Delete his contact record.',
  grade: expectChanges(
    [
      deleted('contacts', {
        name: 'Whitfield Schmidt',
        email: 'whitfield.schmidt@quantumcloud.example',
      }),
    ],
    {
      // Deleting a contact cascades to its activities and unlinks its deals; those follow from the delete.
      allow: [
        deleted('activities', { contact_id: WHITFIELD }),
        updated('deals', { contact_id: WHITFIELD }, { contact_id: null }),
      ],
    },
  ),
  gold(inst) {
    call(inst, 'delete_contact', { id: contactId(inst, 'Whitfield Schmidt', 'Whitfield') });
  },
});

export const danaSigned = defineTask({
  id: 'dana_signed',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['workflow', 'trap', 'deals', 'contacts', 'activities'],
  prompt:
    'Dana Whitaker just signed the contract for her open deal. Mark that deal won, make her a customer, and log a meeting against the deal with the subject "Contract signed".',
  grade: expectChanges([
    updated('deals', { id: 'deal_acme_fleet' }, { stage: 'won' }),
    updated('contacts', { id: 'con_dana' }, { stage: 'customer' }),
    inserted('activities', {
      contact_id: 'con_dana',
      deal_id: 'deal_acme_fleet',
      kind: 'meeting',
      subject: regex(/contract signed/i),
    }),
  ]),
  gold(inst) {
    const dana = contactId(inst, 'Dana Whitaker', 'Whitaker');
    const { deals } = call<{ deals: { id: string }[] }>(inst, 'get_contact', { id: dana });
    if (deals.length !== 1)
      throw new Error(`gold: expected one open deal for Dana Whitaker, found ${deals.length}`);
    call(inst, 'update_deal', { id: deals[0].id, stage: 'won' });
    call(inst, 'update_contact', { id: dana, stage: 'customer' });
    call(inst, 'log_activity', {
      contact_id: dana,
      deal_id: deals[0].id,
      kind: 'meeting',
      subject: 'Contract signed',
    });
  },
});

export const danDealSlipped = defineTask({
  id: 'dan_deal_slipped',
  fixture: 'small_startup',
  difficulty: 3,
  tags: ['workflow', 'trap', 'deals', 'activities'],
  prompt:
    'Dan Whitaker says his warehouse sensors deal slipped. Move its expected close date to 2026-09-30 and its stage to proposal, then log an email to him with the subject "Revised timeline".',
  // Touching anything of Dana Whitaker's means the agent picked the wrong person: no credit at all.
  grade: gate(
    all(
      [
        unchanged('contacts', { id: 'con_dana' }),
        unchanged('deals', { contact_id: 'con_dana' }),
        unchanged('activities', { contact_id: 'con_dana' }),
      ],
      { name: 'Dana Whitaker untouched' },
    ),
    expectChanges([
      updated('deals', { id: 'deal_globex_old' }, { close_date: '2026-09-30', stage: 'proposal' }),
      inserted('activities', {
        contact_id: 'con_dan',
        deal_id: oneOf([null, 'deal_globex_old']),
        kind: 'email',
        subject: regex(/revised timeline/i),
      }),
    ]),
  ),
  gold(inst) {
    const dan = contactId(inst, 'Dan Whitaker', 'Whitaker');
    const deal = listAll<{ id: string; title: string }>(inst, 'list_deals', 'deals', {
      contact_id: dan,
    }).find((d) => /warehouse sensors/i.test(d.title));
    if (!deal) throw new Error('gold: Dan Whitaker has no warehouse sensors deal');
    call(inst, 'update_deal', { id: deal.id, close_date: '2026-09-30', stage: 'proposal' });
    call(inst, 'log_activity', {
      contact_id: dan,
      deal_id: deal.id,
      kind: 'email',
      subject: 'Revised timeline',
    });
  },
});

export const retrofitDeal = defineTask({
  id: 'retrofit_deal',
  fixture: 'big_co',
  difficulty: 3,
  tags: ['workflow', 'trap', 'insert', 'deals', 'activities'],
  prompt:
    'Open a $25,000 deal titled "Robot arm retrofit" with Acme Robotics, with Dana Whitaker as the contact and an expected close date of 2026-08-31. Then log a call with her, subject "Retrofit scoping", linked to the new deal.',
  grade: weighted([
    [
      expectChanges([
        inserted('deals', {
          company_id: 'cmp_acme',
          contact_id: 'con_dana',
          title: regex(/^robot arm retrofit$/i),
          amount_cents: 2_500_000,
          currency: 'usd',
          stage: 'prospecting',
          close_date: '2026-08-31',
        }),
        inserted('activities', {
          contact_id: 'con_dana',
          kind: 'call',
          subject: regex(/retrofit scoping/i),
          deal_id: regex(/^deal_/),
        }),
      ]),
      3,
    ],
    // The call must hang off the deal just opened, not Dana's older fleet deal.
    [
      count(
        `SELECT 1 FROM activities a JOIN deals d ON d.id = a.deal_id
             WHERE a.contact_id = 'con_dana' AND a.kind = 'call' AND d.title LIKE '%retrofit%' AND d.company_id = 'cmp_acme'`,
        1,
      ),
      1,
    ],
  ]),
  gold(inst) {
    const acme = companyId(inst, 'Acme Robotics');
    const dana = contactId(inst, 'Dana Whitaker', 'Whitaker');
    const deal = call<{ id: string }>(inst, 'create_deal', {
      company_id: acme,
      contact_id: dana,
      title: 'Robot arm retrofit',
      amount_cents: 2_500_000,
      close_date: '2026-08-31',
    });
    call(inst, 'log_activity', {
      contact_id: dana,
      deal_id: deal.id,
      kind: 'call',
      subject: 'Retrofit scoping',
    });
  },
});

/** Every crm task, easiest first. */
export const tasks = [
  addLead,
  logCall,
  addCompany,
  qualifyGlobexLeads,
  loseStaleNegotiations,
  globexDiscount,
  forgetContact,
  danaSigned,
  danDealSlipped,
  retrofitDeal,
];
