/**
 * Serve worlds over the OpenEnv protocol, so TRL, OpenEnv's Python clients and `seahaven/client` can train and evaluate
 * agents in them: a WebSocket per session on `/ws`, session-aware `/reset`, `/step` and `/state`, OpenEnv JSON-RPC on
 * `POST /mcp`, and `/health`, `/metadata`, `/schema` and `/openapi.json` for tooling. Each session is a private
 * instance; sessions take turns fairly, and idle ones are reaped. `serveCurricula` adds the worlds' curricula: resets
 * with `{curriculum, run_id}`, grades fed back at submit, and `GET /curricula/<name>/runs/<run_id>`.
 * `consoleRoutes()` adds the web console at `/console/`, and `createMcpHttpHandler` (as the `mcpHttp` option, or
 * mounted on a server of your own) MCP Streamable HTTP on `/mcp`.
 *
 * @example
 * import { startServer } from 'seahaven/serve';
 * import { crm } from './worlds/crm/index.ts';
 * const server = await startServer({ worlds: [crm], port: 0 });
 * console.log(`OpenEnv base URL: ${server.url}`);
 * await server.close();
 *
 * @module seahaven/serve
 */
export { createApp, DEFAULTS, type AppOptions, type SeahavenApp } from './app.ts';
export { startServer, type ServerOptions, type RunningServer } from './server.ts';
export { consoleRoutes, type ConsoleOptions } from './console.ts';
export { serveCurricula, type ServeCurriculaOptions, type ServedCurricula } from './curricula.ts';
export type { ServeHooks } from './endpoint.ts';
export { ResetError } from './errors.ts';
export type { ResetRequest, ResetPlan, RewardMode } from './reset.ts';
export type { Session, SessionRegistry, SessionOwner, EndReason } from './sessions.ts';
export type { McpHttpRoute } from './http.ts';
export {
  createMcpHttpHandler,
  isMcpRequest,
  type McpHttpOptions,
  type McpHttpHandler,
  type McpHandleOptions,
  type McpSessionHost,
  type McpSessionLease,
  type McpResetOptions,
  type HostCheckOptions,
} from '../mcp/index.ts';
