/**
 * A WebSocket fork adopted on another worker of a `--workers` server. A `fork` step holds the branch on the worker
 * whose session forked (its token names it: `fork_w1-…`), and a client's new connection for the branch is dealt to any
 * worker. When the first frame that needs the held fork, a reset with its token, reaches a connection on another
 * worker, that connection is handed over: its own session ends (its place goes back), and from then on the worker
 * relays the connection's frames, both ways and in order, to a connection of its own to the holder's private port,
 * where the reset adopts the fork like any other. The client sees one session, on the holder.
 */
import WebSocket from 'ws';
import { START_WAIT_MS, type ClusterRouter } from './cluster.ts';
import { errorFrame } from './errors.ts';

/** Header of a relayed connection naming the fork it comes to adopt (its place is the fork's). */
export const FORK_HEADER = 'x-seahaven-fork';

const OPEN = 1;

/** The worker holding the fork a frame's reset would adopt, when that is another worker; else undefined. */
export function forkHolder(text: string, router: ClusterRouter): { worker: number; token: string } | undefined {
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
  return worker < router.workers && worker !== router.slot ? { worker, token: token as string } : undefined;
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
    if (this.inner !== null && this.inner.readyState === OPEN && this.queue.length === 0) this.inner.send(data);
    else this.queue.push(data);
  }

  /**
   * Connect to the holder's private port on `path` (the world's `/ws`), with the client's own `Host`, `Origin` and
   * `Authorization`, so it passes the same checks there.
   */
  async start(router: ClusterRouter, holder: { worker: number; token: string }, path: string, headers: Record<string, string>): Promise<void> {
    const peer = await router.whenUp(holder.worker, START_WAIT_MS);
    if (this.ended) return;
    if (peer === undefined) return this.fail(`worker ${holder.worker} of this server, which holds the fork, is not running (it did not start within ${START_WAIT_MS / 1000} s); fork again`);
    const inner = new WebSocket(`ws://127.0.0.1:${peer.port}${path}`, {
      headers: { ...headers, ...router.handOverHeaders(), [FORK_HEADER]: holder.token },
      perMessageDeflate: false,
      maxPayload: 0,
    });
    this.inner = inner;
    inner.on('open', () => {
      for (const data of this.queue.splice(0)) inner.send(data);
    });
    inner.on('message', (data: Buffer, binary: boolean) => {
      if (this.client.readyState === OPEN) this.client.send(data, { binary });
    });
    inner.on('unexpected-response', (_req, res) => {
      res.resume();
      this.fail(`worker ${holder.worker} of this server, which holds the fork, refused the connection (${res.statusCode}); fork again`);
    });
    inner.on('error', () => {});
    inner.on('close', (code: number, reason: Buffer) => {
      if (this.client.readyState !== OPEN) return;
      // No close frame from the holder: it exited.
      if (code === 1005 || code === 1006) this.client.close(1011, `worker ${holder.worker} of this server exited; the session is lost, reconnect to start a new one`);
      else this.client.close(code, reason.toString());
    });
  }

  /** The relay cannot go on: the client is told why (an error frame, as for the reset it sent), then closed. */
  private fail(message: string): void {
    if (this.client.readyState === OPEN) {
      this.client.send(errorFrame('SESSION_ERROR', message));
      this.client.close(1011, 'fork unreachable');
    }
    this.end();
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
