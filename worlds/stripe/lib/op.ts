/**
 * Stripe operations: one per API endpoint (method + path), named by its OpenAPI operationId, and the one pipeline they
 * all run through. `op()` wraps an operation's own logic in what every endpoint shares: parameter checks, idempotency
 * keys, `expand[]`, the request id, and the reply envelope. A request runs it as one call of the instance (face.ts);
 * a tool, or an operation that starts another (a checkout session its subscription), runs it inside its own call with
 * `runOp`, which takes the same steps (`perform`) bar idempotency, in a savepoint, and answers the outcome as data.
 */
import { defineOperation, ToolError, type Ctx, type Operation } from 'seahaven';
import { StripeError, isFailed, type Failed, type StripeErrorBody } from './errors.ts';
import { expandObject, withoutHidden } from './expand.ts';
import { validate, p, type OpParams, type Spec } from './params.ts';
import { onObjectsTime } from './test-clocks.ts';
import { withDeliveries } from './webhooks.ts';

export const DEFAULT_API_VERSION = '2026-10-28.endive';

/** What an operation's run gets besides its parameters. */
export interface OpContext {
  ctx: Ctx;
  /** The request's `Stripe-Version`, else the account's default. */
  version: string;
  /** `req_…`, the same in every replay of the call. */
  requestId: string;
  idempotencyKey: string | null;
}

export type Method = 'GET' | 'POST' | 'DELETE';

/** An operation's answer as its caller reads it: JSON, narrowed where a field is read. */
export type Reply = Record<string, unknown>;

export interface StripeOpSpec<F extends Record<string, Spec> = Record<string, Spec>> {
  /** The OpenAPI operationId, like `PostCustomers`. */
  id: string;
  method: Method;
  /** With `{param}` placeholders, like `/v1/customers/{customer}`. */
  path: string;
  /** The endpoint's parameters besides `expand` (added for every endpoint). */
  params: F;
  run(c: OpContext, params: OpParams<F>, path: Record<string, string>): object | Failed;
  /**
   * False for an operation whose run never reads the clock (a retrieve by id): it runs on the world clock as it is,
   * without looking up the test clock its objects live on (`onObjectsTime`), which costs a read or two per request.
   */
  readsClock?: false;
}

export interface StripeOp extends StripeOpSpec {
  readonly operation: Operation<OpInput, OpResult>;
  /** `params` with `expand`, as `perform` checks them. */
  readonly checked: Record<string, Spec>;
}

/** An operation's recorded input: everything the request said that matters. */
export interface OpInput {
  params: Record<string, unknown>;
  path: Record<string, string>;
  version: string;
  idempotency_key: string | null;
}

/** An operation's result: the reply's status and body (200 and the object, or a recorded failure). */
export interface OpResult {
  status: number;
  body: unknown;
  request_id: string;
  replayed?: boolean;
}

/** The details of a thrown (rolled back) failure, as face.ts reads them. */
export interface OpFailureDetails {
  status: number;
  error: StripeErrorBody;
  request_id: string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic `req_` id for a call: a hash of the episode's seed, fixture and call number. */
export function requestIdOf(ctx: Ctx): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const text = `${ctx.instance.seed}:${ctx.instance.fixture ?? ''}:${ctx.call.index}`;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995);
  }
  let out = 'req_';
  for (let i = 0; i < 14; i++) {
    const h = i % 2 === 0 ? h1 : h2;
    out += BASE62[(h >>> ((i * 3) % 24)) % 62];
    if (i % 2 === 1) {
      h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d);
      h2 = Math.imul(h2 ^ (h2 >>> 13), 0x297a2d39);
    }
  }
  return out;
}

/** The fingerprint an idempotency key is stored with: the operation and its parameters. */
function fingerprint(id: string, input: OpInput): string {
  return JSON.stringify([id, input.path, input.params]);
}

/**
 * What every run of an operation does, from a request or a tool: check the parameters against its spec, run it, and
 * expand what `expand[]` names. A recorded failure (a declined card) is answered, not thrown.
 */
function perform(
  o: Pick<StripeOp, 'run' | 'checked' | 'readsClock'>,
  c: OpContext,
  params: Record<string, unknown>,
  path: Record<string, string>,
): { ok: true; body: Reply } | Failed {
  const checked = validate(o.checked, params) as Record<string, unknown> & { expand?: string[] };
  // The events it wrote go to the composed world's webhook handler when the outermost operation is done (webhooks.ts).
  // An operation on objects attached to a test clock runs on the clock's time (test-clocks.ts); one that reads no time
  // is the same on any clock.
  const out = withDeliveries(c.ctx, () =>
    o.run(o.readsClock === false ? c : onObjectsTime(c, checked, path), checked, path),
  );
  if (isFailed(out)) return out;
  // What an operation answers is read as JSON by whoever runs it (a reply, a tool, another operation).
  // Fields shown only on request (a price's `tiers`) leave the reply unless `expand[]` brings them back.
  const body = withoutHidden(out as Reply);
  return {
    ok: true,
    body: checked.expand?.length ? expandObject(c.ctx, body, checked.expand) : body,
  };
}

