/** The Hono app of a Seahaven server: every world's routes, under `/<world>` and (for the first world) at the root. */
import { Hono } from 'hono';
import { checkSlowCallMs } from '../../core/call-timing.ts';
import type { World } from '../../core/world.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessGuard, hostCheck } from './access.ts';
import { faceFastPath } from './face-fast.ts';
import { bearerToken, tokenMatcher } from './auth.ts';
import type { ClusterRouter } from './cluster.ts';
import { WORKER_HEADER } from './cluster-protocol.ts';
import { rateLimited, type BodyLimits } from './body.ts';
import { logInternal } from './errors.ts';
import { Endpoint, type ServeHooks } from './endpoint.ts';
import { FaceKeys } from './face-keys.ts';
import { faceRoutes, type FaceTarget } from './face-routes.ts';
import { httpRoutes, type McpHttpRoute } from './http.ts';
import { FairScheduler } from './scheduler.ts';
import { DEFAULT_MAX_SESSIONS, SessionRegistry } from './sessions.ts';
import { MemoryBudget, defaultMemoryBudget } from './memory-budget.ts';
import { serverTaskRoutes, taskRoutes } from './task-routes.ts';
import { wsRoute } from './ws.ts';
import { forkGate } from './ws-relay.ts';

export interface AppOptions {
  /** The worlds to serve; each under `/<name>`, the first also at the root. */
  worlds: World[];
  /** Most sessions open at once (WebSocket, HTTP and MCP together). Default 4096. */
  maxSessions?: number;
  /** End sessions idle this long, in milliseconds; 0 keeps them forever. Default 900 000 (15 minutes). */
  idleTimeoutMs?: number;
  /** Close the SQLite connection of sessions idle this long, in milliseconds (the image is kept; the next request reopens it); 0 never. Default 30 000. */
  hibernateAfterMs?: number;
  /** How long a fork (the `fork` step) is held for a reset to adopt with its token, in milliseconds; held forks count against `maxSessions`. Default 60 000. */
  forkTtlMs?: number;
  /** Require `Authorization: Bearer <token>` on every route and upgrade. Default: no token. */
  token?: string;
  /**
   * The secret a trainer presents (reset key `grader_token`, or header `X-Seahaven-Grader-Token` on `/reset` and
   * `/step`) to get whole grades, names and reasons included; without it `grade` and `submit` answer the agent view.
   * Default: none, so every session gets the agent view.
   */
  graderToken?: string;
  /**
   * Without a token, `Host` names answered besides the loopback names (`localhost`, 127.0.0.0/8, `[::1]`): `name` (any
   * port), `name:port`, or `'*'` for any. Others are refused (403) against DNS rebinding. Default: none.
   */
  allowedHosts?: readonly string[];
  /** Without a token, browser origins allowed besides the server's own pages, like `https://studio.example.com`; `'*'` for any. Default: none. */
  allowedOrigins?: readonly string[];
  /** Default fixture by world name (resets that name none, and sessions before their first reset). Default: each world's first fixture. */
  defaultFixtures?: Record<string, string>;
  /** Longest WebSocket frame accepted, in bytes. Default 1 MiB. */
  maxFrameBytes?: number;
  /** Longest HTTP request body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A request body that has not fully arrived this many milliseconds after its handler starts reading it is cut with 408. Default 10 000. */
  bodyTimeoutMs?: number;
  /** Curriculum and grading hooks. */
  hooks?: ServeHooks;
  /** MCP Streamable HTTP on `/mcp`: gets requests with `Mcp-Session-Id` or an `initialize` call. */
  mcpHttp?: McpHttpRoute;
  /** Routes answered before the token is checked: only assets that carry no data (the console's page and scripts). */
  publicRoutes?: (app: Hono) => void;
  /** Add routes (a console, progress pages) after the built-in ones; they sit behind the token too. */
  extend?: (app: Hono, server: SeahavenApp) => void;
  /**
   * At shutdown, how long requests already received may take to finish, in milliseconds; past it, each one still
   * waiting is answered (`SESSION_ERROR`, or `503` over HTTP) and every session ends. Default 10 000.
   */
  shutdownGraceMs?: number;
  /** Where server problems and world bugs are logged. Default: `console.error`. */
  logger?: (line: string) => void;
  /** Log each tool call of every session that takes at least this many milliseconds, through `logger`. Default 1000; `Infinity`: never. */
  slowCallMs?: number;
  /** Most bytes of call outcomes each session's call log keeps (older ones are dropped, their arguments kept). Default 8 MiB. */
  maxCallLogBytes?: number;
  /**
   * Most bytes each session's databases may grow beyond their fixture's image; a call past it fails with
   * `resource_exhausted`, ending that episode only. Default 256 MiB.
   */
  maxDbGrowthBytes?: number;
  /**
   * The process's memory budget in bytes: new sessions, resets to another fixture and forks that would not fit beside
   * what the process holds (its resident set) are refused with `RESOURCE_EXHAUSTED`, and so is a call that would open an
   * episode's database past it. Default: 90% of the cgroup's memory limit when one is set, else 75% of the machine's
   * memory; `Infinity`: no budget.
   */
  maxMemoryBytes?: number;
  /** @internal In a worker of `seahaven serve --workers N`: which worker owns a session, and the hand-over to it (cluster.ts). */
  cluster?: ClusterRouter;
}

