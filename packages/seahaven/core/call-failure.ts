/**
 * What the agent sees when a call fails: a `ToolError` (any `AgentError`) as thrown; a SQLite constraint failure as `constraint_violation`
 * naming the constraint where SQLite names it; anything else as `internal`, with the stack logged under a
 * deterministic id.
 */
import Database from 'better-sqlite3';
import { AgentError, type AgentErrorCode } from './errors.ts';
import { hashHex } from './random.ts';

/** An agent-facing failure. */
export interface ToolFailure {
  /** The kit's own code (`invalid_arguments`, `internal`, …) or the one the tool threw. */
  code: AgentErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** JSON text of a value the caller passed in; never throws (values that cannot be serialised are described). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    return JSON.stringify(`[not JSON: ${(e as Error).message}]`);
  }
}

/** The kinds of constraint SQLite reports, by the suffix of its extended result code. */
const KINDS = new Map<string, string>([
  ['UNIQUE', 'unique'],
  ['PRIMARYKEY', 'primary_key'],
  ['ROWID', 'primary_key'],
  ['NOTNULL', 'not_null'],
  ['CHECK', 'check'],
  ['FOREIGNKEY', 'foreign_key'],
  ['DATATYPE', 'datatype'],
  ['TRIGGER', 'trigger'],
]);

const HINTS = new Map<string, string>([
  [
    'unique',
    'another row already has this value; use a different value, or change the existing row instead',
  ],
  [
    'primary_key',
    'a row with this key already exists; use a different key, or change the existing row instead',
  ],
  ['not_null', 'a required value is missing; give one'],
  ['check', 'a value is outside what the schema allows; pass an allowed value'],
  ['datatype', "a value has the wrong type for its column; pass a value of the column's type"],
]);

const FOREIGN_KEY =
  'A foreign key constraint failed: a value refers to a row that does not exist, or the change would leave other rows pointing at a row that is gone (SQLite does not say which column). Check the ids you passed (find them with the list, search or get tools) and try again. Nothing was written.';

/** The agent-facing form of a SQLite constraint failure, or null when `e` is not one. */
export function constraintFailure(e: unknown): ToolFailure | null {
  if (!(e instanceof Database.SqliteError) || !e.code.startsWith('SQLITE_CONSTRAINT')) return null;
  const kind = KINDS.get(e.code.slice('SQLITE_CONSTRAINT_'.length)) ?? 'other';
  if (kind === 'foreign_key')
    return { code: 'constraint_violation', message: FOREIGN_KEY, details: { constraint: kind } };
  const failed = /^[A-Z ]+constraint failed: (.*)$/s.exec(e.message);
  const target =
    failed?.[1] ?? (kind === 'datatype' ? /column (\S+)$/.exec(e.message)?.[1] : undefined);
  const hint = HINTS.get(kind);
  const message = `${e.message.replace(/[.\s]+$/, '')}${hint === undefined ? '' : ` (${hint})`}. Nothing was written.`;
  return {
    code: 'constraint_violation',
    message,
    details: target === undefined ? { constraint: kind } : { constraint: kind, target },
  };
}

export interface FailureContext {
  world: string;
  tool: string;
  instance: string;
  /** The call's number. */
  index: number;
  /** Hashed with the instance and call number into the `internal` error's id, so a replay gives the same id. */
  seedText: string;
  logger: (line: string) => void;
}

/** The agent-facing failure for what a call threw. */
export function failureOf(e: unknown, at: FailureContext): ToolFailure {
  if (e instanceof AgentError)
    return e.details === undefined
      ? { code: e.code, message: e.message }
      : { code: e.code, message: e.message, details: e.details };
  const constraint = constraintFailure(e);
  if (constraint !== null) return constraint;
  const id = 'err_' + hashHex(`${at.seedText}\u0000${at.instance}\u0000${at.index}`).slice(0, 16);
  const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
  at.logger(
    `[seahaven] world bug ${id} in ${at.world}/${at.tool} (instance ${at.instance}, call ${at.index}): ${stack}`,
  );
  return { code: 'internal', message: 'internal error', details: { id } };
}

/** Whether `e` is SQLite's "database or disk is full": a database of the episode reached its size limit. */
export function isDatabaseFull(e: unknown): boolean {
  return e instanceof Database.SqliteError && e.code === 'SQLITE_FULL';
}

/** A size in MiB for people: whole MiB from 10 up, else to a tenth (at least 0.1). */
function mib(bytes: number): string {
  const m = bytes / 2 ** 20;
  return m >= 10 ? String(Math.round(m)) : String(Math.max(0.1, Math.round(m * 10) / 10));
}

/**
 * The failure of a call that would have grown a database of its episode past `limitBytes` (its fixture's image plus
 * `growthBytes`). With `endedAt`, SQLite undid the episode's writes along with the call, and the episode ends at that
 * call: this is then also the answer to everything asked of it later.
 */
export function databaseFull(at: {
  world: string;
  limitBytes: number;
  growthBytes: number;
  endedAt: number | null;
}): ToolFailure {
  const limit = `${mib(at.limitBytes)} MiB (its fixture's image plus the ${mib(at.growthBytes)} MiB an episode may add: maxDbGrowthBytes, or seahaven serve --max-episode-db-mb)`;
  const details = {
    limit_mb: Math.round((at.limitBytes / 2 ** 20) * 100) / 100,
    growth_mb: Math.round((at.growthBytes / 2 ** 20) * 100) / 100,
    option: '--max-episode-db-mb',
  };
  if (at.endedAt === null) {
    return {
      code: 'resource_exhausted',
      message: `${at.world}'s database reached its limit of ${limit}; nothing this call wrote was kept. Write less, delete rows, or raise the limit`,
      details,
    };
  }
  return {
    code: 'resource_exhausted',
    message: `this episode ended at call ${at.endedAt}: ${at.world}'s database reached its limit of ${limit}, and SQLite undid the episode's writes with the call. Reset to start a new episode, or raise the limit`,
    details: { ...details, episode_ended: true },
  };
}
