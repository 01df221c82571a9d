/**
 * An instance: one private SQLite database (plus one per composed sub-world) started from a fixture image, the tools
 * of its world, and the history of the episode. Each tool call is one transaction; every row written is captured.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { InstanceError, ToolError } from './errors.ts';
import { failureOf, safeJson } from './call-failure.ts';
import { CallTimer } from './call-timing.ts';
import { VirtualClock, isoOf, parseInstant, type ClockMode } from './clock.ts';
import { hashHex } from './random.ts';
import { ChangeTracker, type Change, type ChangeLogEntry } from './capture.ts';
import { Slot, commitCalls } from './slot.ts';
import { violationsOf, type Tool, type ToolListing } from './tool.ts';
import type { CallInfo, Ctx } from './ctx.ts';
import type { Row } from './values.ts';
import { CallHistory } from './call-history.ts';
import type { Grade, Task } from './task.ts';
import type { World } from './world.ts';
import { visibleInMount } from './world.ts';
import { loadFixture, type LoadedFixture } from './fixtures.ts';

type Db = InstanceType<typeof Database>;

export interface InstanceOptions {
  /**
   * Fixture id. Omitted: the task's fixture when `task` is given, else a blank instance from the schema. With `task`,
   * it may only name the task's own fixture.
   */
  fixture?: string;
  /** Whole number ≥ 0. Default 0. */
  seed?: number;
  /** `fixed` (default) or `tick` (+1 s per call). */
  clock?: ClockMode;
  /** Start the clock here instead of the fixture's `now` (not earlier). */
  now?: string;
  /** Where world bugs and slow calls are logged. Default: `console.error`. */
  logger?: (line: string) => void;
  /** Log calls that take at least this many milliseconds (one line through `logger`). Default 1000 (see `setDefaultSlowCallMs`); `Infinity`: never. */
  slowCallMs?: number;
  /** Start from this task's fixture and grade with the task at `submit()`. */
  task?: string;
}

/**
 * The fixture an instance starts from: the one named, else the task's, else none (a blank instance). Throws
 * `InstanceError` for an unknown task (`unknown_task`) or a fixture other than the task's (`fixture_mismatch`).
 */
function startingFixture(world: World, options: InstanceOptions): string | null {
  if (options.task === undefined) return options.fixture ?? null;
  const task = world.task(options.task);
  if (task === undefined) {
    throw new InstanceError('unknown_task', `world "${world.name}" has no task "${options.task}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`);
  }
  if (options.fixture !== undefined && options.fixture !== task.fixture) {
    throw new InstanceError('fixture_mismatch', `task "${task.id}" starts from fixture "${task.fixture}"; omit fixture or pass fixture: "${task.fixture}" (got "${options.fixture}")`);
  }
  return task.fixture;
}

/** An agent-facing failure. */
export interface ToolFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type CallResult = { ok: true; result: unknown } | { ok: false; error: ToolFailure };

/** @internal A call's outcome with the result also as JSON text, so a transport writes it without serialising it again. */
export type WireCallResult = { ok: true; result: unknown; json: string } | { ok: false; error: ToolFailure };

/**
 * One record of `callLog()`. `index` is absent for calls refused before they reached a tool. Arguments and results are
 * recorded in their JSON form, as an agent sees them on the wire, so later changes to the objects passed in or handed
 * back do not rewrite history.
 */
export interface CallLogEntry {
  index?: number;
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ToolFailure;
}

/** The state document. */
export interface StateDocument {
  format: 'seahaven.state/1';
  world: { name: string; version: string };
  fixture: { id: string; sha256: string } | null;
  seed: number;
  clock: { mode: ClockMode; now: string };
  call_count: number;
  task?: string;
  changes: Change[];
}

interface Bound {
  tool: Tool<any, any>;
  /** The agent-visible name (a mounted tool's carries its prefix). */
  name: string;
  /** Index into the instance's slots: 0 = host, then mounts in declaration order. */
  slot: number;
}

const boundByWorld = new WeakMap<World, Map<string, Bound>>();

