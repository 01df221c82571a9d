/**
 * What a tool call looks like on the wire, built in one place for every transport from the instance's outcome (the
 * result, and its JSON text as the call log recorded it).
 *
 * OpenEnv shows a successful call in three envelopes (a WebSocket frame, an HTTP step payload, a JSON-RPC response,
 * which also travels inside a WebSocket `mcp` frame), and each holds the same tool result:
 * `{"content":[{"type":"text","text":<the JSON as a string>}],"structured_content":<the result if an object, else
 * null>,"data":<the result>,"is_error":false}`. `callObservation` writes it once, as UTF-8 bytes between its
 * envelope's head and tail: the result's JSON is encoded once and copied for its second appearance, and the socket
 * gets bytes it need neither measure nor encode (observation.test.ts proves them byte for byte equal to the plain
 * JSON). MCP's `CallToolResult` is made of the same pieces (`toolCallResult`): the JSON text, and the result as
 * structured content when it is an object.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOutcome } from '../../core/instance-internals.ts';
import type { Reply } from './outbox.ts';
import { RPC, errorTypeOf, rewardJson, stepPayload, type RpcId } from './payload.ts';

/** Where a call's observation goes: the envelope around the tool result. */
export type ObservationEnvelope =
  /**
   * A WebSocket `observation` frame, or an HTTP step payload: the step's reward (null in the default reward mode, where
   * only `submit` carries one) and metadata (JSON text) around it.
   */
  | { transport: 'ws' | 'http'; reward: number | null; metadata: string }
  /** A JSON-RPC `tools/call` response, on `POST /mcp` or (`inFrame`) inside a WebSocket `mcp` frame. */
  | { transport: 'rpc'; id: RpcId; inFrame: boolean };

/** Whether a result is shown as structured content: a JSON object, not an array or a scalar. */
export function isStructured(result: unknown): boolean {
  return result !== null && typeof result === 'object' && !Array.isArray(result);
}

const RESULT_HEAD = '{"content":[{"type":"text","text":';
const RESULT_STRUCTURED = Buffer.from('}],"structured_content":');
const RESULT_DATA = Buffer.from(',"data":');
const NULL_BYTES = Buffer.from('null');
const RESULT_TAIL = ',"is_error":false}';
const STEP_TAIL = RESULT_TAIL + ',"error":null},"reward":';
/** The tail of the usual step: no reward (it comes at `submit`), no metadata. */
const PLAIN_TAILS = {
  ws: Buffer.from(STEP_TAIL + 'null,"done":false,"metadata":{}}}'),
  http: Buffer.from(STEP_TAIL + 'null,"done":false,"metadata":{}}'),
};
/** Each tool's head, up to the text content's opening quote, per envelope: one per tool that has answered a call. */
const stepHeads = { ws: new Map<string, Buffer>(), http: new Map<string, Buffer>() };

function stepHead(transport: 'ws' | 'http', tool: string): Buffer {
  let head = stepHeads[transport].get(tool);
  if (head === undefined) {
    const observation =
      '{"observation":{"tool_name":' + JSON.stringify(tool) + ',"result":' + RESULT_HEAD;
    head = Buffer.from(
      transport === 'ws' ? '{"type":"observation","data":' + observation : observation,
    );
    stepHeads[transport].set(tool, head);
  }
  return head;
}

function stepTail(transport: 'ws' | 'http', reward: number | null, metadata: string): Buffer {
  if (reward === null && metadata === '{}') return PLAIN_TAILS[transport];
  return Buffer.from(
    STEP_TAIL +
      rewardJson(reward) +
      ',"done":false,"metadata":' +
      metadata +
      (transport === 'ws' ? '}}' : '}'),
  );
}

