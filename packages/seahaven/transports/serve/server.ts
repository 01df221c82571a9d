/**
 * The Node.js runtime: listen with @hono/node-server and its built-in WebSocket upgrade (a `ws` server in noServer
 * mode), start the idle reaper, and shut down gracefully.
 */
import {
  createServer as createHttpServer,
  type RequestListener,
  type Server,
  type ServerOptions as HttpServerOptions,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { isLoopbackHost } from './access.ts';
import { DEFAULTS, createApp, type AppOptions, type SeahavenApp } from './app.ts';

export interface ServerOptions extends AppOptions {
  /**
   * Interface to bind. Default `127.0.0.1` (this machine only). A specific address is also an allowed `Host`; off
   * loopback without a token, a warning is logged at start.
   */
  host?: string;
  /** Port; 0 picks a free one. Default 8000. */
  port?: number;
}

/** A listening server. */
export interface RunningServer extends SeahavenApp {
  /** `http://host:port`: the OpenEnv base URL of the first world. */
  url: string;
  host: string;
  port: number;
  server: Server;
  /** Stop accepting, finish queued requests, end every session with close code 1001, and stop listening. */
  close(): Promise<void>;
}

/**
 * Serve worlds over OpenEnv on a port.
 * @example
 * const server = await startServer({ worlds: [crm], port: 0 });
 * console.log(server.url); // http://127.0.0.1:41234
 * await server.close();
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8000;
  const loopback = isLoopbackHost(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  // A specific address the server was bound to is a name its clients use; a wildcard (0.0.0.0, ::) names nothing.
  const boundName =
    loopback || /^(?:0\.0\.0\.0|::|\[::\])$/.test(host)
      ? []
      : [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host];
  const seahaven = createApp({
    ...options,
    allowedHosts: [...(options.allowedHosts ?? []), ...boundName],
  });
  const maxFrame = options.maxFrameBytes ?? DEFAULTS.maxFrameBytes;
  // Frames a little over the limit get a readable error frame from the endpoint; far over it, ws closes with 1009.
  // Text frames are decoded leniently (invalid UTF-8 becomes U+FFFD), so a garbled frame gets an INVALID_JSON reply
  // instead of closing the connection.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.max(4 * maxFrame, 1 << 20),
    skipUTF8Validation: true,
  });
  // Plain requests of a world's HTTP face are answered before Hono sees them (face-fast.ts); everything else goes to Hono.
  const fast = seahaven.faceFastPath;
  const createServer: typeof createHttpServer = ((
    opts: HttpServerOptions,
    listener: RequestListener,
  ) =>
    createHttpServer(
      opts,
      fast === undefined ? listener : (req, res) => void (fast(req, res) || listener(req, res)),
    )) as typeof createHttpServer;
  const server = createAdaptorServer({
    fetch: seahaven.app.fetch,
    hostname: host,
    websocket: { server: wss },
    createServer,
  }) as Server;
  // Bodies are cut by their own deadline once a route reads them; this bounds the rest (headers, bodies no route reads).
  server.requestTimeout =
    Math.max(server.headersTimeout, 0) + (options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  seahaven.sessions.startReaper();
  // A worker of `seahaven serve --workers N` also listens on a private port of its own (not shared through the cluster),
  // where the other workers hand over requests for its sessions; it gives the primary a duplicate of each WebSocket
  // connection, so the clients hear why if the worker dies (cluster.ts).
  const router = options.cluster;
  let inner: Server | undefined;
  if (router !== undefined) {
    // Only the other workers' hand-overs are answered here (they carry the run's secret): a request sent straight to
    // this port would open a session that no other worker routes to.
    const mark = (req: import('node:http').IncomingMessage) =>
      void ((req as { seahavenHandOver?: boolean }).seahavenHandOver = router.takeHandOver(req));
    const handOverFetch = (req: Request, env: object) => {
      const incoming = (
        env as { incoming?: import('node:http').IncomingMessage & { seahavenHandOver?: boolean } }
      ).incoming;
      // A WebSocket upgrade is not seen by the request listener below: it is checked here.
      if (incoming !== undefined && incoming.seahavenHandOver === undefined) mark(incoming);
      if (incoming?.seahavenHandOver !== true) {
        const detail =
          "this is a worker's private port of a `seahaven serve --workers` server, which answers only requests the other workers hand over; send requests to the server's own port";
        return new Response(JSON.stringify({ detail }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }
      // The same env object: the WebSocket upgrade marks it for its connection.
      return seahaven.app.fetch(req, Object.assign(env, { seahavenHandedOver: true }));
    };
    const createInner: typeof createHttpServer = ((
      opts: HttpServerOptions,
      listener: RequestListener,
    ) =>
      createHttpServer(
        opts,
        (req, res) => (mark(req), listener(req, res)),
      )) as typeof createHttpServer;
    inner = createAdaptorServer({
      fetch: handOverFetch,
      hostname: '127.0.0.1',
      websocket: { server: wss },
      createServer: createInner,
    }) as Server;
    inner.requestTimeout = server.requestTimeout;
    await new Promise<void>((resolve, reject) => {
      inner!.once('error', reject);
      inner!.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
        inner!.off('error', reject);
        resolve();
      });
    });
    router.privatePort = (inner.address() as AddressInfo).port;
    server.on('upgrade', (_req, socket) => router.guard(socket as import('node:net').Socket));
  }
  const actual = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  if (!loopback && options.token === undefined) {
    const hosts = [...(options.allowedHosts ?? []), ...boundName];
    (options.logger ?? ((line: string) => console.error(line)))(
      `[seahaven] warning: listening on ${host}:${actual} without a token, so anyone who can reach this port can open sessions and call tools. ` +
        `Set one with --token <secret> (or SEAHAVEN_TOKEN), or bind 127.0.0.1. Requests are answered only for the Host names localhost, 127.0.0.1, [::1]` +
        `${hosts.length > 0 ? `, ${hosts.join(', ')}` : ''}; add the names clients use with --allow-host <host>.`,
    );
  }
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A request still running when the shutdown begins is answered (below, or by the session ending); its connection
      // then closes as soon as it falls idle, not when the two seconds below run out.
      const sweep = setInterval(() => {
        server.closeIdleConnections();
        // The private port's connections are swept once it stops listening (below).
        if (inner?.listening === false) inner.closeIdleConnections();
      }, 50).unref();
      try {
        await seahaven.shutdown();
        // Requests other workers hand over are answered until this worker's own are; then its private port closes too.
        const innerStopped =
          inner === undefined
            ? undefined
            : new Promise<void>((resolve) => inner!.close(() => resolve()));
        inner?.closeIdleConnections();
        // Sockets got a 1001 close frame; clients that do not answer it, and requests still running, get two seconds.
        const timer = setTimeout(() => {
          for (const client of wss.clients) client.terminate();
          server.closeAllConnections();
          inner?.closeAllConnections();
        }, 2000);
        await stopped;
        await innerStopped;
        clearTimeout(timer);
      } finally {
        clearInterval(sweep);
      }
      router?.close();
    })());
  return { ...seahaven, url, host, port: actual, server, close };
}