/** What `createApp` returns. */
export interface SeahavenApp {
  app: Hono;
  /** The open sessions of every world: `size`, `list()`, `onSessionEnd(listener)`, `end(session, reason)`, `endAll(reason)`. */
  sessions: SessionRegistry;
  /** @internal One per world, by world name. */
  endpoints: Map<string, Endpoint>;
  /** @internal Runs every session's requests in fair turns. */
  scheduler: FairScheduler;
  /** @internal The body limits every route applies (the console's and the curricula's routes read bodies with them too). */
  limits: BodyLimits;
  /** Stop opening sessions, let queued requests finish, then end every session. */
  shutdown(): Promise<void>;
  /** @internal In a worker of `seahaven serve --workers N`: its view of the other workers. */
  cluster?: ClusterRouter;
  /** @internal Answers plain requests of the worlds' HTTP faces before Hono (face-fast.ts); absent in a worker. */
  faceFastPath?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export const DEFAULTS = {
  maxSessions: DEFAULT_MAX_SESSIONS,
  idleTimeoutMs: 15 * 60_000,
  hibernateAfterMs: 30_000,
  forkTtlMs: 60_000,
  maxFrameBytes: 1 << 20,
  maxBodyBytes: 1 << 20,
  bodyTimeoutMs: 10_000,
};
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Build the Hono app serving worlds over OpenEnv (WebSocket upgrades need `startServer`, which wires the `ws` server).
 * @example
 * const { app, sessions } = createApp({ worlds: [crm], maxSessions: 256 });
 * const health = await app.request('/health'); // { status: 'healthy' }
 */
export function createApp(options: AppOptions): SeahavenApp {
  const worlds = options.worlds;
  if (!Array.isArray(worlds) || worlds.length === 0)
    throw new Error('createApp: pass at least one world, like { worlds: [crm] }');
  const names = new Set<string>();
  for (const w of worlds) {
    if (names.has(w.name))
      throw new Error(
        `createApp: two worlds are named "${w.name}"; each world is served under /<name>, so names must differ`,
      );
    names.add(w.name);
  }
  const logger = options.logger ?? ((line: string) => console.error(line));
  const maxSessions = options.maxSessions ?? DEFAULTS.maxSessions;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1)
    throw new Error(`createApp: maxSessions must be a whole number >= 1; got ${maxSessions}`);
  const forkTtlMs = options.forkTtlMs ?? DEFAULTS.forkTtlMs;
  // A timer's delay is a signed 32-bit number of milliseconds (about 24.8 days); a longer one would fire at once.
  if (!Number.isFinite(forkTtlMs) || forkTtlMs <= 0 || forkTtlMs > 2 ** 31 - 1)
    throw new Error(
      `createApp: forkTtlMs must be a number of milliseconds from 1 to ${2 ** 31 - 1}; got ${forkTtlMs}`,
    );
  const sessions = new SessionRegistry({
    maxSessions,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    hibernateAfterMs: options.hibernateAfterMs ?? DEFAULTS.hibernateAfterMs,
    forkTtlMs,
    logger,
  });
  const slowCallMs =
    options.slowCallMs === undefined
      ? undefined
      : checkSlowCallMs(options.slowCallMs, 'createApp: slowCallMs');
  for (const key of ['maxCallLogBytes', 'maxDbGrowthBytes'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new Error(`createApp: ${key} must be a whole number of bytes >= 0; got ${value}`);
  }
  const maxMemory = options.maxMemoryBytes ?? defaultMemoryBudget().bytes;
  if (!(maxMemory > 0))
    throw new Error(
      `createApp: maxMemoryBytes must be a number of bytes > 0 (Infinity: no budget); got ${options.maxMemoryBytes}`,
    );
  const memory = maxMemory === Infinity ? undefined : new MemoryBudget(maxMemory);
  const scheduler = new FairScheduler(undefined, undefined, logger);
  const limits: BodyLimits = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
    report: rateLimited(logger),
  };
  if (!Number.isFinite(limits.bodyTimeoutMs) || limits.bodyTimeoutMs <= 0)
    throw new Error(
      `createApp: bodyTimeoutMs must be a number of milliseconds > 0; got ${limits.bodyTimeoutMs}`,
    );
  const app = new Hono();
  // A world's HTTP face answers under /<world><basePath>, and the first such world also at <basePath>.
  const rootFace = worlds.find((w) => w.http !== undefined);
  const facePrefixes = worlds.flatMap((w) =>
    w.http ? [`/${w.name}${w.http.basePath}`, ...(w === rootFace ? [w.http.basePath] : [])] : [],
  );
  const onFace = (path: string) => facePrefixes.some((p) => path === p || path.startsWith(p + '/'));
  // Host, Origin and Content-Type come first, for every route, public ones and WebSocket upgrades included.
  app.use(
    '*',
    accessGuard({
      token: options.token,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      ownBodyType: onFace,
    }),
  );
  // Registered before the token middleware, so they answer without it; a browser cannot send a header when it opens a page.
  options.publicRoutes?.(app);
  // A face's requests carry the API's own key in Authorization; face-routes.ts checks the token its own way.
  if (options.token !== undefined) app.use('*', bearerToken(options.token, onFace));
  const serverToken = options.token === undefined ? null : tokenMatcher(options.token);
  const router = options.cluster;
  if (router !== undefined) {
    // Ids this worker makes name it, so a request for one that lands on another worker is handed over here.
    sessions.idPrefix = router.tag;
    // The worker fills the places the primary granted it, not the whole limit (place-ledger.ts).
    if (router.places !== null) sessions.usePlaces(router.places);
    // Every answer says which worker gave it (a handed-over one keeps its owner's).
    app.use('*', async (c, next) => {
      await next();
      if (c.res.status !== 101 && !c.res.headers.has(WORKER_HEADER)) {
        try {
          c.res.headers.set(WORKER_HEADER, String(router.slot));
        } catch {
          // A response with immutable headers goes out as it is.
        }
      }
    });
  }

