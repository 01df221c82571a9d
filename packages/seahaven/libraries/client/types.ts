/** What a client sends and what the server answers: connect and reset options, replies, tool calls' outcomes. */
import type { StateDocument, ToolFailure } from '../../core/instance.ts';
import type { AgentGrade, Grade } from '../../core/task.ts';
import type { EpisodeTrace } from './trace.ts';

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

/** The observation of a `call_tool` or `advance_clock` step: the world's result, or OpenEnv's error. */
export interface ToolStepObservation<T> {
  result: { data: T } | null;
  error: { error_type: string; message: string } | null;
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