/** The agent-visible tool names of a world and where each runs; computed once per world. */
function boundTools(world: World): Map<string, Bound> {
  let bound = boundByWorld.get(world);
  if (bound === undefined) {
    bound = new Map();
    for (const t of world.tools) bound.set(t.name, { tool: t, name: t.name, slot: 0 });
    Object.values(world.mounts).forEach((m, i) => {
      for (const t of m.world.tools) if (visibleInMount(m, t.name)) bound!.set(m.prefix + t.name, { tool: t, name: m.prefix + t.name, slot: i + 1 });
    });
    boundByWorld.set(world, bound);
  }
  return bound;
}

interface ForkSource {
  images: Map<string | null, Buffer>;
  streams: number[][];
  clock: { base: number; calls: number };
  tracker: ChangeTracker;
  /** Starting states of blank stores (a fixture's are shared through its loaded image). */
  blankBases: Map<string | null, Buffer | null>;
  callLog: CallHistory;
  id: string;
}

/** An episode's world state and history. Create with `world.instance(options)`. */
export class Instance {
  readonly world: World;
  readonly id: string;
  readonly fixture: string | null;
  readonly fixtureSha256: string | null;
  readonly seed: number;
  readonly taskId: string | undefined;
  /** Harness-side clock control: `now()`, `iso()`, `advance(ms)`, `mode`. */
  readonly clock: VirtualClock;
  private readonly slots: Slot[] = [];
  private readonly bound: Map<string, Bound>;
  private readonly tracker = new ChangeTracker([]);
  private readonly calls: CallHistory;
  private readonly logger: (line: string) => void;
  private readonly timer: CallTimer;
  private readonly seedText: string;
  private currentCall = 0;
  private streamMark: Int32Array | null = null;
  private forks = 0;
  private destroyed = false;

  /** @internal Use `world.instance()`. */
  constructor(world: World, options: InstanceOptions, from?: ForkSource, reuse?: Instance) {
    this.world = world;
    const seed = options.seed ?? 0;
    if (!Number.isSafeInteger(seed) || seed < 0) throw new InstanceError('invalid_seed', `seed must be a whole number >= 0; got ${JSON.stringify(options.seed)}`);
    const mode = options.clock ?? 'fixed';
    if (mode !== 'fixed' && mode !== 'tick') throw new InstanceError('invalid_clock', `clock must be 'fixed' or 'tick'; got ${JSON.stringify(options.clock)}`);
    this.seed = seed;
    this.fixture = startingFixture(world, options);
    this.logger = options.logger ?? ((line) => console.error(line));
    this.timer = new CallTimer(options.slowCallMs, this.logger);
    this.taskId = options.task;

    let loaded: LoadedFixture | null = null;
    if (this.fixture !== null) {
      if (!Object.hasOwn(world.fixtures, this.fixture)) {
        throw new InstanceError('unknown_fixture', `world "${world.name}" has no fixture "${this.fixture}"; its fixtures are ${Object.keys(world.fixtures).join(', ') || '(none)'}`);
      }
      loaded = loadFixture(world, this.fixture);
    }
    this.fixtureSha256 = loaded?.sha256 ?? null;
    const startText = loaded?.now ?? world.epoch;
    let start = parseInstant(startText, 'the start instant');
    if (options.now !== undefined) {
      const requested = parseInstant(options.now, 'now');
      if (requested < start) throw new InstanceError('invalid_now', `now (${options.now}) is earlier than the ${loaded ? `fixture's now (${startText})` : `world's epoch (${startText})`}; pick a later instant or omit it`);
      start = requested;
    }
    this.clock = new VirtualClock(mode, start);
    this.seedText = `${world.name}\u0000${this.fixture ?? ''}\u0000${seed}`;
    this.id = from?.id ?? 'inst_' + hashHex(this.seedText).slice(0, 16);
    this.calls = new CallHistory(from?.callLog);
    if (from) {
      this.clock.base = from.clock.base;
      this.clock.calls = from.clock.calls;
    }

    const mounts: [string | null, World][] = [[null, world], ...Object.entries(world.mounts).map(([m, spec]): [string, World] => [m, spec.world])];
    for (const [mount, w] of mounts) {
      const image = from ? from.images.get(mount)! : loaded ? loaded.armed.get(mount)! : null;
      const base = loaded ? loaded.base.get(mount)! : from ? from.blankBases.get(mount)! : null;
      // A restart takes over the previous episode's open connection, rolled back to this same fixture image.
      const store = reuse?.slots[this.slots.length].handOver() ?? undefined;
      this.slots.push(new Slot({ mount, world: w, seedText: this.seedText, clock: this.clock, tracker: this.tracker, instance: { id: this.id, fixture: this.fixture, seed: this.seed }, image, base, store }));
    }
    for (const m of Object.keys(world.mounts)) {
      this.slots[0].worlds[m] = {
        call: (tool, args) => this.callMounted(m, tool, args),
        db: {
          one: (sql, ...params) => this.slotOf(m).live().one(sql, params),
          all: (sql, ...params) => this.slotOf(m).live().all(sql, params),
        },
      };
    }
    if (from) from.tracker.copyInto(this.tracker);
    if (from) this.slots.forEach((s, i) => {
      s.rng.stream.restore(from.streams[i * 3]);
      s.ids.stream.restore(from.streams[i * 3 + 1]);
      s.sql.restore(from.streams[i * 3 + 2]);
    });
    this.bound = boundTools(world);
  }

