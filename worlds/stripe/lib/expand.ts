/**
 * `expand[]`: replace id references with the objects they name, along dotted paths up to four levels
 * (`latest_charge.balance_transaction`, `data.customer` on lists). A field can be expanded when it holds an id of a
 * known kind (or null, which stays null); anything else is Stripe's 400 `This property cannot be expanded (foo).`
 * Resources with references that the prefix does not tell (coupons) register a resolver in `EXPANDERS`; fields
 * that appear only when expanded (a customer's `subscriptions`) register one in `INCLUDERS`, and those an object
 * stores but shows only when expanded (a price's `tiers`) are named in `HIDDEN` as well.
 */
import type { Ctx } from 'seahaven';
import { invalidRequest } from './errors.ts';
import { get, tableOfId } from './store.ts';
import { copyJson } from './clone.ts';

/** Any object of a reply, read as JSON: expansion walks whatever object the reply holds. */
type Node = Record<string, unknown>;

/** An object that has fields of its own to include: a resource, with its id. */
type Owner = Node & { id: string };

/**
 * Field-specific resolvers, by `<object>.<field>` (e.g. `price.product`), for ids without a telling prefix; or by
 * `<field>` alone for a field that names the same kind wherever it sits, even inside a hash with no `object` of its
 * own (`coupon`, in `discount.source` and `promotion_code.promotion`).
 */
export const EXPANDERS: Record<string, (ctx: Ctx, id: string) => object | undefined> = {};

/**
 * Fields an object carries only when `expand[]` names them, by `<object>.<field>` (`customer.subscriptions`): each
 * makes the value (a list) from the object.
 */
export const INCLUDERS: Record<string, (ctx: Ctx, owner: Owner) => object> = {};

/**
 * Fields an object's stored form carries but its replies show only when `expand[]` names them, by `object`
 * (`price: ['tiers']`): `withoutHidden` drops them wherever such an object sits in a reply, and an includer for the
 * same `<object>.<field>` brings them back where `expand[]` asks.
 */
export const HIDDEN: Record<string, readonly string[]> = {};

/** `value` without the HIDDEN fields of the objects in it, at any depth; copied only along the paths that lose one. */
export function withoutHidden<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      const inner = strip(item);
      if (inner !== item) (copy ??= value.slice())[i] = inner;
    }
    return copy ?? value;
  }
  const node = value as Node;
  let copy: Node | undefined;
  const hidden = typeof node.object === 'string' ? HIDDEN[node.object] : undefined;
  if (hidden !== undefined) {
    for (const field of hidden) {
      if (!Object.hasOwn(node, field)) continue;
      copy ??= { ...node };
      delete copy[field];
    }
  }
  // Only objects and arrays can hold an object with hidden fields; a reply's other values are passed over.
  for (const key in node) {
    const v = node[key];
    if (v === null || typeof v !== 'object' || (copy !== undefined && !Object.hasOwn(copy, key)))
      continue;
    const inner = strip(v);
    if (inner !== v) (copy ??= { ...node })[key] = inner;
  }
  return copy ?? node;
}

function resolve(ctx: Ctx, owner: Node, field: string, id: string): object | undefined {
  const key = [`${String(owner.object)}.${field}`, field].find((k) => Object.hasOwn(EXPANDERS, k));
  const custom = key === undefined ? undefined : EXPANDERS[key];
  if (custom) return custom(ctx, id);
  const table = tableOfId(id);
  return table ? get(ctx, table, id) : undefined;
}

/** `obj` with every path in `paths` expanded (a copy; `obj` is not changed). */
export function expandObject<T extends object>(ctx: Ctx, obj: T, paths: readonly string[]): T {
  const kind = (obj as Node).object;
  let out = copyJson(obj) as Node;
  // `expand[0]=` arrives as an unset (null) entry, which names nothing to expand.
  for (const path of paths.filter((x): x is string => typeof x === 'string' && x !== '')) {
    // A search result's `total_count` is included on request (search-page.ts), not expanded from an id.
    if (path === 'total_count' && kind === 'search_result') continue;
    const parts = path.split('.');
    if (parts.length > 4)
      throw invalidRequest(
        `You cannot expand more than 4 levels of a property. Property: ${path}`,
        'expand',
      );
    out = expandAt(ctx, out, parts, path, kind === 'list' || kind === 'search_result');
  }
  // The copy keeps the caller's type: expanded fields hold the objects their ids named, as Stripe's replies do.
  return out as T;
}

function expandAt(ctx: Ctx, node: Node, parts: string[], full: string, isList: boolean): Node {
  const [field, ...rest] = parts;
  if (node === null || typeof node !== 'object') return node;
  if (
    (node.object === 'list' || node.object === 'search_result') &&
    field === 'data' &&
    Array.isArray(node.data)
  ) {
    if (rest.length === 0)
      throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
    node.data = node.data.map((item: Node) => expandAt(ctx, item, rest, full, false));
    return node;
  }
  const include = INCLUDERS[`${String(node.object)}.${field}`];
  if (!Object.hasOwn(node, field) && include !== undefined) {
    // What an includer makes (a customer's subscriptions) shows its objects as replies do, hidden fields dropped.
    node[field] = withoutHidden(include(ctx, node as Owner));
    // An included array (a price's `tiers`) is a value of its own, with nothing in it to expand.
    if (Array.isArray(node[field]) && rest.length === 0) return node;
  }
  if (!Object.hasOwn(node, field)) {
    const hint = isList ? ` You may want to try expanding 'data.${full}' instead.` : '';
    throw invalidRequest(`This property cannot be expanded (${full}).${hint}`, 'expand');
  }
  let value = node[field];
  if (typeof value === 'string') {
    const found = resolve(ctx, node, field, value);
    if (found === undefined)
      throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
    value = withoutHidden(found);
  } else if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    throw invalidRequest(`This property cannot be expanded (${full}).`, 'expand');
  }
  node[field] =
    value === null || rest.length === 0 ? value : expandAt(ctx, value as Node, rest, full, false);
  return node;
}
