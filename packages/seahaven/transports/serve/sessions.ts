/**
 * Sessions: one instance each (session.ts), owned by a WebSocket, an HTTP session id, an OpenEnv JSON-RPC session or an
 * MCP Streamable HTTP session. The registry counts them all against one capacity, finds them by id, and reaps the idle ones.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Instance } from '../../core/instance.ts';
import type { Task } from '../../core/task.ts';
import { CapacityError } from './capacity-error.ts';
import type { WorkerPlaces } from './places.ts';
import type { RewardMode } from './reset.ts';
import type { EndReason, Session, SessionEndpoint } from './session.ts';

// The transports import it from here, with the registry that raises it.
export { CapacityError };
// And the session and its types, with the registry that holds them.
export { Session, sharedOverHttp } from './session.ts';
export type {
  EndReason,
  Job,
  JobResult,
  SessionEndpoint,
  SessionOwner,
  Slices,
} from './session.ts';

/**
 * @internal An episode a `fork` step snapshotted: its instance, attached to no session, held under a token until a
 * reset adopts it (once), it expires, or the server shuts down.
 */
export interface HeldFork {
  readonly token: string;
  readonly endpoint: SessionEndpoint;
  readonly inst: Instance;
  /** The origin's episode id (the adopting reset reports it as `forked_from`) and the counters the branch carries on. */
  readonly origin: {
    episodeId: string;
    task: Task | null;
    rewardMode: RewardMode;
    stepCount: number;
    lastReward: number;
    submitTool: boolean;
  };
}

/** @internal Why a fork token cannot be adopted, in words for the client. */
export type ForkRefusal = { refused: string };

/** How many spent fork tokens are remembered, so a late or repeated one is told "already used" or "expired", not "unknown". */
const SPENT_MEMORY = 4096;

/** The default of `--max-sessions`. */
export const DEFAULT_MAX_SESSIONS = 4096;

/** Every open session of a server, across its worlds. */
export class SessionRegistry {
  readonly maxSessions: number;
  /** Idle sessions are reaped after this many milliseconds without a request; 0 = never. */
  readonly idleTimeoutMs: number;
  /** Sessions idle this long give their SQLite connection back (`inst.hibernate()`); 0 = never. */
  readonly hibernateAfterMs: number;
  /** How long a fork is held for adoption, in milliseconds. */
  readonly forkTtlMs: number;
  private readonly byEndpoint = new Map<SessionEndpoint, Map<string, Session>>();
  private count = 0;
  private reaper: ReturnType<typeof setInterval> | null = null;
  private readonly endListeners: ((session: Session, reason: EndReason) => void)[] = [];
  /** Forks waiting to be adopted, by token, with the timer that ends their wait. */
  private readonly forks = new Map<
    string,
    { fork: HeldFork; timer: ReturnType<typeof setTimeout> }
  >();
  /** Tokens used up or expired lately, with what a client presenting one again is told (oldest first, bounded). */
  private readonly spent = new Map<string, string>();
  /**
   * @internal In a worker of a `--workers` server: the places under `maxSessions` the primary granted this worker
   * (places.ts), which it fills instead of the whole limit. Null in a single process.
   */
  private places: WorkerPlaces | null = null;
  /** @internal Prefix of the session ids this registry makes (a cluster worker's tag, so an id names its worker); '' in a single process. */
  idPrefix = '';
  /** @internal Told whenever the count of sessions and held forks changes (a cluster worker reports it to the primary). */
  onCountChange: ((count: number) => void) | null = null;
  /**
   * Where failures of the registry's own timers and of ending a session are logged: they run outside any request, so
   * nothing else would catch them, and one throwing out of a timer would end the process with every session.
   */
  private readonly logger: (line: string) => void;
  /** Instances whose hibernation failed (a bug, logged): they stay awake. */
  private readonly sleepless = new WeakSet<Instance>();

  /** @internal `createApp` makes the registry. */
  constructor(options: {
    maxSessions: number;
    idleTimeoutMs: number;
    hibernateAfterMs?: number;
    forkTtlMs?: number;
    logger?: (line: string) => void;
  }) {
    this.logger = options.logger ?? ((line) => console.error(line));
    this.maxSessions = options.maxSessions;
    this.idleTimeoutMs = options.idleTimeoutMs;
    this.hibernateAfterMs = options.hibernateAfterMs ?? 0;
    this.forkTtlMs = options.forkTtlMs ?? 60_000;
  }

  /** Open sessions. */
  get size(): number {
    return this.count;
  }

  /** Forks held for adoption; each counts against `maxSessions` like a session. */
  get heldForks(): number {
    return this.forks.size;
  }

