/**
 * The four generic tools: `stripe_api_search` ranks operations by the words of a request, `stripe_api_details` shows an
 * operation's parameters from its spec, and `stripe_api_read` / `stripe_api_write` run any operation by its
 * operationId through the same pipeline as REST (`toolOp`).
 */
import { defineTool, ToolError, z, type Ctx } from 'seahaven';
import { toolOp, type StripeOp } from './lib/op.ts';
import type { Spec } from './lib/params.ts';
import { operations } from './operations.ts';
import { wordsOf } from './docs-corpus.ts';
import { reads, writes } from './tool-args.ts';

export const byId = new Map<string, StripeOp>(operations.map((o) => [o.id, o]));

/** The `{name}` placeholders of a path, in order. */
export function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** An operation for a generic tool, or an error that sends the agent to `stripe_api_search`. */
function operationFor(id: string, methods: readonly string[], tool: string): StripeOp {
  const o = byId.get(id);
  if (!o)
    throw new ToolError(
      'unknown_operation',
      `Unknown stripe_api_operation_id "${id}". Use stripe_api_search to find the operation you need.`,
    );
  if (!methods.includes(o.method)) {
    const other = o.method === 'GET' ? 'stripe_api_read' : 'stripe_api_write';
    throw new ToolError(
      'wrong_operation_kind',
      `${id} is a ${o.method} operation, which ${tool} does not run; use ${other} instead, or stripe_api_search to find a ${methods.join('/')} operation.`,
    );
  }
  return o;
}

/**
 * Run an operation from generic `parameters`. Path parameters come by their own names, or as `id` for the last one (the
 * object the path names); they are taken out of the parameters. Stripe's own server clamps an out-of-range `limit`
 * rather than refusing it, so this does too.
 */
function runGeneric(ctx: Ctx, o: StripeOp, parameters: Record<string, unknown> = {}): unknown {
  const params = { ...parameters };
  const path: Record<string, string> = {};
  const names = placeholders(o.path);
  names.forEach((name, i) => {
    let v = params[name];
    if (v !== undefined) delete params[name];
    else if (i === names.length - 1 && params.id !== undefined) {
      v = params.id;
      delete params.id;
    }
    if (typeof v !== 'string' || v === '') {
      throw new ToolError(
        'missing_path_parameter',
        `${o.id} needs the path parameter "${name}" (${o.path}); pass it in parameters${i === names.length - 1 ? ' as "id" or' : ' as'} "${name}". Use stripe_api_details to see every parameter.`,
      );
    }
    path[name] = v;
  });
  if (typeof params.limit === 'number')
    params.limit = Math.min(100, Math.max(1, Math.trunc(params.limit)));
  return toolOp(ctx, o.id, params, path);
}

/** A parameter's spec as `stripe_api_details` shows it: its type, whether it is required, and what it holds. */
function describeSpec(s: Spec): Record<string, unknown> {
  const out: Record<string, unknown> = { type: s.kind, required: s.required === true };
  if (s.kind === 'enum') out.values = s.values;
  if (s.kind === 'object')
    out.fields = Object.fromEntries(Object.entries(s.fields).map(([k, f]) => [k, describeSpec(f)]));
  if (s.kind === 'array') out.items = describeSpec(s.item);
  return out;
}

/** The words of an operation for matching: its id split at capitals, and its path's segments. */
function opWords(o: StripeOp): Set<string> {
  const fromId = o.id
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
  const fromPath = o.path
    .toLowerCase()
    .split(/[^a-z]+/)
    .flatMap((w) => [w, ...w.split('_')]);
  return new Set([...fromId, ...fromPath].filter((w) => w !== '' && w !== 'v1'));
}

/** Verbs an agent may use, by the HTTP method they suggest. */
const VERBS: Record<string, readonly string[]> = {
  create: ['POST'],
  add: ['POST'],
  new: ['POST'],
  update: ['POST'],
  change: ['POST'],
  modify: ['POST'],
  set: ['POST'],
  confirm: ['POST'],
  capture: ['POST'],
  finalize: ['POST'],
  pay: ['POST'],
  send: ['POST'],
  void: ['POST'],
  attach: ['POST'],
  detach: ['POST'],
  refund: ['POST'],
  list: ['GET'],
  get: ['GET'],
  retrieve: ['GET'],
  read: ['GET'],
  fetch: ['GET'],
  show: ['GET'],
  find: ['GET'],
  search: ['GET'],
  view: ['GET'],
  // Most objects are cancelled with a POST to `/cancel`, which the word itself finds; a subscription with DELETE.
  cancel: ['DELETE'],
  delete: ['DELETE'],
  remove: ['DELETE'],
};

