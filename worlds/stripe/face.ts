/**
 * Stripe World's HTTP face: `/v1/...` as the official SDKs call it. The secret key (`Authorization: Bearer sk_test_…`,
 * or HTTP Basic with the key as user name) picks the instance; form bodies with bracket keys are decoded in one pass
 * (lib/form.ts); replies carry `Request-Id`, `Stripe-Version` and the idempotency headers; errors use Stripe's envelope and codes.
 */
import { defineHttpFace, type FaceReply, type FaceRequest, type HttpFace } from 'seahaven';
import type { StripeFailureDetails } from './lib/errors.ts';
import { decodeForm, FormError } from './lib/form.ts';
import {
  DEFAULT_API_VERSION,
  type OpFailureDetails,
  type OpInput,
  type OpResult,
  type StripeOp,
} from './lib/op.ts';

const KEY = /^(sk|rk)_test_[A-Za-z0-9_]{1,247}$/;

function errorReply(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): FaceReply {
  return {
    status,
    headers: { 'Stripe-Version': DEFAULT_API_VERSION, ...headers },
    body: { error: { type: 'invalid_request_error', message, ...extra } },
  };
}

/**
 * A call the server's limits refused (`resource_exhausted`, its message naming the limit and the option that sets it),
 * in Stripe's envelope with that code. Past the episode's database limit the request itself is what does not fit:
 * 400 `invalid_request_error`, which the SDK raises at once. Refused by the memory budget, the request was fine and the
 * server is full: 503 `api_error`. Neither is retried (`Stripe-Should-Retry: false`, which the SDK obeys before its
 * rule of retrying 409s and 5xx), since the same request fails the same way until someone writes less or raises a limit.
 */
function exhaustedReply(
  error: { message: string; details?: Record<string, unknown> },
  headers: Record<string, string>,
): FaceReply {
  const server = error.details?.option === '--max-memory';
  return {
    status: server ? 503 : 400,
    headers,
    body: {
      error: {
        type: server ? 'api_error' : 'invalid_request_error',
        code: 'resource_exhausted',
        message: error.message,
      },
    },
  };
}

function masked(key: string): string {
  return key.length <= 12
    ? key
    : `${key.slice(0, 8)}${'*'.repeat(Math.min(key.length - 12, 24))}${key.slice(-4)}`;
}

/** The key a request carries, or Stripe's 401. */
export function credentialOf(
  headers: Readonly<Record<string, string>>,
  body = '',
): { key: string } | { reply: FaceReply } {
  const bodyKey = publishableKeyInBody(headers, body);
  if (bodyKey !== undefined) return keyOf(`Bearer ${bodyKey}`);
  const auth = headers.authorization;
  if (auth === undefined || auth.trim() === '') {
    return {
      reply: errorReply(
        401,
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      ),
    };
  }
  return authOf(auth).credential;
}

/** What an Authorization header says: the key it carries (or the 401), and whether that key is a publishable one. */
interface Auth {
  credential: { key: string } | { reply: FaceReply };
  publishable: boolean;
}

/**
 * Headers already read, by their text: a server sees the same few keys on request after request, and reading one is
 * several regular expressions (and a base64 decoding for Basic). Forgotten all at once when it holds `AUTH_CACHE` of
 * them; only well-formed keys are kept (a refusal is built afresh each time).
 */
const authCache = new Map<string, Auth>();
const AUTH_CACHE = 1024;

function authOf(auth: string): Auth {
  const known = authCache.get(auth);
  if (known !== undefined) return known;
  const read: Auth = { credential: keyOf(auth), publishable: publishableAuth(auth) };
  if ('key' in read.credential) {
    if (authCache.size >= AUTH_CACHE) authCache.clear();
    authCache.set(auth, read);
  }
  return read;
}

/** The key an Authorization header's text carries, or Stripe's 401. */
function keyOf(auth: string): { key: string } | { reply: FaceReply } {
  let key: string;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  const basic = bearer ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth);
  if (bearer) key = bearer[1];
  else if (basic) key = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  else
    return {
      reply: errorReply(
        401,
        'Invalid API Key provided: the Authorization header must be "Bearer sk_test_…" or HTTP Basic with the key as user name.',
      ),
    };
  if (/^sk_live_|^rk_live_/.test(key))
    return {
      reply: errorReply(
        401,
        `Invalid API Key provided: ${masked(key)}. Stripe World is test mode only: use a key that starts with sk_test_.`,
      ),
    };
  if (/^pk_live_/.test(key))
    return {
      reply: errorReply(
        401,
        `Invalid API Key provided: ${masked(key)}. Stripe World is test mode only: use a key that starts with pk_test_.`,
      ),
    };
  // A publishable key acts on the account whose secret key has the same tail (pk_test_X: sk_test_X's); `route`
  // lets it make only the calls Stripe lets one make.
  const publishable = /^pk_test_/.test(key);
  const secret = publishable ? `sk_test_${key.slice('pk_test_'.length)}` : key;
  if (!KEY.test(secret))
    return { reply: errorReply(401, `Invalid API Key provided: ${masked(key)}`) };
  return { key: secret };
}

