/**
 * Drive a world served by `seahaven serve` from TypeScript: one `SeahavenClient` is one WebSocket session with its own
 * private instance. Requests are answered in order; each has a timeout; protocol errors reject with a
 * `SeahavenError`, while a failed tool call is data (`{ ok: false, error }`), like `inst.call()` in process.
 *
 * @example
 * import { SeahavenClient } from 'seahaven/client';
 * await using env = await SeahavenClient.connect('http://127.0.0.1:8000');
 * await env.reset({ fixture: 'small_startup', seed: 1 });
 * const r = await env.call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' });
 * if (r.ok) console.log((await env.state()).changes);
 * await using branch = await env.fork(); // a second session, continuing from here on its own
 *
 * @module seahaven/client
 */
import WebSocket from 'ws';
import type { StateDocument, ToolFailure } from '../instance.ts';
import type { Grade } from '../task.ts';
import { SeahavenError } from './errors.ts';
import { wsUrlOf } from './url.ts';

export { SeahavenError } from './errors.ts';

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
}

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
  grade: Grade;
  reward: number;
  done: boolean;
  /** The reply's metadata: with a curriculum, `curriculum: { ticket, outcome, stage, transition, mastered }`. */
  metadata: Record<string, unknown>;
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

/** One session on a Seahaven (or any OpenEnv) server. Create with `SeahavenClient.connect(url)`. */
export class SeahavenClient {
  readonly #ws: WebSocket;
  readonly #timeoutMs: number;
  /** Where and how this client connected, so `fork()` can connect the same way. */
  readonly #url: string;
  readonly #options: ConnectOptions;
  readonly #pending: Pending[] = [];
  #failure: SeahavenError | null = null;
  readonly #closed: Promise<void>;

  private constructor(ws: WebSocket, timeoutMs: number, url: string, options: ConnectOptions) {
    this.#ws = ws;
    this.#timeoutMs = timeoutMs;
    this.#url = url;
    this.#options = options;
    ws.on('message', (data) => this.#onFrame(data.toString()));
    this.#closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.#failure ??= new SeahavenError('CLOSED', `the connection closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`);
        for (const p of this.#pending.splice(0)) {
          clearTimeout(p.timer);
          if (!p.expired) p.reject(this.#failure);
        }
        resolve();
      });
    });
    ws.on('error', () => undefined);
  }

  /**
   * Open a session. `url` is the server's base URL (`http://127.0.0.1:8000`, or `/…/<world>` for another world).
   * @example
   * const env = await SeahavenClient.connect('http://127.0.0.1:8000/crm', { timeoutMs: 5000 });
   */
  static connect(url: string, options: ConnectOptions = {}): Promise<SeahavenClient> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const headers = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const target = wsUrlOf(url);
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(target, { headers, handshakeTimeout: timeoutMs, perMessageDeflate: false });
      ws.once('open', () => resolve(new SeahavenClient(ws, timeoutMs, url, options)));
      ws.once('unexpected-response', (_req, res) => {
        const hint = res.statusCode === 401 ? '; pass { token } (the server was started with --token)' : '';
        reject(new SeahavenError('CONNECT', `${target} answered HTTP ${res.statusCode} instead of upgrading${hint}`));
        res.resume();
        ws.terminate();
      });
      ws.on('error', (e) => reject(new SeahavenError('CONNECT', `cannot connect to ${target}: ${e.message}`)));
    });
  }

  #onFrame(text: string): void {
    let msg: { type?: string; data?: any };
    try {
      msg = JSON.parse(text);
    } catch {
      msg = { type: 'error', data: { code: 'INVALID_JSON', message: `the server sent a frame that is not JSON: ${text.slice(0, 80)}` } };
    }
    const p = this.#pending.shift();
    if (p === undefined) {
      // An error nobody asked for (CAPACITY_REACHED right after connecting): every later request fails with it.
      if (msg.type === 'error') this.#failure = new SeahavenError(String(msg.data?.code), String(msg.data?.message), msg.data ?? {});
      return;
    }
    clearTimeout(p.timer);
    if (p.expired) return;
    if (msg.type === 'error') p.reject(new SeahavenError(String(msg.data?.code), String(msg.data?.message), msg.data ?? {}));
    else p.resolve(msg.data);
  }

  #request<T>(frame: Record<string, unknown>): Promise<T> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    if (this.#ws.readyState !== WebSocket.OPEN) return Promise.reject(new SeahavenError('CLOSED', 'the client is closed; connect again'));
    return new Promise<T>((resolve, reject) => {
      const p: Pending = {
        resolve,
        reject,
        expired: false,
        timer: setTimeout(() => {
          p.expired = true;
          reject(new SeahavenError('TIMEOUT', `no reply to ${String(frame.type)} within ${this.#timeoutMs} ms; raise timeoutMs or check the server`));
        }, this.#timeoutMs),
      };
      this.#pending.push(p);
      this.#ws.send(JSON.stringify(frame));
    });
  }

  /** Start an episode (a fresh private instance). */
  reset(options: ResetOptions = {}): Promise<StepResult<ResetObservation>> {
    return this.#request({ type: 'reset', data: options });
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

  /** Grade the episode's task (start it with `reset({ task })`). */
  async submit(): Promise<SubmitResult> {
    const r = await this.#request<StepResult<{ grade: Grade }>>({ type: 'step', data: { type: 'submit' } });
    return { grade: r.observation.grade, reward: r.reward ?? 0, done: r.done, metadata: r.metadata ?? {} };
  }

  /**
   * Grade the episode's task as it stands, without ending it (the `grade` step): the reward `submit` would report
   * now. Nothing changes; the step counts in `step_count`. Rejects with `VALIDATION_ERROR` without a task.
   */
  async grade(): Promise<Grade> {
    const r = await this.#request<StepResult<{ grade: Grade }>>({ type: 'step', data: { type: 'grade' } });
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
    const branch = await SeahavenClient.connect(this.#url, this.#options);
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
    if (this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify({ type: 'close' }));
      this.#ws.close(1000);
    }
    if (this.#ws.readyState !== WebSocket.CLOSED) {
      const timer = setTimeout(() => this.#ws.terminate(), this.#timeoutMs);
      await this.#closed;
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
