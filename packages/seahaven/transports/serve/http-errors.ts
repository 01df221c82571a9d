/**
 * The HTTP routes' bodies and errors: a request's JSON object body read within its limits, and thrown errors as
 * responses in FastAPI's shapes (`{detail}` with the status it implies).
 */
import type { Context } from 'hono';
import { BodyAborted, BodyTimeout, BodyTooLarge, readBody, type BodyLimits } from './body.ts';
import type { Endpoint } from './endpoint.ts';
import { FrameError } from './errors.ts';
import { jsonTooDeep, tooDeepMessage } from './json-limits.ts';
import { CapacityError } from './sessions.ts';

/** A `{detail}` response with the given status. */
export const detail = (
  c: Context,
  status: 400 | 404 | 405 | 408 | 409 | 413 | 422 | 500 | 503,
  d: unknown,
  extra?: Record<string, unknown>,
) => c.json({ detail: d, ...extra }, status);

/** The response to a body that could not be read, or `undefined` for any other error. A late body also closes the connection. */
export function bodyError(c: Context, e: unknown): Response | undefined {
  if (e instanceof BodyTooLarge) return detail(c, 413, e.message);
  if (e instanceof BodyAborted) return detail(c, 400, e.message);
  if (e instanceof BodyTimeout) {
    c.header('Connection', 'close');
    return detail(c, 408, e.message);
  }
  return undefined;
}

/** A thrown error as an HTTP response in FastAPI's shapes. */
export function httpError(c: Context, e: unknown, ep: Endpoint): Response {
  if (e instanceof CapacityError)
    return detail(c, 503, e.message, {
      active_sessions: e.activeSessions,
      max_sessions: e.maxSessions,
    });
  const body = bodyError(c, e);
  if (body !== undefined) return body;
  const fe = ep.asFrameError(e);
  if (fe.code === 'VALIDATION_ERROR')
    return detail(
      c,
      422,
      fe.errors ?? [{ type: 'value_error', loc: ['body'], msg: fe.message, input: null }],
    );
  // A request the server did not finish because it is shutting down: 503, to be retried against a running server.
  if (fe.code === 'SESSION_ERROR' && ep.closing) {
    c.header('Retry-After', '1');
    return detail(c, 503, fe.message);
  }
  if (fe.code === 'SESSION_ERROR') return detail(c, 409, fe.message);
  if (fe.code === 'RESOURCE_EXHAUSTED')
    return detail(c, 503, fe.message, { code: fe.code, ...fe.extra });
  return detail(c, 500, fe.message);
}

/** A request's JSON object body (`{}` when empty), read within the limits; a `VALIDATION_ERROR` for anything else. */
export async function jsonBody(c: Context, limits: BodyLimits): Promise<Record<string, unknown>> {
  const text = await readBody(c.req.raw, limits);
  if (text.trim() === '') return {};
  if (jsonTooDeep(text)) {
    const msg = tooDeepMessage('body');
    throw new FrameError('VALIDATION_ERROR', msg, [
      { type: 'too_deep', loc: ['body'], msg, input: null },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FrameError('VALIDATION_ERROR', 'invalid JSON body', [
      {
        type: 'json_invalid',
        loc: ['body', 0],
        msg: `JSON decode error: ${(e as Error).message}`,
        input: {},
      },
    ]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FrameError('VALIDATION_ERROR', 'the body must be a JSON object', [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: value,
      },
    ]);
  }
  return value as Record<string, unknown>;
}
