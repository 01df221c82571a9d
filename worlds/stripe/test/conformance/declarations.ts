/**
 * Stripe's response schemas, read from the official SDK's type declarations at test time: the `.d.ts` files of the
 * `stripe` package in node_modules are loaded with the TypeScript compiler API, and every resource interface with a
 * literal `object` member (`Customer` has `object: 'customer'`) becomes a strict JSON Schema: required members are
 * required, no other property is allowed, string-literal unions are enums. Nothing generated from the SDK is
 * committed; upgrading the `stripe` devDependency upgrades the schemas.
 *
 * How the declarations map to JSON Schema:
 * - `T | null` → `anyOf` with `{ type: 'null' }`; an optional member (`x?: T`) may be absent.
 * - `'a' | 'b' | OtherString` → `enum: ['a', 'b']`: the SDK widens each enum with `OtherString` so integrations
 *   tolerate values it does not list yet, but a replica must send only the values Stripe documents.
 * - `string | Stripe.X` (an expandable reference) → either the id or the object's schema.
 * - `Stripe.ApiList<T>` and `ApiSearchResult<T>` → the list envelope with items of `T`.
 * - `Stripe.Metadata` (a string index signature) → an object of strings; `Decimal` → a string, as on the wire.
 * - `deleted?: void` → the property must be absent.
 * - Each named interface is one `$defs` entry, so recursive types (an invoice's customer's invoice settings …) are
 *   referenced, not expanded.
 *
 * The declarations are parsed once, and kept until `forgetStripeDeclarations()` (about three seconds and 200 MB: the
 * package holds 6 MB of them); an interface is converted on first use (validate.ts converts them all once, for one ajv schema).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type JsonSchema = boolean | { [k: string]: unknown };

/** An SDK interface that declares an `object` value: `Customer`, or `DeletedCustomer` with `deleted: true`. */
export interface Declared {
  /** The definition's name in `defs`, like `resources_Customers.Customer`. */
  name: string;
  /** Whether it is the reply to a delete (`deleted: true` required). */
  deleted: boolean;
}

/** The schemas of one SDK version. Definitions are converted on first use, so `defs` grows as objects are checked. */
export interface StripeDeclarations {
  /** The SDK's version, read from its package.json. */
  version: string;
  /** The interfaces declaring `object` (empty for a value the SDK does not declare). */
  declared(object: string): Declared[];
  /** The `$ref` of a declared interface's schema, converting it (and what it references) on first use. */
  refOf(declared: Declared): string;
  /** Every definition converted so far, by name. */
  defs: Record<string, JsonSchema>;
  /** Every object value the SDK declares. */
  objects: string[];
}

let cached: StripeDeclarations | undefined;
let parsed: Parsed | undefined;

/**
 * The declarations of the installed `stripe` package, parsed on the first call and kept until `forgetStripeDeclarations()`. Definitions
 * are named as they are first converted, so `own` gives a set of its own over the same parse: its names do not depend
 * on what other callers converted before (objects-build.ts prints them).
 */
export function stripeDeclarations(options: { own?: boolean } = {}): StripeDeclarations {
  parsed ??= parse();
  if (options.own) return declarationsOf(parsed);
  cached ??= declarationsOf(parsed);
  return cached;
}

/** Let go of the parse (about 200 MB), for a process that goes on to other work; the next call parses again. */
export function forgetStripeDeclarations(): void {
  cached = parsed = undefined;
}

/** The SDK's program, and every resource interface with a literal `object` member, in the program's order. */
interface Parsed {
  version: string;
  checker: ts.TypeChecker;
  base: string;
  found: { object: string; deleted: boolean; type: ts.Type }[];
}

