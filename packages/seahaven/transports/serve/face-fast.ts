/**
 * The HTTP face's requests answered straight off Node's request and response, before Hono sees them. Through Hono, a
 * `POST /v1/customers` of Stripe World spent about a third of its server time on the web framework (a WHATWG Request
 * around Node's, routing through every world's routes, middleware, a Response, several promise hops); answered here it
 * served 35 to 50% more requests per second on the same machine.
 *
 * Only plain requests take this path, and they get the same answer as through Hono (face-routes.ts; a test holds the
 * two to it): a face path in a plain form (no dot segments, nothing WHATWG URL parsing would rewrite), a `Host` the
 * access guard allows, no `Origin` (browsers' requests keep the guard's CORS handling), and a server that is not a
 * worker of `--workers N` (whose requests may be handed to another worker). Everything else goes to Hono untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaceReply, FaceRequest } from '../../core/http-face.ts';
import { readIncoming } from './body.ts';
import { logInternal } from './errors.ts';
import {
  answerWithKey,
  bodyFailure,
  credentialOf,
  headersOf,
  replyParts,
  type FaceTarget,
} from './face-routes.ts';

/** A path as WHATWG URL parsing leaves it: unreserved and sub-delimiter characters, `:`, `@`, `/` and %-escapes. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/]*$/;
/** A query as WHATWG URL parsing leaves it (for http: no space, quote, apostrophe, `<`, `>` or `#`, nothing above ASCII). */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@%/?[\]{}|^`\\]*$/;
/** A dot segment, literal or %-escaped, which URL parsing would remove. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)|%2e/i;

export interface FaceFastPathOptions {
  /** Each face's target by the path prefix it answers under (`/v1`, `/stripe/v1`). */
  targets: ReadonlyMap<string, FaceTarget>;
  /** Whether a `Host` passes the access guard; null when the server has a token (Host is not checked then). */
  hostAllowed: ((host: string) => boolean) | null;
}

/** A request listener that answers plain face requests and returns true, or returns false and leaves the request alone. */
export function faceFastPath(
  options: FaceFastPathOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const prefixes = [...options.targets.keys()].sort((a, b) => b.length - a.length);
  // Clients send the same Host on request after request: the last one's verdict is kept (the check is pure).
  let lastHost = '';
  let lastAllowed = false;
  const allowed = (host: string): boolean => {
    if (host !== lastHost) {
      lastAllowed = options.hostAllowed!(host.toLowerCase());
      lastHost = host;
    }
    return lastAllowed;
  };
  return (incoming, res) => {
    const url = incoming.url ?? '';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    let prefix: string | undefined;
    for (const p of prefixes) {
      if (pathname.startsWith(p) && (pathname.length === p.length || pathname[p.length] === '/')) {
        prefix = p;
        break;
      }
    }
    if (prefix === undefined || !PLAIN_PATH.test(pathname) || DOT_SEGMENT.test(pathname))
      return false;
    // HEAD gets no body from Hono, OPTIONS is a browser's preflight: both stay with Hono.
    if (incoming.method === 'HEAD' || incoming.method === 'OPTIONS') return false;
    const query = q === -1 ? '' : url.slice(q + 1);
    if (query !== '' && !PLAIN_QUERY.test(query)) return false;
    const h = incoming.headers;
    if (h.origin !== undefined || h.upgrade !== undefined) return false;
    const host = h.host;
    if (options.hostAllowed !== null && (host === undefined || !allowed(host))) return false;
    const target = options.targets.get(prefix)!;
    void answer(target, incoming, res, pathname, pathname.slice(prefix.length) || '/', query);
    return true;
  };
}

async function answer(
  t: FaceTarget,
  incoming: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  path: string,
  query: string,
): Promise<void> {
  const face = t.keys.face;
  const method = incoming.method ?? 'GET';
  try {
    let body = '';
    if (method !== 'GET') {
      try {
        body = await readIncoming(incoming, method, () => pathname, t.options.limits);
      } catch (e) {
        return write(res, bodyFailure(face, e));
      }
    }
    const req: FaceRequest = { method, path, query, headers: headersOf(incoming.rawHeaders), body };
    const credential = credentialOf(t, req, pathname);
    write(
      res,
      'reply' in credential
        ? credential.reply
        : await answerWithKey(t, credential.key, req, pathname),
    );
  } catch (e) {
    // Nothing above throws but a body failure it does not know; answered as Hono's error handler would.
    if (!res.headersSent) {
      const text = JSON.stringify({
        detail: logInternal(t.options.logger, `on ${method} ${pathname}`, e),
      });
      res.writeHead(500, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    }
  }
}

function write(res: ServerResponse, reply: FaceReply): void {
  const { status, head, body } = replyParts(reply);
  if (res.destroyed) return;
  const length = String(Buffer.byteLength(body));
  // A content-length the face gave is replaced where it stands, as the framing's own.
  let at = 0;
  while (at < head.length && head[at] !== 'content-length') at += 2;
  head[at] = 'content-length';
  head[at + 1] = length;
  res.writeHead(status, head);
  res.end(body);
}