/**
 * What a publishable key (what Stripe.js sends) may call: a payment or setup intent, retrieved or confirmed with its
 * client secret. Anything else is Stripe's 403.
 */
const PUBLISHABLE = new Set([
  'GetPaymentIntentsIntent',
  'PostPaymentIntentsIntentConfirm',
  'GetSetupIntentsIntent',
  'PostSetupIntentsIntentConfirm',
]);

/** What a publishable key may call without a client secret: creating a card token, as Stripe.js does. */
const PUBLISHABLE_OPEN = new Set(['PostTokens']);

/**
 * The publishable key a form body carries as `key` when there is no Authorization header: Stripe.js sends it so, and
 * Stripe accepts it.
 */
function publishableKeyInBody(
  headers: Readonly<Record<string, string>>,
  body: string,
): string | undefined {
  if ((headers.authorization ?? '').trim() !== '') return undefined;
  const m = /(?:^|&)key=(pk_(?:test|live)_[A-Za-z0-9_]*)(?:&|$)/.exec(body);
  return m ? m[1] : undefined;
}

function isPublishable(headers: Readonly<Record<string, string>>, body: string): boolean {
  if (publishableKeyInBody(headers, body) !== undefined) return true;
  const auth = headers.authorization;
  return auth !== undefined && auth.trim() !== '' && authOf(auth).publishable;
}

/** Whether an Authorization header's text carries a publishable test key (Bearer, or Basic with it as user name). */
function publishableAuth(auth: string): boolean {
  if (/^Bearer\s+pk_test_/i.test(auth)) return true;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth);
  return basic !== null && Buffer.from(basic[1], 'base64').toString('utf8').startsWith('pk_test_');
}

interface CompiledRoute {
  op: StripeOp;
  pattern: RegExp;
  names: string[];
  /** Literal segments count: a literal path (`/customers/search`) wins over a placeholder (`/customers/{customer}`). */
  literals: number;
}

function compile(op: StripeOp): CompiledRoute {
  const names: string[] = [];
  const below = op.path.replace(/^\/v1/, '');
  let literals = 0;
  const source = below
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m) {
        names.push(m[1]);
        return '([^/]+)';
      }
      if (seg !== '') literals++;
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  // No trailing slash: api.stripe.com answers `/v1/subscriptions/` (an empty id, as a client with a blank variable
  // sends it) with 404 Unrecognized request URL, rather than as the collection.
  return { op, pattern: new RegExp(`^${source}$`), names, literals };
}

/**
 * A reply as api.stripe.com writes it: JSON indented with two spaces and ended with a newline, as
 * `application/json`. Clients that print or diff raw replies see the same text as from Stripe.
 */
function wire(reply: FaceReply): FaceReply {
  return {
    status: reply.status,
    headers: { 'Content-Type': 'application/json', ...reply.headers },
    body: JSON.stringify(reply.body, null, 2) + '\n',
  };
}

/** The first segment of a path below `/v1` (`customers` for `/customers/cus_1/balance_transactions`). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** Which routes may match a request: its method, its first segment and how many segments it has. */
function shapeOf(method: string, path: string): string {
  let segments = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) segments++;
  return `${method} ${firstSegment(path)} ${segments}`;
}

/** Build the face over the operations. */
export function stripeFace(ops: readonly StripeOp[]): HttpFace {
  const face = plainFace(ops);
  return {
    ...face,
    credential: (req) => {
      const found = face.credential(req);
      return 'reply' in found ? { reply: wire(found.reply) } : found;
    },
    route: (req) => {
      const route = face.route(req);
      return 'reply' in route ? { reply: wire(route.reply) } : route;
    },
    reply: (outcome, req, route) => wire(face.reply(outcome, req, route)),
    errorReply: (status, message) => wire(face.errorReply!(status, message)),
  };
}

