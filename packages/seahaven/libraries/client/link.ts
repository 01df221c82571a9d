/**
 * The connection under a client: one WebSocket to one host and its framing (replies answered in order, each request
 * waiting on its own timer), opened on one URL or on the best host of a `HostPool`.
 */
import WebSocket from 'ws';
import { ClientError } from './errors.ts';
import type { HostPool } from './hosts.ts';
import type { ConnectOptions } from './types.ts';
import { wsUrlOf } from './url.ts';

export interface Pending {
  resolve(data: any): void;
  reject(e: Error): void;
  timer: ReturnType<typeof setTimeout>;
  /** Rejected by its timeout; its late reply is dropped to keep the rest in step. */
  expired: boolean;
}

/** Decides what a closed link's requests fail with (and lets the owner count the closing). */
type CloseHandler = (link: Link, code: number, reason: string) => ClientError;

/**
 * One WebSocket to one host, with the requests waiting on it. A client swaps links when it reconnects. Its listeners
 * are attached as soon as the socket opens, so a frame (CAPACITY_REACHED) or a close arriving with the upgrade is kept
 * until the client takes the link over (`bind`).
 */
export class Link {
  readonly ws: WebSocket;
  readonly host: string;
  readonly pending: Pending[] = [];
  /** Why requests on this link fail from now on: an unsolicited error frame, or the connection closing. */
  failure: ClientError | null = null;
  /** The client closed it (`close()`), as opposed to the server or the network. */
  closedByClient = false;
  /** An episode was started (a reset answered) on it. */
  started = false;
  readonly closed: Promise<void>;
  #onClose: CloseHandler | null = null;
  #closeInfo: { code: number; reason: string } | null = null;
  #resolveClosed!: () => void;

  constructor(ws: WebSocket, host: string) {
    this.ws = ws;
    this.host = host;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    ws.on('message', (data) => this.#onFrame(data.toString()));
    ws.on('close', (code, reason) => {
      this.#closeInfo = { code, reason: reason.toString() };
      if (this.#onClose !== null) this.#finish();
    });
    ws.on('error', () => undefined);
  }

  /** Hand the link to its client; a close that came first is handled now. */
  bind(onClose: CloseHandler): this {
    this.#onClose = onClose;
    if (this.#closeInfo !== null) this.#finish();
    return this;
  }

  #finish(): void {
    this.failure = this.#onClose!(this, this.#closeInfo!.code, this.#closeInfo!.reason);
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      if (!p.expired) p.reject(this.failure);
    }
    this.#resolveClosed();
  }

  #onFrame(text: string): void {
    let msg: { type?: string; data?: any };
    try {
      msg = JSON.parse(text);
    } catch {
      msg = {
        type: 'error',
        data: {
          code: 'INVALID_JSON',
          message: `the server sent a frame that is not JSON: ${text.slice(0, 80)}`,
        },
      };
    }
    const p = this.pending.shift();
    if (p === undefined) {
      // An error nobody asked for (CAPACITY_REACHED right after connecting): every later request fails with it.
      if (msg.type === 'error')
        this.failure = new ClientError(
          String(msg.data?.code),
          String(msg.data?.message),
          msg.data ?? {},
        );
      return;
    }
    clearTimeout(p.timer);
    if (p.expired) return;
    if (msg.type === 'error')
      p.reject(new ClientError(String(msg.data?.code), String(msg.data?.message), msg.data ?? {}));
    else p.resolve(msg.data);
  }
}

/** Open a WebSocket to `url`'s `/ws`; rejects with a `CONNECT` error naming the URL and what went wrong. */
export function openLink(url: string, options: ConnectOptions, timeoutMs: number): Promise<Link> {
  const headers = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const target = wsUrlOf(url);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target, {
      headers,
      handshakeTimeout: timeoutMs,
      perMessageDeflate: false,
    });
    ws.once('open', () => resolve(new Link(ws, url)));
    ws.once('unexpected-response', (_req, res) => {
      const hint =
        res.statusCode === 401 ? '; pass { token } (the server was started with --token)' : '';
      reject(
        new ClientError(
          'CONNECT',
          `${target} answered HTTP ${res.statusCode} instead of upgrading${hint}`,
          { host: url, status: res.statusCode },
        ),
      );
      res.resume();
      ws.terminate();
    });
    ws.on('error', (e) =>
      reject(
        new ClientError('CONNECT', `cannot connect to ${target}: ${e.message}`, { host: url }),
      ),
    );
  });
}

/**
 * Connect to the pool's best host not in `exclude`: the live host with the fewest sessions, else the next; a host
 * that refuses is marked failed and the next one tried. Rejects with `CONNECT` naming every host tried.
 */
export async function connectPooled(
  pool: HostPool,
  options: ConnectOptions,
  timeoutMs: number,
  exclude: ReadonlySet<string> = new Set(),
): Promise<Link> {
  const tried = new Set(exclude);
  const failures: string[] = [];
  for (;;) {
    // Ordered again after each failure: other clients' sessions move the counts meanwhile.
    const host = pool.order(tried)[0];
    if (host === undefined) break;
    tried.add(host);
    pool.acquire(host);
    try {
      const link = await openLink(host, options, timeoutMs);
      pool.markLive(host);
      return link;
    } catch (e) {
      pool.release(host);
      pool.markFailed(host, (e as Error).message);
      failures.push((e as Error).message);
    }
  }
  const skipped = exclude.size > 0 ? ` (${[...exclude].join(', ')} already failed this reset)` : '';
  throw new ClientError(
    'CONNECT',
    `no host took the session${skipped}: ${failures.join('; ') || 'none left to try'}`,
    { hosts: pool.status() },
  );
}
