/**
 * What goes on the wire: step payloads written straight to JSON text (rewards as floats, results stringified once),
 * tool listings in the OpenEnv shape, and step actions checked without a schema library on the hot path.
 */
import type { ToolFailure } from '../instance.ts';
import type { ToolListing } from '../tool.ts';
import { validationError, type ErrorItem } from './errors.ts';

/** A tool as OpenEnv lists it. */
export interface OpenEnvTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The OpenEnv shape of the world's tool listings. */
export function openEnvTools(listings: readonly ToolListing[]): OpenEnvTool[] {
  return listings.map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema ?? { type: 'object' } }));
}

/** A reward as JSON: whole numbers get a `.0` so Python reads a float, not an int. */
export function rewardJson(reward: number | null): string {
  if (reward === null) return 'null';
  if (reward === 0) return '0.0';
  return Number.isInteger(reward) && Math.abs(reward) < 1e15 ? reward.toFixed(1) : JSON.stringify(reward);
}

/** A step payload's JSON text from its already-serialised parts. */
export function stepPayload(observationJson: string, reward: number | null, done: boolean, metadataJson = '{}'): string {
  return '{"observation":' + observationJson + ',"reward":' + rewardJson(reward) + ',"done":' + (done ? 'true' : 'false') + ',"metadata":' + metadataJson + '}';
}

/** The observation of a successful call: the result's JSON text (serialised once, by the call) reused for the text content. */
export function callOkObservation(toolName: string, result: unknown, text: string = JSON.stringify(result) ?? 'null'): string {
  const structured = result !== null && typeof result === 'object' && !Array.isArray(result) ? text : 'null';
  return (
    '{"tool_name":' + JSON.stringify(toolName) +
    ',"result":{"content":[{"type":"text","text":' + JSON.stringify(text) + '}],"structured_content":' + structured +
    ',"data":' + text + ',"is_error":false},"error":null}'
  );
}

const OK_FRAME_MIDDLE = Buffer.from('}],"structured_content":');
const OK_FRAME_DATA = Buffer.from(',"data":');
const NULL_BYTES = Buffer.from('null');
const OK_FRAME_TAIL = ',"is_error":false},"error":null},"reward":';
/** The tail of the common frame: no reward yet, no metadata. */
const OK_FRAME_PLAIN_TAIL = Buffer.from(OK_FRAME_TAIL + '0.0,"done":false,"metadata":{}}}');
/** Each tool's frame head, up to the text content's opening quote. One per tool that has answered a call. */
const okFrameHeads = new Map<string, Buffer>();

/**
 * The WebSocket frame of a successful call (`{"type":"observation","data":<step payload>}`), as UTF-8 bytes: the same
 * bytes as the text that `callOkObservation` and `stepPayload` build, assembled without that text. The result's JSON is
 * encoded once and copied for its second appearance, and the socket gets bytes it need neither measure nor encode.
 */
export function callOkFrame(toolName: string, result: unknown, json: string, reward: number | null, metadataJson = '{}'): Buffer {
  let head = okFrameHeads.get(toolName);
  if (head === undefined) {
    head = Buffer.from('{"type":"observation","data":{"observation":{"tool_name":' + JSON.stringify(toolName) + ',"result":{"content":[{"type":"text","text":');
    okFrameHeads.set(toolName, head);
  }
  const structured = result !== null && typeof result === 'object' && !Array.isArray(result);
  const text = JSON.stringify(json);
  const tail = reward === 0 && metadataJson === '{}' ? OK_FRAME_PLAIN_TAIL : Buffer.from(OK_FRAME_TAIL + rewardJson(reward) + ',"done":false,"metadata":' + metadataJson + '}}');
  const jsonBytes = Buffer.byteLength(json);
  const size = head.length + Buffer.byteLength(text) + OK_FRAME_MIDDLE.length + (structured ? jsonBytes : NULL_BYTES.length) + OK_FRAME_DATA.length + jsonBytes + tail.length;
  const out = Buffer.allocUnsafe(size);
  out.set(head, 0);
  let at = head.length;
  at += out.write(text, at, 'utf8');
  out.set(OK_FRAME_MIDDLE, at);
  at += OK_FRAME_MIDDLE.length;
  let jsonAt = -1;
  if (structured) {
    jsonAt = at;
    at += out.write(json, at, 'utf8');
  } else {
    out.set(NULL_BYTES, at);
    at += NULL_BYTES.length;
  }
  out.set(OK_FRAME_DATA, at);
  at += OK_FRAME_DATA.length;
  if (jsonAt >= 0) at += out.copy(out, at, jsonAt, jsonAt + jsonBytes);
  else at += out.write(json, at, 'utf8');
  out.set(tail, at);
  return out;
}

