/** The options and handler types of MCP Streamable HTTP (`http.ts`), and what a server's session registry provides. */
import type { Instance } from '../../core/instance.ts';
import type { World } from '../../core/world.ts';
import type { HostCheckOptions } from './host-check.ts';
import type { McpResetOptions } from './server.ts';

export interface McpHttpOptions extends HostCheckOptions {
  /** The world sessions play in, or a resolver that picks it from the request (say, by path) and returns `undefined` for none. */
  world: World | ((req: Request) => World | undefined);
  /** Reset options every session starts from; the query string, then the `initialize` params, override them key by key. Default: none. */
  defaults?: McpResetOptions;
  /** A session unused this long is closed and its instance destroyed; `0` never reaps. Default: 15 minutes. */
  idleTimeoutMs?: number;
  /** Open sessions at most; one more `initialize` gets a `-32000` capacity error. Default: 256, or no limit of its own when requests come with a session host (whose capacity applies). */
  maxSessions?: number;
  /** Largest request body read. Default: 4 MiB. */
  maxBodyBytes?: number;
  /** Where world bugs are logged. Default: `console.error`. */
  logger?: (line: string) => void;
  /** Log each tool call that takes at least this many milliseconds, through `logger`. Default 1000; `Infinity`: never. */
  slowCallMs?: number;
  /**
   * Start a session's instance from its reset options, to add rules of your own (a curriculum, a default task). Throw
   * an `McpError` to refuse the handshake with that error. Default: `openInstance(world, reset, { logger, slowCallMs })`.
   */
  startInstance?: (world: World, reset: McpResetOptions, req: Request) => Instance;
}

/**
 * A server's session registry, passed with each request (`seahaven serve` does), so MCP sessions count against the
 * server's capacity and appear in its session list.
 */
export interface McpSessionHost {
  /** Throw (an error whose message a client may see, with `activeSessions` and `maxSessions` when full) unless one more session fits. */
  ensureRoom(): void;
  /** Register a started session. `end` is called when the host ends it (idle, shutdown). Throws like `ensureRoom`. */
  open(id: string, instance: Instance, end: () => void): McpSessionLease;
}

/** A session registered with a host: `touch` on each request, `close` once it ends here. */
export interface McpSessionLease {
  touch(): void;
  close(): void;
  /** What the host adds to this session's instructions (the key of a world's HTTP face, say). */
  instructions?: string;
}

/** What a caller may pass beside the request. */
export interface McpHandleOptions {
  /** The body, when the caller already read and parsed it (the request's own body is then not read). */
  parsedBody?: unknown;
  /** Count sessions started by this request in a server's registry. */
  sessions?: McpSessionHost;
  /** The caller has already checked `Host` and `Origin` (as `createApp` does for every route): skip this handler's own check. */
  accessChecked?: boolean;
}

/** The handler: call it with a request (and the body, if the caller already parsed it). */
export interface McpHttpHandler {
  (req: Request, options?: McpHandleOptions): Promise<Response>;
  /** Sessions open now. */
  activeSessions(): number;
  /** Close every session, destroy their instances and stop the reaper; later requests get 503. */
  close(): Promise<void>;
}
