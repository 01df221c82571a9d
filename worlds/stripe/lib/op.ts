/**
 * Stripe operations: one per API endpoint (method + path), named by its OpenAPI operationId. `op()` wraps an
 * operation's own logic in what every endpoint shares: parameter checks, idempotency keys, `expand[]`, the request
 * id, and the reply envelope. The kit runs each as one call of the instance (see face.ts).
 */
import { defineOperation, type Ctx, type Operation } from '../../../kit/index.ts';
import { StripeError, isFailed, type Failed, type StripeErrorBody } from './errors.ts';
import { expandObject } from './expand.ts';
import { validate, p, type Spec } from './params.ts';
import type { Obj } from './store.ts';
import { deliverDue } from './webhooks.ts';

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

export interface StripeOpSpec<P = any> {
  /** The OpenAPI operationId, like `PostCustomers`. */
  id: string;
  method: Method;
  /** With `{param}` placeholders, like `/v1/customers/{customer}`. */
  path: string;
  /** The endpoint's parameters besides `expand` (added for every endpoint). */
  params: Record<string, Spec>;
  run(c: OpContext, params: P, path: Record<string, string>): Obj | Failed;
}

export interface StripeOp extends StripeOpSpec {
  readonly operation: Operation<OpInput, OpResult>;
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

/** Define an operation. */
export function op<P = any>(spec: StripeOpSpec<P>): StripeOp {
  const fields: Record<string, Spec> = { expand: p.arr(p.string()), ...spec.params };
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
        const params = validate(fields, input.params) as Record<string, unknown> & {
          expand?: string[];
        };
        const c: OpContext = { ctx, version: input.version, requestId, idempotencyKey: key };
        const out = spec.run(c, params as P, input.path);
        // Webhooks to the composed world's handler, for the events this request made (lib/webhooks.ts).
        deliverDue(ctx, Math.floor(ctx.clock.now() / 1000));
        let result: OpResult;
        if (isFailed(out)) {
          result = { status: out.status, body: { error: out.error }, request_id: requestId };
        } else {
          result = {
            status: 200,
            body: params.expand?.length ? expandObject(ctx, out, params.expand) : out,
            request_id: requestId,
          };
        }
        if (key) {
          ctx.db.run(
            'INSERT INTO idempotency_keys (key, fingerprint, status, body, request_id, created) VALUES (?, ?, ?, ?, ?, ?)',
            key,
            fingerprint(spec.id, input),
            result.status,
            JSON.stringify(result.body),
            requestId,
            Math.floor(ctx.clock.now() / 1000),
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
  });
  return { ...spec, operation };
}