/** The tool result between `head` and `tail`, as UTF-8 bytes; `json` is the result's JSON text. */
function toolResultBytes(
  head: Buffer,
  json: string,
  structured: boolean,
  tail: Buffer,
): Buffer<ArrayBuffer> {
  const text = JSON.stringify(json);
  const jsonBytes = Buffer.byteLength(json);
  const size =
    head.length +
    Buffer.byteLength(text) +
    RESULT_STRUCTURED.length +
    (structured ? jsonBytes : NULL_BYTES.length) +
    RESULT_DATA.length +
    jsonBytes +
    tail.length;
  const out = Buffer.allocUnsafe(size);
  out.set(head, 0);
  let at = head.length;
  at += out.write(text, at, 'utf8');
  out.set(RESULT_STRUCTURED, at);
  at += RESULT_STRUCTURED.length;
  let jsonAt = -1;
  if (structured) {
    jsonAt = at;
    at += out.write(json, at, 'utf8');
  } else {
    out.set(NULL_BYTES, at);
    at += NULL_BYTES.length;
  }
  out.set(RESULT_DATA, at);
  at += RESULT_DATA.length;
  if (jsonAt >= 0) at += out.copy(out, at, jsonAt, jsonAt + jsonBytes);
  else at += out.write(json, at, 'utf8');
  out.set(tail, at);
  return out;
}

/**
 * A call's observation for a transport: for a successful call the tool result in its envelope, as UTF-8 bytes; for
 * a failed one, OpenEnv's failed-call observation (`result` null, `error` exactly `{error_type, message}`, the world's
 * own error in `metadata.seahaven_error`) or a JSON-RPC error, as JSON text.
 * @example
 * callObservation('get_deal', inst[callWithJson]('get_deal', { id }), { transport: 'ws', reward: null, metadata: '{}' });
 */
export function callObservation(
  tool: string,
  outcome: CallOutcome,
  to: ObservationEnvelope,
): Reply {
  if (to.transport === 'rpc') {
    const head =
      (to.inFrame ? '{"type":"mcp","data":' : '') +
      '{"jsonrpc":"2.0","id":' +
      JSON.stringify(to.id);
    const tail = to.inFrame ? '}}' : '}';
    if (outcome.ok)
      return toolResultBytes(
        Buffer.from(head + ',"result":' + RESULT_HEAD),
        outcome.json,
        isStructured(outcome.result),
        Buffer.from(RESULT_TAIL + tail),
      );
    const error = {
      code: RPC.INTERNAL,
      message: `Tool '${tool}' failed: ${outcome.error.message}`,
      data: { error_type: errorTypeOf(outcome.error.code), seahaven_error: outcome.error },
    };
    return head + ',"error":' + JSON.stringify(error) + tail;
  }
  if (outcome.ok)
    return toolResultBytes(
      stepHead(to.transport, tool),
      outcome.json,
      isStructured(outcome.result),
      stepTail(to.transport, to.reward, to.metadata),
    );
  const observation = JSON.stringify({
    tool_name: tool,
    result: null,
    error: { error_type: errorTypeOf(outcome.error.code), message: outcome.error.message },
  });
  const payload = stepPayload(
    observation,
    to.reward,
    false,
    '{"seahaven_error":' + outcome.json + '}',
  );
  return to.transport === 'ws' ? '{"type":"observation","data":' + payload + '}' : payload;
}

/**
 * MCP's tool result for a call, from the same pieces: the JSON text as the text content, the result itself as
 * `structuredContent` when it is an object, and a failure as an `isError` result carrying `{code, message, details}`.
 * @example
 * toolCallResult({ ok: false, error: { code: 'not_found', message: 'No contact con_1.' }, json: '{"code":"not_found","message":"No contact con_1."}' });
 * // { content: [{ type: 'text', text: '{"code":"not_found",…}' }], structuredContent: { code: 'not_found', … }, isError: true }
 */
export function toolCallResult(outcome: CallOutcome): CallToolResult {
  if (!outcome.ok)
    return {
      content: [{ type: 'text', text: outcome.json }],
      structuredContent: { ...outcome.error },
      isError: true,
    };
  const out: CallToolResult = { content: [{ type: 'text', text: outcome.json }] };
  if (isStructured(outcome.result))
    out.structuredContent = outcome.result as Record<string, unknown>;
  return out;
}
