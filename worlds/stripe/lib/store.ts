/**
 * Objects in SQLite. Every resource table holds `id`, `seq` (a global counter: the tie-breaker when objects share a
 * `created` second), `created`, a few indexed columns for filters, and `data`: the object's canonical JSON as the
 * API returns it (references as ids; expansion happens when a reply is shaped). `COLUMNS` says how each table's
 * indexed columns are read off its object, so `put` keeps them in step with `data`; a searchable table's search
 * columns (search-fields.ts) are written the same way.
 */
import type { Ctx, SqlParam } from 'seahaven';
import { coalescing, keepPending, pendingOrDb } from './coalesce.ts';
import { resourceMissing } from './errors.ts';
import type { Tables } from './objects.ts';
import { SEARCH_COLUMNS } from './search-fields.ts';

import type { Obj } from './untyped.ts';

export type { Obj };

/** The resource tables (schema.sql). A table name is spliced into SQL only as one of these. */
export type Table =
  | 'customers'
  | 'customer_balance_transactions'
  | 'products'
  | 'prices'
  | 'coupons'
  | 'promotion_codes'
  | 'tax_rates'
  | 'tax_ids'
  | 'payment_methods'
  | 'setup_intents'
  | 'payment_intents'
  | 'charges'
  | 'refunds'
  | 'disputes'
  | 'balance_transactions'
  | 'payouts'
  | 'events'
  | 'invoices'
  | 'invoice_line_items'
  | 'invoiceitems'
  | 'subscriptions'
  | 'subscription_items'
  | 'credit_notes'
  | 'payment_links'
  | 'checkout_sessions'
  | 'invoice_payments'
  | 'webhook_endpoints'
  | 'webhook_deliveries'
  | 'test_clocks';

/**
 * What a stored object holds beyond (or narrower than) the SDK's declaration of it: a deleted customer or product
 * stays, marked `deleted` (Stripe answers it so), a refund that failed after it succeeded says why, and an invoice is
 * always a customer's.
 */
interface StoredExtras {
  checkout_sessions: SessionPrivate;
  customers: { deleted?: boolean };
  products: { deleted?: boolean };
  refunds: { failure_reason?: string | null; failure_balance_transaction?: string | null };
  // Every invoice the world writes is a customer's (the SDK allows one billed to an account instead). Its embedded
  // lists carry `total_count`, as live Stripe's do (shape-exceptions.json).
  invoices: {
    customer: string;
    lines: { total_count: number };
    payments: { total_count: number };
  };
}

/** Metadata as a request gives it: a null value deletes its key (params.ts, `mergeMetadata`). */
type MetadataInput = Record<string, string | null>;

/**
 * What a checkout session keeps for its completion, as its create parameters (or its payment link) said it: the
 * payment intent, subscription or setup intent it makes. Replies leave these out (checkout-session-create.ts).
 */
export interface SessionPrivate {
  payment_intent_data?: {
    capture_method?: 'automatic' | 'automatic_async' | 'manual' | null;
    description?: string | null;
    metadata?: MetadataInput | null;
    receipt_email?: string | null;
    setup_future_usage?: 'off_session' | 'on_session' | null;
    statement_descriptor?: string | null;
    statement_descriptor_suffix?: string | null;
    transfer_group?: string | null;
  } | null;
  subscription_data?: {
    description?: string | null;
    metadata?: MetadataInput | null;
    trial_period_days?: number | null;
    trial_end?: number | null;
  } | null;
  setup_intent_data?: { description?: string | null; metadata?: MetadataInput | null } | null;
}

/** The object a table stores: its type in objects.ts (`Tables`), with what the world adds to it. */
export type Stored<T extends Table> = Tables[T] &
  (T extends keyof StoredExtras ? StoredExtras[T] : unknown);

type Col<T extends Table = Table> = (o: Stored<T>) => SqlParam;
const bool = (v: unknown): number => (v ? 1 : 0);
const ref = (v: unknown): string | null => {
  if (typeof v === 'string') return v;
  const id = v && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
};

