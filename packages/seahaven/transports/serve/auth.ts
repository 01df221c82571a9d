/** Bearer-token access: with a token set, every route and every WebSocket upgrade needs `Authorization: Bearer <token>`. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Refuse requests without the right bearer token (401 with a JSON `detail`). Compared in constant time.
 * @example
 * app.use('*', bearerToken(process.env.SEAHAVEN_TOKEN!));
 */
export function bearerToken(
  token: string,
  except: (path: string) => boolean = () => false,
): MiddlewareHandler {
  if (token === '')
    throw new Error('the token is empty; pass a non-empty --token or unset SEAHAVEN_TOKEN');
  const expected = digest(token);
  return async function requireBearerToken(c, next) {
    if (except(c.req.path)) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match === null || !timingSafeEqual(digest(match[1].trim()), expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="seahaven"');
      const why =
        match === null ? 'this server requires a bearer token' : 'the bearer token is wrong';
      return c.json(
        {
          detail: `${why}; send the header "Authorization: Bearer <token>" with the token the server was started with (--token or SEAHAVEN_TOKEN)`,
        },
        401,
      );
    }
    await next();
  };
}

/** Whether `value` is the server's token (constant time): how a world's HTTP face checks `X-Seahaven-Token`. */
export function tokenMatcher(token: string): (value: string | undefined) => boolean {
  const expected = digest(token);
  return (value) => value !== undefined && timingSafeEqual(digest(value.trim()), expected);
}
