/**
 * A raw-frame WebSocket probe for protocol tests: send exact frames, read exact replies (text and parsed). OpenEnv
 * frames are text: a binary frame from the server fails the read that meets it.
 */
import WebSocket from 'ws';

export interface Frame {
  text: string;
  json: any;
}

export class WireProbe {
  readonly ws: WebSocket;
  /** Resolves with the close code and reason once the socket closes. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly inbox: (Frame | Error)[] = [];
  private waiter: ((f: Frame | Error) => void) | null = null;
  /** Set once the socket has closed: a read with nothing queued then fails at once instead of waiting out its time. */
  private closedWith: Error | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      const text = data.toString();
      const frame = isBinary
        ? new Error(
            `the server sent a binary frame (${text.slice(0, 80)}…); OpenEnv frames are text`,
          )
        : { text, json: JSON.parse(text) };
      if (!this.deliver(frame)) this.inbox.push(frame);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closedWith = new Error(
          `the socket closed (${code}${reason.length ? ` ${reason}` : ''}) before a frame arrived`,
        );
        this.deliver(this.closedWith);
        resolve({ code, reason: reason.toString() });
      }),
    );
  }

  /** Hand `f` to the read waiting for it, if one is; whether one was. */
  private deliver(f: Frame | Error): boolean {
    const w = this.waiter;
    if (w === null) return false;
    this.waiter = null;
    w(f);
    return true;
  }

  /** Connect to `url` (`ws://…/ws`), resolving once open. */
  static open(url: string, headers: Record<string, string> = {}): Promise<WireProbe> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const probe = new WireProbe(ws);
      ws.once('open', () => resolve(probe));
      ws.once('error', reject);
    });
  }

  /** Send a frame: objects as JSON, strings as they are. */
  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next frame received; fails if none arrives within `timeoutMs`, or once the socket has closed. */
  next(timeoutMs = 5000): Promise<Frame> {
    const queued = this.inbox.shift();
    if (queued) return queued instanceof Error ? Promise.reject(queued) : Promise.resolve(queued);
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`no frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = (f) => {
        clearTimeout(timer);
        if (f instanceof Error) reject(f);
        else resolve(f);
      };
    });
  }

  /** Send a frame and parse the reply. */
  async ask(frame: unknown): Promise<any> {
    this.send(frame);
    return (await this.next()).json;
  }

  /** Close from the client side and wait for the socket to close. */
  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    await this.closed;
  }
}

/** The `/ws` URL of a server at `url` (its OpenEnv base URL), under a world's `prefix` if given. */
export function wsUrlOf(url: string, prefix = ''): string {
  return `${url.replace('http', 'ws')}${prefix}/ws`;
}

/** A `call_tool` step frame. */
export function callFrame(
  tool_name: string,
  args: Record<string, unknown> = {},
): {
  type: 'step';
  data: { type: 'call_tool'; tool_name: string; arguments: Record<string, unknown> };
} {
  return { type: 'step', data: { type: 'call_tool', tool_name, arguments: args } };
}

/** A probe on `url` that has reset to `data` (default: `small_startup`, seed 1) and read the reset's observation. */
export async function openReset(
  url: string,
  data: Record<string, unknown> = { fixture: 'small_startup', seed: 1 },
): Promise<WireProbe> {
  const p = await WireProbe.open(url);
  const r = await p.ask({ type: 'reset', data });
  if (r.type !== 'observation') throw new Error(`reset answered ${JSON.stringify(r)}`);
  return p;
}