/** The indexed columns of each table besides id, seq, created and data. */
export const COLUMNS: { [T in Table]: Record<string, Col<T>> } = {
  customers: {
    email: (o) => o.email ?? null,
    name: (o) => o.name ?? null,
    deleted: (o) => bool(o.deleted),
    test_clock: (o) => ref(o.test_clock),
  },
  customer_balance_transactions: { customer: (o) => ref(o.customer) },
  products: {
    active: (o) => bool(o.active),
    deleted: (o) => bool(o.deleted),
    shippable: (o) => (typeof o.shippable === 'boolean' ? bool(o.shippable) : null),
    url: (o) => o.url ?? null,
    type: (o) => o.type ?? null,
  },
  prices: {
    product: (o) => ref(o.product),
    active: (o) => bool(o.active),
    type: (o) => o.type ?? null,
    lookup_key: (o) => o.lookup_key ?? null,
    currency: (o) => o.currency ?? null,
    interval: (o) => o.recurring?.interval ?? null,
    usage_type: (o) => o.recurring?.usage_type ?? null,
  },
  // A price's or coupon's `deleted` column is set by its delete (the object does not carry it), and `put` leaves it.
  coupons: {},
  promotion_codes: {
    code: (o) => o.code ?? null,
    // Older API versions kept the coupon on the promotion code itself.
    coupon: (o) => ref(o.promotion?.coupon ?? (o as { coupon?: unknown }).coupon),
    active: (o) => bool(o.active),
    customer: (o) => ref(o.customer),
  },
  tax_rates: { active: (o) => bool(o.active), inclusive: (o) => bool(o.inclusive) },
  tax_ids: {
    customer: (o) => ref(o.customer),
    owner_type: (o) => o.owner?.type ?? 'self',
    verification_status: (o) => o.verification?.status ?? null,
  },
  payment_methods: { customer: (o) => ref(o.customer), type: (o) => o.type ?? null },
  setup_intents: {
    customer: (o) => ref(o.customer),
    payment_method: (o) => ref(o.payment_method),
    status: (o) => o.status ?? null,
  },
  payment_intents: { customer: (o) => ref(o.customer), status: (o) => o.status ?? null },
  charges: {
    customer: (o) => ref(o.customer),
    payment_intent: (o) => ref(o.payment_intent),
    status: (o) => o.status ?? null,
  },
  refunds: {
    charge: (o) => ref(o.charge),
    payment_intent: (o) => ref(o.payment_intent),
    status: (o) => o.status ?? null,
  },
  disputes: {
    charge: (o) => ref(o.charge),
    payment_intent: (o) => ref(o.payment_intent),
    status: (o) => o.status ?? null,
  },
  balance_transactions: {
    type: (o) => o.type ?? null,
    source: (o) => ref(o.source),
    status: (o) => o.status ?? null,
    available_on: (o) => o.available_on ?? null,
    payout: () => null,
  },
  payouts: { status: (o) => o.status ?? null, arrival_date: (o) => o.arrival_date ?? null },
  events: { type: (o) => o.type ?? null, object_id: (o) => ref(o.data?.object?.id) },
  invoices: {
    customer: (o) => ref(o.customer),
    status: (o) => o.status ?? null,
    subscription: (o) => ref(o.parent?.subscription_details?.subscription ?? null),
    number: (o) => o.number ?? null,
    collection_method: (o) => o.collection_method ?? null,
    due_date: (o) => o.due_date ?? null,
  },
  invoice_line_items: { invoice: (o) => ref(o.invoice) },
  invoiceitems: { customer: (o) => ref(o.customer), invoice: (o) => ref(o.invoice) },
  invoice_payments: {
    invoice: (o) => ref(o.invoice),
    status: (o) => o.status ?? null,
    payment_intent: (o) => ref(o.payment?.payment_intent ?? null),
  },
  subscriptions: {
    customer: (o) => ref(o.customer),
    status: (o) => o.status ?? null,
    test_clock: (o) => ref(o.test_clock),
  },
  subscription_items: { subscription: (o) => ref(o.subscription) },
  credit_notes: {
    invoice: (o) => ref(o.invoice),
    customer: (o) => ref(o.customer),
    status: (o) => o.status ?? null,
  },
  payment_links: { active: (o) => bool(o.active) },
  webhook_endpoints: { status: (o) => o.status ?? null },
  test_clocks: {},
  webhook_deliveries: {
    event: (o) => o.event ?? null,
    webhook_endpoint: (o) => o.webhook_endpoint ?? null,
    status: (o) => o.status ?? null,
    target: (o) => o.target ?? null,
    next_attempt: (o) => o.next_attempt ?? null,
  },
  checkout_sessions: {
    status: (o) => o.status ?? null,
    customer: (o) => ref(o.customer),
    payment_intent: (o) => ref(o.payment_intent),
    subscription: (o) => ref(o.subscription),
    payment_link: (o) => ref(o.payment_link),
  },
};

