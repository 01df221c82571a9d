/**
 * `SeahavenClient`, the environment API of one served session (reset, call, state, submit, fork, …) over its link,
 * which it replaces when it moves to another host of its pool.
 */
import WebSocket from 'ws';
import type { ToolFailure } from '../../core/instance.ts';
import { ClientError } from './errors.ts';
import { HostPool, sharedPool } from './hosts.ts';
import { connectPooled, openLink, type Link, type Pending } from './link.ts';
import { closeError, connectionGone, lostError, type Episode } from './lost.ts';
import { fetchTasks, type TaskInfo } from './tasks.ts';
import type { EpisodeTrace, SubmitOptions } from './trace.ts';
import type {
  CallOutcome,
  ConnectOptions,
  ForkToken,
  ResetObservation,
  ResetOptions,
  ServedGrade,
  SessionState,
  StepResult,
  SubmitResult,
  ToolInfo,
  ToolStepObservation,
} from './types.ts';

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

  private constructor(
    link: Link,
    timeoutMs: number,
    options: ConnectOptions,
    pool: HostPool | null,
  ) {
    this.#timeoutMs = timeoutMs;
    this.#options = options;
    this.#pool = pool;
    this.#link = this.#attach(link);
  }

  #attach(fresh: Link): Link {
    return fresh.bind((link, code, reason) =>
      closeError(link, code, reason, this.#pool, this.#episode),
    );
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
  static async connect(
    url: string | readonly string[] | HostPool,
    options: ConnectOptions = {},
  ): Promise<SeahavenClient> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (typeof url === 'string')
      return new SeahavenClient(await openLink(url, options, timeoutMs), timeoutMs, options, null);
    const pool = url instanceof HostPool ? url : sharedPool(url);
    return new SeahavenClient(
      await connectPooled(pool, options, timeoutMs),
      timeoutMs,
      options,
      pool,
    );
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
      if (this.#pool !== null && !link.closedByClient && !this.#closed)
        return Promise.reject(lostError(link, this.#episode, 'the connection is closing'));
      return Promise.reject(new ClientError('CLOSED', 'the client is closed; connect again'));
    }
    if (this.#episode !== null) this.#episode.steps++;
    return new Promise<T>((resolve, fail) => {
      // With several hosts, a session the server ended mid-episode (SESSION_ERROR: shutting down) is a lost episode.
      const reject = (e: Error) =>
        fail(
          this.#pool !== null &&
            link.started &&
            e instanceof ClientError &&
            e.code === 'SESSION_ERROR'
            ? lostError(link, this.#episode, e.message)
            : e,
        );
      const p: Pending = {
        resolve,
        reject,
        expired: false,
        timer: setTimeout(() => {
          p.expired = true;
          reject(
            new ClientError(
              'TIMEOUT',
              `no reply to ${String(frame.type)} within ${this.#timeoutMs} ms; raise timeoutMs or check the server`,
              { host: link.host },
            ),
          );
        }, this.#timeoutMs),
      };
      link.pending.push(p);
      link.ws.send(JSON.stringify(frame));
    });
  }

  /** Move to another host of the pool (the old link is gone). */
  async #reconnect(avoid: ReadonlySet<string>): Promise<void> {
    this.#link = this.#attach(
      await connectPooled(this.#pool!, this.#options, this.#timeoutMs, avoid),
    );
  }

  async #reset(options: ResetOptions): Promise<StepResult<ResetObservation>> {
    const r = await this.#request<StepResult<ResetObservation>>({ type: 'reset', data: options });
    this.#episode = {
      id: typeof r.metadata?.episode_id === 'string' ? r.metadata.episode_id : null,
      host: this.#link.host,
      steps: 0,
    };
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
    if (pool === null || this.#closed || options.fork_token !== undefined)
      return this.#reset(options);
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
    const r = await this.#request<StepResult<{ tools: ToolInfo[] }>>({
      type: 'step',
      data: { type: 'list_tools' },
    });
    return r.observation.tools;
  }

  /** Call a tool: `{ ok: true, result }` or `{ ok: false, error: { code, message, details? } }`. */
  async call<T = unknown>(
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<CallOutcome<T>> {
    const r = await this.#request<StepResult<ToolStepObservation<T>>>({
      type: 'step',
      data: { type: 'call_tool', tool_name: name, arguments: args },
    });
    const obs = r.observation;
    if (obs.error === null && obs.result !== null) return { ok: true, result: obs.result.data };
    const world = r.metadata.seahaven_error as ToolFailure | undefined;
    return {
      ok: false,
      error: world ?? {
        code: obs.error?.error_type ?? 'execution_error',
        message: obs.error?.message ?? 'the call failed',
      },
    };
  }

  /**
   * Let `ms` milliseconds of world time pass (the `advance_clock` action): the world's `onClockAdvance` runs as one
   * recorded call (Stripe World renews subscriptions), and its result or failure comes back like a tool call's.
   */
  async advanceClock<T = unknown>(ms: number): Promise<CallOutcome<T>> {
    const r = await this.#request<StepResult<ToolStepObservation<T>>>({
      type: 'step',
      data: { type: 'advance_clock', ms },
    });
    const obs = r.observation;
    if (obs.error === null && obs.result !== null) return { ok: true, result: obs.result.data };
    const world = r.metadata.seahaven_error as ToolFailure | undefined;
    return {
      ok: false,
      error: world ?? {
        code: obs.error?.error_type ?? 'execution_error',
        message: obs.error?.message ?? 'the clock advance failed',
      },
    };
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
    const r = await this.#request<StepResult<{ grade: ServedGrade; trace?: EpisodeTrace }>>({
      type: 'step',
      data: options.trace === true ? { type: 'submit', trace: true } : { type: 'submit' },
    });
    if (r.done && this.#episode !== null) this.#episode.finished = true;
    const out: SubmitResult = {
      grade: r.observation.grade,
      reward: r.reward ?? 0,
      done: r.done,
      metadata: r.metadata ?? {},
    };
    if (r.observation.trace !== undefined) out.trace = r.observation.trace;
    return out;
  }

  /**
   * Grade the episode's task as it stands, without ending it (the `grade` step): the reward `submit` would report
   * now. Nothing changes; the step counts in `step_count`. Rejects with `VALIDATION_ERROR` without a task.
   */
  async grade(): Promise<ServedGrade> {
    const r = await this.#request<StepResult<{ grade: ServedGrade }>>({
      type: 'step',
      data: { type: 'grade' },
    });
    return r.observation.grade;
  }

  /**
   * Snapshot the episode for a branch (the `fork` step): the server holds it under a token for `expires_in_s`, until a
   * reset with `{ fork_token }` adopts it, once. `fork()` does that for you; hand the token on to adopt it elsewhere.
   */
  async forkToken(): Promise<ForkToken> {
    const r = await this.#request<StepResult<{ fork: ForkToken }>>({
      type: 'step',
      data: { type: 'fork' },
    });
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
