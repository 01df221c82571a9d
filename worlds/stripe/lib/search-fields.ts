/**
 * What search can see of each searchable table, and how it is stored for SQL to find. Every searchable field but
 * `created` has a column of its own (`search_<name>`), written by store.ts with the row (it derives its writes from
 * `SEARCH_COLUMNS`), holding the value as the query language compares it: ids as ids, tokens and strings lower-cased,
 * booleans as 0/1, metadata as JSON. Each table's `<table>_order` index holds these columns after `created DESC, seq
 * DESC`, so a search walks that index in the order results are shown, tests each clause on the index entry, and reads
 * an object's JSON only for the rows on its page (schema.sql).
 */

/** An object as stored: search reads its fields by path (store.ts builds its writes from this module). */
type Searched = object;

export type FieldKind = 'id' | 'token' | 'string' | 'number' | 'boolean' | 'metadata';

/** A searchable field: its kind, and where to read it when that is not simply its dotted path. */
export type FieldSpec = FieldKind | { kind: FieldKind; read: (o: Searched) => unknown };

const card = (f: string) => `payment_method_details.card.${f}`;

/** The searchable fields of each searchable table. */
export const SEARCH_FIELDS: Partial<Record<string, Record<string, FieldSpec>>> = {
  customers: {
    created: 'number',
    email: 'string',
    metadata: 'metadata',
    name: 'string',
    phone: 'string',
  },
  charges: {
    amount: 'number',
    'billing_details.address.postal_code': 'token',
    created: 'number',
    currency: 'token',
    customer: 'id',
    disputed: 'boolean',
    metadata: 'metadata',
    payment_intent: 'id',
    [card('last4')]: 'token',
    [card('brand')]: 'token',
    [card('exp_month')]: 'number',
    [card('exp_year')]: 'number',
    [card('fingerprint')]: 'id',
    refunded: 'boolean',
    status: 'token',
  },
  invoices: {
    created: 'number',
    currency: 'token',
    customer: 'id',
    last_finalization_error_code: 'token',
    last_finalization_error_type: 'token',
    metadata: 'metadata',
    number: 'string',
    receipt_number: 'string',
    status: 'token',
    // Newer API versions moved the subscription under `parent`; either place answers.
    subscription: {
      kind: 'id',
      read: (o) =>
        readPath(o, 'subscription') ??
        readPath(o, 'parent.subscription_details.subscription') ??
        null,
    },
    total: 'number',
  },
  payment_intents: {
    amount: 'number',
    created: 'number',
    currency: 'token',
    customer: 'id',
    metadata: 'metadata',
    status: 'token',
  },
  prices: {
    active: 'boolean',
    created: 'number',
    currency: 'token',
    lookup_key: 'string',
    metadata: 'metadata',
    product: 'id',
    type: 'token',
  },
  products: {
    active: 'boolean',
    created: 'number',
    description: 'string',
    metadata: 'metadata',
    name: 'string',
    shippable: 'boolean',
    url: 'string',
  },
  subscriptions: {
    canceled_at: 'number',
    created: 'number',
    metadata: 'metadata',
    status: 'token',
  },
};

export function kindOf(spec: FieldSpec): FieldKind {
  return typeof spec === 'string' ? spec : spec.kind;
}

export function readPath(o: Searched, path: string): unknown {
  return readParts(o, path.split('.'));
}

/** `readPath` with the path already split at its dots: a search column reads its field on every write of its table. */
function readParts(o: Searched, parts: readonly string[]): unknown {
  let cur: unknown = o;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A reference's id, whether stored as an id or an expanded object. */
export function idOf(v: unknown): unknown {
  const id = v !== null && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : v;
}

/** A search column: the field it holds, its kind, its name in the table, and how a row's value is read off the object. */
export interface SearchColumn {
  field: string;
  kind: FieldKind;
  column: string;
  value: (o: Searched) => string | number | null;
}

/** The value a field's column holds: what the query language compares, already normalised as it compares it. */
function stored(kind: FieldKind, v: unknown): string | number | null {
  switch (kind) {
    case 'id': {
      const id = idOf(v);
      return typeof id === 'string' ? id : null;
    }
    case 'token':
    case 'string':
      return typeof v === 'string' || typeof v === 'number' ? String(v).toLowerCase() : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return v === null || v === undefined ? null : v ? 1 : 0;
    case 'metadata':
      return v !== null && typeof v === 'object' && Object.keys(v).length > 0
        ? JSON.stringify(v)
        : null;
  }
}

/** `search_` and the field's last part, with the part before it for a deep path (`search_card_last4`). */
function columnName(field: string): string {
  const parts = field.split('.');
  return 'search_' + (parts.length >= 3 ? parts.slice(-2) : parts.slice(-1)).join('_');
}

/**
 * The search columns of each searchable table, in schema order. `created` is left out: the table's own `created`
 * column holds the same number, and leads the index.
 */
export const SEARCH_COLUMNS: Record<string, SearchColumn[]> = Object.fromEntries(
  Object.entries(SEARCH_FIELDS).map(([table, fields]) => [
    table,
    Object.entries(fields ?? {})
      .filter(([field]) => field !== 'created')
      .map(([field, spec]): SearchColumn => {
        const kind = kindOf(spec);
        const parts = field.split('.');
        const read = typeof spec === 'string' ? (o: Searched) => readParts(o, parts) : spec.read;
        return { field, kind, column: columnName(field), value: (o) => stored(kind, read(o)) };
      }),
  ]),
);