/**
 * The JSON text of results whose body `op`'s run serialized to store it under their idempotency key: the call log
 * records the same text around it rather than serializing the object once more (`Operation.json`).
 */
const resultJson = new WeakMap<OpResult, string>();

/** Define an operation. */
export function op<F extends Record<string, Spec>>(spec: StripeOpSpec<F>): StripeOp {
  const fields: Record<string, Spec> = { expand: p.arr(p.string()), ...spec.params };
  const checked = {
    run: spec.run as StripeOpSpec['run'],
    checked: fields,
    readsClock: spec.readsClock,
  };
  const operation = defineOperation<OpInput, OpResult>({
    name: spec.id,
    run(ctx, input) {
      const requestId = requestIdOf(ctx);
      try {
        const key = spec.method === 'POST' ? input.idempotency_key : null;
        if (key) {
          const stored = ctx.db.one<{
            fingerprint: string;
            status: number;
            body: string;
            request_id: string;
          }>(
            'SELECT fingerprint, status, body, request_id FROM idempotency_keys WHERE key = ?',
            key,
          );
          if (stored) {
            if (stored.fingerprint !== fingerprint(spec.id, input)) {
              throw new StripeError(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              });
            }
            return {
              status: stored.status,
              body: JSON.parse(stored.body),
              request_id: stored.request_id,
              replayed: true,
            };
          }
        }
        const c: OpContext = { ctx, version: input.version, requestId, idempotencyKey: key };
        const out = perform(checked, c, input.params, input.path);
        const result: OpResult = isFailed(out)
          ? { status: out.status, body: { error: out.error }, request_id: requestId }
          : { status: 200, body: out.body, request_id: requestId };
        if (key) {
          const body = JSON.stringify(result.body);
          ctx.db.run(
            'INSERT INTO idempotency_keys (key, fingerprint, status, body, request_id, created) VALUES (?, ?, ?, ?, ?, ?)',
            key,
            fingerprint(spec.id, input),
            result.status,
            body,
            requestId,
            Math.floor(ctx.clock.now() / 1000),
          );
          // JSON.stringify(result), its keys in the order the literal above gives them; nothing changes it from here on.
          resultJson.set(
            result,
            `{"status":${result.status},"body":${body},"request_id":${JSON.stringify(requestId)}}`,
          );
        }
        return result;
      } catch (e) {
        if (e instanceof StripeError) {
          (e.details as unknown as OpFailureDetails).request_id = requestId;
        }
        throw e;
      }
    },
    json: (result) => resultJson.get(result),
  });
  return { ...spec, operation, checked: fields };
}

let registry: Map<string, StripeOp> | undefined;

/** Give the operations to `runOp` (index.ts does, once). */
export function registerOps(ops: readonly StripeOp[]): void {
  registry = new Map(ops.map((o) => [o.id, o]));
}

/** The outcome of running an operation from a tool: the object, or Stripe's error. */
export type OpOutcome =
  | { ok: true; body: Reply }
  | { ok: false; status: number; message: string; error: Record<string, unknown> };

/**
 * Run operation `id` inside the current call, with `params` (already JSON-typed, as a tool's zod input gives them) and
 * path parameters: `perform` in a savepoint, so a Stripe error rolls back the operation's writes (a recorded failure,
 * a declined card, keeps them) and is answered as the outcome.
 */
export function runOp(
  ctx: Ctx,
  id: string,
  params: Record<string, unknown> = {},
  path: Record<string, string> = {},
): OpOutcome {
  const o = registry?.get(id);
  if (!o) throw new Error(`runOp: no operation ${id}; is it in operations.ts?`);
  const c: OpContext = {
    ctx,
    version: DEFAULT_API_VERSION,
    requestId: requestIdOf(ctx),
    idempotencyKey: null,
  };
  try {
    const out = ctx.db.transaction(() => perform(o, c, params, path));
    if (isFailed(out))
      return {
        ok: false,
        status: out.status,
        message: out.error.message,
        error: out.error as unknown as Record<string, unknown>,
      };
    return out;
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

/**
 * A reply read as the object its operation answers (`Stored<'customers'>` from `PostCustomers`): operations are kept
 * by id, not by the type each answers, so the caller that ran one names it.
 */
export function replyOf<T extends object>(body: Reply): T {
  // The reply is the object the operation's run returned, as JSON (perform).
  return body as unknown as T;
}

/** `runOp` for a tool: the object, or a ToolError reading `Stripe API error: …` with the operation to look up. */
export function toolOp(
  ctx: Ctx,
  id: string,
  params: Record<string, unknown> = {},
  path: Record<string, string> = {},
): Reply {
  const r = runOp(ctx, id, params, path);
  if (r.ok) return r.body;
  throw new ToolError(
    'stripe_api_error',
    `Stripe API error: ${r.message}\nUse stripe_api_details with stripe_api_operation_id: "${id}" to see all required and optional parameters.`,
    { status: r.status, error: r.error },
  );
}
