/**
 * What a world is made of: the spec `defineWorld` takes and the `World` it returns. The runtime (instance.ts,
 * fixtures.ts and the modules they use) builds on these types; world.ts implements them and declares
 * `World.instance()`, the one member that names the runtime's `Instance`, so that no module below world.ts depends
 * on it.
 */
import type { Ctx } from './ctx.ts';
import type { Curriculum } from './curriculum.ts';
import type { FixtureSpec } from './fixture-spec.ts';
import type { HttpFace } from './http-face.ts';
import type { TableInfo } from './schema.ts';
import type { Task } from './task.ts';
import type { Tool, ToolListing } from './tool.ts';

export type { FixtureSpec } from './fixture-spec.ts';

/** A composed sub-world. */
export interface MountSpec {
  world: World;
  /** Prefix for its tool names as the agent sees them, e.g. `stripe_`. */
  prefix: string;
  /** Only these sub-world tools are shown (names without prefix). */
  allow?: string[];
  /** These sub-world tools are hidden. */
  block?: string[];
  /**
   * Serve the sub-world's HTTP face (its `http` option) as this world's: `seahaven serve` answers it, each session is
   * issued a key for it, and a request acts on the sub-world's store of the key's instance. At most one mount sets it,
   * and only in a world without an `http` option of its own. Default false: the sub-world is reached through its tools.
   */
  http?: boolean;
  /**
   * What the host does with a message the sub-world sends it (`ctx.host.send(message)` in the sub-world's code): it
   * runs with the host's context, inside the call that sent it and in a savepoint of it (a throw undoes what it wrote
   * and reaches the sender), and its return value is the sender's answer. Stripe World delivers webhooks to
   * `seahaven://host/...` endpoints this way. Without it, `ctx.host` is undefined in the sub-world.
   */
  receive?: (ctx: Ctx, message: unknown) => unknown;
}

export interface WorldSpec {
  /** `^[a-z][a-z0-9_-]{0,63}$`; used in URLs. */
  name: string;
  version: string;
  description?: string;
  /** SQL DDL (and optional reference rows). Tables must be STRICT with an explicit PRIMARY KEY. */
  schema: string;
  tools: Tool<any, any>[];
  fixtures?: Record<string, FixtureSpec>;
  tasks?: Task[];
  /** Curricula over the tasks (from `defineCurriculum` in `seahaven/curricula`); checked against the tasks here. */
  curricula?: Curriculum[];
  /** Clock start of blank instances. Default `2026-01-01T00:00:00.000Z`. */
  epoch?: string;
  /** Where frozen fixture images live (`<id>.sqlite` + `<id>.json`); without it fixtures are built in memory once per process. */
  fixturesDir?: string | URL;
  /** Composed sub-worlds, by mount name. */
  worlds?: Record<string, MountSpec>;
  /** How the world presents itself over MCP. */
  mcp?: { name?: string; instructions?: string };
  /** An HTTP API of the world's own (from `defineHttpFace`), served by `seahaven serve` beside OpenEnv. */
  http?: HttpFace;
  /**
   * Bookkeeping tables whose rows are not world state (Stripe World's idempotency store): their writes are not
   * captured, so they appear in no `changes()`, `changeLog()` or grade. A failed call still rolls them back, and
   * forks, hibernation and fixtures carry them like any table.
   */
  untracked?: readonly string[];
  /**
   * What happens in the world while time passes: called when the harness advances an instance's clock
   * (`inst.clock.advance(ms)`, OpenEnv's `advance_clock` action, the console), as one numbered call recorded under
   * `advance_clock`, with the clock already at `to` (epoch ms). Stripe World renews subscriptions here. Its result is
   * the call's result. Written as a generator function (`*onClockAdvance(ctx, passed) { …; yield; … }`) it may pause
   * at each `yield`: `seahaven serve` then runs a long advance a turn at a time, answering other sessions between
   * slices, and the `return` value is the result. Pausing must change only when work runs, never what it does.
   */
  onClockAdvance?: (ctx: Ctx, passed: { from: number; to: number }) => unknown;
}

/** A defined world. Its `instance(options)` member is declared in world.ts, beside `defineWorld`. */
export interface World {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly schema: string;
  readonly tools: readonly Tool<any, any>[];
  readonly fixtures: Readonly<Record<string, FixtureSpec>>;
  readonly tasks: readonly Task[];
  readonly curricula: readonly Curriculum[];
  readonly epoch: string;
  readonly fixturesDir: string | null;
  readonly mounts: Readonly<Record<string, MountSpec>>;
  readonly mcp: { name: string; instructions?: string };
  /** The HTTP API the world serves: its own, or a mounted world's (`MountSpec.http`, and then `httpMount` names the mount). */
  readonly http: HttpFace | undefined;
  /** The mount whose world's HTTP API `http` is, whose store its requests act on; `undefined` when the face is the world's own or there is none. */
  readonly httpMount: string | undefined;
  /** What happens while time passes, if anything (`WorldSpec.onClockAdvance`). */
  readonly onClockAdvance: WorldSpec['onClockAdvance'];
  /** The user tables, sorted by name, as the schema creates them. */
  readonly tables: readonly TableInfo[];
  /** The tables whose changes are captured: `tables` without the `untracked` ones. */
  readonly trackedTables: readonly TableInfo[];
  readonly schemaHash: string;
  /** The agent-facing tool list, composed sub-worlds included. */
  toolListings(): ToolListing[];
  task(id: string): Task | undefined;
}
