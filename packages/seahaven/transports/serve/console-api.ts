/**
 * The console's JSON API, under `/console/api`: list worlds and sessions, open a session from a reset, call tools,
 * read the timeline, the changes and the tables, submit, fork and close. Sessions opened here are HTTP sessions of the
 * server's registry, so the capacity and the idle reaper apply; sessions of WebSocket and MCP clients can be watched
 * and forked but not driven, since their client owns the episode.
 */
import { Hono, type Context } from 'hono';
import { InstanceError } from '../../core/errors.ts';
import { createHostCheck } from '../mcp/host-check.ts';
import type { SeahavenApp } from './app.ts';
import { readRequestBody } from './body.ts';
import {
  browsableTables,
  sessionView,
  tableRows,
  timeline,
  worldView,
  type BrowsableTable,
} from './console-views.ts';
import type { Endpoint } from './endpoint.ts';
import { FrameError, resourceError } from './errors.ts';
import { bodyError } from './http.ts';
import { handedOver } from './cluster-protocol.ts';
import { parseAction } from './payload.ts';
import { parseReset } from './reset.ts';
import { CapacityError, type Session } from './sessions.ts';

/** Options of the console (`consoleRoutes(options)`). */
export interface ConsoleOptions {
  /**
   * Narrow the hosts the API answers below the server's own check (`allowedHosts` of `createApp`, which applies to every
   * route and is where hosts are allowed). Default: no narrowing.
   */
  allowedHosts?: readonly string[];
  /** Longest request body accepted, in bytes. Default: the server's (`maxBodyBytes`, 1 MiB). */
  maxBodyBytes?: number;
}

/** A refusal with its HTTP status and a message that names the fix. */
class ConsoleError extends Error {
  readonly status: 404 | 409 | 415 | 422;
  constructor(status: 404 | 409 | 415 | 422, message: string) {
    super(message);
    this.status = status;
  }
}

/** What the console remembers of the sessions it opened: they stay awake while someone looks at them. */
interface Opened {
  forkedFrom?: string;
}

type Status = 404 | 409 | 413 | 415 | 422 | 500 | 503;

function errorResponse(c: Context, e: unknown): Response {
  const reply = (status: Status, detail: unknown, extra?: Record<string, unknown>) =>
    c.json({ detail, ...extra }, status);
  if (e instanceof ConsoleError) return reply(e.status, e.message);
  if (e instanceof CapacityError)
    return reply(503, e.message, {
      active_sessions: e.activeSessions,
      max_sessions: e.maxSessions,
    });
  // A session whose clock advance runs in slices cannot be read until it is done.
  if (e instanceof InstanceError && e.code === 'advancing') return reply(409, e.message);
  const body = bodyError(c, e);
  if (body !== undefined) return body;
  const resource = resourceError(e);
  if (resource !== null)
    return reply(503, resource.message, { code: resource.code, ...resource.extra });
  if (e instanceof FrameError) {
    if (e.code === 'VALIDATION_ERROR')
      return reply(
        422,
        e.errors ?? [{ type: 'value_error', loc: ['body'], msg: e.message, input: null }],
      );
    if (e.code === 'SESSION_ERROR') return reply(409, e.message);
    if (e.code === 'RESOURCE_EXHAUSTED') return reply(503, e.message, { code: e.code, ...e.extra });
    return reply(500, e.message);
  }
  // Anything else is a server bug: the app's error handler logs it with its stack.
  throw e;
}

/**
 * The console API as a Hono app, mounted by `consoleRoutes` at `/console/api` behind the server's token.
 * @example
 * app.route('/console/api', consoleApi(server, { allowedHosts: ['*'] }));
 */
