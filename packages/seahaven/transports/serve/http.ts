/**
 * The HTTP routes of one world: health and self-description, session-aware `/reset`, `/step` and `/state` (by
 * `X-Session-Id`, defaulting to one shared session), and OpenEnv JSON-RPC on `POST /mcp`.
 */
import type { Context, Hono } from 'hono';
import type { McpSessionHost } from '../mcp/http.ts';
import type { ClusterRouter } from './cluster.ts';
import { handedOver } from './cluster-protocol.ts';
import { BodyTooLarge, readBody, type BodyLimits } from './body.ts';
import { FrameError, type ErrorItem } from './errors.ts';
import { bodyError, detail, httpError, jsonBody } from './http-errors.ts';
import { jsonTooDeep, tooDeepMessage } from './json-limits.ts';
import { metadataOf, openApiOf, schemaOf } from './openapi.ts';
import { RPC, parseAction } from './payload.ts';
import { parseReset } from './reset.ts';
import { handleRpc, routedSessionId, rpcError } from './rpc.ts';
import { sharedOverHttp, type Session } from './sessions.ts';

// The other routes read bodies and answer their errors as these do.
export { bodyError, jsonBody };
import type { Endpoint } from './endpoint.ts';
import type { World } from '../../core/world.ts';

/**
 * Serves MCP Streamable HTTP on a world's `/mcp` (the `mcpHttp` option of `createApp`): gets requests with
 * `Mcp-Session-Id`, `initialize` calls, and `GET`/`DELETE`; OpenEnv JSON-RPC gets the rest. `world` is the world
 * whose route the request came in on. A POST's body is already read, checked and parsed (`parsedBody`) and still
 * readable. `sessions` counts MCP sessions in the server's registry; `accessChecked` says the server's Host, Origin
 * and Content-Type check has passed. The handler `createMcpHttpHandler` returns fits.
 */
export type McpHttpRoute = (
  request: Request,
  options: { world: World; parsedBody?: unknown; sessions: McpSessionHost; accessChecked: true },
) => Response | Promise<Response>;

export interface HttpOptions {
  limits: BodyLimits;
  mcpHttp?: McpHttpRoute;
  /** In a worker of `seahaven serve --workers N`: requests for another worker's sessions are handed over to it. */
  cluster?: ClusterRouter;
}

/**
 * In a `--workers` server, the owner's answer to a request for session `id` when another worker owns it (`body`: the
 * text already read, or null for none); undefined when the session is this worker's, or the request was handed over.
 */
function handOver(
  c: Context,
  cluster: ClusterRouter | undefined,
  id: string,
  body: string | null,
): Promise<Response> | undefined {
  if (cluster === undefined || handedOver(c)) return undefined;
  const owner = cluster.ownerOf(id);
  return owner === cluster.slot ? undefined : cluster.forward(c.req.raw, owner, body);
}

