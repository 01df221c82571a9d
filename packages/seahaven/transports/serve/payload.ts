/**
 * What goes on the wire besides a tool call's result (observation.ts): step payloads written straight to JSON text
 * (rewards as floats), tool listings in the OpenEnv shape, JSON-RPC's error codes, and step actions checked without a
 * schema library on the hot path.
 */
import type { ToolListing } from '../../core/tool.ts';
import { validationError, type ErrorItem } from './errors.ts';

/** A tool as OpenEnv lists it. */
export interface OpenEnvTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The OpenEnv shape of the world's tool listings. */
export function openEnvTools(listings: readonly ToolListing[]): OpenEnvTool[] {
  return listings.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    input_schema: t.inputSchema ?? { type: 'object' },
  }));
}

/**
 * The `submit` tool a session lists with reset `submit_tool: true`: the agent ends its own episode by calling it, and
 * reads its reward in the result. `submit` is reserved, so no world has a tool of that name.
 */
export const SUBMIT_TOOL: OpenEnvTool = Object.freeze({
  name: 'submit',
  description:
    'Call this once you have finished the task. It ends the episode and grades your work: the result says your reward (0 to 1) and whether the task passed. Takes no arguments.',
  input_schema: { type: 'object', properties: {}, additionalProperties: false },
});

/** The `submit` tool's result (OpenEnv's tool result shape): `data` is `{reward, passed}`, the reward written as a float. */
export function submitToolResult(grade: { reward: number; passed: boolean }): string {
  const data =
    '{"reward":' +
    rewardJson(grade.reward) +
    ',"passed":' +
    (grade.passed === true ? 'true' : 'false') +
    '}';
  return (
    '{"content":[{"type":"text","text":' +
    JSON.stringify(data) +
    '}],"structured_content":' +
    data +
    ',"data":' +
    data +
    ',"is_error":false}'
  );
}

/** A reward as JSON: whole numbers get a `.0` so Python reads a float, not an int. */
export function rewardJson(reward: number | null): string {
  if (reward === null) return 'null';
  if (reward === 0) return '0.0';
  return Number.isInteger(reward) && Math.abs(reward) < 1e15
    ? reward.toFixed(1)
    : JSON.stringify(reward);
}

/** A step payload's JSON text from its already-serialised parts. */
export function stepPayload(
  observationJson: string,
  reward: number | null,
  done: boolean,
  metadataJson = '{}',
): string {
  return (
    '{"observation":' +
    observationJson +
    ',"reward":' +
    rewardJson(reward) +
    ',"done":' +
    (done ? 'true' : 'false') +
    ',"metadata":' +
    metadataJson +
    '}'
  );
}

/** JSON-RPC error codes. */
export const RPC = {
  PARSE: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  SERVER: -32000,
} as const;

/** A JSON-RPC request id. */
export type RpcId = string | number | null;

/** OpenEnv's error categories for a world's failure codes. */
export function errorTypeOf(code: string): 'tool_not_found' | 'invalid_args' | 'execution_error' {
  return code === 'unknown_tool'
    ? 'tool_not_found'
    : code === 'invalid_arguments'
      ? 'invalid_args'
      : 'execution_error';
}

/**
 * A checked step action. `grade` (the task's grade now, the episode going on) and `fork` (the episode snapshotted for
 * a branch) are Seahaven's own, like `advance_clock`.
 */
export type StepAction =
  | { type: 'list_tools' }
  | { type: 'call_tool'; tool_name: string; arguments: Record<string, unknown> }
  | { type: 'submit'; trace?: boolean }
  | { type: 'grade'; trace?: boolean }
  | { type: 'fork' }
  | { type: 'advance_clock'; ms: number };

const ACTION_TYPES = 'list_tools, call_tool, submit, grade, fork, advance_clock';

