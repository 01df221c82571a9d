/**
 * OpenEnv's JSON-RPC dialect, spoken on `POST /mcp` and inside WebSocket `mcp` frames: `tools/list`, `tools/call`,
 * `openenv/session/create` and `openenv/session/close`. Errors are in-band; the HTTP status is always 200.
 */
import { errorTypeOf } from './payload.ts';
import { CapacityError, sharedOverHttp, type Session } from './sessions.ts';
import type { Endpoint } from './endpoint.ts';

/** JSON-RPC error codes. */
export const RPC = { PARSE: -32700, INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602, INTERNAL: -32603, SERVER: -32000 } as const;

export type RpcId = string | number | null;

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string; data?: unknown } };

/** A JSON-RPC error response. */
export function rpcError(id: RpcId, code: number, message: string, data?: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
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
  if (m.jsonrpc !== '2.0' || (m.method !== 'tools/call' && m.method !== 'tools/list')) return undefined;
  const params = m.params as Record<string, unknown> | undefined;
  return params !== null && typeof params === 'object' && typeof params.session_id === 'string' ? params.session_id : undefined;
}

/**
 * Answer one JSON-RPC request. `session` is the instance it works on: the WebSocket's own (`viaSocket`) or the one
 * `params.session_id` routed to; without one, `tools/call` runs on a throwaway instance.
 * @example
 * handleRpc(endpoint, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, null); // { jsonrpc: '2.0', id: 1, result: { tools: [...] } }
 */
export function handleRpc(ep: Endpoint, body: unknown, session: Session | null, viaSocket = session !== null): RpcResponse {
  if (Array.isArray(body)) return rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: batch requests are not supported; send one JSON-RPC request object per POST');
  if (body === null || typeof body !== 'object') return rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: the body must be a JSON-RPC 2.0 request object');
  const msg = body as Record<string, unknown>;
  const id = idOf(msg);
  if (msg.jsonrpc !== '2.0') return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: set "jsonrpc": "2.0"');
  if (typeof msg.method !== 'string') return rpcError(id, RPC.INVALID_REQUEST, `Invalid Request: "method" must be a string, one of ${METHODS}`);
  const params = msg.params ?? {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: params must be an object');
  const p = params as Record<string, unknown>;
  try {
    switch (msg.method) {
      case 'tools/list':
        return { jsonrpc: '2.0', id, result: { tools: ep.tools } };
      case 'tools/call':
        return callTool(ep, id, p, session);
      case 'openenv/session/create':
        if (viaSocket && session !== null) return { jsonrpc: '2.0', id, result: { session_id: session.id } };
        return { jsonrpc: '2.0', id, result: { session_id: ep.openSession('mcp').id } };
      case 'openenv/session/close':
        return closeSession(ep, id, p, viaSocket ? session : null);
      default:
        return rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}; this endpoint answers ${METHODS}`);
    }
  } catch (e) {
    if (e instanceof CapacityError) return rpcError(id, RPC.SERVER, e.message, { active_sessions: e.activeSessions, max_sessions: e.maxSessions });
    const fe = ep.asFrameError(e);
    return rpcError(id, fe.code === 'FACTORY_ERROR' || fe.code === 'SESSION_ERROR' ? RPC.SERVER : RPC.INTERNAL, fe.message);
  }
}

function callTool(ep: Endpoint, id: RpcId, p: Record<string, unknown>, session: Session | null): RpcResponse {
  if (typeof p.name !== 'string' || p.name === '') return rpcError(id, RPC.INVALID_PARAMS, "Invalid params: 'name' (the tool to call) is required");
  const args = p.arguments ?? {};
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return rpcError(id, RPC.INVALID_PARAMS, "Invalid params: 'arguments' must be an object");
  if (session === null && typeof p.session_id === 'string') return rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${p.session_id}`);
  // Without a session the call runs on a throwaway instance, as OpenEnv's reference server does.
  const inst = session?.inst ?? ep.world.instance({ fixture: ep.defaultFixture });
  try {
    const r = inst.call(p.name, args);
    if (r.ok) {
      const result = r.result;
      const structured = result !== null && typeof result === 'object' && !Array.isArray(result) ? result : null;
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(result) }], structured_content: structured, data: result, is_error: false } };
    }
    return rpcError(id, RPC.INTERNAL, `Tool '${p.name}' failed: ${r.error.message}`, { error_type: errorTypeOf(r.error.code), seahaven_error: r.error });
  } finally {
    if (session === null) inst.destroy();
  }
}

function closeSession(ep: Endpoint, id: RpcId, p: Record<string, unknown>, own: Session | null): RpcResponse {
  const target = p.session_id;
  if (typeof target !== 'string' || target === '') return rpcError(id, RPC.INVALID_PARAMS, "Invalid params - 'session_id' is required");
  if (own !== null && own.id === target) return rpcError(id, RPC.INVALID_REQUEST, 'Cannot close the WebSocket-managed session via MCP; send {"type": "close"} instead');
  const s = ep.registry.get(ep, target);
  if (s === undefined || !sharedOverHttp(s)) return rpcError(id, RPC.INVALID_PARAMS, `Unknown session_id: ${target}`);
  ep.registry.end(s, 'close');
  return { jsonrpc: '2.0', id, result: { session_id: target, closed: true } };
}
