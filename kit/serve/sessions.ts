/**
 * Sessions: one instance each, owned by a WebSocket, an HTTP session id, an OpenEnv JSON-RPC session or an MCP
 * Streamable HTTP session. The registry counts them all against one capacity, finds them by id, and reaps the idle ones.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Instance } from '../instance.ts';
import type { Task } from '../task.ts';
import type { ReplySocket } from './outbox.ts';
import { CapacityError } from './capacity-error.ts';
import type { WorkerPlaces } from './places.ts';
import type { RewardMode } from './reset.ts';

// The transports import it from here, with the registry that raises it.
export { CapacityError };

/**
 * Who drives a session: a WebSocket connection, HTTP `/reset`·`/step`·`/state`, OpenEnv JSON-RPC session ids on
 * `POST /mcp`, an MCP Streamable HTTP client (`Mcp-Session-Id`), or the key of a world's HTTP face that no other
 * session holds (face-routes.ts).
 */
export type SessionOwner = 'ws' | 'http' | 'mcp' | 'mcp-http' | 'http-key';

/** Whether HTTP requests and JSON-RPC session ids may drive a session (the others belong to a connection or an MCP client). */
export function sharedOverHttp(s: Session): boolean {
  return s.owner === 'http' || s.owner === 'mcp';
}

/** Why a session ends. */
export type EndReason = 'close' | 'disconnect' | 'idle' | 'shutdown' | 'replaced';

/**
 * Work that runs in slices (a long clock advance): the scheduler calls `resume()` once in each of the session's turns,
 * until it answers true (done); the session's later jobs wait behind it, other sessions take their turns between.
 */
export interface Slices {
  resume(): boolean;
}

/** What a job may answer: nothing (done), a promise (done when it settles), or `Slices` (to be resumed). */
export type JobResult = void | Promise<void> | Slices;

/** A queued unit of work: a WebSocket frame's text, or a closure from an HTTP handler. */
export type Job = string | (() => JobResult);

/**
 * The endpoint (endpoint.ts) a session belongs to, as sessions need it: something to group sessions by, the world's
 * name, and what answers the session's WebSocket frames when the scheduler runs them. Named here rather than
 * imported, since the endpoint opens sessions and builds on this module.
 */
export interface SessionEndpoint {
  readonly name: string;
  /**
   * Answer one WebSocket frame of `session`, writing the reply to its socket; a promise while the answer is pending,
   * `Slices` for work the scheduler resumes turn by turn.
   */
  answerFrame(session: Session, text: string): JobResult;
}

/** @internal The counters of an episode in play, set together by `Session.play`. */
export interface EpisodeCounters {
  episodeId: string;
  task: Task | null;
  rewardMode: RewardMode;
  /** Default 0 (a fork carries the original's). */
  stepCount?: number;
  /** Default 0 (a fork carries the original's). */
  lastReward?: number;
  /** The episode lists a `submit` tool (reset `submit_tool`). Default false (a fork carries the original's). */
  submitTool?: boolean;
  /** What a `resolveReset` hook attached to the episode. */
  context?: unknown;
}

/** One client's episode: its instance plus the protocol counters around it. */
export class Session {
  readonly id: string;
  /** @internal The world's endpoint the session belongs to. */
  readonly endpoint: SessionEndpoint;
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
  /** The episode lists a `submit` tool beside the world's (reset `submit_tool`). */
  submitTool = false;
  /** What a `resolveReset` hook attached to this episode. */
  context: unknown = undefined;
  /** The episode has been submitted at least once. */
  graded = false;
  /** The episode's reset presented the grader token: `grade` and `submit` answer whole grades, not the agent view. */
  wholeGrades = false;
  closed = false;
  /** @internal The session's queue: work waiting to run, in arrival order. */
  readonly jobs: Job[] = [];
  /** @internal Index of the next job in `jobs`. */
  head = 0;
  /** @internal In the scheduler's ready list. */
  queued = false;
  /** @internal Running an asynchronous job. */
  busy = false;
  /** @internal A job running in slices, resumed in the session's turns before its next job. */
  slices: Slices | null = null;
  /** @internal That job answers a WebSocket frame (a reset waiting on a hook): a reply the client still waits for. */
  answering = false;
  /** @internal Rejects the HTTP request whose job is running asynchronously, so it is answered if the session ends first. */
  abort: (() => void) | null = null;
  /** @internal WebSocket frames the session ended without answering (queued, or being answered): the transport answers each. */
  unanswered = 0;
  /** @internal How long this session's jobs take, in milliseconds (a moving average). */
  jobMs = 0;
  /** @internal The WebSocket the session's replies are written to (outbox.ts); null for sessions of other transports. */
  socket: ReplySocket | null = null;
  /** @internal Called once when the session ends for any reason but a disconnect (the transport closes its socket). */
  onEnd: ((reason: EndReason) => void) | null = null;

