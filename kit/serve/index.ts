/**
 * Serve worlds over the OpenEnv protocol, so TRL, OpenEnv's Python clients and `seahaven/client` can train and evaluate
 * agents in them: a WebSocket per session on `/ws`, session-aware `/reset`, `/step` and `/state`, OpenEnv JSON-RPC on
 * `POST /mcp`, and `/health`, `/metadata`, `/schema` and `/openapi.json` for tooling. Each session is a private
 * instance; sessions take turns fairly, and idle ones are reaped. `serveCurricula` adds the worlds' curricula: resets
 * with `{curriculum, run_id}`, grades fed back at submit, and `GET /curricula/<name>/runs/<run_id>`.
 * `consoleRoutes()` adds the web console at `/console/`.
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
export { accessGuard, accessCheck, isLoopbackHost, type AccessOptions } from './access.ts';
export { readBody, rateLimited, BodyTooLarge, BodyTimeout, BodyAborted, type BodyLimits } from './body.ts';
export { MAX_JSON_DEPTH, jsonTooDeep } from './json-limits.ts';
export { startServer, type ServerOptions, type RunningServer } from './server.ts';
export { consoleRoutes, type ConsoleOptions } from './console.ts';
export type { ConsoleApiOptions } from './console-api.ts';
export { Endpoint, type ServeHooks, type EndpointOptions } from './endpoint.ts';
export { Session, SessionRegistry, CapacityError, sharedOverHttp, type SessionOwner, type EndReason, type Job } from './sessions.ts';
export { FairScheduler, type Reply } from './scheduler.ts';
export { serveCurricula, type ServeCurriculaOptions, type ServedCurricula } from './curricula.ts';
export { ResetError, FrameError, logInternal, type ErrorCode, type ErrorItem } from './errors.ts';
export type { ResetRequest, ResetPlan, RewardMode } from './reset.ts';
export type { McpHttpHandler } from './http.ts';
export type { OpenEnvTool, StepAction } from './payload.ts';
export { createMcpHttpHandler, isMcpRequest, createHostCheck, LOOPBACK_HOSTS, type McpHttpOptions, type McpHttpHandler as McpStreamableHttpHandler, type McpResetOptions, type HostCheckOptions, type McpSessionHost, type McpSessionLease, type McpHandleOptions } from '../mcp/index.ts';