  // Before the first world's routes at the root, so bare /tasks lists every world's.
  serverTaskRoutes(app, worlds, limits);
  const endpoints = new Map<string, Endpoint>();
  const faceTargets = new Map<string, FaceTarget>();
  for (const world of worlds) {
    const faceKeys = world.http
      ? new FaceKeys(
          world.http,
          router === undefined ? undefined : (key) => router.ownerOfKey(key) === router.slot,
        )
      : undefined;
    if (faceKeys) sessions.onSessionEnd((s) => faceKeys.release(s));
    const ep = new Endpoint(world, {
      faceKeys,
      registry: sessions,
      scheduler,
      hooks: options.hooks ?? {},
      logger,
      slowCallMs,
      episodeLimits: {
        maxCallLogBytes: options.maxCallLogBytes,
        maxDbGrowthBytes: options.maxDbGrowthBytes,
      },
      memory,
      defaultFixture:
        options.defaultFixtures !== undefined && Object.hasOwn(options.defaultFixtures, world.name)
          ? options.defaultFixtures[world.name]
          : undefined,
      maxFrameChars: options.maxFrameBytes ?? DEFAULTS.maxFrameBytes,
      graderToken: options.graderToken,
    });
    endpoints.set(world.name, ep);
    const sub = new Hono();
    sub.get('/', (c) => {
      const base = c.req.path.replace(/\/$/, '');
      return c.json({
        name: world.name,
        version: world.version,
        description: world.description,
        openenv_base_url: base || '/',
        websocket: `${base}/ws`,
        worlds: worlds.map((w) => `/${w.name}`),
      });
    });
    if (router !== undefined) sub.get('/ws', forkGate(ep));
    sub.get('/ws', wsRoute(ep, scheduler, logger, router));
    sub.get('/ws', (c) =>
      c.json(
        {
          detail: `${c.req.path} speaks WebSocket; connect with a WebSocket client (ws://…${c.req.path})`,
        },
        426,
      ),
    );
    httpRoutes(sub, ep, { limits, mcpHttp: options.mcpHttp, cluster: router });
    taskRoutes(sub, world, limits);
    const face = faceKeys ? { limits, logger, serverToken, cluster: router } : undefined;
    if (faceKeys && face) {
      faceRoutes(sub, ep, faceKeys, face);
      faceTargets.set(`/${world.name}${faceKeys.face.basePath}`, {
        ep,
        keys: faceKeys,
        options: face,
      });
      if (world === rootFace)
        faceTargets.set(faceKeys.face.basePath, { ep, keys: faceKeys, options: face });
    }
    app.route(`/${world.name}`, sub);
    // The first world also answers at the root, so `http://host:port` is an OpenEnv base URL.
    if (world === worlds[0]) app.route('/', sub);
    else if (world === rootFace && faceKeys && face) {
      // A world with an HTTP face that is not the first still answers its base path at the root (an SDK has no
      // setting for a path prefix).
      const faceOnly = new Hono();
      faceRoutes(faceOnly, ep, faceKeys, face);
      app.route('/', faceOnly);
    }
  }

  const server: SeahavenApp = {
    app,
    sessions,
    endpoints,
    scheduler,
    limits,
    ...(router === undefined
      ? {
          faceFastPath: faceFastPath({
            targets: faceTargets,
            hostAllowed:
              options.token === undefined
                ? hostCheck({ allowedHosts: options.allowedHosts })
                : null,
          }),
        }
      : { cluster: router }),
    async shutdown() {
      for (const ep of endpoints.values()) ep.closing = true;
      // Requests already received finish; a hook that never settles must not hold the shutdown forever.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        scheduler.idle(),
        new Promise<void>(
          (r) => (timer = setTimeout(r, options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS)),
        ),
      ]);
      clearTimeout(timer);
      sessions.endAll('shutdown');
    },
  };
  options.extend?.(app, server);
  app.notFound((c) =>
    c.json(
      {
        detail: `no route ${c.req.method} ${c.req.path}; worlds are served under ${worlds.map((w) => `/${w.name}`).join(', ')} (the first also at /)`,
      },
      404,
    ),
  );
  app.onError((err, c) =>
    c.json({ detail: logInternal(logger, `on ${c.req.method} ${c.req.path}`, err) }, 500),
  );
  return server;
}
