/** The crm world's tools. */
import { defineTool, ToolError, z, type Ctx, type Row } from 'seahaven';

const CONTACT_STAGES = ['lead', 'qualified', 'customer', 'churned'] as const;
const DEAL_STAGES = ['prospecting', 'proposal', 'negotiation', 'won', 'lost'] as const;
const ACTIVITY_KINDS = ['call', 'email', 'meeting', 'note'] as const;

const limit = (max: number, dflt: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(dflt)
    .describe(`Page size, 1 to ${max} (default ${dflt}).`);

// Every string has a length limit: an agent's mistake (a pasted document as a search query) gets invalid_arguments
// naming the limit instead of failing deep in SQLite. Ids are never empty, so "" is refused rather than stored.
const ID_MAX = 64;
const contactId = z.string().min(1).max(ID_MAX).describe('Contact id, like con_…');
const companyId = z.string().min(1).max(ID_MAX).describe('Company id, like cmp_…');
const dealId = z.string().min(1).max(ID_MAX).describe('Deal id, like deal_…');
const cursor = z
  .string()
  .min(1)
  .max(ID_MAX)
  .optional()
  .describe('The next_cursor of the previous page; omit for the first page.');
const nameText = z.string().min(1).max(200);
const emailText = z.string().max(254).email();
const shortText = z.string().max(200);
const phoneText = z.string().max(50);
const longText = (max: number) => z.string().max(max);
const queryText = z.string().min(1).max(200);
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const contactStage = z.enum(CONTACT_STAGES);
const dealStage = z.enum(DEAL_STAGES);
const CONTACT_STAGE_TEXT =
  'lead (not yet qualified), qualified, customer (buying) or churned (stopped buying)';
const DEAL_STAGE_TEXT =
  'prospecting, proposal, negotiation (open stages), won or lost (closed: a closed deal cannot change)';
const amountCents = z.number().int().min(0);
const AMOUNT_TEXT =
  'Deal value in cents (integer), like 1250000 for 12,500.00 in the deal currency.';

function mustFind(ctx: Ctx, table: 'contacts' | 'companies' | 'deals', id: string): Row {
  const row = ctx.db.one(`SELECT * FROM ${table} WHERE id = ?`, id);
  if (!row) {
    const noun = table.slice(0, -1).replace('companie', 'company');
    throw new ToolError(
      'not_found',
      `No ${noun} has id "${id}". Find ids with ${table === 'deals' ? 'list_deals' : table === 'companies' ? 'list_companies' : 'search_contacts'}.`,
      { [`${noun}_id`]: id },
    );
  }
  return row;
}

function page<T extends Row>(rows: T[], size: number): { items: T[]; next_cursor: string | null } {
  const more = rows.length > size;
  const items = more ? rows.slice(0, size) : rows;
  return { items, next_cursor: more ? String(items[items.length - 1].id) : null };
}

/** A LIKE pattern matching values that contain `text`, with a backslash as the escape character. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}

function ensureEmailFree(ctx: Ctx, email: string, except?: string): void {
  const other = ctx.db.one<{ id: string }>(
    'SELECT id FROM contacts WHERE email = ? COLLATE NOCASE',
    email,
  );
  if (other && other.id !== except)
    throw new ToolError(
      'conflict',
      `A contact with email ${email} already exists (${other.id}). Update that contact instead.`,
      { contact_id: other.id },
    );
}

export const searchContacts = defineTool({
  name: 'search_contacts',
  description:
    'Search contacts by name, email or company name (case-insensitive substring). Returns up to `limit` matches ordered by name.',
  input: z.object({
    query: queryText.describe('Text to look for, 1 to 200 characters.'),
    limit: limit(50, 10),
  }),
  run(ctx, { query, limit: n }) {
    const like = likePattern(query);
    const contacts = ctx.db.all(
      `SELECT c.id, c.name, c.email, c.title, c.stage, c.company_id, co.name AS company_name
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
        WHERE c.name LIKE @like ESCAPE '\\' OR c.email LIKE @like ESCAPE '\\' OR co.name LIKE @like ESCAPE '\\'
        ORDER BY c.name, c.id LIMIT @n`,
      { like, n },
    );
    return { contacts };
  },
});

export const listContacts = defineTool({
  name: 'list_contacts',
  description:
    'List contacts page by page, optionally filtered by stage or company. Ordered by id; pass next_cursor to get the next page.',
  input: z.object({
    stage: contactStage.optional().describe(`Only contacts in this stage: ${CONTACT_STAGE_TEXT}.`),
    company_id: companyId.optional().describe('Only contacts of this company, like cmp_…'),
    limit: limit(100, 20),
    cursor,
  }),
  run(ctx, { stage, company_id, limit: n, cursor: after }) {
    const rows = ctx.db.all(
      `SELECT id, name, email, title, stage, company_id FROM contacts
        WHERE (@stage IS NULL OR stage = @stage) AND (@company_id IS NULL OR company_id = @company_id) AND (@after IS NULL OR id > @after)
        ORDER BY id LIMIT @n`,
      { stage: stage ?? null, company_id: company_id ?? null, after: after ?? null, n: n + 1 },
    );
    const { items, next_cursor } = page(rows, n);
    return { contacts: items, next_cursor };
  },
});

export const getContact = defineTool({
  name: 'get_contact',
  description: 'Fetch one contact with its company, open deals and five most recent activities.',
  input: z.object({ id: contactId }),
  run(ctx, { id }) {
    const contact = mustFind(ctx, 'contacts', id);
    const company = contact.company_id
      ? (ctx.db.one('SELECT * FROM companies WHERE id = ?', contact.company_id as string) ?? null)
      : null;
    const deals = ctx.db.all(
      `SELECT id, title, amount_cents, currency, stage, close_date FROM deals WHERE contact_id = ? AND stage NOT IN ('won', 'lost') ORDER BY id`,
      id,
    );
    const activities = ctx.db.all(
      'SELECT id, kind, subject, occurred_at FROM activities WHERE contact_id = ? ORDER BY occurred_at DESC, id DESC LIMIT 5',
      id,
    );
    return { ...contact, company, deals, activities };
  },
});

export const getDeal = defineTool({
  name: 'get_deal',
  description:
    'Fetch one deal by id: title, company, contact, amount in cents, stage and close date.',
  input: z.object({ id: dealId }),
  run: (ctx, { id }) => mustFind(ctx, 'deals', id),
});

export const getCompany = defineTool({
  name: 'get_company',
  description: 'Fetch one company by id.',
  input: z.object({ id: companyId }),
  run: (ctx, { id }) => mustFind(ctx, 'companies', id),
});

export const createContact = defineTool({
  name: 'create_contact',
  description:
    'Add a contact. Emails are unique; a contact whose email already exists is refused with code "conflict".',
  input: z.object({
    name: nameText.describe('Full name, 1 to 200 characters, like "Jane Doe".'),
    email: emailText.describe(
      'Email address, unique among contacts (compared case-insensitively), like jane.doe@example.com.',
    ),
    company_id: companyId
      .optional()
      .describe('The company the contact works at, like cmp_…; omit for none.'),
    title: shortText
      .optional()
      .describe('Job title, up to 200 characters, like "Head of Operations".'),
    phone: phoneText
      .optional()
      .describe('Phone number as written, up to 50 characters, like +1 555 0100.'),
    stage: contactStage
      .default('lead')
      .describe(`Where the contact is in the funnel: ${CONTACT_STAGE_TEXT}. Default lead.`),
    notes: longText(5000)
      .default('')
      .describe('Free-text notes, up to 5000 characters. Default empty.'),
  }),
  run(ctx, input) {
    if (input.company_id !== undefined) mustFind(ctx, 'companies', input.company_id);
    ensureEmailFree(ctx, input.email);
    const id = ctx.ids.token('con_', 14);
    const now = ctx.clock.iso();
    ctx.db.run(
      'INSERT INTO contacts (id, company_id, name, email, phone, title, stage, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      id,
      input.company_id ?? null,
      input.name,
      input.email,
      input.phone ?? null,
      input.title ?? null,
      input.stage,
      input.notes,
      now,
      now,
    );
    return ctx.db.one('SELECT * FROM contacts WHERE id = ?', id);
  },
});

const CONTACT_FIELDS = ['name', 'email', 'company_id', 'title', 'phone', 'stage', 'notes'] as const;

// One fixed statement: each column keeps its value unless the call gives one (null included, which clears it).
const UPDATE_CONTACT = `UPDATE contacts SET
    name = CASE WHEN @set_name THEN @name ELSE name END,
    email = CASE WHEN @set_email THEN @email ELSE email END,
    company_id = CASE WHEN @set_company_id THEN @company_id ELSE company_id END,
    title = CASE WHEN @set_title THEN @title ELSE title END,
    phone = CASE WHEN @set_phone THEN @phone ELSE phone END,
    stage = CASE WHEN @set_stage THEN @stage ELSE stage END,
    notes = CASE WHEN @set_notes THEN @notes ELSE notes END,
    updated_at = @now
  WHERE id = @id`;

export const updateContact = defineTool({
  name: 'update_contact',
  description: 'Change fields of a contact; fields you omit stay as they are.',
  input: z.object({
    id: contactId.describe('The contact to change, like con_…'),
    name: nameText.optional().describe('New full name, 1 to 200 characters.'),
    email: emailText
      .optional()
      .describe('New email address; refused with "conflict" if another contact has it.'),
    company_id: companyId
      .nullable()
      .optional()
      .describe('Company id, like cmp_…; null removes the contact from its company.'),
    title: shortText
      .nullable()
      .optional()
      .describe('New job title, up to 200 characters; null clears it.'),
    phone: phoneText
      .nullable()
      .optional()
      .describe('New phone number, up to 50 characters; null clears it.'),
    stage: contactStage.optional().describe(`New stage: ${CONTACT_STAGE_TEXT}.`),
    notes: longText(5000)
      .optional()
      .describe('Notes that replace the current ones, up to 5000 characters.'),
  }),
  run(ctx, { id, ...fields }) {
    mustFind(ctx, 'contacts', id);
    if (fields.email !== undefined) ensureEmailFree(ctx, fields.email, id);
    if (typeof fields.company_id === 'string') mustFind(ctx, 'companies', fields.company_id);
    if (CONTACT_FIELDS.every((f) => fields[f] === undefined))
      throw new ToolError(
        'nothing_to_update',
        'Give at least one field to change, e.g. {"id": "…", "stage": "qualified"}.',
      );
    const params: Record<string, string | number | null> = { id, now: ctx.clock.iso() };
    for (const f of CONTACT_FIELDS) {
      params[f] = fields[f] ?? null;
      params[`set_${f}`] = fields[f] === undefined ? 0 : 1;
    }
    ctx.db.run(UPDATE_CONTACT, params);
    return ctx.db.one('SELECT * FROM contacts WHERE id = ?', id);
  },
});

export const deleteContact = defineTool({
  name: 'delete_contact',
  description: 'Delete a contact and its activities. Deals keep existing without a contact.',
  input: z.object({ id: contactId }),
  run(ctx, { id }) {
    const contact = mustFind(ctx, 'contacts', id);
    ctx.db.run('DELETE FROM contacts WHERE id = ?', id);
    return { deleted: true, id, name: contact.name };
  },
});

export const createCompany = defineTool({
  name: 'create_company',
  description: 'Add a company (an account contacts and deals belong to).',
  input: z.object({
    name: nameText.describe('Company name, 1 to 200 characters, like "Northwind Traders".'),
    domain: z
      .string()
      .max(253)
      .optional()
      .describe('Web domain without scheme or path, like northwind.example.'),
    industry: shortText
      .optional()
      .describe('Industry in a word or two, like logistics or healthcare.'),
    employees: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Head count, a whole number of at least 1.'),
  }),
  run(ctx, input) {
    const id = ctx.ids.token('cmp_', 14);
    ctx.db.run(
      'INSERT INTO companies (id, name, domain, industry, employees, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      id,
      input.name,
      input.domain ?? null,
      input.industry ?? null,
      input.employees ?? null,
      ctx.clock.iso(),
    );
    return ctx.db.one('SELECT * FROM companies WHERE id = ?', id);
  },
});

export const listCompanies = defineTool({
  name: 'list_companies',
  description:
    'List companies page by page, optionally only those whose name contains `query`. Ordered by id.',
  input: z.object({
    query: queryText
      .optional()
      .describe('Text the name contains (case-insensitive), 1 to 200 characters.'),
    limit: limit(100, 20),
    cursor,
  }),
  run(ctx, { query: text, limit: n, cursor: after }) {
    const rows = ctx.db.all(
      `SELECT id, name, domain, industry, employees FROM companies
        WHERE (@like IS NULL OR name LIKE @like ESCAPE '\\') AND (@after IS NULL OR id > @after) ORDER BY id LIMIT @n`,
      { like: text === undefined ? null : likePattern(text), after: after ?? null, n: n + 1 },
    );
    const { items, next_cursor } = page(rows, n);
    return { companies: items, next_cursor };
  },
});

export const createDeal = defineTool({
  name: 'create_deal',
  description: 'Open a deal with a company (optionally linked to a contact). Amounts are in cents.',
  input: z.object({
    company_id: companyId.describe('The company the deal is with, like cmp_…'),
    contact_id: contactId
      .optional()
      .describe('The contact leading the deal, like con_…; must work at the company.'),
    title: nameText.describe('Deal title, 1 to 200 characters, like "Annual support renewal".'),
    amount_cents: amountCents.describe(AMOUNT_TEXT),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/)
      .default('usd')
      .describe('Three-letter ISO currency code in lower case, like usd or eur. Default usd.'),
    close_date: dateText.optional().describe('Expected close date, YYYY-MM-DD.'),
  }),
  run(ctx, input) {
    mustFind(ctx, 'companies', input.company_id);
    if (input.contact_id !== undefined) {
      const contact = mustFind(ctx, 'contacts', input.contact_id);
      if (contact.company_id !== input.company_id)
        throw new ToolError(
          'mismatch',
          `Contact ${input.contact_id} does not work at company ${input.company_id}.`,
        );
    }
    const id = ctx.ids.token('deal_', 14);
    const now = ctx.clock.iso();
    ctx.db.run(
      'INSERT INTO deals (id, company_id, contact_id, title, amount_cents, currency, close_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      id,
      input.company_id,
      input.contact_id ?? null,
      input.title,
      input.amount_cents,
      input.currency,
      input.close_date ?? null,
      now,
      now,
    );
    return ctx.db.one('SELECT * FROM deals WHERE id = ?', id);
  },
});

export const updateDeal = defineTool({
  name: 'update_deal',
  description:
    'Move a deal to another stage or change its amount or close date. Won and lost deals are closed and cannot change.',
  input: z.object({
    id: dealId.describe('The deal to change, like deal_…'),
    stage: dealStage.optional().describe(`New stage: ${DEAL_STAGE_TEXT}.`),
    amount_cents: amountCents
      .optional()
      .describe(`New ${AMOUNT_TEXT.charAt(0).toLowerCase()}${AMOUNT_TEXT.slice(1)}`),
    close_date: dateText.optional().describe('New expected close date, YYYY-MM-DD.'),
  }),
  run(ctx, { id, stage, amount_cents, close_date }) {
    const nothing = stage === undefined && amount_cents === undefined && close_date === undefined;
    // Moving a deal stamps it (from the virtual clock, so it replays). One statement updates an open deal and returns it.
    const updated = nothing
      ? undefined
      : ctx.db.one(
          "UPDATE deals SET stage = coalesce(?, stage), amount_cents = coalesce(?, amount_cents), close_date = coalesce(?, close_date), updated_at = ? WHERE id = ? AND stage NOT IN ('won', 'lost') RETURNING *",
          stage ?? null,
          amount_cents ?? null,
          close_date ?? null,
          ctx.clock.iso(),
          id,
        );
    if (updated !== undefined) return updated;
    // Nothing was written: say why.
    const deal = mustFind(ctx, 'deals', id);
    if (deal.stage === 'won' || deal.stage === 'lost')
      throw new ToolError(
        'deal_closed',
        `Deal ${id} is already ${deal.stage}; open a new deal instead.`,
      );
    throw new ToolError('nothing_to_update', 'Give stage, amount_cents or close_date.');
  },
});

export const listDeals = defineTool({
  name: 'list_deals',
  description:
    'List deals page by page, optionally filtered by stage, company or contact. Ordered by id.',
  input: z.object({
    stage: dealStage.optional().describe(`Only deals in this stage: ${DEAL_STAGE_TEXT}.`),
    company_id: companyId.optional().describe('Only deals with this company, like cmp_…'),
    contact_id: contactId.optional().describe('Only deals led by this contact, like con_…'),
    limit: limit(100, 20),
    cursor,
  }),
  run(ctx, { stage, company_id, contact_id, limit: n, cursor: after }) {
    const rows = ctx.db.all(
      `SELECT id, title, company_id, contact_id, amount_cents, currency, stage, close_date FROM deals
        WHERE (@stage IS NULL OR stage = @stage) AND (@company_id IS NULL OR company_id = @company_id) AND (@contact_id IS NULL OR contact_id = @contact_id) AND (@after IS NULL OR id > @after)
        ORDER BY id LIMIT @n`,
      {
        stage: stage ?? null,
        company_id: company_id ?? null,
        contact_id: contact_id ?? null,
        after: after ?? null,
        n: n + 1,
      },
    );
    const { items, next_cursor } = page(rows, n);
    return { deals: items, next_cursor };
  },
});

export const logActivity = defineTool({
  name: 'log_activity',
  description:
    'Record a call, email, meeting or note against a contact (and optionally one of its deals), stamped now.',
  input: z.object({
    contact_id: contactId.describe('The contact the activity was with, like con_…'),
    deal_id: dealId
      .optional()
      .describe('A deal the activity belongs to, like deal_…; omit for none.'),
    kind: z.enum(ACTIVITY_KINDS).describe('What happened: call, email, meeting or note.'),
    subject: nameText.describe(
      'A one-line summary, 1 to 200 characters, like "Pricing questions".',
    ),
    body: longText(10_000)
      .default('')
      .describe('Full text of the note or message, up to 10000 characters. Default empty.'),
  }),
  run(ctx, input) {
    mustFind(ctx, 'contacts', input.contact_id);
    if (input.deal_id !== undefined) mustFind(ctx, 'deals', input.deal_id);
    const r = ctx.db.run(
      'INSERT INTO activities (contact_id, deal_id, kind, subject, body, occurred_at) VALUES (?, ?, ?, ?, ?, ?)',
      input.contact_id,
      input.deal_id ?? null,
      input.kind,
      input.subject,
      input.body,
      ctx.clock.iso(),
    );
    return ctx.db.one('SELECT * FROM activities WHERE id = ?', r.lastInsertRowid);
  },
});

export const pipelineSummary = defineTool({
  name: 'pipeline_summary',
  description: 'Totals of open and closed deals by stage: count and amount in cents.',
  input: z.object({
    company_id: companyId
      .optional()
      .describe('Only deals with this company, like cmp_…; omit for all.'),
  }),
  run(ctx, { company_id }) {
    const stages = ctx.db.all(
      `SELECT stage, count(*) AS deals, sum(amount_cents) AS amount_cents FROM deals WHERE (@company_id IS NULL OR company_id = @company_id) GROUP BY stage ORDER BY stage`,
      { company_id: company_id ?? null },
    );
    return { stages };
  },
});

export const tools = [
  searchContacts,
  listContacts,
  getContact,
  createContact,
  updateContact,
  deleteContact,
  getCompany,
  createCompany,
  listCompanies,
  getDeal,
  createDeal,
  updateDeal,
  listDeals,
  logActivity,
  pipelineSummary,
];
