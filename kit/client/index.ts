/**
 * Drive a world served by `seahaven serve` from TypeScript: one `SeahavenClient` is one WebSocket session with its own
 * private instance. Requests are answered in order; each has a timeout; protocol errors reject with a
 * `ClientError`, while a failed tool call is data (`{ ok: false, error }`), like `inst.call()` in process.
 *
 * @example
 * import { SeahavenClient } from 'seahaven/client';
 * await using env = await SeahavenClient.connect('http://127.0.0.1:8000');
 * await env.reset({ fixture: 'small_startup', seed: 1 });
 * const r = await env.call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' });
 * if (r.ok) console.log((await env.state()).changes);
 * await using branch = await env.fork(); // a second session, continuing from here on its own
 *
 * Given several base URLs (or a `HostPool`), sessions spread over the servers, fewest sessions first; a refused
 * connection moves on to the next host, and a lost one rejects with `LOST` (the episode is not replayed) until the
 * next `reset()` starts a new episode on another host. `env.host` names the server of the current episode.
 *
 * @module seahaven/client
 */
import WebSocket from 'ws';
import type { StateDocument, ToolFailure } from '../instance.ts';
import type { AgentGrade, Grade } from '../task.ts';
import { ClientError } from './errors.ts';
import { HostPool, sharedPool } from './hosts.ts';
import type { EpisodeTrace, SubmitOptions } from './trace.ts';
import { fetchTasks, type TaskInfo } from './tasks.ts';
import { wsUrlOf } from './url.ts';

export { ClientError, type ClientErrorCode } from './errors.ts';
export { HostPool, type HostPoolOptions, type HostStatus } from './hosts.ts';
export type { TaskInfo } from './tasks.ts';
export type { EpisodeTrace, SubmitOptions } from './trace.ts';

export interface ConnectOptions {
  /** Milliseconds to wait for each reply (and for the connection). Default 30 000. */
  timeoutMs?: number;
  /** Sent as `Authorization: Bearer <token>` (servers started with `--token`). */
  token?: string;
  /** Extra headers for the upgrade request. */
  headers?: Record<string, string>;
}

/** What `reset` may ask for. */
export interface ResetOptions {
  fixture?: string;
  seed?: number;
  episode_id?: string;
  clock?: 'fixed' | 'tick';
  now?: string;
  task?: string;
  curriculum?: string;
  run_id?: string;
  reward_mode?: 'final' | 'shaped';
  /** Adopt the episode held under this token (from `forkToken()`, on any connection to the same world); comes alone. */
  fork_token?: string;
  /** Play the task at `index` of this split (`all`, a curriculum's name, `tag:<tag>`; `tasks()` and `GET /tasks` list them). */
  split?: string;
  /** The task's position in `split` (default split: `all`). */
  index?: number;
  /** List a `submit` tool the agent calls to end the episode; its result is `{reward, passed}`. Needs a task. */
  submit_tool?: boolean;
  /** With `curriculum`: the first `group_size` resets with this key play one draw (a GRPO group). */
  group?: string;
  /** How many resets share a `group`'s draw, 1 to 1024 (the trainer's `num_generations`). */
  group_size?: number;
  /**
   * The server's grader token (`seahaven serve --grader-token`): `grade()` and `submit()` then answer whole grades,
   * names and reasons included. Without it they answer the agent view. A wrong token is refused.
   */
  grader_token?: string;
}

/**
 * A grade as a served session answers it: the agent view (`AgentGrade`: ids, labels, scores, weights), or, after a
 * reset with the server's `grader_token`, the whole `Grade` with names and reasons.
 */
export type ServedGrade = AgentGrade | Grade;

