/**
 * `seahaven serve --workers N`: N worker processes behind one port, with `node:cluster`.
 *
 * The primary process only supervises: it forks the workers (each runs the whole `seahaven serve` command line), keeps
 * a table of them (pid, private port, open sessions), relays that table to every worker, replaces a worker that dies,
 * and drains them all on SIGTERM or SIGINT. Connections are dealt to the workers round-robin by the cluster module, and
 * nothing on a session's path goes through the primary.
 *
 * - A WebSocket session lives on the worker that accepted its connection, except a branch: a reset that adopts a fork
 *   another worker holds hands the connection over to that worker, relayed frame by frame (ws-relay.ts).
 * - Every other session is found by its id, which names its worker: ids the server makes start with the worker's tag
 *   (`w1-…`), and ids a client picks (`X-Session-Id: my-run`) belong to the worker their hash picks. The key of a
 *   world's HTTP face belongs to the worker its hash picks; a worker issues only keys that hash to itself. A request
 *   that lands on another worker is handed over: that worker sends it on to the owner's private port (127.0.0.1, one
 *   per worker, the same routes behind the same checks) and passes the answer back. A private port answers only
 *   hand-overs, which carry a secret the primary draws for the run; an owner that is starting is waited for.
 * - `--max-sessions` is held by the primary and lent out as places: each worker holds a quota of places the primary
 *   granted it (never more in all than the limit), opens a session or holds a fork only in a free place of its own,
 *   and when full refuses and asks for more; the primary grants them from the places no worker holds, or takes them
 *   back from workers with free ones first (place-ledger.ts, places.ts). So no burst overfills the server, and no
 *   admission waits on the primary. Each worker also reports its count on every change, and the primary relays the
 *   counts, for `/health` and the words of a refusal.
 * - A worker also gives the primary a duplicate of each WebSocket connection's socket (and takes it back when the
 *   connection ends). When a worker dies without closing its sockets (`kill -9`, out of memory), the primary writes a
 *   close frame (1011, with the reason) on each of them, so the clients learn what happened; other workers' sessions
 *   never notice.
 *
 * This module is a worker's router; the worker's start and its link to the primary are cluster-worker.ts, what both
 * sides share is cluster-protocol.ts, and the primary's side is cluster-primary.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { WorkerPlaces } from './places.ts';
import {
  ENTRY_HEADER,
  HAND_OVER_HEADER,
  START_WAIT_MS,
  WORKER_HEADER,
  type ToPrimary,
  type WorkerInfo,
} from './cluster-protocol.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
]);

/** 32-bit FNV-1a of a string's UTF-16 code units: which worker an id or key without a tag belongs to. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A worker's view of the cluster: which worker owns an id or key, the other workers' private ports, and the hand-over
 * of a request to its owner.
 */