  private slotOf(mount: string): Slot {
    return this.slots.find((s) => s.mount === mount)!;
  }

  private callMounted(mount: string, toolName: string, args: Record<string, unknown>): unknown {
    const slot = this.slotOf(mount);
    const tool = slot.world.tools.find((t) => t.name === toolName);
    if (!tool) throw new ToolError('unknown_tool', `${slot.world.name} has no tool "${toolName}"`);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw new ToolError('invalid_arguments', `invalid arguments for ${mount}.${toolName}`, { violations: violationsOf(parsed.error) });
    const outer = slot.ctx.call;
    slot.ctx.call = { tool: toolName, args: parsed.data, index: this.currentCall };
    try {
      return slot.live().transaction(() => tool.run(slot.ctx, parsed.data));
    } finally {
      slot.ctx.call = outer;
    }
  }

  private alive(): void {
    if (this.destroyed) throw new InstanceError('destroyed', `instance ${this.id} was destroyed; start a new one with world.instance()`);
  }

  /** The agent-facing tool list: `[{ name, description, inputSchema }]`. */
  tools(): ToolListing[] {
    return this.world.toolListings();
  }

  /** Call a tool. Never throws for agent mistakes: failures come back as `{ ok: false, error }`. */
  call(name: string, args: unknown = {}): CallResult {
    const r = this.callForWire(name, args);
    return r.ok ? { ok: true, result: r.result } : r;
  }