/** Check a step action (`where` is the `loc` prefix: `data` or `body.action`). Clients may add `metadata`; it is ignored. */
export function parseAction(action: unknown, where: (string | number)[]): StepAction {
  if (action === null || typeof action !== 'object' || Array.isArray(action)) {
    throw validationError('invalid action', [
      {
        type: 'model_type',
        loc: where,
        msg: `an action must be a JSON object like {"type": "call_tool", "tool_name": "…", "arguments": {…}}`,
        input: action,
      },
    ]);
  }
  const a = action as Record<string, unknown>;
  // OpenEnv's action union defaults to call_tool when `type` is missing.
  const type = a.type ?? 'call_tool';
  if (type === 'call_tool') {
    const errors: ErrorItem[] = [];
    for (const key in a) {
      if (key !== 'type' && key !== 'tool_name' && key !== 'arguments' && key !== 'metadata') {
        errors.push({
          type: 'extra_forbidden',
          loc: [...where, key],
          msg: `unknown key "${key}"; a call_tool action has tool_name and arguments`,
          input: a[key],
        });
      }
    }
    if (typeof a.tool_name !== 'string') {
      errors.push(
        a.tool_name === undefined
          ? {
              type: 'missing',
              loc: [...where, 'tool_name'],
              msg: 'Field required: name the tool to call',
            }
          : {
              type: 'string_type',
              loc: [...where, 'tool_name'],
              msg: 'tool_name must be a string',
              input: a.tool_name,
            },
      );
    }
    const args = a.arguments ?? {};
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      errors.push({
        type: 'dict_type',
        loc: [...where, 'arguments'],
        msg: "arguments must be a JSON object of the tool's inputs",
        input: a.arguments,
      });
    }
    if (errors.length > 0) throw validationError('invalid action', errors);
    return { type, tool_name: a.tool_name as string, arguments: args as Record<string, unknown> };
  }
  if (type === 'advance_clock') {
    // Seahaven's own action: time passes in the episode (the world's onClockAdvance runs, recorded as a call).
    for (const key in a) {
      if (key !== 'type' && key !== 'ms' && key !== 'metadata') {
        throw validationError('invalid action', [
          {
            type: 'extra_forbidden',
            loc: [...where, key],
            msg: `unknown key "${key}"; an advance_clock action has ms (milliseconds to let pass)`,
            input: a[key],
          },
        ]);
      }
    }
    if (typeof a.ms !== 'number' || !Number.isSafeInteger(a.ms) || a.ms < 0) {
      throw validationError('invalid action', [
        {
          type: 'int_type',
          loc: [...where, 'ms'],
          msg: 'ms must be a whole number of milliseconds >= 0, like {"type": "advance_clock", "ms": 2592000000} for 30 days',
          input: a.ms,
        },
      ]);
    }
    return { type, ms: a.ms };
  }
  if (type === 'submit' || type === 'grade') {
    // `trace: true` asks for the episode's call log and change log beside the grade (the grader token's holder only).
    for (const key in a) {
      if (key !== 'type' && key !== 'trace' && key !== 'metadata') {
        throw validationError('invalid action', [
          {
            type: 'extra_forbidden',
            loc: [...where, key],
            msg: `unknown key "${key}"; a ${type} action may have trace (true for the episode's trace, with the grader token)`,
            input: a[key],
          },
        ]);
      }
    }
    if (a.trace !== undefined && typeof a.trace !== 'boolean') {
      throw validationError('invalid action', [
        {
          type: 'bool_type',
          loc: [...where, 'trace'],
          msg: 'trace must be true or false',
          input: a.trace,
        },
      ]);
    }
    return a.trace === true ? { type, trace: true } : { type };
  }
  if (type === 'list_tools' || type === 'fork') {
    for (const key in a) {
      if (key !== 'type' && key !== 'metadata') {
        throw validationError('invalid action', [
          {
            type: 'extra_forbidden',
            loc: [...where, key],
            msg: `unknown key "${key}"; a ${type} action has no other fields`,
            input: a[key],
          },
        ]);
      }
    }
    return { type };
  }
  throw validationError('invalid action', [
    {
      type: 'union_tag_invalid',
      loc: [...where, 'type'],
      msg: `unknown action type ${JSON.stringify(type)}; use one of ${ACTION_TYPES}`,
      input: type,
    },
  ]);
}