export class ClusterRouter {
  /** This worker's slot, 0-based. */
  readonly slot: number;
  /** How many workers serve the port. */
  readonly workers: number;
  /** Prefix of the session ids this worker makes: `w<slot>-`. */
  readonly tag: string;
  /** This worker's private port, once listening. */
  privatePort: number | null = null;
  /** The places under `--max-sessions` the primary granted this worker; null for a router made without them. */
  readonly places: WorkerPlaces | null;
  /** The table the primary sent last. */
  private table: WorkerInfo[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxFreeSockets: 64 });
  private nextGuard = 0;
  /** Connections whose duplicate the primary holds now, and how many it may hold for this worker. */
  private guarded = 0;
  private readonly maxGuarded: number;
  private readonly secret: string;
  private readonly secretDigest: Buffer;
  /** Requests waiting for a worker that is starting, resolved when a table shows it ready. */
  private waiting: (() => void)[] = [];

  constructor(
    slot: number,
    workers: number,
    maxGuarded = 4096,
    secret = '',
    places: WorkerPlaces | null = null,
  ) {
    this.slot = slot;
    this.places = places;
    this.workers = workers;
    this.tag = `w${slot}-`;
    this.maxGuarded = maxGuarded;
    this.secret = secret;
    this.secretDigest = createHash('sha256').update(secret).digest();
  }

  /**
   * Whether a request that came in on this worker's private port was handed over by another worker (it carries the
   * run's secret). The header is taken off the request either way, so no route, world or client ever sees it.
   */
  takeHandOver(req: IncomingMessage): boolean {
    const value = req.headers[HAND_OVER_HEADER];
    delete req.headers[HAND_OVER_HEADER];
    for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2)
      if (req.rawHeaders[i].toLowerCase() === HAND_OVER_HEADER) req.rawHeaders.splice(i, 2);
    if (this.secret === '' || typeof value !== 'string') return false;
    return timingSafeEqual(createHash('sha256').update(value).digest(), this.secretDigest);
  }

  /** The header a hand-over to another worker's private port carries. */
  handOverHeaders(): Record<string, string> {
    return { [HAND_OVER_HEADER]: this.secret };
  }

  /** The worker that owns a session id: the one its tag names, else the one its hash picks. */
  ownerOf(id: string): number {
    const m = /^w(\d{1,3})-/.exec(id);
    if (m !== null && Number(m[1]) < this.workers) return Number(m[1]);
    return hash(id) % this.workers;
  }

  /** The worker that owns a key of a world's HTTP face: the one its hash picks. */
  ownerOfKey(key: string): number {
    return hash(key) % this.workers;
  }

  /** Take the primary's table. Returns the sessions counted on the other workers. */
  setTable(table: WorkerInfo[]): number {
    this.table = table;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
    const elsewhere = table.reduce((n, w) => (w.worker === this.slot ? n : n + w.sessions), 0);
    if (this.places !== null) this.places.elsewhere = elsewhere;
    return elsewhere;
  }

  /** Resolves with worker `slot`'s row once it is up, or with undefined after `ms`. */
  async whenUp(slot: number, ms: number): Promise<WorkerInfo | undefined> {
    const deadline = performance.now() + ms;
    for (;;) {
      const peer = this.table.find((w) => w.worker === slot);
      if (peer !== undefined && peer.ready && peer.port !== null) return peer;
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The other workers that are up, with their private ports. */
  peers(): WorkerInfo[] {
    return this.table.filter((w) => w.worker !== this.slot && w.ready && w.port !== null);
  }

  /** `/health` of a worker: every worker, its sessions, and the totals. */
  health(localSessions: number, maxSessions: number): Record<string, unknown> {
    const rows = Array.from({ length: this.workers }, (_, i) => {
      const w = this.table.find((x) => x.worker === i);
      if (i === this.slot)
        return { worker: i, pid: process.pid, ready: true, sessions: localSessions };
      return {
        worker: i,
        pid: w?.pid ?? null,
        ready: w?.ready ?? false,
        sessions: w?.ready ? w.sessions : 0,
      };
    });
    // Healthy while it answers: a worker being replaced (for its start-up, seconds) shows as not ready, and the others serve on.
    return {
      status: 'healthy',
      worker: this.slot,
      workers: rows,
      sessions: rows.reduce((n, r) => n + r.sessions, 0),
      max_sessions: maxSessions,
    };
  }

  /**
   * Send a request on to worker `slot` and resolve with its answer. `body`: the text already read off the request;
   * `undefined` streams the request's own body; `null` sends none. An owner that cannot be reached (restarting after a
   * crash) is answered here with 503.
   */
  async forward(req: Request, slot: number, body?: string | null): Promise<Response> {
    // A worker that is starting (with the server, or replacing one that exited) is waited for: a request sent as soon
    // as the port answers, or during a replacement, is answered once it is up rather than refused meanwhile.
    const peer = await this.whenUp(slot, START_WAIT_MS);
    if (peer === undefined) {
      const replaces = this.table.find((w) => w.worker === slot)?.replaces ?? false;
      if (!replaces)
        return this.unreachable(
          slot,
          `is still starting with the server (waited ${START_WAIT_MS / 1000} s)`,
          'retry in a moment',
        );
      return this.unreachable(
        slot,
        `is starting, replacing one that exited (waited ${START_WAIT_MS / 1000} s)`,
      );
    }
    return this.send(req, peer, body);
  }

  private send(req: Request, peer: WorkerInfo, body?: string | null): Promise<Response> {
    const slot = peer.worker;
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    // The owner checks Host like any request: it gets the one the client sent.
    headers.host = req.headers.get('host') ?? `127.0.0.1:${peer.port}`;
    headers[ENTRY_HEADER] = String(this.slot);
    headers[HAND_OVER_HEADER] = this.secret;
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    else if (body === null || req.body === null) delete headers['content-length'];
    return new Promise((resolve) => {
      const out = httpRequest(
        {
          host: '127.0.0.1',
          port: peer.port!,
          method: req.method,
          path: url.pathname + url.search,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('error', () => resolve(this.unreachable(slot, 'stopped before answering')));
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (v === undefined || HOP_BY_HOP.has(k) || k === 'content-length') continue;
              for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
            }
            h.set(ENTRY_HEADER, String(this.slot));
            const status = res.statusCode ?? 502;
            resolve(
              new Response(
                status === 204 || status === 304 || req.method === 'HEAD'
                  ? null
                  : Buffer.concat(chunks),
                { status, headers: h },
              ),
            );
          });
        },
      );
      out.on('error', () => resolve(this.unreachable(slot, 'could not be reached (it exited)')));
      if (typeof body === 'string') out.end(body);
      else if (body === undefined && req.body !== null)
        Readable.fromWeb(req.body as import('node:stream/web').ReadableStream)
          .on('error', () => out.destroy())
          .pipe(out);
      else out.end();
    });
  }

  private unreachable(
    slot: number,
    why: string,
    fix = 'sessions of a worker that exits end with it: start a new session (reset) and retry',
  ): Response {
    const detail = `worker ${slot}, which holds this session, ${why}; ${fix}`;
    return new Response(JSON.stringify({ detail }), {
      status: 503,
      headers: {
        'content-type': 'application/json',
        [WORKER_HEADER]: String(this.slot),
        'retry-after': '1',
      },
    });
  }

  /**
   * Give the primary a duplicate of a WebSocket connection's socket, so it can tell the client if this worker dies; it
   * is taken back when the connection closes here.
   */
  guard(socket: Socket): void {
    const handle = (socket as unknown as { _handle: object | null })._handle;
    // Past its share of the primary's descriptors, a connection goes without: its client would see the worker's death
    // as a dropped connection (1006) instead of a close frame.
    if (
      handle === null ||
      typeof process.send !== 'function' ||
      !process.connected ||
      this.guarded >= this.maxGuarded
    )
      return;
    const id = ++this.nextGuard;
    try {
      process.send(
        { seahaven: 'guard', id } satisfies ToPrimary,
        handle as never,
        undefined,
        () => {},
      );
    } catch {
      return;
    }
    this.guarded++;
    socket.once('close', () => {
      this.guarded--;
      if (process.connected)
        process.send!(
          { seahaven: 'release', id } satisfies ToPrimary,
          undefined,
          undefined,
          () => {},
        );
    });
  }

  /** Close the keep-alive connections to the other workers. */
  close(): void {
    this.agent.destroy();
  }
}