/** OpenEnv's error categories for a world's failure codes. */
export function errorTypeOf(code: string): 'tool_not_found' | 'invalid_args' | 'execution_error' {
  return code === 'unknown_tool' ? 'tool_not_found' : code === 'invalid_arguments' ? 'invalid_args' : 'execution_error';
}

/** The observation of a failed call: `result` null, `error` exactly `{error_type, message}`. */
export function callFailObservation(toolName: string, error: ToolFailure): string {
  return JSON.stringify({ tool_name: toolName, result: null, error: { error_type: errorTypeOf(error.code), message: error.message } });
}

/** A checked step action. */
export type StepAction = { type: 'list_tools' } | { type: 'call_tool'; tool_name: string; arguments: Record<string, unknown> } | { type: 'submit' };

const ACTION_TYPES = 'list_tools, call_tool, submit';

/** Check a step action (`where` is the `loc` prefix: `data` or `body.action`). Clients may add `metadata`; it is ignored. */
export function parseAction(action: unknown, where: (string | number)[]): StepAction {
  if (action === null || typeof action !== 'object' || Array.isArray(action)) {
    throw validationError('invalid action', [{ type: 'model_type', loc: where, msg: `an action must be a JSON object like {"type": "call_tool", "tool_name": "…", "arguments": {…}}`, input: action }]);
  }
  const a = action as Record<string, unknown>;
  // OpenEnv's action union defaults to call_tool when `type` is missing.
  const type = a.type ?? 'call_tool';
  if (type === 'call_tool') {
    const errors: ErrorItem[] = [];
    for (const key in a) {
      if (key !== 'type' && key !== 'tool_name' && key !== 'arguments' && key !== 'metadata') {
        errors.push({ type: 'extra_forbidden', loc: [...where, key], msg: `unknown key "${key}"; a call_tool action has tool_name and arguments`, input: a[key] });
      }
    }
    if (typeof a.tool_name !== 'string') {
      errors.push(a.tool_name === undefined
        ? { type: 'missing', loc: [...where, 'tool_name'], msg: 'Field required: name the tool to call' }
        : { type: 'string_type', loc: [...where, 'tool_name'], msg: 'tool_name must be a string', input: a.tool_name });
    }
    const args = a.arguments ?? {};
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      errors.push({ type: 'dict_type', loc: [...where, 'arguments'], msg: 'arguments must be a JSON object of the tool\'s inputs', input: a.arguments });
    }
    if (errors.length > 0) throw validationError('invalid action', errors);
    return { type, tool_name: a.tool_name as string, arguments: args as Record<string, unknown> };
  }
  if (type === 'list_tools' || type === 'submit') {
    for (const key in a) {
      if (key !== 'type' && key !== 'metadata') {
        throw validationError('invalid action', [{ type: 'extra_forbidden', loc: [...where, key], msg: `unknown key "${key}"; a ${type} action has no other fields`, input: a[key] }]);
      }
    }
    return { type };
  }
  throw validationError('invalid action', [{ type: 'union_tag_invalid', loc: [...where, 'type'], msg: `unknown action type ${JSON.stringify(type)}; use one of ${ACTION_TYPES}`, input: type }]);
}
