/**
 * An endpoint's WebSocket frames: the reply to one frame (its size and depth limits, `JSON.parse`, then the `step`,
 * `reset`, `state`, `close` or `mcp` it carries), and the error frame for anything thrown while answering.
 */
import type { EndpointCore } from './endpoint-core.ts';
import { reset } from './endpoint-reset.ts';
import { advanceStep, callTool, otherStep, wrapObservation } from './endpoint-step.ts';
import { errorFrame, frameErrorText, logInternal, validationError } from './errors.ts';
import { jsonTooDeep, tooDeepMessage } from './json-limits.ts';
import type { Reply } from './outbox.ts';
import { parseAction } from './payload.ts';
import { parseReset } from './reset.ts';
import { handleRpc, type RpcEndpoint } from './rpc.ts';
import type { Session } from './sessions.ts';
import type { SlicedStep } from './sliced-step.ts';

/** What answering a frame uses of an endpoint. */
type FrameEndpoint = EndpointCore &
  RpcEndpoint & {
    /** The session's state document as JSON text. */
    stateJson(session: Session): string;
  };

/**
 * The reply to one WebSocket frame: JSON text, or for a successful call its UTF-8 bytes; a promise of it while a
 * reset waits on a hook; a `SlicedStep` for an `advance_clock` that runs on in later turns; null for `close`, which
 * ends the session and is not answered.
 */
export function frameReply(
  ep: FrameEndpoint,
  session: Session,
  text: string,
): Reply | null | Promise<Reply> | SlicedStep {
  if (text.length > ep.options.maxFrameChars) {
    const msg = `frame of ${text.length} characters exceeds this server's limit of ${ep.options.maxFrameChars}; send smaller arguments or start the server with a higher --max-frame-bytes`;
    return errorFrame('VALIDATION_ERROR', msg, [
      { type: 'string_too_long', loc: [], msg, input: null },
    ]);
  }
  if (jsonTooDeep(text)) {
    const msg = tooDeepMessage('frame');
    return errorFrame('VALIDATION_ERROR', msg, [{ type: 'too_deep', loc: [], msg, input: null }]);
  }
  let msg: Record<string, unknown>;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    return errorFrame('INVALID_JSON', `Invalid JSON: ${(e as Error).message}`);
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    return errorFrame(
      'VALIDATION_ERROR',
      'a frame must be a JSON object like {"type": "step", "data": {…}}',
      [{ type: 'model_type', loc: [], msg: 'Input should be an object', input: msg }],
    );
  }
  try {
    switch (msg.type) {
      case 'step': {
        if (msg.data === undefined)
          throw validationError('invalid step', [
            {
              type: 'missing',
              loc: ['data'],
              msg: 'Field required: a step frame carries the action in data',
            },
          ]);
        const action = parseAction(msg.data, ['data']);
        if (action.type === 'call_tool') {
          const out = callTool(ep, session, action.tool_name, action.arguments, 'ws', ['data']);
          return out instanceof Promise ? out.catch((e) => errorText(ep, e)) : out;
        }
        if (action.type === 'advance_clock')
          return advanceStep(ep, session, action.ms, ['data'], 'ws');
        const out = otherStep(ep, session, action, ['data'], 'ws');
        return typeof out === 'string'
          ? wrapObservation(out)
          : out.then(wrapObservation, (e) => errorText(ep, e));
      }
      case 'reset': {
        const out = reset(ep, session, parseReset(msg.data, 'data'), 'data');
        return typeof out === 'string'
          ? wrapObservation(out)
          : out.then(wrapObservation, (e) => errorText(ep, e));
      }
      case 'state':
        return '{"type":"state","data":' + ep.stateJson(session) + '}';
      case 'close':
        ep.options.registry.end(session, 'close');
        return null;
      case 'mcp': {
        if (msg.data === null || typeof msg.data !== 'object' || Array.isArray(msg.data)) {
          throw validationError('invalid mcp frame', [
            {
              type: 'dict_type',
              loc: ['data'],
              msg: 'an mcp frame carries a JSON-RPC request object in data',
              input: msg.data,
            },
          ]);
        }
        return handleRpc(ep, msg.data, session, 'socket');
      }
      default:
        return errorFrame(
          'UNKNOWN_TYPE',
          `Unknown message type: ${JSON.stringify(msg.type ?? null)}; send one of reset, step, state, close, mcp`,
        );
    }
  } catch (e) {
    return errorText(ep, e);
  }
}

/** The error frame for anything thrown while answering a frame. */
export function errorText(ep: FrameEndpoint, e: unknown): string {
  try {
    return frameErrorText(ep.asFrameError(e));
  } catch (again) {
    return errorFrame(
      'EXECUTION_ERROR',
      logInternal(ep.options.logger, `building an error reply in ${ep.name}`, again),
    );
  }
}
