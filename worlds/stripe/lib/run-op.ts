/**
 * Run an operation from a tool: the same code a REST request runs, inside the tool's call. A Stripe error becomes the
 * tool error an agent sees (`Stripe API error: …`); a recorded failure (a declined card) keeps its writes.
 */
import { ToolError, type Ctx } from '../../../kit/index.ts';
import { StripeError, isFailed } from './errors.ts';
import { DEFAULT_API_VERSION, requestIdOf, type OpContext, type StripeOp } from './op.ts';
import { expandObject } from './expand.ts';
import { validate, p } from './params.ts';
import type { Obj } from './store.ts';
import { deliverDue } from './webhooks.ts';

let registry: Map<string, StripeOp> | undefined;

/** Give the operations to `runOp` (index.ts does, once). */
export function registerOps(ops: readonly StripeOp[]): void {
  registry = new Map(ops.map((o) => [o.id, o]));
}

/** The outcome of running an operation from a tool: the object, or Stripe's error. */
export type OpOutcome =
  | { ok: true; body: Obj }
  | { ok: false; status: number; message: string; error: Record<string, unknown> };

/** Run operation `id` with `params` (already JSON-typed, as a tool's zod input gives them) and path parameters. */
export function runOp(
  ctx: Ctx,
  id: string,
  params: Record<string, unknown> = {},
  path: Record<string, string> = {},
): OpOutcome {
  const o = registry?.get(id);
  if (!o) throw new Error(`runOp: no operation ${id}`);
  const c: OpContext = {
    ctx,
    version: DEFAULT_API_VERSION,
    requestId: requestIdOf(ctx),
    idempotencyKey: null,
  };
  try {
    const checked = validate({ expand: p.arr(p.string()), ...o.params }, params) as Record<
      string,
      unknown
    > & { expand?: string[] };
    const out = ctx.db.transaction(() => o.run(c, checked, path));
    // Webhooks to the composed world's handler, for the events this call made (webhooks.ts).
    deliverDue(ctx, Math.floor(ctx.clock.now() / 1000));
    if (isFailed(out))
      return {
        ok: false,
        status: out.status,
        message: out.error.message,
        error: out.error as unknown as Record<string, unknown>,
      };
    return {
      ok: true,
      body: checked.expand?.length ? expandObject(ctx, out, checked.expand) : out,
    };
  } catch (e) {
    if (e instanceof StripeError)
      return {
        ok: false,
        status: e.status,
        message: e.error.message,
        error: e.error as unknown as Record<string, unknown>,
      };
    throw e;
  }
}

/** `runOp` for a tool: the object, or a ToolError reading `Stripe API error: …` with the operation to look up. */
export function toolOp(
  ctx: Ctx,
  id: string,
  params: Record<string, unknown> = {},
  path: Record<string, string> = {},
): Obj {
  const r = runOp(ctx, id, params, path);
  if (r.ok) return r.body;
  throw new ToolError(
    'stripe_api_error',
    `Stripe API error: ${r.message}\nUse stripe_api_details with stripe_api_operation_id: "${id}" to see all required and optional parameters.`,
    { status: r.status, error: r.error },
  );
}