  /** @internal `call()`, also returning the result's JSON text (what the call log recorded). */
  callForWire(name: string, args: unknown = {}): WireCallResult {
    this.alive();
    const bound = this.bound.get(name);
    if (bound === undefined) {
      const error: ToolFailure = { code: 'unknown_tool', message: `Unknown tool "${name}". Available tools: ${[...this.bound.keys()].join(', ')}.` };
      this.logFailure(undefined, name, args, error);
      return { ok: false, error };
    }
    const parsed = bound.tool.input.safeParse(args);
    if (!parsed.success) {
      const violations = violationsOf(parsed.error);
      const error: ToolFailure = {
        code: 'invalid_arguments',
        message: `Invalid arguments for ${name}: ${violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; ')}`,
        details: { violations },
      };
      this.logFailure(undefined, name, args, error);
      return { ok: false, error };
    }
    // The clock counts numbered calls (calls refused before reaching a tool are not numbered).
    const index = ++this.clock.calls;
    this.currentCall = index;
    const slot = this.slots[bound.slot];
    const call: CallInfo = { tool: name, args: parsed.data, index };
    for (const s of this.slots) s.ctx.call = call;
    this.markStreams();
    this.timer.start();
    for (const s of this.slots) s.beginCall();
    try {
      let result = bound.tool.run(slot.ctx, parsed.data);
      if (result instanceof Promise) {
        result.catch(() => undefined);
        throw new TypeError(`tool ${name} returned a Promise; tools must be synchronous`);
      }
      if (result === undefined) result = null;
      let json: string;
      try {
        json = JSON.stringify(result) ?? 'null';
      } catch (e) {
        throw new TypeError(`tool ${name} returned a value that is not JSON (${(e as Error).message}); return plain objects, arrays, strings, numbers, booleans and null`);
      }
      commitCalls(this.slots);
      this.tracker.commitCall(index, name);
      this.calls.push(index, true, bound.name, safeJson(args), json);
      return { ok: true, result, json };
    } catch (e) {
      for (const s of this.slots) s.rollbackCall();
      this.tracker.discardCall();
      this.rewindStreams();
      const error = failureOf(e, { world: this.world.name, tool: name, instance: this.id, index, seedText: this.seedText, logger: this.logger });
      this.logFailure(index, bound.name, args, error);
      return { ok: false, error };
    } finally {
      this.currentCall = 0;
      this.timer.stop(this.world.name, bound.name, this.id, index);
    }
  }

  /** Milliseconds the last call that reached a tool took. */
  get lastCallMs(): number {
    return this.timer.lastMs;
  }

  private logFailure(index: number | undefined, tool: string, args: unknown, error: ToolFailure): void {
    this.calls.push(index ?? 0, false, tool, safeJson(args), safeJson(error));
  }

  private saveStreams(): number[][] {
    const out: number[][] = [];
    for (const s of this.slots) out.push(s.rng.stream.save(), s.ids.stream.save(), s.sql.save());
    return out;
  }

  /** Remember every stream's position at the start of a call, in a buffer reused by every call. */
  private markStreams(): void {
    const mark = (this.streamMark ??= new Int32Array(this.slots.length * 12));
    this.slots.forEach((s, i) => {
      s.rng.stream.saveInto(mark, i * 12);
      s.ids.stream.saveInto(mark, i * 12 + 4);
      s.sql.saveInto(mark, i * 12 + 8);
    });
  }

  /** Put every stream back where the failed call found it. */
  private rewindStreams(): void {
    const mark = this.streamMark!;
    this.slots.forEach((s, i) => {
      s.rng.stream.restoreFrom(mark, i * 12);
      s.ids.stream.restoreFrom(mark, i * 12 + 4);
      s.sql.restoreFrom(mark, i * 12 + 8);
    });
  }


  /** Net diff since reset, one entry per changed row, sorted by table then key. */
  changes(): Change[] {
    this.alive();
    return this.tracker.changes();
  }

  /** One record per row per call: what each call changed, net within that call. */
  changeLog(): ChangeLogEntry[] {
    this.alive();
    return this.tracker.changeLog();
  }

  /** One record per call, in order (fresh objects on every read). */
  callLog(): CallLogEntry[] {
    this.alive();
    return this.calls.entries();
  }

  /** Numbered calls so far. */
  get callCount(): number {
    return this.clock.calls;
  }

  /** Read-only SQL over the current state (main store; `mount.table` names need `queryStore`). */
  query<T = Row>(sql: string, ...params: unknown[]): T[] {
    return this.queryStore(null, sql, ...params);
  }

  /** Read-only SQL over a composed sub-world's store. */
  queryStore<T = Row>(mount: string | null, sql: string, ...params: unknown[]): T[] {
    this.alive();
    const slot = mount === null ? this.slots[0] : this.slots.find((s) => s.mount === mount);
    if (!slot) throw new InstanceError('unknown_store', `no composed world is mounted as "${mount}"`);
    const store = slot.live();
    const p = store.prepared(sql);
    if (!p.stmt.readonly || !p.stmt.reader) throw new InstanceError('not_read_only', `query() is read-only and must return rows; change state through tool calls. Got: ${sql}`);
    return store.rows(p, params) as T[];
  }

