/** The JSON-RPC wire of MCP Streamable HTTP (`http.ts`): which requests are MCP, reading a body, and error replies. */
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { jsonTooDeep, tooDeepMessage } from '../serve/json-limits.ts';

/**
 * Whether a request to `/mcp` is MCP Streamable HTTP (it carries `Mcp-Session-Id`, is not a POST, or is an
 * `initialize`) rather than OpenEnv's plain JSON-RPC (`tools/list`, `tools/call`, `openenv/session/*` without a
 * session header).
 * @example
 * app.post('/mcp', async (c) => {
 *   const body = await c.req.json().catch(() => undefined);
 *   return isMcpRequest(c.req.raw, body) ? mcp(c.req.raw, { parsedBody: body }) : openEnvRpc(c, body);
 * });
 */
export function isMcpRequest(req: Request, parsedBody: unknown): boolean {
  if (req.headers.has('mcp-session-id') || req.method !== 'POST') return true;
  return Array.isArray(parsedBody) ? parsedBody.some(isInitialize) : isInitialize(parsedBody);
}

/** Whether a JSON-RPC message is an `initialize` request (which starts a session). */
export function isInitialize(body: unknown): body is JSONRPCRequest {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { method?: unknown }).method === 'initialize' &&
    'id' in body
  );
}

/** The request's body parsed as JSON, at most `maxBytes` long; or the JSON-RPC error reply saying why not. */
export async function readJson(
  req: Request,
  maxBytes: number,
): Promise<{ value: unknown } | Response> {
  if (req.bodyUsed)
    return rpcError(
      400,
      null,
      -32000,
      'the request body was already read; pass it to the handler as options.parsedBody',
    );
  const tooLarge = () =>
    rpcError(413, null, -32000, `request body is larger than ${maxBytes} bytes`);
  if (Number(req.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) return tooLarge();
  if (jsonTooDeep(text))
    return rpcError(400, null, -32600, `Invalid Request: ${tooDeepMessage('request')}`);
  try {
    return { value: JSON.parse(text) };
  } catch {
    return rpcError(400, null, -32700, 'Parse error: the body is not valid JSON');
  }
}

/** A JSON-RPC error reply with this HTTP status. */
export function rpcError(
  status: number,
  id: JSONRPCRequest['id'] | null,
  code: number,
  message: string,
  data?: unknown,
  headers?: Record<string, string>,
): Response {
  return Response.json(
    { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } },
    { status, ...(headers ? { headers } : {}) },
  );
}
