/**
 * Serve a world over the Model Context Protocol, tools only: `serveMcpStdio` for one instance per process (what
 * `seahaven mcp` runs), `createMcpHttpHandler` for Streamable HTTP with one instance per session (what `seahaven
 * serve` mounts on `/mcp`). Neither offers resources or prompts, so an agent cannot read its grade or its changes.
 *
 * @example
 * import { createMcpHttpHandler } from './index.ts'; // from packages/seahaven/transports/serve/
 * const mcp = createMcpHttpHandler({ world: crm, defaults: { fixture: 'small_startup' } });
 * app.all('/mcp', (c) => mcp(c.req.raw));
 *
 * @module
 */
export { openInstance, type McpResetOptions } from './server.ts';
export {
  createMcpHttpHandler,
  isMcpRequest,
  type McpHttpOptions,
  type McpHttpHandler,
  type McpHandleOptions,
  type McpSessionHost,
  type McpSessionLease,
} from './http.ts';
export { type HostCheckOptions } from './host-check.ts';
