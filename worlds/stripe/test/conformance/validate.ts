/**
 * Validates Stripe World's replies against the schemas declarations.ts reads from the SDK, with ajv. A reply is
 * matched to its declaration by its `object` field (`customer` → `Stripe.Customer`, or `Stripe.DeletedCustomer` when
 * it carries `deleted: true`); a list or search page is checked as the envelope Stripe sends, and each item by its own
 * `object`; an event's `previous_attributes` are checked as members of its object. Every difference is reported as
 * the innermost object type holding it, a JSON pointer into that object and what is wrong, and the differences listed
 * in the `$conformance` section of worlds/stripe/shape-exceptions.json are set aside.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { type Declared, stripeDeclarations } from './declarations.ts';

/** One way a reply differs from Stripe's declaration. */
export interface Violation {
  /** The `object` of the reply (or list item) that differs: `invoice`. */
  object: string;
  /** Where, as a JSON pointer into that object: `/lines/total_count`. */
  pointer: string;
  /** What is wrong: `is not declared`, `must be equal to one of the allowed values (hosted)`. */
  message: string;
}

const EXCEPTIONS = fileURLToPath(new URL('../../shape-exceptions.json', import.meta.url));

/**
 * The documented differences: `{ "<object>": { "<pointer>": "<reason>" } }`, where a pointer segment `*` stands for
 * any array index or key.
 */
export function conformanceExceptions(): Record<string, Record<string, string>> {
  const raw = JSON.parse(readFileSync(EXCEPTIONS, 'utf8')) as {
    $conformance?: Record<string, Record<string, string> | string>;
  };
  const section = raw.$conformance ?? {};
  return Object.fromEntries(
    Object.entries(section).filter(([k, v]) => !k.startsWith('$') && typeof v === 'object'),
  ) as Record<string, Record<string, string>>;
}

/** Whether an exception's pointer pattern covers a violation's pointer. */
export function covers(pattern: string, pointer: string): boolean {
  const p = pattern.split('/');
  const q = pointer.split('/');
  return p.length === q.length && p.every((seg, i) => seg === '*' || seg === q[i]);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A validator for Stripe World's replies; build one per test file (the SDK's declarations are parsed once). */
export class ReplyValidator {
  // inlineRefs off: each definition compiles to one function, shared by every schema reaching it; optimize off: the
  // code runs over a few hundred replies, so the optimizer's passes cost more than they save.
  readonly #ajv = new Ajv({
    allErrors: true,
    strict: false,
    inlineRefs: false,
    verbose: true,
    code: { optimize: false },
  });
  #loaded = false;
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #declarations = stripeDeclarations();
  readonly #exceptions = conformanceExceptions();
  /** Exceptions that covered at least one violation, as `object pointer`. */
  readonly used = new Set<string>();

  /** The SDK version whose declarations are checked. */
  get sdkVersion(): string {
    return this.#declarations.version;
  }

  /** Every difference between a reply body and Stripe's declaration of it, the documented exceptions left out. */
  check(body: unknown): Violation[] {
    return this.checkAll(body).filter((v) => !this.#excepted(v));
  }

  /** Every difference, the documented exceptions included. */
  checkAll(body: unknown): Violation[] {
    if (!isObject(body) || typeof body.object !== 'string')
      return [{ object: '(none)', pointer: '', message: 'has no `object` field' }];
    if (body.object === 'list' || body.object === 'search_result') return this.#page(body);
    return this.#one(body);
  }

  /**
   * An event's `previous_attributes` against its object's declaration, as the SDK types them (`Partial<Stripe.X>`):
   * every key a declared member, every value of that member's type. A null for a member the object may leave out
   * (`refund.failure_reason`) says it was not there before, as Stripe writes it.
   */
  checkPrevious(object: string, previous: Record<string, unknown>): Violation[] {
    const [declared] = this.#declarations.declared(object).filter((d) => !d.deleted);
    if (!declared) return [];
    this.#validator(declared);
    const schema = this.#declarations.defs[declared.name] as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const out: Violation[] = [];
    for (const [key, value] of Object.entries(previous)) {
      const pointer = `/previous_attributes/${key}`;
      if (!Object.hasOwn(schema.properties ?? {}, key)) {
        out.push({ object, pointer, message: 'is not declared' });
        continue;
      }
      if (value === null && !schema.required?.includes(key)) continue;
      const validate = this.#ajv.getSchema(`stripe#/$defs/${declared.name}/properties/${key}`);
      if (validate && !validate(value))
        for (const v of dedupe(validate.errors ?? [], object))
          out.push({ ...v, pointer: `${pointer}${v.pointer}` });
    }
    // An exception names the member as it is on the object.
    return out.filter(
      (v) => !this.#excepted({ ...v, pointer: v.pointer.slice('/previous_attributes'.length) }),
    );
  }

  #excepted(v: Violation): boolean {
    for (const [pattern] of Object.entries(this.#exceptions[v.object] ?? {})) {
      if (covers(pattern, v.pointer)) {
        this.used.add(`${v.object} ${pattern}`);
        return true;
      }
    }
    return false;
  }

  /** A list or search page: the envelope the SDK declares, then each item by its own declaration. */
  #page(body: Record<string, unknown>): Violation[] {
    const kind = body.object as string;
    const keys =
      kind === 'list'
        ? { object: 'string', data: 'array', has_more: 'boolean', url: 'string' }
        : {
            object: 'string',
            data: 'array',
            has_more: 'boolean',
            url: 'string',
            next_page: 'string|null',
          };
    const out: Violation[] = [];
    for (const [k, type] of Object.entries(keys)) {
      const v = body[k];
      const actual = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
      if (!(k in body)) out.push({ object: kind, pointer: `/${k}`, message: 'is missing' });
      else if (!type.split('|').includes(actual))
        out.push({ object: kind, pointer: `/${k}`, message: `must be ${type}, is ${actual}` });
    }
    for (const k of Object.keys(body)) {
      if (k in keys) continue;
      if (kind === 'search_result' && k === 'total_count') continue; // declared, present on request
      out.push({ object: kind, pointer: `/${k}`, message: 'is not declared' });
    }
    if (Array.isArray(body.data)) for (const item of body.data) out.push(...this.checkAll(item));
    return out;
  }

  #one(body: Record<string, unknown>): Violation[] {
    const object = body.object as string;
    const declared = this.#declarations.declared(object);
    if (!declared.length)
      return [
        { object, pointer: '/object', message: `"${object}" is no object type the SDK declares` },
      ];
    const wantDeleted = body.deleted === true;
    const candidates = declared.filter((d) => d.deleted === wantDeleted);
    let best: Violation[] | undefined;
    for (const d of candidates.length ? candidates : declared) {
      const validate = this.#validator(d);
      if (validate(body)) return [];
      const found = dedupe(validate.errors ?? [], object);
      if (!best || found.length < best.length) best = found;
    }
    return (best ?? []).map((v) => innermost(body, v));
  }

  #validator(d: Declared): ValidateFunction {
    if (!this.#loaded) {
      // Every declared object converted, then one schema holding all the definitions: ajv compiles each
      // definition once, however many replies reach it (an invoice's customer, a charge's customer …).
      for (const object of this.#declarations.objects)
        for (const c of this.#declarations.declared(object)) this.#declarations.refOf(c);
      this.#ajv.addSchema({ $id: 'stripe', $defs: this.#declarations.defs });
      this.#loaded = true;
    }
    const known = this.#compiled.get(d.name);
    if (known) return known;
    const validate = this.#ajv.getSchema(`stripe${this.#declarations.refOf(d)}`);
    if (!validate) throw new Error(`ajv has no schema for ${d.name}`);
    this.#compiled.set(d.name, validate);
    return validate;
  }
}