export function consoleApi(server: SeahavenApp, options: ConsoleOptions = {}): Hono {
  const limits = {
    ...server.limits,
    maxBodyBytes: options.maxBodyBytes ?? server.limits.maxBodyBytes,
  };
  const checkHost =
    options.allowedHosts === undefined
      ? undefined
      : createHostCheck({ allowedHosts: options.allowedHosts, allowedOrigins: ['*'] });
  const registry = server.sessions;
  const opened = new WeakMap<Session, Opened>();
  const tablesByWorld = new Map<string, Map<string, BrowsableTable>>();
  for (const [name, ep] of server.endpoints) tablesByWorld.set(name, browsableTables(ep.world));
  const worldsJson = JSON.stringify({ worlds: [...server.endpoints.values()].map(worldView) });

  const view = (s: Session) =>
    sessionView(s, { console: opened.has(s), forkedFrom: opened.get(s)?.forkedFrom });

  function endpointOf(name: unknown): Endpoint {
    const ep = typeof name === 'string' ? server.endpoints.get(name) : undefined;
    if (ep === undefined)
      throw new ConsoleError(
        404,
        `no world ${JSON.stringify(name ?? null)} is served here; the worlds are ${[...server.endpoints.keys()].join(', ')}`,
      );
    return ep;
  }

  function sessionOf(c: Context): { ep: Endpoint; s: Session } {
    const ep = endpointOf(c.req.param('world'));
    const id = c.req.param('id')!;
    const s = registry.get(ep, id);
    if (s === undefined || s.closed)
      throw new ConsoleError(
        404,
        `no open session "${id}" in ${ep.name}; it was closed, or reaped after being idle; open a new one`,
      );
    if (opened.has(s)) s.lastActive = performance.now();
    return { ep, s };
  }

  function drivable(c: Context): { ep: Endpoint; s: Session } {
    const found = sessionOf(c);
    if (found.s.owner !== 'http') {
      const who = found.s.owner === 'ws' ? 'a WebSocket client' : 'an MCP client';
      throw new ConsoleError(
        409,
        `session ${found.s.id} belongs to ${who}; the console can watch it but not drive it; fork it or open your own session`,
      );
    }
    return found;
  }

  async function jsonBody(c: Context): Promise<Record<string, unknown>> {
    // A JSON content type makes cross-site form posts impossible: browsers must ask first, and nobody answers.
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      throw new ConsoleError(
        415,
        'send the body as JSON with the header "Content-Type: application/json"',
      );
    }
    const text = await readRequestBody(c, limits);
    let value: unknown;
    try {
      value = text.trim() === '' ? {} : JSON.parse(text);
    } catch (e) {
      throw new ConsoleError(422, `the body is not JSON: ${(e as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new ConsoleError(422, 'the body must be a JSON object');
    return value as Record<string, unknown>;
  }

  const api = new Hono();
  api.use('*', async function consoleGuard(c, next) {
    const refused = checkHost?.(c.req.raw);
    if (refused !== undefined) {
      const why =
        ((await refused.json()) as { error?: { message?: string } }).error?.message ??
        'this host is not allowed';
      return c.json(
        {
          detail: `${why} (consoleRoutes({ allowedHosts }) narrows the console's hosts; allow a host on the whole server with --allow-host or createApp({ allowedHosts }))`,
        },
        403,
      );
    }
    await next();
    c.header('Cache-Control', 'no-store');
  });
  const route = (fn: (c: Context) => Response | Promise<Response>) => async (c: Context) => {
    try {
      return await fn(c);
    } catch (e) {
      return errorResponse(c, e);
    }
  };

  // In a `--workers` server, a session's routes are answered by the worker that holds it (its id names it).
  const cluster = server.cluster;
  if (cluster !== undefined) {
    const toOwner = async (c: Context, next: () => Promise<void>) => {
      const owner = cluster.ownerOf(c.req.param('id') ?? '');
      if (owner === cluster.slot || handedOver(c)) return next();
      return cluster.forward(
        c.req.raw,
        owner,
        c.req.method === 'GET' || c.req.method === 'HEAD' ? null : undefined,
      );
    };
    api.use('/sessions/:world/:id', toOwner);
    api.use('/sessions/:world/:id/*', toOwner);
  }

  api.get('/worlds', (c) => c.body(worldsJson, 200, { 'content-type': 'application/json' }));

  api.get('/sessions', async (c) => {
    const views: ReturnType<typeof view>[] = [...registry.list()]
      .filter((s) => !s.closed)
      .map(view);
    if (cluster !== undefined && !handedOver(c)) {
      // Every worker's sessions: each other worker answers with its own.
      const others = await Promise.all(
        cluster.peers().map(async (p) => {
          const res = await cluster.forward(c.req.raw, p.worker, null);
          return res.ok
            ? ((await res.json()) as { sessions: ReturnType<typeof view>[] }).sessions
            : [];
        }),
      );
      views.push(...others.flat());
    }
    views.sort((a, b) => Date.parse(String(a.created_at)) - Date.parse(String(b.created_at)));
    return c.json({
      sessions: views,
      max_sessions: registry.maxSessions,
      idle_timeout_ms: registry.idleTimeoutMs,
    });
  });

  api.post(
    '/sessions',
    route(async (c) => {
      const { world, ...reset } = await jsonBody(c);
      const ep = endpointOf(world);
      const req = parseReset(reset, 'body');
      const s = ep.openSession('http');
      opened.set(s, {});
      try {
        await ep.run(s, () => ep.reset(s, req, 'body'));
      } catch (e) {
        registry.end(s, 'close');
        throw e;
      }
      return c.json({ session: view(s) }, 201);
    }),
  );

  api.get(
    '/sessions/:world/:id',
    route((c) => c.json({ session: view(sessionOf(c).s) })),
  );

  api.delete(
    '/sessions/:world/:id',
    route((c) => {
      const { s } = drivable(c);
      registry.end(s, 'close');
      return c.json({ closed: s.id });
    }),
  );

  api.get(
    '/sessions/:world/:id/timeline',
    route((c) => c.json({ calls: timeline(sessionOf(c).s) })),
  );

  api.get(
    '/sessions/:world/:id/changes',
    route((c) => c.json({ changes: sessionOf(c).s.inst.changes() })),
  );

  api.get(
    '/sessions/:world/:id/tables/:table',
    route((c) => {
      const { ep, s } = sessionOf(c);
      const name = c.req.param('table')!;
      const table = tablesByWorld.get(ep.name)!.get(name);
      if (table === undefined)
        throw new ConsoleError(
          404,
          `world ${ep.name} has no table "${name}"; its tables are ${[...tablesByWorld.get(ep.name)!.keys()].join(', ')}`,
        );
      return c.json(
        tableRows(s, table, {
          offset: c.req.query('offset'),
          limit: c.req.query('limit'),
          sort: c.req.query('sort'),
          dir: c.req.query('dir'),
        }),
      );
    }),
  );

  api.post(
    '/sessions/:world/:id/calls',
    route(async (c) => {
      const { ep, s } = drivable(c);
      const action = parseAction({ type: 'call_tool', ...(await jsonBody(c)) }, ['body']);
      const call = await ep.run(s, () => {
        ep.act(s, action, ['body']);
        return timeline(s).at(-1);
      });
      return c.json({ call, session: view(s) });
    }),
  );

  // Time passes in the episode: the world's onClockAdvance (Stripe World's billing) runs as a recorded call.
  api.post(
    '/sessions/:world/:id/advance',
    route(async (c) => {
      const { ep, s } = drivable(c);
      const action = parseAction({ type: 'advance_clock', ...(await jsonBody(c)) }, ['body']);
      const call = await ep.run(s, () => {
        ep.act(s, action, ['body']);
        return timeline(s).at(-1);
      });
      return c.json({ call, session: view(s) });
    }),
  );

  api.post(
    '/sessions/:world/:id/submit',
    route(async (c) => {
      const { ep, s } = drivable(c);
      // The console is a person's tool, not the agent's channel: it shows the whole grade, names and reasons included.
      const payload = await ep.run(s, () => ep.act(s, { type: 'submit' }, ['body'], true));
      const { observation, reward } = JSON.parse(payload.toString()) as {
        observation: { grade: unknown };
        reward: number;
      };
      return c.json({ grade: observation.grade, reward, session: view(s) });
    }),
  );

  // Any session can be forked, a watched one included: the fork is the console's, the original goes on untouched.
  api.post(
    '/sessions/:world/:id/fork',
    route(async (c) => {
      const { ep, s } = sessionOf(c);
      const fork = await ep.run(s, () => {
        registry.ensureRoom();
        ep.admitFork(s.inst);
        const f = s.fork(registry.newId(), 'http');
        registry.add(f);
        return f;
      });
      opened.set(fork, { forkedFrom: s.id });
      return c.json({ session: view(fork) }, 201);
    }),
  );

  return api;
}
