/** Reset data: what a client may ask for when it starts an episode, checked before anything is created. */
import { parseInstant, type ClockMode } from '../../core/clock.ts';
import { validationError, type ErrorItem } from './errors.ts';

/** How step rewards are reported: only at `submit` (`final`), or after every call as the change in grade (`shaped`). */
export type RewardMode = 'final' | 'shaped';

/** A checked reset request. Every key is optional; `null` counts as absent. */
export interface ResetRequest {
  fixture?: string;
  seed?: number;
  episode_id?: string;
  clock?: ClockMode;
  now?: string;
  task?: string;
  curriculum?: string;
  run_id?: string;
  reward_mode?: RewardMode;
  /** Adopt the episode a `fork` step held under this token, instead of starting one. Comes alone (or with `grader_token`). */
  fork_token?: string;
  /** Play the task at `index` of this split (tasks.ts): `all`, a curriculum's name, or `tag:<tag>`. */
  split?: string;
  /** The task's position in `split` (default split: `all`). */
  index?: number;
  /** List a `submit` tool beside the world's: calling it ends the episode as the `submit` step does. */
  submit_tool?: boolean;
  /** With `curriculum`: resets with the same group share one draw, the first `group_size` of them. */
  group?: string;
  /** How many resets of a `group` share its draw, 1 to 1024. */
  group_size?: number;
  /** The server's grader token: `grade` and `submit` of the episode answer whole grades, not the agent view. */
  grader_token?: string;
}

/** What a `resolveReset` hook returns: the concrete episode to start. Unset keys fall back to the request's. */
export interface ResetPlan {
  fixture?: string;
  task?: string;
  seed?: number;
  clock?: ClockMode;
  now?: string;
  episode_id?: string;
  reward_mode?: RewardMode;
  /** Kept on the session (`session.context`) for `onGrade`. */
  context?: unknown;
  /** Merged into the reset reply's top-level `metadata`. */
  metadata?: Record<string, unknown>;
}

export const RESET_KEYS: readonly string[] = [
  'fixture',
  'seed',
  'episode_id',
  'clock',
  'now',
  'task',
  'curriculum',
  'run_id',
  'reward_mode',
  'fork_token',
  'split',
  'index',
  'submit_tool',
  'group',
  'group_size',
  'grader_token',
];
const STRING_KEYS = [
  'fixture',
  'episode_id',
  'now',
  'task',
  'curriculum',
  'run_id',
  'fork_token',
  'split',
  'group',
  'grader_token',
];
/** Longest group key. */
export const MAX_GROUP_CHARS = 128;
/** Largest group. */
export const MAX_GROUP_SIZE = 1024;

/**
 * Check reset data; throws a `VALIDATION_ERROR` listing every problem. `where` is the first `loc` element
 * (`data` on the WebSocket, `body` over HTTP). Keys in `ignore` (like the HTTP `session_id`) are skipped.
 * @example
 * parseReset({ fixture: 'small_startup', seed: 7 }, 'data'); // { fixture: 'small_startup', seed: 7 }
 */
