/**
 * Sessions: one instance each, owned by a WebSocket, an HTTP session id, an OpenEnv JSON-RPC session or an MCP
 * Streamable HTTP session. The registry counts them all against one capacity, finds them by id, and reaps the idle ones.
 */
import type { Instance } from '../instance.ts';
import type { Task } from '../task.ts';
import type { RewardMode } from './reset.ts';
import type { Endpoint } from './endpoint.ts';

/**
 * Who drives a session: a WebSocket connection, HTTP `/reset`·`/step`·`/state`, OpenEnv JSON-RPC session ids on
 * `POST /mcp`, or an MCP Streamable HTTP client (`Mcp-Session-Id`).
 */
export type SessionOwner = 'ws' | 'http' | 'mcp' | 'mcp-http';

/** Whether HTTP requests and JSON-RPC session ids may drive a session (the others belong to a connection or an MCP client). */
export function sharedOverHttp(s: Session): boolean {
  return s.owner === 'http' || s.owner === 'mcp';
}

/** Why a session ends. */
export type EndReason = 'close' | 'disconnect' | 'idle' | 'shutdown' | 'replaced';

/** A queued unit of work: a WebSocket frame's text, or a closure from an HTTP handler. */
export type Job = string | (() => void | Promise<void>);

/** One client's episode: its instance plus the protocol counters around it. */
export class Session {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly owner: SessionOwner;
  /** Wall-clock creation time (epoch ms), for operators. */
  readonly createdAt: number;
  inst: Instance;
  episodeId: string;
  /** Steps since the last reset; frames refused by validation do not count. */
  stepCount = 0;
  /** `performance.now()` of the last request, for the idle reaper. */
  lastActive: number;
  task: Task | null = null;
  rewardMode: RewardMode = 'final';
  /** The grade reward last reported in shaped mode. */
  lastReward = 0;
  /** What a `resolveReset` hook attached to this episode. */
  context: unknown = undefined;
  /** The episode has been submitted at least once. */
  graded = false;
  closed = false;
  /** @internal Work waiting to run, in arrival order. */
  readonly jobs: Job[] = [];
  /** @internal Index of the next job in `jobs`. */
  head = 0;
  /** @internal In the scheduler's ready list. */
  queued = false;
  /** @internal Running an asynchronous job. */
  busy = false;
  /** @internal How long this session's jobs take, in milliseconds (a moving average). */
  jobMs = 0;
  /** @internal Runs a frame job (set by the WebSocket transport). */
  onFrame: ((text: string) => void | Promise<void>) | null = null;
  /** @internal Answers a request whose job failed (the scheduler has logged it): `message` is what the client may see. */
  onFailure: ((message: string) => void) | null = null;
  /** @internal Called once when the session ends for any reason but a disconnect (the transport closes its socket). */
  onEnd: ((reason: EndReason) => void) | null = null;

  constructor(id: string, endpoint: Endpoint, owner: SessionOwner, inst: Instance, episodeId: string) {
    this.id = id;
    this.endpoint = endpoint;
    this.owner = owner;
    this.inst = inst;
    this.episodeId = episodeId;
    this.createdAt = Date.now();
    this.lastActive = performance.now();
  }

  /** Jobs waiting to run. */
  get pending(): number {
    return this.jobs.length - this.head;
  }

  /** @internal Run the next job; a returned promise means the session is busy until it settles. Closures always run (they check `closed`). */
  runNext(): void | Promise<void> {
    const job = this.jobs[this.head];
    this.jobs[this.head++] = '';
    if (this.head === this.jobs.length) {
      this.jobs.length = 0;
      this.head = 0;
    }
    if (typeof job !== 'string') return job();
    if (!this.closed) return this.onFrame?.(job);
  }
}

/** Raised when the registry is full. */
export class CapacityError extends Error {
  readonly activeSessions: number;
  readonly maxSessions: number;
  constructor(active: number, max: number) {
    super(`server at capacity: ${active} of ${max} sessions are open; close a session or start the server with a higher --max-sessions`);
    this.name = 'CapacityError';
    this.activeSessions = active;
    this.maxSessions = max;
  }
}