/** Singular forms, so "customer" finds `/v1/customers` and "invoice items" finds `invoiceitems`. */
function variants(w: string): string[] {
  const out = [w];
  if (w.endsWith('ies')) out.push(w.slice(0, -3) + 'y');
  else if (w.endsWith('s')) out.push(w.slice(0, -1));
  else out.push(w + 's', w.endsWith('y') ? w.slice(0, -1) + 'ies' : w + 'es');
  return out;
}

/**
 * Operations ranked by how well their id and path match the request's words. A word naming a whole path segment
 * (`refunds`) counts more than one naming part of an id; two words naming one segment together (`invoice items` →
 * `invoiceitems`) count most. A sub-action or sub-resource the request does not mention (`/discount`, `/lines`) counts
 * against an operation, so the plain endpoint comes before its relatives.
 */
function rankOperations(
  query: string,
  max: number,
): { operation_id: string; method: string; path: string }[] {
  const words = wordsOf(query);
  const pairs = words.slice(1).map((w, i) => words[i] + w);
  const named = new Set([...words, ...pairs].flatMap(variants));
  const scored = operations.map((o, i) => {
    const ow = opWords(o);
    const segs = o.path
      .toLowerCase()
      .split('/')
      .filter((seg) => seg !== '' && seg !== 'v1');
    const plain = segs.filter((seg) => !seg.startsWith('{')).map((seg) => seg.replace(/_/g, ''));
    let score = 0;
    for (const w of words) {
      if (variants(w).some((v) => ow.has(v))) score += 2;
      if (variants(w).some((v) => plain.includes(v))) score += 2;
      if (VERBS[w]?.includes(o.method)) score += 1;
    }
    for (const pair of pairs) if (variants(pair).some((v) => plain.includes(v))) score += 6;
    for (const seg of plain.slice(1)) if (!named.has(seg)) score -= 1;
    score -= (segs.length - plain.length) * 0.1 + (o.id.includes('TestHelpers') ? 1 : 0);
    return { o, score, i };
  });
  return scored
    .filter((s) => s.score > 0.5)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .map(({ o }) => ({ operation_id: o.id, method: o.method, path: o.path }));
}

export const apiTools = [
  defineTool({
    name: 'stripe_api_search',
    annotations: reads('Find an API operation'),
    description:
      'Find API operations for what you want to do, like "refund a payment" or "list invoice items". Returns operation ids to use with stripe_api_details, stripe_api_read and stripe_api_write.',
    input: z.object({
      query: z.string().min(1).describe('What you want to do, and to which kind of object.'),
    }),
    run: (_ctx, { query }) => ({ operations: rankOperations(query, 10) }),
  }),
  defineTool({
    name: 'stripe_api_details',
    annotations: reads('Describe an API operation'),
    description:
      'Show one API operation: its method, path and every parameter with its type and whether it is required.',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('An operation id from stripe_api_search, like GetCustomers.'),
    }),
    run: (_ctx, { stripe_api_operation_id: id }) => {
      const o = operationFor(id, ['GET', 'POST', 'DELETE'], 'stripe_api_details');
      const names = placeholders(o.path);
      return {
        operation_id: o.id,
        method: o.method,
        path: o.path,
        tool: o.method === 'GET' ? 'stripe_api_read' : 'stripe_api_write',
        path_parameters: names.map((name, i) => ({
          name,
          pass_as: i === names.length - 1 ? ['id', name] : [name],
        })),
        parameters: Object.fromEntries(
          Object.entries({
            ...o.params,
            expand: { kind: 'array', item: { kind: 'string' } } as Spec,
          }).map(([k, s]) => [k, describeSpec(s)]),
        ),
      };
    },
  }),
  defineTool({
    name: 'stripe_api_read',
    annotations: reads('Run a read operation'),
    description:
      'Run a read (GET) API operation by its id, with its parameters; path parameters go in parameters too (the object\'s id as "id").',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('A GET operation id, like GetCustomersCustomer.'),
      parameters: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The operation\'s parameters, like {"id": "cus_…"} or {"limit": 5}.'),
    }),
    run: (ctx, { stripe_api_operation_id: id, parameters }) =>
      runGeneric(ctx, operationFor(id, ['GET'], 'stripe_api_read'), parameters),
  }),
  defineTool({
    name: 'stripe_api_write',
    annotations: writes('Run a write operation'),
    description:
      'Run a write (POST or DELETE) API operation by its id, with its parameters; path parameters go in parameters too (the object\'s id as "id").',
    input: z.object({
      stripe_api_operation_id: z
        .string()
        .min(1)
        .describe('A POST or DELETE operation id, like PostCustomers or DeleteCustomersCustomer.'),
      parameters: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'The operation\'s parameters, like {"name": "Jane"} or {"id": "cus_…", "email": "j@example.com"}.',
        ),
    }),
    run: (ctx, { stripe_api_operation_id: id, parameters }) =>
      runGeneric(ctx, operationFor(id, ['POST', 'DELETE'], 'stripe_api_write'), parameters),
  }),
];