/** Every column `put` writes besides id, seq, created and data: the indexed ones, then the search columns. */
const WRITTEN: Record<Table, [string, Col][]> = Object.fromEntries(
  (Object.keys(COLUMNS) as Table[]).map((t) => [
    t,
    [
      ...(Object.entries(COLUMNS[t]) as [string, Col][]),
      ...(SEARCH_COLUMNS[t] ?? []).map((c): [string, Col] => [c.column, c.value]),
    ],
  ]),
) as Record<Table, [string, Col][]>;

/** Which table holds objects whose id starts with a prefix (expansion and generic retrieval use it). */
export const TABLE_OF_PREFIX: Record<string, Table> = {
  cus_: 'customers',
  cbtxn_: 'customer_balance_transactions',
  prod_: 'products',
  price_: 'prices',
  promo_: 'promotion_codes',
  txr_: 'tax_rates',
  txi_: 'tax_ids',
  pm_: 'payment_methods',
  card_: 'payment_methods',
  seti_: 'setup_intents',
  pi_: 'payment_intents',
  ch_: 'charges',
  py_: 'charges',
  re_: 'refunds',
  du_: 'disputes',
  txn_: 'balance_transactions',
  po_: 'payouts',
  evt_: 'events',
  in_: 'invoices',
  il_: 'invoice_line_items',
  ii_: 'invoiceitems',
  sub_: 'subscriptions',
  si_: 'subscription_items',
  cn_: 'credit_notes',
  plink_: 'payment_links',
  cs_: 'checkout_sessions',
  inpay_: 'invoice_payments',
  we_: 'webhook_endpoints',
  clock_: 'test_clocks',
};

/** The table of an id, by its prefix; coupons have none (caller-chosen ids). */
export function tableOfId(id: string): Table | undefined {
  const m = /^([a-z]+_)/.exec(id);
  return m ? TABLE_OF_PREFIX[m[1]] : undefined;
}

/** A new id: `prefix` + 24 base-62 characters from the instance's id stream. */
export function newId(ctx: Ctx, prefix: string): string {
  return ctx.ids.token(prefix, 24);
}

/** Unix seconds of the world clock. */
export function nowSeconds(ctx: Ctx): number {
  return Math.floor(ctx.clock.now() / 1000);
}

/**
 * Each table's write, written out once from `COLUMNS`: one statement that inserts a new object or updates an existing
 * one in place. A new row's `seq` is one past the table's highest (`<table>_seq` makes that a lookup), so objects of
 * a table created in the same second keep their order; an update keeps its row's `seq` and `created`.
 */
const UPSERTS = Object.fromEntries(
  (Object.keys(WRITTEN) as Table[]).map((t) => {
    const names = WRITTEN[t].map(([name]) => name);
    const sql = [
      'INSERT INTO',
      t,
      '(id, seq, created, data',
      ...names.map((n) => ', ' + n),
      ')',
      'VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM',
      t,
      '), ?, ?',
      ...names.map(() => ', ?'),
      ')',
      'ON CONFLICT (id) DO UPDATE SET data = excluded.data',
      ...names.map((n) => ', ' + n + ' = excluded.' + n),
    ].join(' ');
    return [t, sql];
  }),
) as Record<Table, string>;

/** Each table's column readers, in the order of `UPSERTS`' placeholders. */
const COLUMN_READERS = Object.fromEntries(
  (Object.keys(WRITTEN) as Table[]).map((t) => [t, WRITTEN[t].map(([, read]) => read)]),
) as Record<Table, Col[]>;

/** Insert or replace an object, in one statement. */
export function put<T extends Table>(ctx: Ctx, table: T, obj: Stored<T>): Stored<T> {
  putJson(ctx, table, obj);
  return obj;
}