/** The face with replies as objects; `stripeFace` writes them out. */
function plainFace(ops: readonly StripeOp[]): HttpFace {
  const all = ops.map(compile).sort((a, b) => b.literals - a.literals);
  // Every route's first segment is literal, and each of its segments matches one segment of a path, so a request is
  // matched only against the routes of its method with its first segment and its number of segments (in the same
  // order), instead of against all 155: a route of another method is passed over when it matches anyway.
  const byShape = new Map<string, CompiledRoute[]>();
  for (const r of all) {
    const below = r.op.path.replace(/^\/v1/, '');
    if (firstSegment(below).startsWith('{'))
      throw new Error(
        `stripeFace: ${r.op.id} (${r.op.path}) starts with a placeholder; routes are looked up by their first segment`,
      );
    const shape = shapeOf(r.op.method, below);
    byShape.set(shape, [...(byShape.get(shape) ?? []), r]);
  }
  // A path without placeholders (`POST /customers`) is found by its text: no route that comes before it in that order
  // can match it (a match with as many literal segments is the same path), so it is the one the walk would find.
  const literal = new Map<string, CompiledRoute>();
  for (const r of all) {
    const key = `${r.op.method} ${r.op.path.replace(/^\/v1/, '')}`;
    if (r.names.length === 0 && !literal.has(key)) literal.set(key, r);
  }
  return defineHttpFace({
    basePath: '/v1',
    operations: ops.map((o) => o.operation),
    credential: (req) =>
      credentialOf(req.headers, req.method.toUpperCase() === 'POST' ? req.body : ''),
    issueKey: (token) => `sk_test_${token.replace(/[^A-Za-z0-9]/g, '').slice(0, 64)}`,
    route(req: FaceRequest) {
      const method = req.method.toUpperCase();
      const exact = literal.get(`${method} ${req.path}`);
      for (const r of exact !== undefined
        ? [exact]
        : (byShape.get(shapeOf(method, req.path)) ?? [])) {
        const m = r.pattern.exec(req.path);
        if (!m) continue;
        const path: Record<string, string> = {};
        try {
          for (let i = 0; i < r.names.length; i++) path[r.names[i]] = decodeURIComponent(m[i + 1]);
        } catch {
          // A malformed %-escape cannot name any object.
          return {
            reply: errorReply(
              404,
              `Unrecognized request URL (${method}: /v1${req.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
            ),
          };
        }
        const text = method === 'POST' ? (req.body !== '' ? req.body : req.query) : req.query;
        let params: Record<string, unknown>;
        try {
          params = decodeForm(text);
        } catch (e) {
          if (e instanceof FormError)
            return {
              reply: errorReply(400, e.message, e.param === undefined ? {} : { param: e.param }),
            };
          throw e;
        }
        const keyInBody =
          method === 'POST' && publishableKeyInBody(req.headers, req.body) !== undefined;
        if (keyInBody) delete params.key;
        const input: OpInput = {
          params,
          path,
          version: req.headers['stripe-version'] || DEFAULT_API_VERSION,
          idempotency_key: method === 'POST' ? (req.headers['idempotency-key'] ?? null) : null,
        };
        if (input.idempotency_key !== null && input.idempotency_key.length > 255) {
          return {
            reply: errorReply(
              400,
              'Idempotency-Key is longer than 255 characters; use a shorter key (a UUID works).',
              { param: 'Idempotency-Key' },
            ),
          };
        }
        if (
          isPublishable(req.headers, method === 'POST' ? req.body : '') &&
          !PUBLISHABLE_OPEN.has(r.op.id) &&
          !(PUBLISHABLE.has(r.op.id) && typeof params.client_secret === 'string')
        )
          return {
            reply: errorReply(
              403,
              'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
            ),
          };
        return { operation: r.op.id, input };
      }
      return {
        reply: errorReply(
          404,
          `Unrecognized request URL (${method}: /v1${req.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        ),
      };
    },
    reply(outcome, req, route) {
      const input = route.input as OpInput;
      const headers: Record<string, string> = { 'Stripe-Version': input.version };
      if (input.idempotency_key !== null) headers['Idempotency-Key'] = input.idempotency_key;
      if (outcome.ok) {
        const r = outcome.result as OpResult;
        headers['Request-Id'] = r.request_id;
        if (r.replayed) headers['Idempotent-Replayed'] = 'true';
        return { status: r.status, headers, body: r.body };
      }
      const details = outcome.error.details as OpFailureDetails | undefined;
      if (outcome.error.code === 'stripe_error' && details) {
        headers['Request-Id'] = details.request_id;
        return {
          status: (details as StripeFailureDetails).status,
          headers,
          body: { error: details.error },
        };
      }
      headers['Stripe-Should-Retry'] = 'false';
      if (outcome.error.code === 'resource_exhausted')
        return exhaustedReply(outcome.error, headers);
      // A world bug: Stripe's api_error, not retried (the same request fails the same way).
      return {
        status: 500,
        headers,
        body: {
          error: {
            type: 'api_error',
            message: `An error occurred with our connection to Stripe World (${outcome.error.message}).`,
          },
        },
      };
    },
    errorReply(status, message) {
      // Not retried: the SDK retries 409s and 5xx unless told otherwise, and these answers would not change.
      const type = status >= 500 ? 'api_error' : 'invalid_request_error';
      const text =
        status === 500
          ? `An error occurred with our connection to Stripe World (${message}).`
          : message;
      return {
        status,
        headers: { 'Stripe-Should-Retry': 'false', 'Stripe-Version': DEFAULT_API_VERSION },
        body: { error: { type, message: text } },
      };
    },
  });
}