/** A tool as the server lists it. */
export interface ToolInfo {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** A step reply. */
export interface StepResult<O> {
  observation: O;
  reward: number | null;
  done: boolean;
  metadata: Record<string, unknown>;
}

/** The observation of a reset. */
export interface ResetObservation {
  fixture: string | null;
  seed: number;
  now: string;
  task: { id: string; prompt: string } | null;
  /** After a reset with `fork_token`: the episode id of the session that forked. */
  forked_from?: string;
  tools: ToolInfo[];
}

/** A tool call's outcome: the world's result, or its failure `{code, message, details?}`. */
export type CallOutcome<T = unknown> = { ok: true; result: T } | { ok: false; error: ToolFailure };

/** The session's state: the state document plus OpenEnv's episode id and step count. */
export interface SessionState extends StateDocument {
  episode_id: string;
  step_count: number;
}

/** The reply to `submit`. */
export interface SubmitResult {
  grade: ServedGrade;
  reward: number;
  done: boolean;
  /** The reply's metadata: with a curriculum, `curriculum: { ticket, outcome, stage, transition, mastered }`. */
  metadata: Record<string, unknown>;
  /** With `submit({ trace: true })`: the episode's call log, change log and net changes. */
  trace?: EpisodeTrace;
}

/** A fork held by the server for a reset to adopt (`reset({ fork_token: token })`), once, within `expires_in_s`. */
export interface ForkToken {
  token: string;
  expires_in_s: number;
}

interface Pending {
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
class Link {
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
      msg = { type: 'error', data: { code: 'INVALID_JSON', message: `the server sent a frame that is not JSON: ${text.slice(0, 80)}` } };
    }
    const p = this.pending.shift();
    if (p === undefined) {
      // An error nobody asked for (CAPACITY_REACHED right after connecting): every later request fails with it.
      if (msg.type === 'error') this.failure = new ClientError(String(msg.data?.code), String(msg.data?.message), msg.data ?? {});
      return;
    }
    clearTimeout(p.timer);
    if (p.expired) return;
    if (msg.type === 'error') p.reject(new ClientError(String(msg.data?.code), String(msg.data?.message), msg.data ?? {}));
    else p.resolve(msg.data);
  }
}

/** Open a WebSocket to `url`'s `/ws`; rejects with a `CONNECT` error naming the URL and what went wrong. */
function openLink(url: string, options: ConnectOptions, timeoutMs: number): Promise<Link> {
  const headers = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const target = wsUrlOf(url);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target, { headers, handshakeTimeout: timeoutMs, perMessageDeflate: false });
    ws.once('open', () => resolve(new Link(ws, url)));
    ws.once('unexpected-response', (_req, res) => {
      const hint = res.statusCode === 401 ? '; pass { token } (the server was started with --token)' : '';
      reject(new ClientError('CONNECT', `${target} answered HTTP ${res.statusCode} instead of upgrading${hint}`, { host: url, status: res.statusCode }));
      res.resume();
      ws.terminate();
    });
    ws.on('error', (e) => reject(new ClientError('CONNECT', `cannot connect to ${target}: ${e.message}`, { host: url })));
  });
}

/**
 * Connect to the pool's best host not in `exclude`: the live host with the fewest sessions, else the next; a host
 * that refuses is marked failed and the next one tried. Rejects with `CONNECT` naming every host tried.
 */
async function connectPooled(pool: HostPool, options: ConnectOptions, timeoutMs: number, exclude: ReadonlySet<string> = new Set()): Promise<Link> {
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
  throw new ClientError('CONNECT', `no host took the session${skipped}: ${failures.join('; ') || 'none left to try'}`, { hosts: pool.status() });
}

/** The episode a client is playing: its id, its host and how many requests it has made since its reset. */
interface Episode {
  id: string | null;
  host: string;
  steps: number;
  /** Its submit answered `done`. */
  finished?: boolean;
}

/** A failure that means the connection is gone (or never took the session), not a refusal of one request. */
const connectionGone = (e: unknown) => e instanceof ClientError && ['CLOSED', 'LOST', 'CAPACITY_REACHED', 'SESSION_ERROR'].includes(e.code);

/**
 * One session on a Seahaven (or any OpenEnv) server. Create with `SeahavenClient.connect(url)`, or with several base
 * URLs (`connect([url1, url2, …])` or a `HostPool`) to spread sessions over servers: each client connects to the host
 * with the fewest of the pool's sessions, skips a host that refuses, and after its connection is lost, reports the
 * lost episode (`LOST`) and lets the next `reset()` start a new one on another host.
 */
