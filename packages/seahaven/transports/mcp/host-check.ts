/**
 * DNS rebinding protection for local servers: a web page on a foreign site can make a browser resolve its own name to
 * 127.0.0.1 and talk to a local server, but it cannot forge the `Host` header, and the browser adds its `Origin`.
 * Requests whose `Host` is not an allowed name, or whose `Origin` (when sent) is not an allowed site, are refused.
 */

export interface HostCheckOptions {
  /** Allowed `Host` values: a name (`localhost`, any port) or `name:port`; `'*'` allows any. Default: `localhost`, `127.0.0.1`, `[::1]`. */
  allowedHosts?: readonly string[];
  /** Allowed `Origin` values besides `http(s)://<allowed host>`, e.g. `https://studio.example.com`; `'*'` allows any. Default: none. */
  allowedOrigins?: readonly string[];
}

/** The hosts a server on the loopback interface answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Make a check that returns a 403 `Response` for a request from a foreign host or origin, and `undefined` otherwise.
 * @example
 * const check = createHostCheck({ allowedHosts: [...LOOPBACK_HOSTS, 'my-space.hf.space'] });
 * app.use('/mcp', async (c, next) => check(c.req.raw) ?? next());
 */
export function createHostCheck(
  options: HostCheckOptions = {},
): (req: Request) => Response | undefined {
  const hosts = new Set((options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()));
  const origins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));
  const anyHost = hosts.has('*');
  const anyOrigin = origins.has('*');
  const hostAllowed = (host: string) => anyHost || hosts.has(host) || hosts.has(hostnameOf(host));

  return function checkHost(req: Request): Response | undefined {
    const host = (req.headers.get('host') ?? new URL(req.url).host).toLowerCase();
    if (!hostAllowed(host)) {
      return forbidden(
        `Host ${JSON.stringify(host)} is not allowed (DNS rebinding protection); connect through ${[...hosts].join(', ')} or add the host to allowedHosts`,
      );
    }
    const origin = req.headers.get('origin')?.toLowerCase();
    if (origin === undefined || anyOrigin || origins.has(origin)) return undefined;
    let originHost: string | null = null;
    try {
      const url = new URL(origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') originHost = url.host;
    } catch {
      // An opaque origin such as "null" has no host; it is only allowed when listed.
    }
    if (originHost === null || !hostAllowed(originHost)) {
      return forbidden(
        `Origin ${JSON.stringify(origin)} is not allowed (DNS rebinding protection); add it to allowedOrigins`,
      );
    }
    return undefined;
  };
}

/** `example.com:8000` → `example.com`; `[::1]:8000` → `[::1]`. */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function forbidden(message: string): Response {
  return Response.json(
    { jsonrpc: '2.0', id: null, error: { code: -32000, message } },
    { status: 403 },
  );
}
