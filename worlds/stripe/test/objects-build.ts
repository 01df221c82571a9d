/**
 * Print `lib/objects.ts`: a TypeScript interface for every object Stripe World stores, read off the official `stripe`
 * package's type declarations (through conformance/declarations.ts, which turns them into JSON Schema), and `Tables`,
 * the object type each resource table of schema.sql holds. Every interface the declarations name and a stored object
 * reaches is one named interface here (`Address`, `CustomerInvoiceSettings`), shared by every object that holds it.
 *
 * A stored object keeps its references as ids (expansion happens when a reply is shaped, lib/expand.ts), so an
 * expandable field (`string | Stripe.Customer`) is its id type here, `string`. The SDK's open enums
 * (`'a' | 'b' | OtherString`) are the literal unions Stripe documents. A field the SDK declares `deleted?: void` is left
 * out (store.ts adds the `deleted` flag the world keeps). conformance/conformance.test.ts fails when the committed
 * file differs from what this prints, so nothing generated is edited by hand; upgrading the `stripe` devDependency is
 * regenerating. Enums are printed sorted: the checker orders a union's members by when it first met them.
 * Run `npx tsx worlds/stripe/test/objects-build.ts > worlds/stripe/lib/objects.ts`.
 */
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { type JsonSchema, stripeDeclarations } from './conformance/declarations.ts';

const HERE = fileURLToPath(new URL('../', import.meta.url));

/** The resource tables (store.ts) and the object type each holds, by its `object` value. */
export const TABLE_OBJECTS = {
  customers: 'customer',
  customer_balance_transactions: 'customer_balance_transaction',
  products: 'product',
  prices: 'price',
  coupons: 'coupon',
  promotion_codes: 'promotion_code',
  tax_rates: 'tax_rate',
  tax_ids: 'tax_id',
  payment_methods: 'payment_method',
  setup_intents: 'setup_intent',
  payment_intents: 'payment_intent',
  charges: 'charge',
  refunds: 'refund',
  disputes: 'dispute',
  balance_transactions: 'balance_transaction',
  payouts: 'payout',
  events: 'event',
  invoices: 'invoice',
  invoice_line_items: 'line_item',
  invoiceitems: 'invoiceitem',
  subscriptions: 'subscription',
  subscription_items: 'subscription_item',
  credit_notes: 'credit_note',
  payment_links: 'payment_link',
  checkout_sessions: 'checkout.session',
  invoice_payments: 'invoice_payment',
  webhook_endpoints: 'webhook_endpoint',
  webhook_deliveries: 'test_helpers.webhook_delivery',
  test_clocks: 'test_helpers.test_clock',
} as const;

/**
 * Objects Stripe World stores that the SDK does not declare (world-only routes under `/v1/test_helpers/`): a webhook
 * delivery and its attempts (resources/webhook-endpoints.ts), written as the world serves them.
 */
const WORLD_INTERFACES: Record<string, string> = {
  'test_helpers.webhook_delivery': `{
  id: string;
  object: 'test_helpers.webhook_delivery';
  created: number;
  event: string;
  event_type: string;
  webhook_endpoint: string;
  url: string;
  target: string;
  status: string;
  attempts: Array<{ attempted_at: number; status_code: number | null; error: string | null }>;
  next_attempt: number | null;
  livemode: boolean;
}`,
};

