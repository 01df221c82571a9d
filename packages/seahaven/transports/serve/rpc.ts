/**
 * OpenEnv's JSON-RPC dialect, spoken on `POST /mcp` and inside WebSocket `mcp` frames: `tools/list`, `tools/call`,
 * `openenv/session/create` and `openenv/session/close`. Errors are in-band; the HTTP status is always 200.
 */
import { callWithJson } from '../../core/instance-internals.ts';
import type { InstanceOptions } from '../../core/instance.ts';
import type { World } from '../../core/world.ts';
import type { FrameError } from './errors.ts';
import { callObservation } from './observation.ts';
import type { Reply } from './outbox.ts';
import { RPC, SUBMIT_TOOL, submitToolResult, type OpenEnvTool, type RpcId } from './payload.ts';
import {
  CapacityError,
  sharedOverHttp,
  type Session,
  type SessionEndpoint,
  type SessionOwner,
  type SessionRegistry,
} from './sessions.ts';

/**
 * What JSON-RPC uses of a world's endpoint (endpoint.ts). Named here rather than imported, since the endpoint answers
 * WebSocket `mcp` frames through this module.
 */
export interface RpcEndpoint extends SessionEndpoint {
  readonly world: World;
  readonly defaultFixture: string | undefined;
  readonly tools: OpenEnvTool[];
  readonly registry: SessionRegistry;
  /** The tools a session lists (the world's, and `submit` when its reset asked for it). */
  toolsOf(session: Session | null): OpenEnvTool[];
  /** The `submit` tool's call on a session that lists it: the grade's `{reward, passed}`. */
  submitOverRpc(session: Session): { reward: number; passed: boolean };
  openSession(owner: SessionOwner): Session;
  instanceOptions(): Pick<InstanceOptions, 'logger' | 'slowCallMs'>;
  asFrameError(e: unknown): FrameError;
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string; data?: unknown } };

/** A JSON-RPC error response. */
export function rpcError(id: RpcId, code: number, message: string, data?: unknown): RpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

