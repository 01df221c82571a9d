/**
 * A world's HTTP face on the server (packages/seahaven/core/http-face.ts): `<basePath>/*` under `/<world>`, and at the root for the
 * first world that has a face, so an SDK pointed at the server's host and port needs no other setting.
 *
 * The credential the face reads off a request picks the session: every session of a world with a face is issued a
 * key (the reset observation's `metadata.api_key`), so code an agent writes during an episode acts on that
 * episode's instance. A well-formed key bound to no session opens a session of its own on the default fixture (one
 * account per key), seeded from the key (`keySeed`), counted against `--max-sessions`, ended by the idle timeout like
 * any other. Requests run in the session's turn, after its earlier ones, through the same scheduler as every other
 * transport.
 */
import { IncomingMessage } from 'node:http';
import type { Context, Hono } from 'hono';
import {
  faceError,
  type FaceReply,
  type FaceRequest,
  type HttpFace,
} from '../../core/http-face.ts';
import {
  BodyAborted,
  BodyTimeout,
  BodyTooLarge,
  readRequestBody,
  type BodyLimits,
} from './body.ts';
import type { Endpoint } from './endpoint.ts';
import { keySeed, type FaceKeys } from './face-keys.ts';
import { CapacityError } from './sessions.ts';
import type { ClusterRouter } from './cluster.ts';
import { handedOver } from './cluster-protocol.ts';
import { FrameError, MemoryRefusal, logInternal } from './errors.ts';

/**
 * The reply as it goes on the wire: header names in lower case and in order (as a WHATWG `Headers` gives them, without
 * building one), a content type when the face set none, the body as text. `head` is the headers as Node's `writeHead`
 * takes them, a flat list of names and values.
 */
export function replyParts(reply: FaceReply): {
  status: number;
  head: string[];
  body: string;
} {
  const given = reply.headers ?? {};
  const entries: [string, string][] = [];
  for (const name in given)
    if (Object.hasOwn(given, name)) entries.push([name.toLowerCase(), String(given[name])]);
  // A stable sort keeps the values of names that differ only in case in the order they were given.
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const head: string[] = [];
  let contentType = false;
  for (let i = 0; i < entries.length; i++) {
    const [name, value] = entries[i];
    const last = head.length - 1;
    if (i > 0 && entries[i - 1][0] === name)
      head[last] = head[last] === '' ? value : head[last] + ', ' + value;
    else head.push(name, value);
    if (name === 'content-type') contentType = true;
  }
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  if (!contentType)
    head.push(
      'content-type',
      typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    );
  return { status: reply.status, head, body };
}

function send(c: Context, reply: FaceReply): Response {
  const { status, head, body } = replyParts(reply);
  const headers: Record<string, string> = {};
  for (let i = 0; i < head.length; i += 2) headers[head[i]] = head[i + 1];
  return c.body(body, status as 200, headers);
}

/**
 * A request's headers by lower-case name, duplicates joined with ", ", as `Headers.forEach` gives them. Under the Node
 * server they are read off Node's raw header list, which spares building a WHATWG `Headers` for every request.
 */
function requestHeaders(c: Context): Record<string, string> {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage)) {
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => (headers[k] = v));
    return headers;
  }
  return headersOf(incoming.rawHeaders);
}

/** `requestHeaders` off Node's raw header list (`IncomingMessage.rawHeaders`). */
export function headersOf(raw: readonly string[]): Record<string, string> {
  if (raw.length > 2 * FEW_HEADERS) return manyHeadersOf(raw);
  // A request has a handful of headers: names and values in two short lists, a repeated name found by a scan and the
  // names put in order by insertion, where a Map and a sort of the names cost more than the work itself.
  const names: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1].trim();
    const seen = names.indexOf(name);
    if (seen !== -1) {
      values[seen] = values[seen] + ', ' + value;
      continue;
    }
    let at = names.length;
    while (at > 0 && names[at - 1] > name) {
      names[at] = names[at - 1];
      values[at] = values[at - 1];
      at--;
    }
    names[at] = name;
    values[at] = value;
  }
  const headers: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) headers[names[i]] = values[i];
  return headers;
}

/** Past this many header lines, `headersOf` keeps them in a Map and sorts the names once. */
const FEW_HEADERS = 32;

function manyHeadersOf(raw: readonly string[]): Record<string, string> {
  const names: string[] = [];
  const values = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1].trim();
    const seen = values.get(name);
    if (seen === undefined) names.push(name);
    values.set(name, seen === undefined ? value : seen + ', ' + value);
  }
  const headers: Record<string, string> = {};
  for (const name of names.sort()) headers[name] = values.get(name)!;
  return headers;
}