  /** @internal Throw a `CapacityError` unless one more session (or held fork) fits, `freeing` places about to be given back aside. */
  ensureRoom(freeing = 0): void {
    const here = this.count + this.forks.size - freeing;
    if (this.places !== null)
      return this.places.ensureRoom(here, this.maxSessions, this.forks.size);
    if (here >= this.maxSessions) throw new CapacityError(here, this.maxSessions, this.forks.size);
  }

  /** @internal Fill the places the primary of a `--workers` server granted this worker, not the whole limit (cluster.ts). */
  usePlaces(places: WorkerPlaces): void {
    this.places = places;
    places.used = () => this.count + this.forks.size;
  }

  /** @internal A fresh session id: a UUID, after the worker's tag in a `--workers` server. */
  newId(): string {
    return this.idPrefix + randomUUID();
  }

  /** Sessions and held forks of this process: what counts against `maxSessions` here. */
  get used(): number {
    return this.count + this.forks.size;
  }

  private changed(): void {
    this.onCountChange?.(this.count + this.forks.size);
    this.places?.settle();
  }

  /**
   * @internal Hold a forked instance for adoption under a fresh token, for `forkTtlMs` (capacity checked by the caller
   * with `ensureRoom`). On expiry the instance is destroyed and the token remembered as expired.
   */
  hold(endpoint: SessionEndpoint, inst: Instance, origin: HeldFork['origin']): HeldFork {
    const token = 'fork_' + this.idPrefix + randomBytes(18).toString('base64url');
    const fork: HeldFork = { token, endpoint, inst, origin };
    const timer = setTimeout(() => {
      if (this.forks.get(token)?.fork !== fork) return;
      this.forks.delete(token);
      this.contain(`destroying expired fork ${inst.id}`, () => inst.destroy());
      this.changed();
      this.spend(
        token,
        `fork token expired after ${this.forkTtlMs / 1000} s without being adopted; adopt a fork sooner after its fork step, or start the server with a higher --fork-ttl-ms`,
      );
    }, this.forkTtlMs);
    timer.unref();
    this.forks.set(token, { fork, timer });
    this.changed();
    return fork;
  }

  /** @internal Whether a fork is held here under `token` (a connection come to adopt it takes its place). */
  holdsFork(token: string): boolean {
    return this.forks.has(token);
  }

  /** @internal Why `adoptFork` would refuse `token` for `endpoint`, or undefined if it would not; nothing changes. */
  forkRefusal(endpoint: SessionEndpoint, token: string): string | undefined {
    const held = this.forks.get(token);
    if (held === undefined) {
      const worker = /^fork_w(\d+)-/.exec(token);
      if (
        this.spent.get(token) === undefined &&
        worker !== null &&
        !token.startsWith('fork_' + this.idPrefix)
      ) {
        return `fork token held by worker ${worker[1]} of this server, which is not running it now (--workers); fork again`;
      }
      return (
        this.spent.get(token) ??
        'fork token unknown: this server issued no such token (tokens come from a {"type": "fork"} step and are valid only on the server that issued them)'
      );
    }
    if (held.fork.endpoint !== endpoint) {
      return `fork token belongs to world "${held.fork.endpoint.name}", not "${endpoint.name}"; forks cannot cross worlds, so reset on /${held.fork.endpoint.name}/ws (or /${held.fork.endpoint.name}/reset)`;
    }
    return undefined;
  }

  /**
   * @internal Take the fork held under `token` for a session of `endpoint`: it is no longer held (nor counted), and the
   * token is spent. A refusal (unknown, used, expired, another world's) leaves everything as it was.
   */
  adoptFork(endpoint: SessionEndpoint, token: string): HeldFork | ForkRefusal {
    const refused = this.forkRefusal(endpoint, token);
    if (refused !== undefined) return { refused };
    const held = this.forks.get(token)!;
    clearTimeout(held.timer);
    this.forks.delete(token);
    this.changed();
    this.spend(
      token,
      'fork token already used: a token adopts its fork once; send another {"type": "fork"} step for another branch',
    );
    return held.fork;
  }

  private spend(token: string, why: string): void {
    this.spent.set(token, why);
    if (this.spent.size > SPENT_MEMORY) this.spent.delete(this.spent.keys().next().value!);
  }

  /** Destroy every held fork (shutdown). */
  private releaseForks(): void {
    for (const { fork, timer } of this.forks.values()) {
      clearTimeout(timer);
      this.contain(`destroying held fork ${fork.inst.id}`, () => fork.inst.destroy());
    }
    const had = this.forks.size;
    this.forks.clear();
    if (had > 0) this.changed();
  }

  /** @internal Register a new session (capacity checked by the caller with `ensureRoom`). */
  add(session: Session): void {
    let map = this.byEndpoint.get(session.endpoint);
    if (!map) this.byEndpoint.set(session.endpoint, (map = new Map()));
    map.set(session.id, session);
    this.count++;
    this.changed();
  }

