/**
 * The one access check in front of every route and WebSocket upgrade. Without a token, a server is only as private as
 * the machine's loopback interface, and two browser tricks reach past that: DNS rebinding (a page on a foreign name
 * whose address turns into 127.0.0.1, so its requests carry that foreign `Host`) and cross-site requests (a page
 * elsewhere posting to `http://127.0.0.1:8000`, which the browser labels with the page's `Origin`). So without a token,
 * a request is refused (403) when its `Host` is not a loopback name or an allowed host, or when it carries an `Origin`
 * that is neither the server's own (its host:port is the request's `Host`) nor an allowed origin. With a token, the
 * token decides: a browser never attaches one on its own. Requests that change state (POST) must say their body is
 * JSON (415 otherwise), which a cross-site form or `text/plain` fetch cannot do without asking first.
 */
import type { Context, MiddlewareHandler } from 'hono';

export interface AccessOptions {
  /** With a token, `Host` and `Origin` are not checked (the bearer token is). */
  token?: string;
  /** `Host` names answered besides the loopback names: `name` (any port), `name:port`, or `'*'` for any. */
  allowedHosts?: readonly string[];
  /** Browser origins allowed besides the server's own, like `https://studio.example.com`; `'*'` for any. */
  allowedOrigins?: readonly string[];
  /** Paths whose writes take the API's own body type instead of JSON (a world's HTTP face: Stripe's form bodies). */
  ownBodyType?: (path: string) => boolean;
}

/** `localhost`, 127.0.0.0/8 and `[::1]`, the names of this machine's loopback interface. */
const LOOPBACK = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Whether `host` (a `Host` header or a bind address, with or without a port) names the loopback interface. */
export function isLoopbackHost(host: string): boolean {
  const name = hostnameOf(host.toLowerCase());
  return LOOPBACK.test(name) || name === '::1';
}

/** `example.com:8000` → `example.com`; `[::1]:8000` → `[::1]`. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 || host.indexOf(':') !== colon ? host : host.slice(0, colon);
}

/** An origin as browsers send it: lowercase, no trailing slash. */
function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}

/** Quote a client-supplied value for a message (and a header): printable ASCII only, at most 200 characters. */
function quoted(value: string): string {
  return JSON.stringify(value.slice(0, 200)).replace(/[^\x20-\x7e]/g, '?');
}

/** Whether a `Host` (lower case) passes the access guard's DNS rebinding check: loopback names and the allowed hosts. */
export function hostCheck(options: Pick<AccessOptions, 'allowedHosts'>): (host: string) => boolean {
  const hosts = new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()));
  const anyHost = hosts.has('*');
  return (host) =>
    anyHost || isLoopbackHost(host) || hosts.has(host) || hosts.has(hostnameOf(host));
}

/**
 * Make the check. Returns the reason a request is refused, with the status to send, or `undefined` to let it through.
 * @example
 * const check = accessCheck({ allowedHosts: ['my-space.hf.space'] });
 * check(new Request('http://evil.example/state')); // { status: 403, message: 'Host "evil.example" is not allowed …' }
 */
export function accessCheck(
  options: AccessOptions,
): (req: Request) => { status: 403 | 415; message: string } | undefined {
  const hosts = new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()));
  const origins = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
  const anyOrigin = origins.has('*');
  const checkSites = options.token === undefined;

  const hostAllowed = hostCheck(options);
  const originAllowed = (origin: string, host: string) => {
    const normal = normalizeOrigin(origin);
    if (anyOrigin || origins.has(normal)) return true;
    let url: URL;
    try {
      url = new URL(normal);
    } catch {
      // An opaque origin ("null", from a sandboxed frame or a file) has no host: only allowed when listed.
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.host === host) return true;
    // A Host header may spell out the default port that an origin leaves out.
    return url.port === '' && host === `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}`;
  };

  return function check(req: Request) {
    if (checkSites) {
      const host = (req.headers.get('host') ?? new URL(req.url).host).toLowerCase();
      if (!hostAllowed(host)) {
        const name = hostnameOf(host);
        return {
          status: 403,
          message: `Host ${quoted(host)} is not allowed (DNS rebinding protection): without a token this server answers only localhost, 127.0.0.1 and [::1]${hosts.size > 0 ? ` and ${[...hosts].join(', ')}` : ''}; if you reach it by that name on purpose, start it with --allow-host ${quoted(name).slice(1, -1)} (allowedHosts in startServer), or set a --token`,
        };
      }
      const origin = req.headers.get('origin');
      if (origin !== null && !originAllowed(origin, host)) {
        return {
          status: 403,
          message: `Origin ${quoted(origin)} is not allowed (cross-site request protection): without a token, browsers may only call this server from its own pages; to let that site in, start the server with --allow-origin ${quoted(normalizeOrigin(origin)).slice(1, -1)} (allowedOrigins in startServer), or set a --token`,
        };
      }
    }
    if (
      WRITES.has(req.method) &&
      !JSON_TYPE.test(req.headers.get('content-type') ?? '') &&
      !options.ownBodyType?.(new URL(req.url).pathname)
    ) {
      const sent = req.headers.get('content-type');
      return {
        status: 415,
        message: `${req.method} ${new URL(req.url).pathname} takes a JSON body: send the header "Content-Type: application/json" (${sent === null ? 'none was sent' : `got ${quoted(sent)}`})`,
      };
    }
    return undefined;
  };
}

const CORS_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, DELETE',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, X-Session-Id, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};

/**
 * The check as middleware: refusals are JSON (`{"detail": …}`, or a JSON-RPC error on `/mcp`) and carry the message in
 * an `X-Seahaven-Refused` header too, since a refused WebSocket upgrade shows the client nothing but headers. Origins
 * listed in `allowedOrigins` also get CORS answers (preflights, and `Access-Control-Allow-Origin` on replies), so a
 * front end served from one of them can call the server from the browser.
 * @example
 * app.use('*', accessGuard({ allowedHosts: ['my-space.hf.space'] }));
 */
export function accessGuard(options: AccessOptions): MiddlewareHandler {
  const check = accessCheck(options);
  const listed = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
  const corsFor = (origin: string | undefined) =>
    origin !== undefined && (listed.has('*') || listed.has(normalizeOrigin(origin)));
  return async function guardAccess(c: Context, next) {
    const refused = check(c.req.raw);
    if (refused === undefined) {
      const origin = c.req.header('origin');
      if (!corsFor(origin) || c.req.header('upgrade') !== undefined) return next();
      if (
        c.req.method === 'OPTIONS' &&
        c.req.header('access-control-request-method') !== undefined
      ) {
        return c.body(null, 204, {
          'Access-Control-Allow-Origin': origin!,
          Vary: 'Origin',
          ...CORS_HEADERS,
        });
      }
      await next();
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', 'Mcp-Session-Id');
      c.header('Vary', 'Origin');
      return;
    }
    c.header('X-Seahaven-Refused', refused.message.replace(/[^\x20-\x7e]/g, '?'));
    if (c.req.path === '/mcp' || c.req.path.endsWith('/mcp')) {
      return c.json(
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: refused.message } },
        refused.status,
      );
    }
    return c.json({ detail: refused.message }, refused.status);
  };
}
