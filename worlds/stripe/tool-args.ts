/**
 * Tool arguments from operation specs. A named tool exposes a few of its operation's parameters; `argsOf` reads their
 * types and requiredness from the operation's `p.*` spec (lib/params.ts), the one declaration REST validates against,
 * and layers the tool's descriptions and defaults on top. Path parameters are required strings.
 */
import type { UntypedParams } from './lib/untyped.ts';
import { z, type ToolAnnotations } from 'seahaven';
import type { Spec } from './lib/params.ts';
import { operations } from './operations.ts';

/** One argument: its description, or the description with a default, the spec it comes from, and a subset of fields. */
export type Arg =
  | string
  | {
      describe: string;
      default?: unknown;
      /** Where in the operation's parameters the argument's spec sits, as `line_items.price` (default: its name). */
      from?: string;
      /** For an object (or an array of objects), the fields the tool exposes. */
      fields?: Record<string, Arg>;
      /** Required here though the operation leaves it optional (the tool has no other way to say it). */
      required?: boolean;
      /** Stripe's MCP schema types an integer parameter as a plain number; the operation still checks it is whole. */
      number?: true;
    };

type Shape = Record<string, z.ZodType>;

/** A spec as a zod schema: the same types, bounds and requiredness. */
export function specToZod(s: Spec, fields?: Record<string, Arg>): z.ZodType {
  const t = baseOf(s, fields);
  return s.required ? t : t.optional();
}

function baseOf(s: Spec, fields?: Record<string, Arg>): z.ZodType {
  switch (s.kind) {
    case 'string': {
      const t = s.required ? z.string().min(1) : z.string();
      return s.max !== undefined ? t.max(s.max) : t;
    }
    case 'integer':
    case 'number': {
      let t = s.kind === 'integer' ? z.number().int() : z.number();
      if (s.min !== undefined) t = t.min(s.min);
      if (s.max !== undefined) t = t.max(s.max);
      return t;
    }
    case 'decimal':
      return z.string();
    case 'boolean':
      return z.boolean();
    case 'enum':
      return z.enum(s.values as [string, ...string[]]);
    case 'object':
      return z.object(fields ? shapeOf(s.fields, fields) : fullShape(s.fields));
    case 'array':
      return z.array(s.item.kind === 'object' ? baseOf(s.item, fields) : specToZod(s.item));
    case 'metadata':
      return z.record(z.string(), z.string());
    case 'range':
      return z.union([
        z.number().int(),
        z.object({ gt: z.number(), gte: z.number(), lt: z.number(), lte: z.number() }).partial(),
      ]);
    case 'any':
      return z.unknown();
  }
}

function fullShape(specs: Record<string, Spec>): Shape {
  return Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, specToZod(s)]));
}

/** Follow `a.b.c` through object fields and array items. */
function specAt(specs: Record<string, Spec>, from: string, where: string): Spec {
  let here: Spec = { kind: 'object', fields: specs };
  for (const key of from.split('.')) {
    while (here.kind === 'array') here = here.item;
    const next: Spec | undefined = here.kind === 'object' ? here.fields[key] : undefined;
    if (!next) throw new Error(`${where}: the operation has no parameter "${from}"`);
    here = next;
  }
  return here;
}

function shapeOf(specs: Record<string, Spec>, args: Record<string, Arg>, where = 'tool'): Shape {
  return Object.fromEntries(
    Object.entries(args).map(([name, arg]) => {
      const a = typeof arg === 'string' ? { describe: arg } : arg;
      let s = specAt(specs, a.from ?? name, where);
      // A field deep in the parameters stands alone here: required only if the tool says so.
      if (a.from?.includes('.')) s = { ...s, required: a.required === true };
      if (a.required) s = { ...s, required: true };
      if (a.number && s.kind === 'integer') s = { ...s, kind: 'number' };
      let t = specToZod(s, a.fields);
      if (a.default !== undefined)
        t = (s.required ? t : (t as z.ZodOptional<z.ZodType>).unwrap()).default(a.default);
      return [name, t.describe(a.describe)];
    }),
  );
}

/** The input schema of a tool running `operationId`: the named parameters (path parameters among them) with their specs. */
export function argsOf(operationId: string, args: Record<string, Arg>) {
  const o = operations.find((op) => op.id === operationId);
  if (!o) throw new Error(`argsOf: no operation ${operationId}`);
  const path = Object.fromEntries(
    [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], { kind: 'string', required: true }]),
  ) as Record<string, Spec>;
  return z.object(
    shapeOf({ ...o.params, ...path }, args, operationId) as Record<
      string,
      z.ZodType<UntypedParams>
    >,
  );
}
/*
 * MCP annotations, set the way Stripe's toolkit sets them: every hint given, each tool reaching the account (an open
 * world), reads read-only and idempotent, writes neither, and cancelling a subscription the one destructive tool.
 */
export const reads = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
});
export const writes = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
});
/** A write that changes nothing more when repeated (finalizing an invoice that is already open). */
export const writesIdempotently = (title: string): ToolAnnotations => ({
  ...writes(title),
  idempotentHint: true,
});
/** A write that ends something for good; repeating it changes nothing more. */
export const destroys = (title: string): ToolAnnotations => ({
  ...writes(title),
  destructiveHint: true,
  idempotentHint: true,
});