/** The session a JSON-RPC request names in `params.session_id`, whatever its method (for the hand-over). */
function rpcSessionId(msg: unknown): string | undefined {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const params = (msg as { params?: unknown }).params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const id = (params as { session_id?: unknown }).session_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * MCP Streamable HTTP in a `--workers` server: its session ids carry the worker's tag on the wire (`w1-<id>`), which
 * the owner takes off before the MCP handler sees it and puts on the id the handler answers with.
 */
function mcpTagged(
  req: Request,
  cluster: ClusterRouter | undefined,
  body: string | undefined,
): Request {
  const id = req.headers.get('mcp-session-id');
  if (cluster === undefined || id === null || !id.startsWith(cluster.tag))
    return body === undefined
      ? req
      : new Request(req.url, { method: req.method, headers: req.headers, body });
  const headers = new Headers(req.headers);
  headers.set('mcp-session-id', id.slice(cluster.tag.length));
  return new Request(req.url, {
    method: req.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

function mcpTag(
  res: Response | Promise<Response>,
  cluster: ClusterRouter | undefined,
): Response | Promise<Response> {
  if (cluster === undefined) return res;
  return Promise.resolve(res).then((r) => {
    const id = r.headers.get('mcp-session-id');
    if (id === null || id.startsWith(cluster.tag)) return r;
    const headers = new Headers(r.headers);
    headers.set('mcp-session-id', cluster.tag + id);
    return new Response(r.body, { status: r.status, statusText: r.statusText, headers });
  });
}

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The header a trainer's `/reset` or `/step` carries the grader token in (beside the reset key `grader_token`). */
const GRADER_TOKEN_HEADER = 'X-Seahaven-Grader-Token';
const JSON_HEADERS = { 'content-type': 'application/json' };

function sessionIdOf(c: Context, body?: Record<string, unknown>): string {
  const id =
    c.req.header('x-session-id') ?? body?.session_id ?? c.req.query('session_id') ?? 'default';
  if (typeof id !== 'string' || !SESSION_ID.test(id)) {
    const item: ErrorItem = {
      type: 'string_pattern_mismatch',
      loc: ['body', 'session_id'],
      msg: `a session id is 1 to 128 characters of ${SESSION_ID.source.slice(1, -7)}`,
      input: id,
    };
    throw new FrameError('VALIDATION_ERROR', item.msg, [item]);
  }
  return id;
}

/** An HTTP session by id; the shared `default` one is opened on first use, others only by `/reset`. */
function httpSession(ep: Endpoint, id: string): Session {
  const s = ep.registry.get(ep, id);
  if (s !== undefined) {
    if (!sharedOverHttp(s))
      throw new FrameError(
        'SESSION_ERROR',
        `session ${id} belongs to ${s.owner === 'ws' ? 'a WebSocket connection; drive it over that socket' : 'an MCP client; drive it over its MCP session'}`,
      );
    return s;
  }
  if (id !== 'default')
    throw new FrameError('VALIDATION_ERROR', `no session "${id}"`, [
      {
        type: 'value_error',
        loc: ['header', 'X-Session-Id'],
        msg: `no session "${id}"; POST /reset with X-Session-Id: ${id} first`,
        input: id,
      },
    ]);
  return ep.openSession('http', id);
}

/** MCP Streamable HTTP sessions of an endpoint, counted and listed with every other session of the server. */
function mcpSessionHost(ep: Endpoint, tag: string): McpSessionHost {
  return {
    ensureRoom() {
      if (ep.closing)
        throw new FrameError(
          'SESSION_ERROR',
          'the server is shutting down; reconnect to another server',
        );
      ep.registry.ensureRoom();
      ep.admitFixture('open an MCP session', ep.defaultFixture);
    },
    open(id, instance, end) {
      // Listed under the id its client sees (with the worker's tag in a `--workers` server).
      const s = ep.adoptSession('mcp-http', tag + id, instance);
      s.onEnd = () => end();
      const key = ep.faceKeyOf(s);
      return {
        touch: () => void (s.lastActive = performance.now()),
        close: () => ep.registry.end(s, 'close'),
        // The MCP client's counterpart of a reset's metadata.api_key: how code the agent writes reaches this session.
        ...(key === undefined
          ? {}
          : {
              instructions: `This session's key for the world's HTTP API (base path ${ep.world.http!.basePath} on this server): ${key}`,
            }),
      };
    },
  };
}

function isInitialize(msg: unknown): boolean {
  if (Array.isArray(msg)) return msg.some(isInitialize);
  return (
    msg !== null && typeof msg === 'object' && (msg as { method?: unknown }).method === 'initialize'
  );
}

/**
 * Add a world's HTTP routes to `app` (mounted by the caller under `/` and `/<world>`).
 * @example
 * const app = new Hono(); httpRoutes(app, endpoint, { maxBodyBytes: 1 << 20 });
 */
export function httpRoutes(app: Hono, ep: Endpoint, options: HttpOptions): void {
  const limits = options.limits;
  const mcpHttp = options.mcpHttp;
  const cluster = options.cluster;
  const sessions = mcpSessionHost(ep, cluster?.tag ?? '');
  const metadata = metadataOf(ep);
  const schema = schemaOf(ep);

  app.get('/health', (c) =>
    c.json(
      cluster === undefined
        ? { status: 'healthy' }
        : cluster.health(ep.registry.used, ep.registry.maxSessions),
    ),
  );
  app.get('/metadata', (c) => c.json(metadata));
  app.get('/schema', (c) => c.json(schema));
  app.get('/openapi.json', (c) =>
    c.json(openApiOf(ep, c.req.path.slice(0, -'/openapi.json'.length))),
  );

  app.post('/reset', async (c) => {
    let created: Session | undefined;
    try {
      const body = await jsonBody(c, limits);
      const id = sessionIdOf(c, body);
      const other = handOver(c, cluster, id, JSON.stringify(body));
      if (other !== undefined) return await other;
      const req = parseReset(body, 'body', 'session_id');
      const header = c.req.header(GRADER_TOKEN_HEADER);
      if (header !== undefined && req.grader_token === undefined) req.grader_token = header;
      const s =
        ep.registry.get(ep, id) !== undefined
          ? httpSession(ep, id)
          : (created = ep.openSession('http', id));
      const payload = await ep.run(s, () => ep.reset(s, req, 'body'));
      return c.body(payload, 200, JSON_HEADERS);
    } catch (e) {
      // A session opened for a reset that was then refused would only wait for the reaper.
      if (created !== undefined) ep.registry.end(created, 'close');
      return httpError(c, e, ep);
    }
  });

  app.post('/step', async (c) => {
    try {
      const body = await jsonBody(c, limits);
      if (body.action === undefined) {
        throw new FrameError('VALIDATION_ERROR', 'action is required', [
          {
            type: 'missing',
            loc: ['body', 'action'],
            msg: 'Field required: send {"action": {"type": "call_tool", "tool_name": "…", "arguments": {…}}}',
            input: body,
          },
        ]);
      }
      const id = sessionIdOf(c, body);
      const other = handOver(c, cluster, id, JSON.stringify(body));
      if (other !== undefined) return await other;
      const where = ['body', 'action'];
      const action = parseAction(body.action, where);
      // The grader token on a step opens whole grades for that step's grade or submit.
      const whole = ep.graderAccess(c.req.header(GRADER_TOKEN_HEADER), [
        'header',
        GRADER_TOKEN_HEADER,
      ]);
      const s = httpSession(ep, id);
      const payload = await ep.run(s, () => ep.step(s, action, where, whole));
      return c.body(payload, 200, JSON_HEADERS);
    } catch (e) {
      return httpError(c, e, ep);
    }
  });

  app.get('/state', async (c) => {
    try {
      const id = sessionIdOf(c);
      const other = handOver(c, cluster, id, null);
      if (other !== undefined) return await other;
      const s = httpSession(ep, id);
      return c.body(await ep.run(s, () => ep.stateJson(s)), 200, JSON_HEADERS);
    } catch (e) {
      return httpError(c, e, ep);
    }
  });

  app.post('/mcp', async (c) => {
    const req = c.req.raw;
    let text: string;
    try {
      text = await readBody(req, limits);
    } catch (e) {
      if (e instanceof BodyTooLarge) return c.json(rpcError(null, RPC.INVALID_REQUEST, e.message));
      const refused = bodyError(c, e);
      if (refused !== undefined) return refused;
      throw e;
    }
    if (jsonTooDeep(text))
      return c.json(
        rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: ${tooDeepMessage('request')}`),
      );
    let msg: unknown;
    let parseError: string | undefined;
    try {
      if (text.trim() === '') throw new Error('the body is empty; send a JSON-RPC 2.0 request');
      msg = JSON.parse(text);
    } catch (e) {
      parseError = `Parse error: ${(e as Error).message}`;
    }
    const mcpId = req.headers.get('mcp-session-id');
    if (mcpHttp && (mcpId !== null || (parseError === undefined && isInitialize(msg)))) {
      const other = mcpId === null ? undefined : handOver(c, cluster, mcpId, text);
      if (other !== undefined) return other;
      // The body was read here (with the size limit and deadline); the handler gets it parsed, and readable again.
      const again = mcpTagged(req, cluster, text);
      return mcpTag(
        mcpHttp(again, {
          world: ep.world,
          ...(parseError === undefined ? { parsedBody: msg } : {}),
          sessions,
          accessChecked: true,
        }),
        cluster,
      );
    }
    if (parseError !== undefined) return c.json(rpcError(null, RPC.PARSE, parseError));
    const named = rpcSessionId(msg);
    const other = named === undefined ? undefined : handOver(c, cluster, named, text);
    if (other !== undefined) return other;
    const routed = routedSessionId(msg);
    if (routed === undefined) return c.body(handleRpc(ep, msg, null, 'http'), 200, JSON_HEADERS);
    const id = (msg as { id?: unknown }).id;
    const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
    const s = ep.registry.get(ep, routed);
    if (s === undefined || !sharedOverHttp(s))
      return c.json(rpcError(rpcId, RPC.INVALID_PARAMS, `Unknown session_id: ${routed}`));
    try {
      return c.body(await ep.run(s, () => handleRpc(ep, msg, s, 'http')), 200, JSON_HEADERS);
    } catch (e) {
      return c.json(rpcError(rpcId, RPC.SERVER, ep.asFrameError(e).message));
    }
  });

  app.on(['GET', 'DELETE'], '/mcp', (c) => {
    if (mcpHttp) {
      const mcpId = c.req.header('mcp-session-id');
      const other = mcpId === undefined ? undefined : handOver(c, cluster, mcpId, null);
      if (other !== undefined) return other;
      return mcpTag(
        mcpHttp(mcpTagged(c.req.raw, cluster, undefined), {
          world: ep.world,
          sessions,
          accessChecked: true,
        }),
        cluster,
      );
    }
    c.header('Allow', 'POST');
    return detail(
      c,
      405,
      'POST JSON-RPC requests to /mcp (tools/list, tools/call, openenv/session/create|close); MCP Streamable HTTP is not enabled on this server',
    );
  });
}
