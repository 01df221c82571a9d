/**
 * A world's HTTP API ("face"): routes under a base path (Stripe World: `/v1`) that clients such as an official SDK
 * call directly. A request is routed outside any transaction to one operation and its input; the operation runs as a
 * call of the instance (one transaction, recorded in `callLog()` under the operation's name, its writes in
 * `changes()`, ids from the seeded streams, times from the world clock), and the outcome becomes the reply. So REST
 * traffic is graded, replayed and forked exactly like tool calls, and a tool and a route can share one operation.
 */
import type { Ctx } from './ctx.ts';
import { DefinitionError } from './errors.ts';
import type { ToolFailure } from './call-failure.ts';

/** One request as the face sees it: the path below the base path, the raw query string, lower-case headers, the body text. */
export interface FaceRequest {
  method: string;
  /** Below the base path, with a leading `/` (`/customers/cus_123` for `/v1/customers/cus_123`). */
  path: string;
  /** The raw query string without `?` (`''` for none). */
  query: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body as text (`''` for none). */
  body: string;
}

/** A reply: status, headers, and a body that is sent as JSON unless it is a string. */
export interface FaceReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** What `route` decides: run `operation` with `input` (JSON), or answer at once. */
export type FaceRoute = { operation: string; input: unknown } | { reply: FaceReply };

/** An operation: the unit a route runs as one call. Its name is what `callLog()` records. */
export interface Operation<I = any, R = unknown> {
  readonly name: string;
  run(ctx: Ctx, input: I): R;
  /**
   * The JSON text of a result `run` has just returned, exactly `JSON.stringify(result)`, where the operation already
   * holds it (it serialized the result's parts on the way, to store them); `undefined` leaves the serializing to the
   * kit. The call log records this text as the call's result, so it must be the result's JSON to the byte.
   */
  json?(result: R): string | undefined;
}

/** The outcome of an operation's call, as `reply` gets it. */
export type OperationOutcome = { ok: true; result: unknown } | { ok: false; error: ToolFailure };

/** What `defineHttpFace` takes. */
export interface HttpFaceSpec {
  /** Where the routes live, like `/v1`: `seahaven serve` answers them at the root and under `/<world>`. */
  basePath: string;
  /** The operations routes run; names are unique, any text (Stripe World uses operationIds such as `PostCustomers`). */
  operations: readonly Operation[];
  /**
   * The credential a request carries, which picks the instance it acts on: its key, or a reply that refuses the
   * request (a missing or malformed key). Runs before routing, outside any call.
   */
  credential(req: FaceRequest): { key: string } | { reply: FaceReply };
  /** A fresh well-formed key for a session, made from `token` (random text the server picks); sessions get it in their reset metadata. */
  issueKey(token: string): string;
  /** Map a request to one operation and its input, or answer it directly (an unknown URL, a malformed body). Pure: no clock, no state. */
  route(req: FaceRequest): FaceRoute;
  /** Turn an operation's outcome into the reply. Pure. */
  reply(
    outcome: OperationOutcome,
    req: FaceRequest,
    route: { operation: string; input: unknown },
  ): FaceReply;
  /**
   * A reply in the API's own error shape for what the server answers itself: a world bug (500), a body too large
   * (413), no access (401), the server at capacity or shutting down (503). Default: `{ error: { message } }`.
   */
  errorReply?(status: number, message: string): FaceReply;
}

/** A defined HTTP face. */
export interface HttpFace extends HttpFaceSpec {
  readonly operationsByName: ReadonlyMap<string, Operation>;
}

const BASE_PATH = /^\/[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

/**
 * Define an operation a route runs.
 * @example
 * const getBalance = defineOperation({ name: 'GetBalance', run: (ctx) => ctx.db.one('SELECT …') });
 */
export function defineOperation<I, R>(op: {
  name: string;
  run(ctx: Ctx, input: I): R;
  json?(result: R): string | undefined;
}): Operation<I, R> {
  if (typeof op?.name !== 'string' || op.name === '' || op.name.length > 128)
    throw new DefinitionError(
      `defineOperation: the name must be 1 to 128 characters, like "PostCustomers"; got ${JSON.stringify(op?.name)}`,
    );
  if (typeof op.run !== 'function')
    throw new DefinitionError(
      `defineOperation(${JSON.stringify(op.name)}): run must be a function (ctx, input) => result`,
    );
  if (op.json !== undefined && typeof op.json !== 'function')
    throw new DefinitionError(
      `defineOperation(${JSON.stringify(op.name)}): json, when given, must be a function (result) => its JSON text or undefined`,
    );
  return op.json === undefined
    ? { name: op.name, run: op.run }
    : { name: op.name, run: op.run, json: op.json };
}

/**
 * Define a world's HTTP face (the `http` option of `defineWorld`). Mistakes fail here, with a message naming the fix.
 * @example
 * http: defineHttpFace({ basePath: '/v1', operations, credential, issueKey, route, reply })
 */
export function defineHttpFace(spec: HttpFaceSpec): HttpFace {
  const where = 'defineHttpFace';
  if (typeof spec?.basePath !== 'string' || !BASE_PATH.test(spec.basePath)) {
    throw new DefinitionError(
      `${where}: basePath must be a path like "/v1" (no trailing slash); got ${JSON.stringify(spec?.basePath)}`,
    );
  }
  for (const f of ['credential', 'issueKey', 'route', 'reply'] as const) {
    if (typeof spec[f] !== 'function')
      throw new DefinitionError(`${where}: ${f} must be a function; see docs/http-apis.md`);
  }
  if (!Array.isArray(spec.operations) || spec.operations.length === 0)
    throw new DefinitionError(
      `${where}: operations must be a non-empty array of defineOperation(...) results`,
    );
  const byName = new Map<string, Operation>();
  for (const op of spec.operations) {
    if (typeof op?.name !== 'string' || typeof op.run !== 'function')
      throw new DefinitionError(`${where}: every operation must come from defineOperation(...)`);
    if (byName.has(op.name))
      throw new DefinitionError(
        `${where}: two operations are named "${op.name}"; names must be unique`,
      );
    byName.set(op.name, op);
  }
  return { ...spec, operationsByName: byName };
}

/** The face's reply for an error the server answers itself (see `errorReply`). */
export function faceError(face: HttpFace, status: number, message: string): FaceReply {
  return face.errorReply?.(status, message) ?? { status, body: { error: { message } } };
}

/**
 * Answer one request: route it, run its operation through `run` (one call of the instance), shape the reply. A throw
 * in `route` or `reply` is a world bug: `bug` logs it and names it, and the client gets the face's 500.
 */
export function answerRequest(
  face: HttpFace,
  req: FaceRequest,
  run: (operation: string, input: unknown) => OperationOutcome,
  bug: (context: string, e: unknown) => string,
): FaceReply {
  let route: FaceRoute;
  try {
    route = face.route(req);
    if ('reply' in route) return route.reply;
  } catch (e) {
    return faceError(face, 500, bug(`routing ${req.method} ${face.basePath}${req.path}`, e));
  }
  const outcome = run(route.operation, route.input);
  try {
    return face.reply(outcome, req, route);
  } catch (e) {
    return faceError(face, 500, bug(`replying to ${req.method} ${face.basePath}${req.path}`, e));
  }
}