/**
 * A violation restated against the innermost object (an expanded reference, an embedded one) that holds it: a
 * subscription's `/latest_invoice/lines/total_count` is an invoice's `/lines/total_count`, so a documented exception
 * covers an object wherever it appears.
 */
function innermost(body: Record<string, unknown>, v: Violation): Violation {
  const segments = v.pointer.split('/').slice(1);
  let node: unknown = body;
  let owner = { object: v.object, at: 0 };
  // The last segment is the member itself: a missing one is not there, an undeclared one is not the owner.
  for (let i = 0; i < segments.length - 1; i++) {
    if (!isObject(node) && !Array.isArray(node)) break;
    node = (node as Record<string, unknown>)[segments[i].replace(/~1/g, '/').replace(/~0/g, '~')];
    if (isObject(node) && typeof node.object === 'string' && !PAGES.has(node.object))
      owner = { object: node.object, at: i + 1 };
  }
  if (owner.at === 0) return v;
  return { ...v, object: owner.object, pointer: `/${segments.slice(owner.at).join('/')}` };
}

const PAGES = new Set(['list', 'search_result']);

/** An ajv error as a violation. A union's alternatives are reduced to the one message that says what was expected. */
function describe(object: string, e: ErrorObject): Violation[] {
  const at = e.instancePath;
  switch (e.keyword) {
    case 'additionalProperties':
      return [
        {
          object,
          pointer: `${at}/${(e.params as { additionalProperty: string }).additionalProperty}`,
          message: 'is not declared',
        },
      ];
    case 'required':
      return [
        {
          object,
          pointer: `${at}/${(e.params as { missingProperty: string }).missingProperty}`,
          message: 'is missing',
        },
      ];
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      const listed =
        allowed.length > 12
          ? `one of the ${allowed.length} declared values`
          : JSON.stringify(allowed);
      return [{ object, pointer: at, message: `is ${JSON.stringify(e.data)}, not ${listed}` }];
    }
    case 'false schema':
      return [{ object, pointer: at, message: 'must be absent' }];
    case 'anyOf':
      return [{ object, pointer: at, message: 'matches none of the declared types' }];
    default:
      return [{ object, pointer: at, message: e.message ?? e.keyword }];
  }
}

/**
 * Inside a union (`null | Stripe.Discount`, `string | Stripe.Customer`) ajv reports each alternative's errors and then
 * that none matched. The `type` errors of the alternatives only say the value was not that alternative: drop them,
 * keep what the object alternative found wrong inside the value, and keep the summary only where nothing else says
 * what is wrong there.
 */
function dedupe(errors: ErrorObject[], object: string): Violation[] {
  const kept = errors.filter((e) => !(e.keyword === 'type' && e.schemaPath.includes('/anyOf/')));
  const out = new Map<string, Violation>();
  for (const e of kept) {
    if (e.keyword === 'anyOf') continue;
    for (const v of describe(object, e)) out.set(`${v.pointer} ${v.message}`, v);
  }
  for (const e of kept) {
    if (e.keyword !== 'anyOf') continue;
    const inside = [...out.values()].some(
      (v) => v.pointer === e.instancePath || v.pointer.startsWith(`${e.instancePath}/`),
    );
    if (!inside) for (const v of describe(object, e)) out.set(`${v.pointer} ${v.message}`, v);
  }
  return [...out.values()];
}
