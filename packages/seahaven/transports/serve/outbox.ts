/**
 * The last step of a WebSocket reply: writing it to its socket. While the scheduler runs a turn, replies are held
 * here and written together when the turn yields (or once they have waited `flushMs`, or before a job of a session
 * whose jobs usually take long; the scheduler decides): the tool calls of a turn then run back to back, and so do the
 * socket writes, which keeps both hot in the CPU's caches and lets one wake-up of a client process pick up several
 * replies. Outside a turn a reply goes out at once.
 */

/** A reply to write: JSON text, or its UTF-8 bytes (sent as a text frame all the same). */
export type Reply = string | Buffer<ArrayBuffer>;

/** The socket of a WebSocket session, as replies are written to it (`ws`'s `WebSocket` is one). */
export interface ReplySocket {
  readonly readyState: number;
  send(data: Reply, options: { binary: boolean }): void;
}

const OPEN = 1;
// Replies given as bytes are still text frames.
const TEXT = { binary: false };

function write(socket: ReplySocket, reply: Reply): void {
  if (socket.readyState === OPEN) socket.send(reply, TEXT);
}

export class Outbox {
  /** Whether replies are held (the scheduler runs a turn). */
  holding = false;
  /** `performance.now()` when the oldest held reply was sent here. */
  heldSince = 0;
  /** Held replies as pairs: the socket, then the reply. */
  private held: (ReplySocket | Reply)[] = [];

  /** Whether any reply is held. */
  get pending(): boolean {
    return this.held.length > 0;
  }

  /** Write `reply` to `socket`: at once outside a turn, else with the turn's other replies, in the order given. */
  send(socket: ReplySocket, reply: Reply): void {
    if (!this.holding) return write(socket, reply);
    if (this.held.length === 0) this.heldSince = performance.now();
    this.held.push(socket, reply);
  }

  /** Write every held reply now (at the end of a turn, and before a socket closes, so its last replies go first). */
  flush(): void {
    const held = this.held;
    if (held.length === 0) return;
    this.held = [];
    for (let i = 0; i < held.length; i += 2) {
      try {
        write(held[i] as ReplySocket, held[i + 1] as Reply);
      } catch {
        // A socket that fails to write is closing; its close event ends the session.
      }
    }
  }
}