  /** @internal Sessions are opened by the server. */
  constructor(id: string, endpoint: SessionEndpoint, owner: SessionOwner, inst: Instance, episodeId: string) {
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

  /** @internal Take the next job off the queue. */
  nextJob(): Job {
    const job = this.jobs[this.head];
    this.jobs[this.head++] = '';
    if (this.head === this.jobs.length) {
      this.jobs.length = 0;
      this.head = 0;
    }
    return job;
  }

  /**
   * @internal Put an episode in play: its instance and every counter around it, set together (a reset's start from
   * zero; a fork's carry the original's). Returns the instance it replaces, for the caller to destroy.
   */
  play(inst: Instance, episode: EpisodeCounters): Instance {
    const replaced = this.inst;
    this.inst = inst;
    this.episodeId = episode.episodeId;
    this.task = episode.task;
    this.rewardMode = episode.rewardMode;
    this.stepCount = episode.stepCount ?? 0;
    this.lastReward = episode.lastReward ?? 0;
    this.submitTool = episode.submitTool ?? false;
    this.context = episode.context;
    this.graded = false;
    return replaced;
  }

  /** @internal A new session of `owner`, playing a fork of this one's episode: what it did so far, counters included. */
  fork(id: string, owner: SessionOwner): Session {
    const inst = this.inst.fork();
    const fork = new Session(id, this.endpoint, owner, inst, randomUUID());
    fork.play(inst, { episodeId: fork.episodeId, task: this.task, rewardMode: this.rewardMode, stepCount: this.stepCount, lastReward: this.lastReward, submitTool: this.submitTool });
    return fork;
  }
}

/**
 * @internal An episode a `fork` step snapshotted: its instance, attached to no session, held under a token until a
 * reset adopts it (once), it expires, or the server shuts down.
 */
export interface HeldFork {
  readonly token: string;
  readonly endpoint: SessionEndpoint;
  readonly inst: Instance;
  /** The origin's episode id (the adopting reset reports it as `forked_from`) and the counters the branch carries on. */
  readonly origin: { episodeId: string; task: Task | null; rewardMode: RewardMode; stepCount: number; lastReward: number; submitTool: boolean };
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
  private readonly forks = new Map<string, { fork: HeldFork; timer: ReturnType<typeof setTimeout> }>();
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
  constructor(options: { maxSessions: number; idleTimeoutMs: number; hibernateAfterMs?: number; forkTtlMs?: number; logger?: (line: string) => void }) {
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
    if (this.places !== null) return this.places.ensureRoom(here, this.maxSessions, this.forks.size);
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
      this.spend(token, `fork token expired after ${this.forkTtlMs / 1000} s without being adopted; adopt a fork sooner after its fork step, or start the server with a higher --fork-ttl-ms`);
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
      if (this.spent.get(token) === undefined && worker !== null && !token.startsWith('fork_' + this.idPrefix)) {
        return `fork token held by worker ${worker[1]} of this server, which is not running it now (--workers); fork again`;
      }
      return this.spent.get(token) ?? 'fork token unknown: this server issued no such token (tokens come from a {"type": "fork"} step and are valid only on the server that issued them)';
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
    this.spend(token, 'fork token already used: a token adopts its fork once; send another {"type": "fork"} step for another branch');
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
    for (const [ep, map] of this.byEndpoint) if (endpoint === undefined || ep === endpoint) yield* map.values();
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
    for (const job of waiting) this.contain(`answering a request of ended session ${session.id}`, job);
    this.contain(`answering the running request of ended session ${session.id}`, () => session.abort?.());
    if (reason !== 'disconnect') this.contain(`closing the transport of session ${session.id}`, () => session.onEnd?.(reason));
    for (const listener of this.endListeners) this.contain(`telling a listener that session ${session.id} ended`, () => listener(session, reason));
  }

  /** @internal Run `fn`, logging what it throws instead of passing it on: for work outside any request (timers, ending sessions). */
  contain(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      try {
        this.logger(`[seahaven] server error ${what} (contained; the server goes on): ${(e as Error)?.stack ?? String(e)}`);
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
    this.reaper = setInterval(() => this.contain('reaping idle sessions', () => void this.reapIdle(performance.now())), every);
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