/** Every open session of a server, across its worlds. */
export class SessionRegistry {
  readonly maxSessions: number;
  /** Idle sessions are reaped after this many milliseconds without a request; 0 = never. */
  readonly idleTimeoutMs: number;
  /** Sessions idle this long give their SQLite connection back (`inst.hibernate()`); 0 = never. */
  readonly hibernateAfterMs: number;
  private readonly byEndpoint = new Map<Endpoint, Map<string, Session>>();
  private count = 0;
  private reaper: ReturnType<typeof setInterval> | null = null;
  private readonly endListeners: ((session: Session, reason: EndReason) => void)[] = [];

  constructor(options: { maxSessions: number; idleTimeoutMs: number; hibernateAfterMs?: number }) {
    this.maxSessions = options.maxSessions;
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.hibernateAfterMs = options.hibernateAfterMs ?? 0;
  }

  /** Open sessions. */
  get size(): number {
    return this.count;
  }

  /** Throw a `CapacityError` unless one more session fits. */
  ensureRoom(): void {
    if (this.count >= this.maxSessions) throw new CapacityError(this.count, this.maxSessions);
  }

  /** @internal Register a new session (capacity checked by the caller with `ensureRoom`). */
  add(session: Session): void {
    let map = this.byEndpoint.get(session.endpoint);
    if (!map) this.byEndpoint.set(session.endpoint, (map = new Map()));
    map.set(session.id, session);
    this.count++;
  }

  /** Call `listener` whenever a session ends (after its instance is destroyed). */
  onSessionEnd(listener: (session: Session, reason: EndReason) => void): void {
    this.endListeners.push(listener);
  }

  /** The session `id` of an endpoint, if open. */
  get(endpoint: Endpoint, id: string): Session | undefined {
    return this.byEndpoint.get(endpoint)?.get(id);
  }

  /** Every open session, optionally of one endpoint. */
  *list(endpoint?: Endpoint): IterableIterator<Session> {
    for (const [ep, map] of this.byEndpoint) if (endpoint === undefined || ep === endpoint) yield* map.values();
  }

  /** End a session: destroy its instance, drop its queued work, and tell its transport (unless it disconnected). */
  end(session: Session, reason: EndReason): void {
    if (session.closed) return;
    session.closed = true;
    // Closures come from HTTP handlers waiting on a reply: run them so they see `closed` and answer instead of hanging.
    const waiting = session.jobs.slice(session.head).filter((j) => typeof j !== 'string') as (() => void)[];
    session.jobs.length = 0;
    session.head = 0;
    const map = this.byEndpoint.get(session.endpoint);
    if (map?.get(session.id) === session) {
      map.delete(session.id);
      this.count--;
    }
    session.inst.destroy();
    for (const job of waiting) job();
    if (reason !== 'disconnect') session.onEnd?.(reason);
    for (const listener of this.endListeners) listener(session, reason);
  }

  /** Start reaping sessions idle for longer than `idleTimeoutMs`, and hibernating those idle for `hibernateAfterMs`. */
  startReaper(): void {
    if (this.reaper !== null) return;
    const periods = [this.idleTimeoutMs, this.hibernateAfterMs].filter((ms) => ms > 0);
    if (periods.length === 0) return;
    const every = Math.max(50, Math.min(Math.min(...periods) / 4, 30_000));
    this.reaper = setInterval(() => this.reapIdle(performance.now()), every);
    this.reaper.unref();
  }

  /**
   * End every session idle since before `now - idleTimeoutMs`, and hibernate those idle since before
   * `now - hibernateAfterMs` (their next request reopens the database: about one reset's worth of time). Returns how
   * many ended.
   */
  reapIdle(now: number): number {
    let n = 0;
    for (const s of [...this.list()]) {
      if (s.busy || s.pending !== 0) continue;
      const idle = now - s.lastActive;
      if (this.idleTimeoutMs > 0 && idle > this.idleTimeoutMs) {
        this.end(s, 'idle');
        n++;
      } else if (this.hibernateAfterMs > 0 && idle > this.hibernateAfterMs && s.inst.awake) {
        s.inst.hibernate();
      }
    }
    return n;
  }

  /** Stop the reaper and end every session. */
  endAll(reason: EndReason): void {
    if (this.reaper !== null) clearInterval(this.reaper);
    this.reaper = null;
    for (const s of [...this.list()]) this.end(s, reason);
  }
}