export class SeahavenClient {
  #link: Link;
  readonly #timeoutMs: number;
  readonly #options: ConnectOptions;
  /** The hosts this client may move between; `null` for a client given one URL (it never reconnects). */
  readonly #pool: HostPool | null;
  #episode: Episode | null = null;
  #closed = false;

  private constructor(link: Link, timeoutMs: number, options: ConnectOptions, pool: HostPool | null) {
    this.#timeoutMs = timeoutMs;
    this.#options = options;
    this.#pool = pool;
    this.#link = this.#attach(link);
  }

  #attach(fresh: Link): Link {
    const host = fresh.host;
    return fresh.bind((link, code, reason) => {
      const pool = this.#pool;
      if (pool !== null) {
        pool.release(host);
        if (!link.closedByClient) pool.markFailed(host, link.failure?.message ?? `the connection closed (${code}${reason ? ` ${reason}` : ''})`);
      }
      const said = link.failure;
      const closed = `the connection closed (${code}${reason.length > 0 ? ` ${reason}` : ''})${said === null ? '' : ` after ${said.code}: ${said.message}`}`;
      // Turned away (capacity, a session error) before an episode started, or one URL only: the server's answer stands.
      if (said !== null && (pool === null || !link.started)) return said;
      if (pool === null || link.closedByClient) return new ClientError('CLOSED', closed);
      return this.#lostError(link, closed, code);
    });
  }

  /** `LOST`: the session on `link`'s host is gone, and with it the episode it was playing (if unfinished). */
  #lostError(link: Link, why: string, closeCode?: number): ClientError {
    const ep = this.#episode;
    const what =
      ep === null ? 'before any episode started' : ep.finished ? `after episode ${ep.id ?? '(no id)'} finished` : `during episode ${ep.id ?? '(no id)'} after ${ep.steps} request(s) since its reset; that episode is lost, never replayed`;
    return new ClientError('LOST', `the session on ${link.host} was lost ${what}: ${why}. reset() starts a new episode on another host`, {
      host: link.host,
      episode_id: ep?.id ?? null,
      steps: ep?.steps ?? 0,
      episode_lost: ep !== null && ep.finished !== true,
      ...(closeCode === undefined ? {} : { close_code: closeCode }),
    });
  }

  /**
   * Open a session. `url` is the server's base URL (`http://127.0.0.1:8000`, or `/…/<world>` for another world), or
   * several of them (or a `HostPool`): the session goes to the host with the fewest of the pool's open sessions, and
   * a host that refuses is skipped for the next one.
   * @example
   * const env = await SeahavenClient.connect('http://127.0.0.1:8000/crm', { timeoutMs: 5000 });
   * const spread = await SeahavenClient.connect(['http://10.0.0.1:8000', 'http://10.0.0.2:8000']);
   * console.log(spread.host); // the one it connected to
   */
  static async connect(url: string | readonly string[] | HostPool, options: ConnectOptions = {}): Promise<SeahavenClient> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (typeof url === 'string') return new SeahavenClient(await openLink(url, options, timeoutMs), timeoutMs, options, null);
    const pool = url instanceof HostPool ? url : sharedPool(url);
    return new SeahavenClient(await connectPooled(pool, options, timeoutMs), timeoutMs, options, pool);
  }

  /** The base URL of the host this session is on (for several hosts: the one it connected to last). */
  get host(): string {
    return this.#link.host;
  }

  /**
   * The tasks the server lists (`GET /tasks` over HTTP, on the host this session is on): id, world, fixture, prompt,
   * difficulty, tags and curriculum stages; never what grades them.
   * @example
   * const tasks = await env.tasks();
   * await env.reset({ task: tasks[0].id });
   */
  tasks(): Promise<TaskInfo[]> {
    const headers: Record<string, string> = { ...this.#options.headers };
    if (this.#options.token !== undefined) headers.authorization = `Bearer ${this.#options.token}`;
    return fetchTasks(this.#link.host, headers, this.#timeoutMs);
  }

  /** The id of the episode started by the last reset (from its metadata), or `null` before one. */
  get episodeId(): string | null {
    return this.#episode?.id ?? null;
  }

  #request<T>(frame: Record<string, unknown>): Promise<T> {
    const link = this.#link;
    if (link.failure !== null) return Promise.reject(link.failure);
    if (link.ws.readyState !== WebSocket.OPEN) {
      // Closing, by the server or the network, before its close event: with several hosts, the session is lost.
      if (this.#pool !== null && !link.closedByClient && !this.#closed) return Promise.reject(this.#lostError(link, 'the connection is closing'));
      return Promise.reject(new ClientError('CLOSED', 'the client is closed; connect again'));
    }
    if (this.#episode !== null) this.#episode.steps++;
    return new Promise<T>((resolve, fail) => {
      // With several hosts, a session the server ended mid-episode (SESSION_ERROR: shutting down) is a lost episode.
      const reject = (e: Error) => fail(this.#pool !== null && link.started && e instanceof ClientError && e.code === 'SESSION_ERROR' ? this.#lostError(link, e.message) : e);
      const p: Pending = {
        resolve,
        reject,
        expired: false,
        timer: setTimeout(() => {
          p.expired = true;
          reject(new ClientError('TIMEOUT', `no reply to ${String(frame.type)} within ${this.#timeoutMs} ms; raise timeoutMs or check the server`, { host: link.host }));
        }, this.#timeoutMs),
      };
      link.pending.push(p);
      link.ws.send(JSON.stringify(frame));
    });
  }

  /** Move to another host of the pool (the old link is gone). */
  async #reconnect(avoid: ReadonlySet<string>): Promise<void> {
    this.#link = this.#attach(await connectPooled(this.#pool!, this.#options, this.#timeoutMs, avoid));
  }

  async #reset(options: ResetOptions): Promise<StepResult<ResetObservation>> {
    const r = await this.#request<StepResult<ResetObservation>>({ type: 'reset', data: options });
    this.#episode = { id: typeof r.metadata?.episode_id === 'string' ? r.metadata.episode_id : null, host: this.#link.host, steps: 0 };
    this.#link.started = true;
    return r;
  }

  /**
   * Start an episode (a fresh private instance). With several hosts, a client whose connection was lost (or that a
   * full server turned away) first connects to another host; a reset refused for that reason is tried on the next
   * host. The episode that was lost is not replayed: the new one starts from its fixture.
   */
  async reset(options: ResetOptions = {}): Promise<StepResult<ResetObservation>> {
    const pool = this.#pool;
    // A fork token names an episode held by one server: it cannot move.
    if (pool === null || this.#closed || options.fork_token !== undefined) return this.#reset(options);
    const tried = new Set<string>();
    for (;;) {
      const link = this.#link;
      if (link.failure !== null || link.ws.readyState !== WebSocket.OPEN) {
        if (link.ws.readyState === WebSocket.OPEN) link.ws.terminate();
        await this.#reconnect(tried);
      }
      try {
        return await this.#reset(options);
      } catch (e) {
        if (!connectionGone(e)) throw e;
        tried.add(this.#link.host);
        if (tried.size >= pool.urls.length) throw e;
      }
    }
  }

  /** The tools of the world. */
  async listTools(): Promise<ToolInfo[]> {
    const r = await this.#request<StepResult<{ tools: ToolInfo[] }>>({ type: 'step', data: { type: 'list_tools' } });
    return r.observation.tools;
  }

  /** Call a tool: `{ ok: true, result }` or `{ ok: false, error: { code, message, details? } }`. */
  async call<T = unknown>(name: string, args: Record<string, unknown> = {}): Promise<CallOutcome<T>> {
    const r = await this.#request<StepResult<{ result: { data: T } | null; error: { error_type: string; message: string } | null }>>({
      type: 'step',
      data: { type: 'call_tool', tool_name: name, arguments: args },
    });
    const obs = r.observation;
    if (obs.error === null && obs.result !== null) return { ok: true, result: obs.result.data };
    const world = r.metadata.seahaven_error as ToolFailure | undefined;
    return { ok: false, error: world ?? { code: obs.error?.error_type ?? 'execution_error', message: obs.error?.message ?? 'the call failed' } };
  }

  /**
   * Let `ms` milliseconds of world time pass (the `advance_clock` action): the world's `onClockAdvance` runs as one
   * recorded call (Stripe World renews subscriptions), and its result or failure comes back like a tool call's.
   */
  async advanceClock<T = unknown>(ms: number): Promise<CallOutcome<T>> {
    const r = await this.#request<StepResult<{ result: { data: T } | null; error: { error_type: string; message: string } | null }>>({ type: 'step', data: { type: 'advance_clock', ms } });
    const obs = r.observation;
    if (obs.error === null && obs.result !== null) return { ok: true, result: obs.result.data };
    const world = r.metadata.seahaven_error as ToolFailure | undefined;
    return { ok: false, error: world ?? { code: obs.error?.error_type ?? 'execution_error', message: obs.error?.message ?? 'the clock advance failed' } };
  }

  /** The session's state document, with `episode_id` and `step_count`. */
  state(): Promise<SessionState> {
    return this.#request({ type: 'state' });
  }

  /**
   * Grade the episode's task (start it with `reset({ task })`). With `{ trace: true }` (after a reset with the
   * server's `grader_token`) the reply also carries the episode's trace, in the same round trip.
   */
  async submit(options: SubmitOptions = {}): Promise<SubmitResult> {
    const r = await this.#request<StepResult<{ grade: ServedGrade; trace?: EpisodeTrace }>>({ type: 'step', data: options.trace === true ? { type: 'submit', trace: true } : { type: 'submit' } });
    if (r.done && this.#episode !== null) this.#episode.finished = true;
    const out: SubmitResult = { grade: r.observation.grade, reward: r.reward ?? 0, done: r.done, metadata: r.metadata ?? {} };
    if (r.observation.trace !== undefined) out.trace = r.observation.trace;
    return out;
  }

  /**
   * Grade the episode's task as it stands, without ending it (the `grade` step): the reward `submit` would report
   * now. Nothing changes; the step counts in `step_count`. Rejects with `VALIDATION_ERROR` without a task.
   */
  async grade(): Promise<ServedGrade> {
    const r = await this.#request<StepResult<{ grade: ServedGrade }>>({ type: 'step', data: { type: 'grade' } });
    return r.observation.grade;
  }

  /**
   * Snapshot the episode for a branch (the `fork` step): the server holds it under a token for `expires_in_s`, until a
   * reset with `{ fork_token }` adopts it, once. `fork()` does that for you; hand the token on to adopt it elsewhere.
   */
  async forkToken(): Promise<ForkToken> {
    const r = await this.#request<StepResult<{ fork: ForkToken }>>({ type: 'step', data: { type: 'fork' } });
    return r.observation.fork;
  }

  /**
   * A new session on a branch of this episode: state, clock, random streams, call history, task and step count as
   * they are now. It opens a second WebSocket (with this client's options) and resets it with a fork token; the two
   * episodes go on independently. Close the branch like any client.
   * @example
   * await using branch = await env.fork();
   * await branch.call('update_contact', { id, stage: 'customer' }); // env's episode does not see this
   */
  async fork(): Promise<SeahavenClient> {
    const { token } = await this.forkToken();
    // The fork is held by this session's server: the branch connects there, and counts there in the pool.
    const host = this.#link.host;
    const pool = this.#pool;
    let branch: SeahavenClient;
    if (pool === null) branch = await SeahavenClient.connect(host, this.#options);
    else {
      pool.acquire(host);
      let link: Link;
      try {
        link = await openLink(host, this.#options, this.#timeoutMs);
      } catch (e) {
        pool.release(host);
        throw e;
      }
      branch = new SeahavenClient(link, this.#timeoutMs, this.#options, pool);
    }
    try {
      await branch.reset({ fork_token: token });
    } catch (e) {
      await branch.close();
      throw e;
    }
    return branch;
  }

  /** End the session: the server destroys its instance. Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    const link = this.#link;
    const ws = link.ws;
    if (ws.readyState === WebSocket.OPEN) {
      link.closedByClient = true;
      ws.send(JSON.stringify({ type: 'close' }));
      ws.close(1000);
    } else if (ws.readyState === WebSocket.CONNECTING) link.closedByClient = true;
    if (ws.readyState !== WebSocket.CLOSED) {
      const timer = setTimeout(() => ws.terminate(), this.#timeoutMs);
      await link.closed;
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
