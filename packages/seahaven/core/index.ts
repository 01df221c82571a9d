/**
 * Seahaven's kit: define worlds (a SQLite schema, zod-typed tools, frozen fixtures, graded tasks) and run instances
 * of them, each a private database whose every changed row is recorded.
 *
 * @example
 * import { defineWorld, defineTool, z } from 'seahaven';
 * const ping = defineTool({ name: 'ping', description: 'Answer pong.', input: z.object({}), run: () => 'pong' });
 * const world = defineWorld({ name: 'demo', version: '1.0.0', schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;', tools: [ping] });
 * world.instance().call('ping', {}); // { ok: true, result: 'pong' }
 *
 * @module seahaven
 */
export { z } from 'zod';
export {
  defineWorld,
  readSql,
  type World,
  type WorldSpec,
  type FixtureSpec,
  type MountSpec,
} from './world.ts';
export {
  defineTool,
  RESERVED_TOOL_NAMES,
  type Tool,
  type ToolSpec,
  type ToolListing,
  type ToolAnnotations,
  type Violation,
} from './tool.ts';
export {
  defineTask,
  goldCall,
  agentGrade,
  withCriterionIds,
  type Task,
  type TaskSpec,
  type Grade,
  type Criterion,
  type GradeDraft,
  type CriterionDraft,
  type AgentGrade,
  type AgentCriterion,
  type Grader,
  type GradeTarget,
  type GoldTarget,
} from './task.ts';
export {
  SeahavenError,
  AgentError,
  AuthorError,
  ToolError,
  DefinitionError,
  InstanceError,
  type SeahavenErrorCode,
  type AgentErrorCode,
  type AuthorErrorCode,
  type InstanceErrorCode,
} from './errors.ts';
export {
  defineHttpFace,
  defineOperation,
  type HttpFace,
  type HttpFaceSpec,
  type Operation,
  type OperationOutcome,
  type FaceRequest,
  type FaceReply,
  type FaceRoute,
} from './http-face.ts';
export type {
  Instance,
  InstanceOptions,
  CallResult,
  CallLogEntry,
  StateDocument,
  ToolFailure,
} from './instance.ts';
export type { Change, ChangeLogEntry } from './capture.ts';
export type {
  Ctx,
  CtxDb,
  CtxClock,
  CallInfo,
  InstanceInfo,
  RunResult,
  SqlParam,
  HostHandle,
  WorldHandle,
} from './ctx.ts';
export type { ClockMode, VirtualClock } from './clock.ts';
export type { Rng, Ids } from './random.ts';
export type { TableInfo } from './schema.ts';
export type { JsonValue, Row } from './values.ts';