  /** The state document. */
  state(): StateDocument {
    this.alive();
    const doc: StateDocument = {
      format: 'seahaven.state/1',
      world: { name: this.world.name, version: this.world.version },
      fixture: this.fixture === null ? null : { id: this.fixture, sha256: this.fixtureSha256! },
      seed: this.seed,
      clock: { mode: this.clock.mode, now: isoOf(this.clock.now()) },
      call_count: this.callCount,
      changes: this.changes(),
    };
    if (this.taskId !== undefined) doc.task = this.taskId;
    return doc;
  }

  /** The task this instance was started with, if any. */
  task(): Task | undefined {
    return this.taskId === undefined ? undefined : this.world.task(this.taskId);
  }

  /** Grade the instance with its task. */
  submit(): Grade {
    const task = this.task();
    if (!task) throw new InstanceError('no_task', 'this instance has no task; start it with world.instance({ task: "<id>" })');
    return task.grade(this);
  }

  /**
   * A new episode from the same fixture on this instance's open connections: the same as `world.instance(options)`,
   * observably, but the connections are rolled back instead of reopened, so prepared statements and SQLite's page
   * cache stay warm. This instance is destroyed. Returns null (and leaves this instance alone) when it cannot be done:
   * another fixture (a task's own counts), a fork or hibernation committed the episode, or the world has deferred
   * foreign keys.
   */
  restart(options: InstanceOptions): Instance | null {
    if (this.destroyed || this.fixture === null || startingFixture(this.world, options) !== this.fixture) return null;
    if (!this.slots.every((s) => s.restartable)) return null;
    // Options are checked before any connection changes hands, so a refused restart leaves this instance as it was.
    const next = new Instance(this.world, options, undefined, this);
    this.destroy();
    return next;
  }

  /** The same episode, diverging from here: state, clock, random streams and history are carried over. */
  fork(): Instance {
    this.alive();
    const images = new Map<string | null, Buffer>();
    const blankBases = new Map<string | null, Buffer | null>();
    for (const s of this.slots) {
      images.set(s.mount, s.snapshot());
      blankBases.set(s.mount, s.blankBase);
    }
    return new Instance(
      this.world,
      { fixture: this.fixture ?? undefined, seed: this.seed, clock: this.clock.mode, logger: this.logger, task: this.taskId, slowCallMs: this.timer.slowMs },
      {
        images,
        streams: this.saveStreams(),
        clock: { base: this.clock.base, calls: this.clock.calls },
        tracker: this.tracker,
        blankBases,
        callLog: this.calls,
        id: `${this.id}~${++this.forks}`,
      },
    );
  }

  /** Run `fn` with a tool context as one transaction (fixture builds). */
  runBuild(fn: (ctx: Ctx) => void): void {
    const slot = this.slots[0];
    // A build's writes become the fixture itself; there is nothing to record.
    this.tracker.enabled = false;
    for (const s of this.slots) s.beginCall();
    try {
      fn(slot.ctx);
      commitCalls(this.slots);
    } catch (e) {
      for (const s of this.slots) s.rollbackCall();
      throw e;
    } finally {
      this.tracker.enabled = true;
    }
  }

  /** @internal The store databases, host first (fixture freezing, benchmarks). */
  databases(): Map<string | null, Db> {
    return new Map(this.slots.map((s) => [s.mount, s.database()]));
  }

  /**
   * Give the databases' connections back while the episode is idle: each store keeps its image as bytes (an unchanged
   * store keeps sharing the fixture's), and the next use opens it again. Nothing observable changes.
   */
  hibernate(): void {
    this.alive();
    for (const s of this.slots) s.sleep();
  }

  /** Whether the instance holds open connections (it starts without, and opens them on first use). */
  get awake(): boolean {
    return this.slots.some((s) => s.awake);
  }

  /** Close the databases. Further use throws. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const s of this.slots) s.destroy();
    this.calls.release();
  }

  [Symbol.dispose](): void {
    this.destroy();
  }
}

export { z };