function parse(): Parsed {
  const root = fileURLToPath(new URL('../../../../node_modules/stripe', import.meta.url));
  const version = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const program = ts.createProgram([join(root, 'esm', 'stripe.esm.node.d.ts')], {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const resources = join(root, 'esm', 'resources');
  const v2 = join(resources, 'V2');
  const found: Parsed['found'] = [];
  for (const file of program.getSourceFiles()) {
    const fileName = file.fileName;
    if (!fileName.startsWith(resources) || fileName.startsWith(v2)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & ts.SymbolFlags.Interface)) continue;
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      if ((type as ts.InterfaceType).typeParameters?.length) continue;
      const objectMember = type.getProperty('object');
      if (!objectMember) continue;
      const literals = stringLiterals(checker.getTypeOfSymbol(objectMember));
      if (literals.length !== 1) continue;
      // An event is checked as EventBase (type is the union of every event type) with its data.object checked by
      // that object's own declaration; the per-type event interfaces only narrow data.object.
      if (literals[0] === 'event' && symbol.getName() !== 'EventBase') continue;
      const deletedMember = type.getProperty('deleted');
      const deleted =
        deletedMember !== undefined &&
        !(deletedMember.flags & ts.SymbolFlags.Optional) &&
        checker.typeToString(checker.getTypeOfSymbol(deletedMember)) === 'true';
      if (!found.some((c) => c.type === type)) found.push({ object: literals[0], deleted, type });
    }
  }
  if (found.length === 0)
    throw new Error(
      `no resource interfaces found in ${join(root, 'esm')}: the stripe package's layout changed; point declarations.ts at its new .d.ts entry`,
    );
  return { version, checker, base: join(root, 'esm'), found };
}

function declarationsOf({ version, checker, base, found }: Parsed): StripeDeclarations {
  const converter = new Converter(checker, base);
  const byObject = new Map<string, (Declared & { type: ts.Type })[]>();
  for (const { object, deleted, type } of found) {
    const list = byObject.get(object) ?? [];
    list.push({ name: converter.nameOf(type), deleted, type });
    byObject.set(object, list);
  }
  return {
    version,
    declared: (object) =>
      (byObject.get(object) ?? []).map(({ name, deleted }) => ({ name, deleted })),
    refOf(declared) {
      for (const list of byObject.values())
        for (const c of list) if (c.name === declared.name) return converter.refFor(c.type);
      throw new Error(`no SDK declaration named ${declared.name}`);
    },
    defs: converter.defs,
    objects: [...byObject.keys()].sort(),
  };
}

/** The string literals of a type (a literal or a union of them; `OtherString` and non-literals ignored). */
function stringLiterals(type: ts.Type): string[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.filter((t) => t.isStringLiteral()).map((t) => (t as ts.StringLiteralType).value);
}

class Converter {
  readonly defs: Record<string, JsonSchema> = {};
  readonly #names = new Map<ts.Type, string>();
  readonly #taken = new Set<string>();

  readonly checker: ts.TypeChecker;
  /** The SDK's `esm/` folder: definition names start with the declaring file's path below it. */
  readonly base: string;

  constructor(checker: ts.TypeChecker, base: string) {
    this.checker = checker;
    this.base = base;
  }

  /** A readable, unique definition name: the declaring file and the qualified interface name. */
  nameOf(type: ts.Type): string {
    const known = this.#names.get(type);
    if (known) return known;
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const declaration = symbol?.declarations?.[0];
    const file = declaration
      ? relative(this.base, declaration.getSourceFile().fileName).replace(/\.d\.ts$/, '')
      : 'anonymous';
    const qualified = symbol
      ? this.checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\./, '')
      : 'type';
    let name = `${file}.${qualified}`;
    const args = this.checker.getTypeArguments?.(type as ts.TypeReference) ?? [];
    if (args.length) name += `<${args.map((a) => this.checker.typeToString(a)).join(', ')}>`;
    if (name.includes('__type') || name.includes('__object')) name = `${file}.anonymous`;
    name = name.replace(/[^\w.-]+/g, '_'); // a `$ref` pointer needs no escaping then
    let unique = name;
    for (let i = 2; this.#taken.has(unique); i++) unique = `${name}__${i}`;
    this.#taken.add(unique);
    this.#names.set(type, unique);
    return unique;
  }