  /** Call `listener` whenever a session ends (after its instance is destroyed). */
  onSessionEnd(listener: (session: Session, reason: EndReason) => void): void {
    this.endListeners.push(listener);
  }

  /** @internal The session `id` of an endpoint, if open. */
  get(endpoint: SessionEndpoint, id: string): Session | undefined {
    return this.byEndpoint.get(endpoint)?.get(id);
  }

  /** Every open session. */
  list(): IterableIterator<Session>;
  /** @internal Every open session of one endpoint. */
  list(endpoint?: SessionEndpoint): IterableIterator<Session>;
  *list(endpoint?: SessionEndpoint): IterableIterator<Session> {
    for (const [ep, map] of this.byEndpoint)
      if (endpoint === undefined || ep === endpoint) yield* map.values();
  }

  /** End a session: destroy its instance, drop its queued work, and tell its transport (unless it disconnected). */
  end(session: Session, reason: EndReason): void {
    if (session.closed) return;
    session.closed = true;
    // Closures come from HTTP handlers waiting on a reply: run them so they see `closed` and answer instead of hanging.
    // Frames are counted, and their transport answers each before it closes.
    const left = session.jobs.slice(session.head);
    const waiting = left.filter((j) => typeof j !== 'string') as (() => void)[];
    session.unanswered = left.length - waiting.length + (session.answering ? 1 : 0);
    session.jobs.length = 0;
    session.head = 0;
    const map = this.byEndpoint.get(session.endpoint);
    if (map?.get(session.id) === session) {
      map.delete(session.id);
      this.count--;
      this.changed();
    }
    this.contain(`destroying the instance of session ${session.id}`, () => session.inst.destroy());
    for (const job of waiting)
      this.contain(`answering a request of ended session ${session.id}`, job);
    this.contain(`answering the running request of ended session ${session.id}`, () =>
      session.abort?.(),
    );
    if (reason !== 'disconnect')
      this.contain(`closing the transport of session ${session.id}`, () => session.onEnd?.(reason));
    for (const listener of this.endListeners)
      this.contain(`telling a listener that session ${session.id} ended`, () =>
        listener(session, reason),
      );
  }

  /** @internal Run `fn`, logging what it throws instead of passing it on: for work outside any request (timers, ending sessions). */
  contain(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      try {
        this.logger(
          `[seahaven] server error ${what} (contained; the server goes on): ${(e as Error)?.stack ?? String(e)}`,
        );
      } catch {
        // A logger that throws must not undo the containing.
      }
    }
  }

  /** @internal Start reaping sessions idle for longer than `idleTimeoutMs`, and hibernating those idle for `hibernateAfterMs` (`startServer` does). */
  startReaper(): void {
    if (this.reaper !== null) return;
    const periods = [this.idleTimeoutMs, this.hibernateAfterMs].filter((ms) => ms > 0);
    if (periods.length === 0) return;
    const every = Math.max(50, Math.min(Math.min(...periods) / 4, 30_000));
    this.reaper = setInterval(
      () => this.contain('reaping idle sessions', () => void this.reapIdle(performance.now())),
      every,
    );
    this.reaper.unref();
  }

  /**
   * @internal End every session idle since before `now - idleTimeoutMs`, and hibernate those idle since before
   * `now - hibernateAfterMs` (their next request reopens the database: about one reset's worth of time). Returns how
   * many ended.
   */
  reapIdle(now: number): number {
    let n = 0;
    for (const s of [...this.list()]) {
      if (s.busy || s.pending !== 0) continue;
      const idle = now - s.lastActive;
      // One session that cannot be ended or hibernated (a bug) is logged and left; the others are reaped all the same.
      if (this.idleTimeoutMs > 0 && idle > this.idleTimeoutMs) {
        this.end(s, 'idle');
        n++;
      } else if (this.hibernateAfterMs > 0 && idle > this.hibernateAfterMs && s.inst.awake) {
        // An instance that failed to hibernate once is not asked again: its failure is logged once, not at every tick.
        if (this.sleepless.has(s.inst)) continue;
        this.contain(`hibernating session ${s.id}`, () => {
          try {
            s.inst.hibernate();
          } catch (e) {
            this.sleepless.add(s.inst);
            throw e;
          }
        });
      }
    }
    return n;
  }

  /** Stop the reaper, end every session and destroy every held fork. */
  endAll(reason: EndReason): void {
    if (this.reaper !== null) clearInterval(this.reaper);
    this.reaper = null;
    for (const s of [...this.list()]) this.end(s, reason);
    this.releaseForks();
  }
}