function idOf(msg: Record<string, unknown>): RpcId {
  const id = msg.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

const METHODS = 'tools/list, tools/call, openenv/session/create, openenv/session/close';

/** The session an HTTP request routes to with `params.session_id`, when its method works on one. */
export function routedSessionId(msg: unknown): string | undefined {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  // A request that is not valid JSON-RPC is answered as such (-32600) before any session is looked up.
  if (m.jsonrpc !== '2.0' || (m.method !== 'tools/call' && m.method !== 'tools/list'))
    return undefined;
  const params = m.params as Record<string, unknown> | undefined;
  return params !== null && typeof params === 'object' && typeof params.session_id === 'string'
    ? params.session_id
    : undefined;
}

/**
 * Answer one JSON-RPC request: the response's JSON text (a tool's result as UTF-8 bytes). `session` is the instance it
 * works on: the WebSocket's own (`via: 'socket'`, and the reply is then a whole `mcp` frame) or the one
 * `params.session_id` routed to; without one, `tools/call` runs on a throwaway instance.
 * @example
 * handleRpc(endpoint, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, null, 'http'); // '{"jsonrpc":"2.0","id":1,"result":{"tools":[…]}}'
 */
export function handleRpc(
  ep: RpcEndpoint,
  body: unknown,
  session: Session | null,
  via: 'socket' | 'http',
): Reply {
  const answer = dispatch(ep, body, session, via);
  if (typeof answer === 'string' || answer instanceof Uint8Array) return answer;
  const text = JSON.stringify(answer);
  return via === 'socket' ? '{"type":"mcp","data":' + text + '}' : text;
}

function dispatch(
  ep: RpcEndpoint,
  body: unknown,
  session: Session | null,
  via: 'socket' | 'http',
): RpcResponse | Reply {
  const viaSocket = via === 'socket';
  if (Array.isArray(body))
    return rpcError(
      null,
      RPC.INVALID_REQUEST,
      'Invalid Request: batch requests are not supported; send one JSON-RPC request object per POST',
    );
  if (body === null || typeof body !== 'object')
    return rpcError(
      null,
      RPC.INVALID_REQUEST,
      'Invalid Request: the body must be a JSON-RPC 2.0 request object',
    );
  const msg = body as Record<string, unknown>;
  const id = idOf(msg);
  if (msg.jsonrpc !== '2.0')
    return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: set "jsonrpc": "2.0"');
  if (typeof msg.method !== 'string')
    return rpcError(
      id,
      RPC.INVALID_REQUEST,
      `Invalid Request: "method" must be a string, one of ${METHODS}`,
    );
  const params = msg.params ?? {};
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: params must be an object');
  const p = params as Record<string, unknown>;
  try {
    switch (msg.method) {
      case 'tools/list':
        return { jsonrpc: '2.0', id, result: { tools: ep.toolsOf(session) } };
      case 'tools/call':
        return callTool(ep, id, p, session, viaSocket);
      case 'openenv/session/create':
        if (viaSocket && session !== null)
          return { jsonrpc: '2.0', id, result: { session_id: session.id } };
        return { jsonrpc: '2.0', id, result: { session_id: ep.openSession('mcp').id } };
      case 'openenv/session/close':
        return closeSession(ep, id, p, viaSocket ? session : null);
      default:
        return rpcError(
          id,
          RPC.METHOD_NOT_FOUND,
          `Method not found: ${msg.method}; this endpoint answers ${METHODS}`,
        );
    }
  } catch (e) {
    if (e instanceof CapacityError)
      return rpcError(id, RPC.SERVER, e.message, {
        active_sessions: e.activeSessions,
        max_sessions: e.maxSessions,
      });
    const fe = ep.asFrameError(e);
    if (fe.code === 'RESOURCE_EXHAUSTED')
      return rpcError(id, RPC.SERVER, fe.message, { code: fe.code, ...fe.extra });
    return rpcError(
      id,
      fe.code === 'FACTORY_ERROR' || fe.code === 'SESSION_ERROR' ? RPC.SERVER : RPC.INTERNAL,
      fe.message,
    );
  }
}

function callTool(
  ep: RpcEndpoint,
  id: RpcId,
  p: Record<string, unknown>,
  session: Session | null,
  inFrame: boolean,
): RpcResponse | Reply {
  if (typeof p.name !== 'string' || p.name === '')
    return rpcError(
      id,
      RPC.INVALID_PARAMS,
      "Invalid params: 'name' (the tool to call) is required",
    );
  const args = p.arguments ?? {};
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return rpcError(id, RPC.INVALID_PARAMS, "Invalid params: 'arguments' must be an object");
  if (session === null && typeof p.session_id === 'string')
    return rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${p.session_id}`);
  if (session?.submitTool && p.name === SUBMIT_TOOL.name) {
    const result = submitToolResult(ep.submitOverRpc(session));
    const head =
      (inFrame ? '{"type":"mcp","data":' : '') +
      '{"jsonrpc":"2.0","id":' +
      JSON.stringify(id) +
      ',"result":';
    return head + result + (inFrame ? '}}' : '}');
  }
  // Without a session the call runs on a throwaway instance, as OpenEnv's reference server does.
  const inst =
    session?.inst ?? ep.world.instance({ fixture: ep.defaultFixture, ...ep.instanceOptions() });
  try {
    return callObservation(p.name, inst[callWithJson](p.name, args), {
      transport: 'rpc',
      id,
      inFrame,
    });
  } finally {
    if (session === null) inst.destroy();
  }
}

function closeSession(
  ep: RpcEndpoint,
  id: RpcId,
  p: Record<string, unknown>,
  own: Session | null,
): RpcResponse {
  const target = p.session_id;
  if (typeof target !== 'string' || target === '')
    return rpcError(id, RPC.INVALID_PARAMS, "Invalid params - 'session_id' is required");
  if (own !== null && own.id === target)
    return rpcError(
      id,
      RPC.INVALID_REQUEST,
      'Cannot close the WebSocket-managed session via MCP; send {"type": "close"} instead',
    );
  const s = ep.registry.get(ep, target);
  if (s === undefined || !sharedOverHttp(s))
    return rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${target}`);
  ep.registry.end(s, 'close');
  return { jsonrpc: '2.0', id, result: { session_id: target, closed: true } };
}