  /** The `$ref` of an object type's definition, converting it on first use. */
  refFor(type: ts.Type): string {
    const name = this.nameOf(type);
    if (!Object.hasOwn(this.defs, name)) {
      this.defs[name] = true; // a placeholder while the members (which may refer back) are converted
      this.defs[name] = this.object(type);
    }
    return `#/$defs/${name}`;
  }

  convert(type: ts.Type): JsonSchema {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    if (f & ts.TypeFlags.Void || f & ts.TypeFlags.Undefined || f & ts.TypeFlags.Never) return false;
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (type.isUnion()) return this.union(type.types);
    if (type.isStringLiteral()) return { enum: [type.value] };
    if (type.isNumberLiteral()) return { enum: [type.value] };
    if (f & ts.TypeFlags.BooleanLiteral)
      return { enum: [this.checker.typeToString(type) === 'true'] };
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.BigInt) return { type: ['integer', 'string'] }; // v2's int64, sent as a string
    if (type.aliasSymbol?.getName() === 'Decimal') return { type: 'string' };
    if (isOtherString(type)) return { type: 'string' };
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.convert(item) : true };
    }
    // Interfaces, ApiList<T> and other instantiations, intersections: one definition each.
    if (f & ts.TypeFlags.Object || type.isIntersection()) return { $ref: this.refFor(type) };
    throw new Error(
      `declarations.ts cannot convert the SDK type ${this.checker.typeToString(type)}; add a case for it to Converter.convert`,
    );
  }

  union(members: readonly ts.Type[]): JsonSchema {
    const literals: (string | number | boolean)[] = [];
    const rest: JsonSchema[] = [];
    for (const m of members) {
      if (m.flags & ts.TypeFlags.Undefined) continue; // an optional member's `| undefined`
      if (isOtherString(m)) continue; // enums are closed (module header)
      if (m.isStringLiteral() || m.isNumberLiteral()) literals.push(m.value as string | number);
      else if (m.flags & ts.TypeFlags.BooleanLiteral)
        literals.push(this.checker.typeToString(m) === 'true');
      else rest.push(this.convert(m));
    }
    // `true | false` is how the compiler spells `boolean`.
    if (literals.includes(true) && literals.includes(false)) {
      rest.push({ type: 'boolean' });
      literals.splice(0, literals.length, ...literals.filter((l) => typeof l !== 'boolean'));
    }
    if (literals.length) rest.unshift({ enum: literals });
    if (rest.length === 1) return rest[0];
    return { anyOf: rest };
  }

  object(type: ts.Type): JsonSchema {
    const symbolName = type.getSymbol()?.getName();
    const index = this.checker
      .getIndexInfosOfType(type)
      .find((i) => i.keyType.flags & ts.TypeFlags.String);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const members = this.checker.getPropertiesOfType(type);
    // An empty interface (Event.Data.Object, the snapshot of whatever an event is about) constrains nothing.
    if (!members.length && !index) return { type: 'object' };
    for (const prop of members) {
      const name = prop.getName();
      const propType = this.checker.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length) continue; // methods are not on the wire
      properties[name] = this.convert(propType);
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(name);
    }
    const schema: Record<string, unknown> = { type: 'object', properties };
    if (required.length) schema.required = required;
    schema.additionalProperties = index ? this.convert(index.type) : false;
    if (symbolName === 'ApiList' || symbolName === 'ApiSearchResult') schema.title = symbolName;
    return schema;
  }
}

/** `OtherString` is `string & Record<never, never>`: the SDK's way of keeping an enum open. */
function isOtherString(type: ts.Type): boolean {
  if (type.aliasSymbol?.getName() === 'OtherString') return true;
  return type.isIntersection() && type.types.some((t) => t.flags & ts.TypeFlags.String);
}