/** `checkout.session` → `CheckoutSession`, `line_item` → `LineItem`. */
export function interfaceName(type: string): string {
  return type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Schema = Exclude<JsonSchema, boolean>;

/** Turns the declarations' definitions into interfaces, naming each the first time a stored object reaches it. */
class Printer {
  readonly #defs: Record<string, JsonSchema>;
  readonly #names = new Map<string, string>();
  readonly #taken = new Set<string>();
  readonly #pending: string[] = [];
  readonly interfaces: string[] = [];

  constructor(defs: Record<string, JsonSchema>) {
    this.#defs = defs;
  }

  /** Name a definition (a table's object gets the name `interfaceName` gives its object type). */
  name(def: string, preferred?: string): string {
    const known = this.#names.get(def);
    if (known) return known;
    // `resources_Checkout_Sessions.Session.CustomText` → file `resources_Checkout_Sessions`, path Session.CustomText.
    const [file, ...path] = def.split('.');
    let name = preferred ?? path.map((p) => p.replace(/\W/g, '')).join('');
    if (!preferred) {
      // A nested interface carries its owner's name: `Session.CustomText` under CheckoutSession.
      const owner = this.#names.get(`${file}.${path[0]}`);
      if (owner && path.length > 1) name = owner + path.slice(1).join('');
    }
    if (this.#taken.has(name)) {
      const prefix = interfaceName(file.replace(/^(resources|shared|lib)_?/, '').toLowerCase());
      name = prefix + name;
    }
    for (let i = 2; this.#taken.has(name); i++) name = `${name}${i}`;
    this.#taken.add(name);
    this.#names.set(def, name);
    this.#pending.push(def);
    return name;
  }

  /** Print every named definition not printed yet (and those they reach). */
  flush(): void {
    for (let def = this.#pending.shift(); def !== undefined; def = this.#pending.shift()) {
      const schema = this.#defs[def];
      if (typeof schema !== 'object') throw new Error(`declarations.ts has no definition ${def}`);
      const body = this.type(schema, '');
      this.interfaces.push(
        body.startsWith('{')
          ? `export interface ${this.#names.get(def)} ${body}`
          : `export type ${this.#names.get(def)} = ${body};`,
      );
    }
  }

  type(schema: JsonSchema, indent: string): string {
    if (schema === true) return 'unknown';
    if (schema === false) return 'never';
    if (typeof schema.$ref === 'string') return this.ref(schema.$ref, indent);
    // Sorted: the order the checker gives depends on what it checked before (the validator, in the same process).
    if (Array.isArray(schema.enum))
      return [...schema.enum]
        .sort()
        .map((v) => JSON.stringify(v))
        .join(' | ');
    if (Array.isArray(schema.anyOf)) {
      let members = schema.anyOf as JsonSchema[];
      // An expandable reference is stored as its id.
      if (members.some((m) => typeof m === 'object' && m.type === 'string'))
        members = members.filter((m) => !(typeof m === 'object' && '$ref' in m));
      const parts = [...new Set(members.map((m) => this.type(m, indent)))];
      return parts.map((p) => (p.includes('=>') ? `(${p})` : p)).join(' | ');
    }
    const type = schema.type;
    if (Array.isArray(type)) return type.map((t) => (t === 'integer' ? 'number' : t)).join(' | ');
    if (type === 'null' || type === 'string' || type === 'number' || type === 'boolean')
      return type;
    if (type === 'integer') return 'number';
    if (type === 'array') {
      const item = this.type((schema.items as JsonSchema | undefined) ?? true, indent);
      return /^[\w<>]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    if (type === 'object') return this.object(schema, indent);
    throw new Error(`objects-build.ts cannot print the schema ${JSON.stringify(schema)}`);
  }

  ref(ref: string, indent: string): string {
    const def = ref.replace('#/$defs/', '');
    const schema = this.#defs[def];
    if (typeof schema !== 'object') throw new Error(`declarations.ts has no definition ${def}`);
    if (schema.title === 'ApiList' || schema.title === 'ApiSearchResult') {
      const data = (schema.properties as Record<string, Schema>).data;
      return `${schema.title}<${this.type(data.items as JsonSchema, indent)}>`;
    }
    // An anonymous type (an index signature the SDK writes inline) is printed where it is used.
    if (def.endsWith('.anonymous')) return this.type(schema, indent);
    return this.name(def);
  }

  object(schema: Schema, indent: string): string {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
    const required = new Set((schema.required ?? []) as string[]);
    const extra = schema.additionalProperties as JsonSchema | undefined;
    if (!properties.length) {
      if (extra === undefined || extra === true) return 'Record<string, unknown>';
      if (extra !== false) return `Record<string, ${this.type(extra, indent)}>`;
    }
    const inner = `${indent}  `;
    const lines: string[] = [];
    for (const [key, value] of properties) {
      if (value === false) continue; // `deleted?: void`: never present
      const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
      lines.push(`${inner}${name}${required.has(key) ? '' : '?'}: ${this.type(value, inner)};`);
    }
    if (extra !== undefined && extra !== false)
      lines.push(`${inner}[key: string]: ${this.type(extra, inner)};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
}

/** The source of `lib/objects.ts`, formatted as the repository formats TypeScript. */
export async function objectsSource(): Promise<string> {
  const declarations = stripeDeclarations({ own: true });
  const roots: [string, string][] = [];
  for (const [table, object] of Object.entries(TABLE_OBJECTS)) {
    if (WORLD_INTERFACES[object]) continue;
    const declared = declarations.declared(object).find((d) => !d.deleted);
    if (!declared)
      throw new Error(
        `stripe@${declarations.version} declares no ${object} object, which table ${table} holds; add it to WORLD_INTERFACES in objects-build.ts`,
      );
    declarations.refOf(declared);
    roots.push([object, declared.name]);
  }
  const printer = new Printer(declarations.defs);
  for (const [object, def] of roots) printer.name(def, interfaceName(object));
  printer.flush();
  const parts = [
    '/**',
    ` * The objects Stripe World stores, as TypeScript interfaces: generated from the type declarations of the stripe`,
    ` * package (${declarations.version}) by test/objects-build.ts; do not edit by hand. References are stored as ids, so an`,
    ' * expandable field is its id type. `Tables` says which object each resource table holds.',
    ' */',
    '',
    '/** A list envelope (`object: "list"`) holding some of a collection. */',
    'export interface ApiList<T> {\n  object: "list";\n  data: T[];\n  has_more: boolean;\n  url: string;\n}',
    '',
    '/** A search result envelope. */',
    'export interface ApiSearchResult<T> {\n  object: "search_result";\n  data: T[];\n  has_more: boolean;\n  next_page: string | null;\n  url: string;\n  total_count?: number;\n}',
  ];
  for (const interfaceText of printer.interfaces) parts.push('', interfaceText);
  for (const [object, text] of Object.entries(WORLD_INTERFACES)) {
    parts.push('', `/** Stripe World's \`${object}\` object. */`);
    parts.push(`export interface ${interfaceName(object)} ${text}`);
  }
  parts.push('', '/** The object type each resource table holds in its `data` column. */');
  parts.push('export interface Tables {');
  for (const [table, object] of Object.entries(TABLE_OBJECTS))
    parts.push(`  ${table}: ${interfaceName(object)};`);
  parts.push('}');
  const config = (await prettier.resolveConfig(HERE + 'lib/objects.ts')) ?? {};
  return prettier.format(parts.join('\n') + '\n', { ...config, filepath: HERE + 'lib/objects.ts' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(await objectsSource());
}
