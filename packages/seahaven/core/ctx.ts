/** What a tool sees: the instance's database, clock, random streams, ids, the call and the instance. Nothing else. */
import type { Ids, Rng } from './random.ts';
import type { Row } from './values.ts';

export type SqlParam =
  string | number | bigint | boolean | null | Uint8Array | Record<string, unknown>;

/** The result of `ctx.db.run`. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | string;
}

/** SQL on the instance's own database. Every statement is captured; use `?` parameters, never interpolation. */
export interface CtxDb {
  /** The first row, or `undefined`. */
  one<T = Row>(sql: string, ...params: SqlParam[]): T | undefined;
  /** Every row. Give the SQL an `ORDER BY` when the agent will see the order. */
  all<T = Row>(sql: string, ...params: SqlParam[]): T[];
  /** Run a statement that writes. */
  run(sql: string, ...params: SqlParam[]): RunResult;
  /** Run `fn` in a savepoint: a throw rolls back what it wrote and propagates; the outer call may continue. */
  transaction<T>(fn: () => T): T;
}

export interface CtxClock {
  /** Epoch milliseconds of the virtual clock. */
  now(): number;
  /** The virtual instant as ISO-8601 with milliseconds and `Z`. */
  iso(): string;
}

export interface CallInfo {
  tool: string;
  args: Record<string, unknown>;
  /** Calls are numbered from 1. */
  index: number;
}

export interface InstanceInfo {
  id: string;
  fixture: string | null;
  seed: number;
}

/** The context a tool runs with. */
export interface Ctx {
  readonly db: CtxDb;
  readonly clock: CtxClock;
  readonly rng: Rng;
  readonly ids: Ids;
  readonly call: CallInfo;
  readonly instance: InstanceInfo;
  /** Handles to composed sub-worlds, by mount name. */
  readonly worlds: Record<string, WorldHandle>;
  /**
   * In a mounted world whose host declares `receive` for its mount: the way to hand the host a message, answered by
   * the host's code within the same call. Undefined otherwise (a world on its own, or a host that takes no messages).
   */
  readonly host?: HostHandle;
}

/** A mounted world's way to its host (`MountSpec.receive`). */
export interface HostHandle {
  /** Run the host's `receive` with `message`, in a savepoint of the current call; its result, or its throw. */
  send(message: unknown): unknown;
}

/** A composed sub-world as its host sees it: its tools, and its store read-only. */
export interface WorldHandle {
  call(tool: string, args: Record<string, unknown>): unknown;
  db: Pick<CtxDb, 'one' | 'all'>;
}
