/**
 * A session: one instance, owned by a WebSocket, an HTTP session id, an OpenEnv JSON-RPC session or an MCP Streamable
 * HTTP session, with its episode's counters and its queue of jobs. The registry that counts them is in sessions.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Instance } from '../../core/instance.ts';
import type { Task } from '../../core/task.ts';
import type { ReplySocket } from './outbox.ts';
import type { RewardMode } from './reset.ts';

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
  constructor(
    id: string,
    endpoint: SessionEndpoint,
    owner: SessionOwner,
    inst: Instance,
    episodeId: string,
  ) {
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
    fork.play(inst, {
      episodeId: fork.episodeId,
      task: this.task,
      rewardMode: this.rewardMode,
      stepCount: this.stepCount,
      lastReward: this.lastReward,
      submitTool: this.submitTool,
    });
    return fork;
  }
}