export function parseReset(data: unknown, where: string, ignore?: string): ResetRequest {
  if (data === undefined || data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw validationError('invalid reset data', [
      {
        type: 'model_type',
        loc: [where],
        msg: 'reset data must be a JSON object like {"fixture": "small_startup", "seed": 1}',
        input: data,
      },
    ]);
  }
  const errors: ErrorItem[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (key === ignore) continue;
    if (!RESET_KEYS.includes(key)) {
      errors.push({
        type: 'extra_forbidden',
        loc: [where, key],
        msg: `unknown reset key "${key}"; the keys are ${RESET_KEYS.join(', ')}`,
        input: value,
      });
      continue;
    }
    if (value === null || value === undefined) continue;
    if (STRING_KEYS.includes(key)) {
      if (typeof value !== 'string' || value === '')
        errors.push({
          type: 'string_type',
          loc: [where, key],
          msg: `${key} must be a non-empty string`,
          input: value,
        });
      else out[key] = value;
    } else if (key === 'seed') {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        errors.push({
          type: 'int_type',
          loc: [where, key],
          msg: 'seed must be a whole number >= 0',
          input: value,
        });
      else out[key] = value;
    } else if (key === 'clock') {
      if (value !== 'fixed' && value !== 'tick')
        errors.push({
          type: 'literal_error',
          loc: [where, key],
          msg: "clock must be 'fixed' or 'tick'",
          input: value,
        });
      else out[key] = value;
    } else if (key === 'reward_mode') {
      if (value !== 'final' && value !== 'shaped')
        errors.push({
          type: 'literal_error',
          loc: [where, key],
          msg: "reward_mode must be 'final' or 'shaped'",
          input: value,
        });
      else out[key] = value;
    } else if (key === 'index') {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        errors.push({
          type: 'int_type',
          loc: [where, key],
          msg: "index must be a whole number >= 0, a position in the split (GET /tasks lists each split's size)",
          input: value,
        });
      else out[key] = value;
    } else if (key === 'submit_tool') {
      if (typeof value !== 'boolean')
        errors.push({
          type: 'bool_type',
          loc: [where, key],
          msg: 'submit_tool must be true or false',
          input: value,
        });
      else out[key] = value;
    } else if (key === 'group_size') {
      if (
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        value < 1 ||
        value > MAX_GROUP_SIZE
      )
        errors.push({
          type: 'int_type',
          loc: [where, key],
          msg: `group_size must be a whole number from 1 to ${MAX_GROUP_SIZE}, like the trainer's num_generations`,
          input: value,
        });
      else out[key] = value;
    }
  }
  if (typeof out.group === 'string' && out.group.length > MAX_GROUP_CHARS) {
    errors.push({
      type: 'string_too_long',
      loc: [where, 'group'],
      msg: `group must be at most ${MAX_GROUP_CHARS} characters`,
      input: out.group,
    });
    delete out.group;
  }
  const has = (key: string) => out[key] !== undefined;
  if (has('split') || has('index')) {
    // A split position names the task: nothing else may choose one.
    for (const key of ['task', 'fixture', 'curriculum', 'run_id']) {
      if (has(key))
        errors.push({
          type: 'value_error',
          loc: [where, key],
          msg: `${key} cannot be combined with ${has('split') ? 'split' : 'index'}: the task at index of split is played (with its fixture); drop one of them`,
          input: out[key],
        });
    }
    if (has('split') && !has('index'))
      errors.push({
        type: 'missing',
        loc: [where, 'index'],
        msg: 'split needs index, the position of the task to play, like {"split": "all", "index": 0}',
        input: out.split,
      });
  }
  if (has('group') !== has('group_size')) {
    const missing = has('group') ? 'group_size' : 'group';
    errors.push({
      type: 'missing',
      loc: [where, missing],
      msg: 'group and group_size come together, like {"curriculum": "basics", "run_id": "run-1", "group": "step-12-prompt-3", "group_size": 8}',
      input: null,
    });
  }
  if (has('group') && !has('curriculum'))
    errors.push({
      type: 'value_error',
      loc: [where, 'group'],
      msg: 'group shares a curriculum draw; give curriculum too (and run_id), or reset with a task',
      input: out.group,
    });
  if (out.fork_token !== undefined) {
    // A fork continues its origin's episode as it was: its fixture, seed, clock, task and reward mode come with it.
    for (const key of Object.keys(out)) {
      // The grader token is the caller's, not the episode's: it may come with a fork.
      if (key === 'fork_token' || key === 'grader_token') continue;
      errors.push({
        type: 'value_error',
        loc: [where, key],
        msg: `${key} cannot be combined with fork_token: a fork continues its origin's episode (fixture, seed, clock, task, reward mode); send {"fork_token": "…"} alone`,
        input: out[key],
      });
    }
  }
  if (typeof out.now === 'string') {
    try {
      parseInstant(out.now, 'now');
    } catch (e) {
      errors.push({
        type: 'datetime_parsing',
        loc: [where, 'now'],
        msg: (e as Error).message,
        input: out.now,
      });
    }
  }
  if (errors.length > 0) throw validationError('invalid reset data', errors);
  return out as ResetRequest;
}
