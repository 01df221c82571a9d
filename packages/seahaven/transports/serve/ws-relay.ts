/**
 * A WebSocket fork adopted on another worker of a `--workers` server. A `fork` step holds the branch on the worker
 * whose session forked (its token names it: `fork_w1-…`), and a client's new connection for the branch is dealt to any
 * worker. When the first frame that needs the held fork, a reset with its token, reaches a connection on another
 * worker, that connection is handed over: once the holder has taken a connection of its own to its private port (it
 * refuses one for a fork it cannot hand out, and the reset is then refused where it came, the session unchanged), the
 * connection's own session ends (its place goes back), and from then on the worker relays its frames, both ways and in
 * order, to the holder, where the reset adopts the fork like any other. The client sees one session, on the holder.
 */
import WebSocket from 'ws';
import type { MiddlewareHandler } from 'hono';
import type { ClusterRouter } from './cluster.ts';
import { START_WAIT_MS, handedOver } from './cluster-protocol.ts';
import type { Endpoint } from './endpoint.ts';

/** Header of a relayed connection naming the fork it comes to adopt (its place is the fork's). */
export const FORK_HEADER = 'x-seahaven-fork';
/** Header of the holder's refusal of such a connection: why the fork cannot be adopted. */
const REFUSAL_HEADER = 'x-seahaven-fork-refused';

const OPEN = 1;

/** The worker holding the fork a frame's reset would adopt, when that is another worker; else undefined. */
export function forkHolder(
  text: string,
  router: ClusterRouter,
): { worker: number; token: string } | undefined {
  // Most frames are steps: only a frame that names a worker's fork token is parsed here.
  if (!text.includes('fork_w')) return undefined;
  let msg: { type?: unknown; data?: { fork_token?: unknown } } | null;
  try {
    msg = JSON.parse(text);
  } catch {
    return undefined;
  }
  const token = msg?.type === 'reset' ? msg.data?.fork_token : undefined;
  const m = typeof token === 'string' ? /^fork_w(\d{1,3})-/.exec(token) : null;
  if (m === null) return undefined;
  const worker = Number(m[1]);
  return worker < router.workers && worker !== router.slot
    ? { worker, token: token as string }
    : undefined;
}

/**
 * On the holder: a relayed connection for a fork that cannot be adopted here (used, expired, another world's) is
 * refused before the upgrade, with why, so the worker it came through answers the reset itself and its session stays.
 */
export function forkGate(ep: Endpoint): MiddlewareHandler {
  return async (c, next) => {
    const token = handedOver(c) ? c.req.header(FORK_HEADER) : undefined;
    const refused = token === undefined ? undefined : ep.registry.forkRefusal(ep, token);
    // A refused upgrade carries no body: the reason goes in a header (encoded, since it is free text).
    if (refused !== undefined)
      return c.body(null, 409, { [REFUSAL_HEADER]: encodeURIComponent(refused) });
    await next();
  };
}

/** The client's side of a relay: frames wait here until the connection to the holder is open. */
export class ForkRelay {
  private readonly client: WebSocket;
  private readonly queue: (Buffer | string)[] = [];
  private inner: WebSocket | null = null;
  private ended = false;

  constructor(client: WebSocket, first: Buffer | string) {
    this.client = client;
    this.queue.push(first);
    client.on('close', () => this.end());
  }

  /** A frame from the client: on to the holder, in order. */
  push(data: Buffer | string): void {
    if (this.inner !== null && this.inner.readyState === OPEN && this.queue.length === 0)
      this.inner.send(data);
    else this.queue.push(data);
  }

  /**
   * Connect to the holder's private port on `path` (the world's `/ws`), with the client's own `Host`, `Origin` and
   * `Authorization`, so it passes the same checks there. Resolves with true once the holder has taken the connection,
   * or with why it did not (the fork is not adoptable there, or the holder is not running): then nothing was relayed,
   * and the frames waiting here are given back (`takeBack`).
   */
  async start(
    router: ClusterRouter,
    holder: { worker: number; token: string },
    path: string,
    headers: Record<string, string>,
  ): Promise<true | string> {
    const peer = await router.whenUp(holder.worker, START_WAIT_MS);
    if (this.ended) return true;
    if (peer === undefined)
      return `fork token held by worker ${holder.worker} of this server, which did not start within ${START_WAIT_MS / 1000} s; fork again`;
    const inner = new WebSocket(`ws://127.0.0.1:${peer.port}${path}`, {
      headers: { ...headers, ...router.handOverHeaders(), [FORK_HEADER]: holder.token },
      perMessageDeflate: false,
      maxPayload: 0,
    });
    this.inner = inner;
    inner.on('error', () => {});
    const outcome = await new Promise<true | string>((resolve) => {
      inner.once('open', () => resolve(true));
      inner.once('unexpected-response', (_req, res) => {
        res.resume();
        const refused = res.headers[REFUSAL_HEADER];
        let why = `worker ${holder.worker} of this server, which holds the fork, refused the connection (${res.statusCode}); fork again`;
        try {
          if (typeof refused === 'string') why = decodeURIComponent(refused);
        } catch {
          // Not ours: the status says enough.
        }
        resolve(why);
      });
      inner.once('close', () =>
        resolve(
          `worker ${holder.worker} of this server, which holds the fork, could not be reached; fork again`,
        ),
      );
    });
    if (outcome !== true) {
      this.inner = null;
      inner.terminate();
      return outcome;
    }
    if (this.ended) {
      inner.close(1000);
      return true;
    }
    for (const data of this.queue.splice(0)) inner.send(data);
    inner.on('message', (data: Buffer, binary: boolean) => {
      if (this.client.readyState === OPEN) this.client.send(data, { binary });
    });
    inner.on('close', (code: number, reason: Buffer) => {
      if (this.client.readyState !== OPEN) return;
      // No close frame from the holder: it exited.
      if (code === 1005 || code === 1006)
        this.client.close(
          1011,
          `worker ${holder.worker} of this server exited; the session is lost, reconnect to start a new one`,
        );
      else this.client.close(code, reason.toString());
    });
    return true;
  }

  /** The frames that waited for a relay that did not start, the reset first, in order. */
  takeBack(): (Buffer | string)[] {
    this.ended = true;
    return this.queue.splice(0);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    const inner = this.inner;
    if (inner === null) return;
    if (inner.readyState === OPEN) inner.close(1000);
    else inner.terminate();
  }
}