/** How a world's face is served: body limits, where bugs are logged, the server token, the cluster. */
export interface FaceRouteOptions {
  limits: BodyLimits;
  logger: (line: string) => void;
  /** With a server token: whether a request carries it (`X-Seahaven-Token`). Null without one. */
  serverToken: ((value: string | undefined) => boolean) | null;
  /** In a worker of `seahaven serve --workers N`: a key another worker owns is handed over to it. */
  cluster?: ClusterRouter;
}

/** A world's face as the server answers it: its endpoint, the keys that pick sessions, and the route options. */
export interface FaceTarget {
  ep: Endpoint;
  keys: FaceKeys;
  options: FaceRouteOptions;
}

/** The reply to a body that could not be read, or the error to rethrow. */
export function bodyFailure(face: HttpFace, e: unknown): FaceReply {
  if (e instanceof BodyTooLarge) return faceError(face, 413, e.message);
  if (e instanceof BodyTimeout) {
    // The rest of a late body is not waited for: the connection closes once the 408 is sent, as on every other route.
    const reply = faceError(face, 408, e.message);
    return { ...reply, headers: { ...reply.headers, connection: 'close' } };
  }
  if (e instanceof BodyAborted) return faceError(face, 400, e.message);
  throw e;
}

/** The credential of a request: its key, or the reply that refuses it (a face bug reading it is a 500). */
export function credentialOf(
  t: FaceTarget,
  req: FaceRequest,
  pathname: string,
): { key: string } | { reply: FaceReply } {
  const face = t.keys.face;
  try {
    return face.credential(req);
  } catch (e) {
    return {
      reply: faceError(
        face,
        500,
        logInternal(t.options.logger, `reading the credential of ${req.method} ${pathname}`, e),
      ),
    };
  }
}

/** Answer a request whose credential is `key` on the key's session (opened for a key the server never issued). */
export async function answerWithKey(
  t: FaceTarget,
  key: string,
  req: FaceRequest,
  pathname: string,
): Promise<FaceReply> {
  const { ep, keys } = t;
  const { logger, serverToken } = t.options;
  const face = keys.face;
  // Behind a server token, a key the server issued is itself the proof of access (it was handed out behind the
  // token); any other key needs the token beside it on every request, since the Authorization header carries the key
  // and whoever chose it may not be the only one to know it.
  if (serverToken !== null && !keys.issued(key) && !serverToken(req.headers['x-seahaven-token'])) {
    return faceError(
      face,
      401,
      'this server requires its token: send "X-Seahaven-Token: <token>" (the --token or SEAHAVEN_TOKEN it was started with) with every request that bears a key the server did not issue, or use the api_key a session was issued in its reset metadata',
    );
  }
  let session = keys.sessionOf(key);
  try {
    if (session === undefined) {
      // One account per key: a key the server never issued gets a session of its own, seeded from the key, so no two
      // accounts draw the same ids and a key's account replays on any server.
      session = ep.openSession('http-key', undefined, 0, keySeed(key));
      keys.bind(key, session);
    }
    const s = session;
    s.lastActive = performance.now();
    return await ep.run(s, () => s.inst.request(req));
  } catch (e) {
    const known =
      e instanceof CapacityError || e instanceof FrameError || e instanceof MemoryRefusal;
    return faceError(
      face,
      known ? 503 : 500,
      known ? (e as Error).message : logInternal(logger, `on ${req.method} ${pathname}`, e),
    );
  }
}

/**
 * Answer `<basePath>/*` of `ep`'s world on `app`, wherever `app` is mounted (`/stripe/v1/...`, or `/v1/...` at the
 * root): the face's path is what follows the base path.
 */
export function faceRoutes(
  app: Hono,
  ep: Endpoint,
  keys: FaceKeys,
  options: FaceRouteOptions,
): void {
  const { limits, cluster } = options;
  const face = keys.face;
  const target: FaceTarget = { ep, keys, options };
  const handler = async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    const at = url.pathname.indexOf(face.basePath);
    const rest = url.pathname.slice(at + face.basePath.length);
    const headers = requestHeaders(c);
    let body = '';
    try {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
        body = await readRequestBody(c, limits);
      }
    } catch (e) {
      return send(c, bodyFailure(face, e));
    }
    const req: FaceRequest = {
      method: c.req.method,
      path: rest === '' ? '/' : rest,
      query: url.search.replace(/^\?/, ''),
      headers,
      body,
    };
    const credential = credentialOf(target, req, url.pathname);
    if ('reply' in credential) return send(c, credential.reply);
    if (cluster !== undefined && !handedOver(c)) {
      // One key, one account, on the worker the key's hash picks (the keys a worker issues hash to itself).
      const owner = cluster.ownerOfKey(credential.key);
      if (owner !== cluster.slot)
        return cluster.forward(
          c.req.raw,
          owner,
          c.req.method === 'GET' || c.req.method === 'HEAD' ? null : body,
        );
    }
    return send(c, await answerWithKey(target, credential.key, req, url.pathname));
  };
  app.all(`${face.basePath}`, handler);
  app.all(`${face.basePath}/*`, handler);
}