/**
 * `put`, answering the JSON it stored as the row's `data`. An event about the object can embed that text as its
 * snapshot (`emitStored`, events.ts) instead of serializing the object again: billing writes most of its objects with
 * an event about each, and serializing them twice was much of its cost. `json` is the object's JSON when the caller
 * has made it already; it must be exactly `JSON.stringify(obj)`.
 */
export function putJson<T extends Table>(
  ctx: Ctx,
  table: T,
  obj: Stored<T>,
  json: string = JSON.stringify(obj),
): string {
  const { created: at, date } = obj as { created?: unknown; date?: unknown };
  const created = typeof at === 'number' ? at : typeof date === 'number' ? date : nowSeconds(ctx);
  const params = [obj.id, created, json, ...COLUMN_READERS[table].map((col) => col(obj))];
  if (!keepPending(ctx, table, obj.id, UPSERTS[table], params, json))
    ctx.db.run(UPSERTS[table], ...params);
  return json;
}

const TABLES = Object.keys(WRITTEN) as Table[];

/**
 * A stretch of work whose puts are coalesced (coalesce.ts): each object it writes several times is written once, with
 * its last value, by `end()`. Billing opens one per subscription step.
 */
export function coalescedWrites(ctx: Ctx): { ctx: Ctx; end(): void } {
  return coalescing(ctx, TABLES);
}

/**
 * Rows of `table` as objects: `where` is SQL over its columns (fixed text with `?` placeholders), newest first unless
 * `ascending`. Lists and searches read through here, so a table name is spliced into SQL only in this module.
 */
export function rows<T extends Table>(
  ctx: Ctx,
  table: T,
  where: string,
  args: SqlParam[],
  ascending = false,
  limit = -1,
  offset = 0,
): Stored<T>[] {
  const name: Table = table;
  // `where` is fixed clause text joined by the caller (list.ts: `customer = ?`, `created < ?`; search-sql.ts); values
  // are parameters. Every row (an invoice's lines, its payments) is read without a LIMIT: SQLite's planner reads a
  // bound LIMIT's value, so a statement with `LIMIT ?` is compiled again each time it runs, several times the cost of
  // running it on the few rows billing reads.
  const order = ascending ? 'created ASC, seq ASC' : 'created DESC, seq DESC';
  const whole = limit < 0 && offset === 0;
  const found = ctx.db.all<{ data: string }>(
    // eslint-disable-next-line seahaven/no-sql-interpolation
    `SELECT data FROM ${name} WHERE ${where} ORDER BY ${order}${whole ? '' : ' LIMIT ? OFFSET ?'}`,
    ...args,
    ...(whole ? [] : [limit, offset]),
  );
  return found.map((r) => JSON.parse(r.data) as Stored<T>);
}

/** Where an object sits in its table's order (a list cursor), or undefined. */
export function positionOf(
  ctx: Ctx,
  table: Table,
  id: string,
): { created: number; seq: number } | undefined {
  return ctx.db.one<{ created: number; seq: number }>(
    `SELECT created, seq FROM ${table} WHERE id = ?`,
    id,
  );
}

/** An object by id, or undefined. */
export function get<T extends Table>(ctx: Ctx, table: T, id: string): Stored<T> | undefined {
  // The lint rule reads a table name off its declared type, one of `Table`'s names.
  const name: Table = table;
  const found = pendingOrDb(ctx, name, id);
  if (typeof found === 'string') return JSON.parse(found) as Stored<T>;
  // Not pending: the database holds its current value.
  const row = found.one<{ data: string }>(`SELECT data FROM ${name} WHERE id = ?`, id);
  return row ? (JSON.parse(row.data) as Stored<T>) : undefined;
}

/** An object by id, or Stripe's 404 (`No such customer: 'cus_…'`). */
export function must<T extends Table>(
  ctx: Ctx,
  table: T,
  id: string,
  what: string,
  param = 'id',
): Stored<T> {
  const o = get(ctx, table, id);
  if (o === undefined) throw resourceMissing(what, id, param);
  return o;
}

/** Delete a row (objects Stripe forgets on delete). */
export function remove(ctx: Ctx, table: Table, id: string): void {
  ctx.db.run(`DELETE FROM ${table} WHERE id = ?`, id);
}
