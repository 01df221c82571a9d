/**
 * MCP Streamable HTTP for a world, as a Web-standard `(req: Request) => Promise<Response>` handler that any Hono (or
 * fetch-style) server can mount. Each `initialize` starts a session keyed by `Mcp-Session-Id` with its own instance;
 * later requests carrying that header reach it, `DELETE` ends it, and idle sessions are reaped. Responses are plain
 * JSON (tool calls are synchronous, so there is nothing to stream), and `GET` is answered 405: the server never sends
 * notifications of its own.
 *
 * The same path may also serve OpenEnv's plain JSON-RPC: `isMcpRequest` tells the two apart.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Instance } from '../../core/instance.ts';
import type { World } from '../../core/world.ts';
import { logInternal } from '../serve/errors.ts';
import { createHostCheck } from './host-check.ts';
import type {
  McpHandleOptions,
  McpHttpHandler,
  McpHttpOptions,
  McpSessionHost,
  McpSessionLease,
} from './http-options.ts';
import { isInitialize, readJson, rpcError } from './http-wire.ts';
import {
  createWorldServer,
  openInstance,
  resetFromObject,
  resetFromQuery,
  rpcErrorOf,
  type McpResetOptions,
} from './server.ts';

export type {
  McpHandleOptions,
  McpHttpHandler,
  McpHttpOptions,
  McpSessionHost,
  McpSessionLease,
} from './http-options.ts';
export { isMcpRequest } from './http-wire.ts';

interface Session {
  id: string;
  world: World;
  instance: Instance;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  lease: McpSessionLease | undefined;
}

const SESSION_NOT_FOUND = -32001;

/**
 * Make the Streamable HTTP handler. Reset options come from the query string (`/mcp?fixture=small_startup&seed=7`) and
 * from `initialize` under `params.capabilities.experimental.seahaven` (`{fixture, seed, clock, now, task, submit_tool}`).
 * @example
 * const mcp = createMcpHttpHandler({ world: crm, defaults: { fixture: 'small_startup' } });
 * app.all('/mcp', (c) => mcp(c.req.raw));
 * // on shutdown: await mcp.close();
 */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const worldOption = options.world;
  const resolveWorld: (req: Request) => World | undefined =
    typeof worldOption === 'function' ? worldOption : () => worldOption;
  const defaults = options.defaults ?? {};
  const idleTimeoutMs = options.idleTimeoutMs ?? 15 * 60_000;
  const logger = options.logger ?? ((line: string) => console.error(line));
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const checkHost = createHostCheck(options);
  const startInstance =
    options.startInstance ??
    ((world: World, reset: McpResetOptions) =>
      openInstance(world, reset, { logger: options.logger, slowCallMs: options.slowCallMs }));
  const sessions = new Map<string, Session>();
  let reaper: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  function drop(id: string): void {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    s.lease?.close();
    s.instance.destroy();
    void s.server.close();
    if (sessions.size === 0 && reaper !== undefined) {
      clearInterval(reaper);
      reaper = undefined;
    }
  }

  function armReaper(): void {
    if (reaper !== undefined || idleTimeoutMs <= 0) return;
    reaper = setInterval(
      () => {
        const cutoff = Date.now() - idleTimeoutMs;
        for (const s of [...sessions.values()]) if (s.lastSeen <= cutoff) drop(s.id);
      },
      Math.max(10, Math.min(idleTimeoutMs / 2, 60_000)),
    );
    reaper.unref?.();
  }

  async function startSession(
    req: Request,
    world: World,
    init: JSONRPCRequest,
    host: McpSessionHost | undefined,
  ): Promise<Response | { session: Session }> {
    const maxSessions = options.maxSessions ?? (host === undefined ? 256 : Infinity);
    if (sessions.size >= maxSessions) {
      return rpcError(
        200,
        init.id,
        -32000,
        `capacity reached: ${sessions.size} of ${maxSessions} MCP sessions are open; end one with DELETE or raise maxSessions`,
        {
          code: 'CAPACITY_REACHED',
          active_sessions: sessions.size,
          max_sessions: maxSessions,
        },
      );
    }
    try {
      host?.ensureRoom();
    } catch (e) {
      return hostRefusal(init.id, e);
    }
    let reset: McpResetOptions;
    let instance: Instance;
    try {
      const experimental = (
        init.params as { capabilities?: { experimental?: Record<string, unknown> } } | undefined
      )?.capabilities?.experimental?.seahaven;
      reset = {
        ...defaults,
        ...resetFromQuery(new URL(req.url).searchParams),
        ...(experimental === undefined
          ? {}
          : resetFromObject(experimental, 'initialize params.capabilities.experimental.seahaven')),
      };
      instance = startInstance(world, reset, req);
    } catch (e) {
      const error = rpcErrorOf(e);
      // An internal failure's message can name files on the server: the client gets a reference to the log instead.
      if (error.code === ErrorCode.InternalError)
        return rpcError(
          200,
          init.id,
          error.code,
          `the instance could not start: ${logInternal(logger, 'starting an MCP session', e)}`,
          error.data,
        );
      return rpcError(200, init.id, error.code, error.message, error.data);
    }
    const id = crypto.randomUUID();
    let lease: McpSessionLease | undefined;
    try {
      lease = host?.open(id, instance, () => drop(id));
    } catch (e) {
      instance.destroy();
      return hostRefusal(init.id, e);
    }
    const server = createWorldServer(world, () => instance, {
      task: reset.task,
      instructions: lease?.instructions,
      submitTool: reset.submit_tool,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessionclosed: drop,
    });
    const session: Session = {
      id,
      world,
      instance,
      server,
      transport,
      lastSeen: Date.now(),
      lease,
    };
    sessions.set(id, session);
    armReaper();
    await server.connect(transport);
    return { session };
  }

  /** The JSON-RPC error for a host that refused a session: capacity, memory, or a shutdown. */
  function hostRefusal(id: JSONRPCRequest['id'], e: unknown): Response {
    const full = e as { activeSessions?: unknown; maxSessions?: unknown; message?: unknown };
    if (typeof full?.activeSessions === 'number' && typeof full.maxSessions === 'number') {
      return rpcError(200, id, -32000, String(full.message), {
        code: 'CAPACITY_REACHED',
        active_sessions: full.activeSessions,
        max_sessions: full.maxSessions,
      });
    }
    const memory = e as { neededMb?: unknown; availableMb?: unknown; message?: unknown };
    if (typeof memory?.neededMb === 'number' && typeof memory.availableMb === 'number') {
      return rpcError(200, id, -32000, String(memory.message), {
        code: 'RESOURCE_EXHAUSTED',
        needed_mb: memory.neededMb,
        available_mb: memory.availableMb,
        option: '--max-memory',
      });
    }
    return rpcError(
      200,
      id,
      -32000,
      e instanceof Error ? e.message : logInternal(logger, 'opening an MCP session', e),
    );
  }

  async function handleMcp(req: Request, handleOptions?: McpHandleOptions): Promise<Response> {
    if (closed) return rpcError(503, null, -32000, 'the MCP endpoint is shutting down');
    const refused = handleOptions?.accessChecked === true ? undefined : checkHost(req);
    if (refused) return refused;
    const world = resolveWorld(req);
    if (world === undefined)
      return rpcError(404, null, -32000, `no world is served at ${new URL(req.url).pathname}`);
    if (req.method === 'GET')
      return rpcError(
        405,
        null,
        -32000,
        'this server sends no notifications, so it offers no GET event stream; POST requests instead',
        undefined,
        { Allow: 'POST, DELETE' },
      );
    if (req.method !== 'POST' && req.method !== 'DELETE')
      return rpcError(
        405,
        null,
        -32000,
        `method ${req.method} is not allowed; use POST (or DELETE to end a session)`,
        undefined,
        { Allow: 'POST, DELETE' },
      );

    let body = handleOptions?.parsedBody;
    if (req.method === 'POST' && body === undefined) {
      const read = await readJson(req, maxBodyBytes);
      if (read instanceof Response) return read;
      body = read.value;
    }

    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const s = sessions.get(sessionId);
      if (s === undefined || s.world !== world)
        return rpcError(
          404,
          null,
          SESSION_NOT_FOUND,
          'Session not found: it ended or was reaped; start a new one with initialize',
        );
      s.lastSeen = Date.now();
      s.lease?.touch();
      return s.transport.handleRequest(req, { parsedBody: body });
    }
    if (req.method === 'DELETE')
      return rpcError(
        400,
        null,
        -32000,
        'Bad Request: DELETE needs the Mcp-Session-Id header of the session to end',
      );
    if (Array.isArray(body) && body.some(isInitialize))
      return rpcError(
        400,
        null,
        -32600,
        'Invalid Request: send initialize on its own, not in a batch',
      );
    if (!isInitialize(body))
      return rpcError(
        400,
        null,
        -32000,
        'Bad Request: Mcp-Session-Id header is required; start a session with initialize',
      );

    const started = await startSession(req, world, body, handleOptions?.sessions);
    if (started instanceof Response) return started;
    const response = await started.session.transport.handleRequest(req, { parsedBody: body });
    // The transport refused the handshake itself (a wrong Accept or Content-Type): no session came of it.
    if (started.session.transport.sessionId === undefined) drop(started.session.id);
    return response;
  }

  return Object.assign(handleMcp, {
    activeSessions: () => sessions.size,
    async close() {
      closed = true;
      for (const id of [...sessions.keys()]) drop(id);
    },
  });
}
