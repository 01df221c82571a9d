/** Protocol errors: the codes an OpenEnv client sees in `{"type":"error"}` frames, and the pydantic-style error items. */
import { randomUUID } from 'node:crypto';
import { InstanceError, ToolError } from '../../core/errors.ts';

/** The error codes of the OpenEnv WebSocket protocol. */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED'
  | 'FACTORY_ERROR'
  | 'SESSION_ERROR'
  | 'RESOURCE_EXHAUSTED';

/** One validation problem, shaped like a pydantic error so Python clients and FastAPI-style 422 bodies agree. */
export interface ErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
}

/** A refused frame or request. Thrown inside the protocol engine and turned into an error frame, a 422 or a JSON-RPC error. */
export class FrameError extends Error {
  readonly code: ErrorCode;
  readonly errors: ErrorItem[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  constructor(
    code: ErrorCode,
    message: string,
    errors?: ErrorItem[],
    extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'FrameError';
    this.code = code;
    // Pydantic (and so FastAPI's 422 bodies) always carries `input`.
    this.errors = errors?.map((e) => ('input' in e ? e : { ...e, input: null }));
    this.extra = extra;
  }
}

/**
 * A session, reset or fork refused because the process would run out of memory doing it (`--max-memory`): what it
 * would need and what is left, in MiB. Nothing was started; the session that asked goes on as it was.
 */
export class MemoryRefusal extends Error {
  readonly neededMb: number;
  readonly availableMb: number;
  constructor(what: string, neededMb: number, availableMb: number, budgetMb: number) {
    super(
      `not enough memory to ${what}: it needs about ${neededMb} MiB and ${availableMb} MiB of this server's ${budgetMb} MiB (--max-memory) are left; end sessions or held forks, retry later, or start the server with a higher --max-memory`,
    );
    this.name = 'MemoryRefusal';
    this.neededMb = neededMb;
    this.availableMb = availableMb;
  }
}

/**
 * The `RESOURCE_EXHAUSTED` error for a memory refusal, or for a request on an episode that ended when its database
 * filled up (an `InstanceError` coded `resource_exhausted`); null for anything else.
 */
export function resourceError(e: unknown): FrameError | null {
  if (e instanceof MemoryRefusal)
    return new FrameError('RESOURCE_EXHAUSTED', e.message, undefined, {
      needed_mb: e.neededMb,
      available_mb: e.availableMb,
      option: '--max-memory',
    });
  if (e instanceof ToolError && e.code === 'resource_exhausted')
    return new FrameError('RESOURCE_EXHAUSTED', e.message, undefined, e.details);
  if (e instanceof InstanceError && e.code === 'resource_exhausted')
    return new FrameError('RESOURCE_EXHAUSTED', e.message, undefined, {
      episode_ended: true,
      option: '--max-episode-db-mb',
    });
  return null;
}

/**
 * Thrown by a `resolveReset` hook to refuse a reset with a message for the client (a `VALIDATION_ERROR`).
 * @example
 * resolveReset(req) { if (!runs.has(req.run_id!)) throw new ResetError('run_id', `no run "${req.run_id}"; start one first`); … }
 */
export class ResetError extends Error {
  /** The reset key the problem is about, e.g. `curriculum`. */
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'ResetError';
    this.field = field;
  }
}

/** A `VALIDATION_ERROR` whose message names the first problem, so a client that only prints `message` still shows the fix. */
export function validationError(what: string, errors: ErrorItem[]): FrameError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const path = first.loc.slice(1).join('.');
  return new FrameError(
    'VALIDATION_ERROR',
    `${what}${path ? ` at ${path}` : ''}: ${first.msg}${more}`,
    errors,
  );
}

/** The JSON text of an error frame. */
export function errorFrame(
  code: ErrorCode,
  message: string,
  errors?: ErrorItem[],
  extra?: Record<string, unknown>,
): string {
  const data: Record<string, unknown> = { message, code };
  if (errors !== undefined) data.errors = errors;
  if (extra !== undefined) Object.assign(data, extra);
  return JSON.stringify({ type: 'error', data });
}

/** The JSON text of the error frame for a `FrameError`. */
export function frameErrorText(e: FrameError): string {
  return errorFrame(e.code, e.message, e.errors, e.extra);
}

/** An exception's stack (or text) for the server log; never throws, whatever was thrown. */
export function describeError(e: unknown): string {
  try {
    return (e as Error)?.stack ?? String(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
}

/**
 * Log an unexpected failure under a fresh reference and return what a client may see instead of its message (which can
 * name files on the server): `internal error (server error <ref>; the server log has the details)`.
 * @example
 * catch (e) { return reply(500, logInternal(logger, 'in /reset', e)); }
 */
export function logInternal(logger: (line: string) => void, context: string, e: unknown): string {
  const ref = randomUUID().slice(0, 8);
  try {
    logger(`[seahaven] server error ${ref} ${context}: ${describeError(e)}`);
  } catch {
    // A failing logger must not turn one error reply into none.
  }
  return `internal error (server error ${ref}; the server log has the details)`;
}
