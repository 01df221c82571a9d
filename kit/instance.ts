/**
 * An instance: one private SQLite database (plus one per composed sub-world) started from a fixture image, the tools
 * of its world, and the history of the episode. Each tool call is one transaction; every row written is captured.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import { InstanceError, ToolError } from './errors.ts';
import { VirtualClock, isoOf, parseInstant, type ClockMode } from './clock.ts';
import { Ids, Rng, Stream, hashHex } from './random.ts';
import { installSqlOverrides } from './sql-overrides.ts';
import { CAPTURE_FN, ChangeTracker, RowReader, captureTriggersSql, type Change, type ChangeLogEntry, type TrackedTable } from './capture.ts';
import { KIT_DDL, SEQ_TABLE } from './schema.ts';
import { Store } from './db.ts';
import { violationsOf, type Tool, type ToolListing } from './tool.ts';
import type { CallInfo, Ctx, WorldHandle } from './ctx.ts';
import { rowToJson, type Row } from './values.ts';
import type { Grade, Task } from './task.ts';
import type { World } from './world.ts';
import { visibleInMount } from './world.ts';
import { loadFixture, type LoadedFixture } from './fixtures.ts';

type Db = InstanceType<typeof Database>;

export interface InstanceOptions {
  /** Fixture id; omitted = a blank instance from the schema. */
  fixture?: string;
  /** Whole number ≥ 0. Default 0. */
  seed?: number;
  /** `fixed` (default) or `tick` (+1 s per call). */
  clock?: ClockMode;
  /** Start the clock here instead of the fixture's `now` (not earlier). */
  now?: string;
  /** Where world bugs are logged. Default: `console.error`. */
  logger?: (line: string) => void;
  /** Grade with this task at `submit()`. */
  task?: string;
}

/** An agent-facing failure. */
export interface ToolFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type CallResult = { ok: true; result: unknown } | { ok: false; error: ToolFailure };

/** One record of `callLog()`. `index` is absent for calls refused before they reached a tool. */
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

interface Slot {
  /** `null` for the host world. */
  mount: string | null;
  world: World;
  store: Store;
  ctx: Ctx & { call: CallInfo };
  ids: Ids;
  rng: Rng;
  sql: Stream;
  /** Prepared on the first call: preparing parses the schema, which an idle instance never needs. */
  begin: Statement | null;
  commit: Statement | null;
}

interface Bound {
  tool: Tool<any, any>;
  /** Index into the instance's slots: 0 = host, then mounts in declaration order. */
  slot: number;
}

const boundByWorld = new WeakMap<World, Map<string, Bound>>();

/** The agent-visible tool names of a world and where each runs; computed once per world. */
function boundTools(world: World): Map<string, Bound> {
  let bound = boundByWorld.get(world);
  if (bound === undefined) {
    bound = new Map();
    for (const t of world.tools) bound.set(t.name, { tool: t, slot: 0 });
    Object.values(world.mounts).forEach((m, i) => {
      for (const t of m.world.tools) if (visibleInMount(m, t.name)) bound!.set(m.prefix + t.name, { tool: t, slot: i + 1 });
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
  callLog: CallLogEntry[];
  callNames: string[];
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
  private readonly tracked: TrackedTable[] = [];
  private readonly tracker: ChangeTracker;
  /** Starting states of blank stores, kept so forks can read them too; null when the store started empty. */
  private readonly blankBases = new Map<string | null, Buffer | null>();
  private readonly ownedBases: InstanceType<typeof Database>[] = [];
  private readonly calls: CallLogEntry[];
  /** Tool name of each numbered call, by index - 1. */
  private readonly callNames: string[];
  private readonly logger: (line: string) => void;
  private readonly seedText: string;
  private currentCall = 0;
  private forks = 0;
  private destroyed = false;

  /** @internal Use `world.instance()`. */
  constructor(world: World, options: InstanceOptions, from?: ForkSource) {
    this.world = world;
    const seed = options.seed ?? 0;
    if (!Number.isSafeInteger(seed) || seed < 0) throw new InstanceError('invalid_seed', `seed must be a whole number >= 0; got ${JSON.stringify(options.seed)}`);
    const mode = options.clock ?? 'fixed';
    if (mode !== 'fixed' && mode !== 'tick') throw new InstanceError('invalid_clock', `clock must be 'fixed' or 'tick'; got ${JSON.stringify(options.clock)}`);
    this.seed = seed;
    this.fixture = options.fixture ?? null;
    this.logger = options.logger ?? ((line) => console.error(line));
    if (options.task !== undefined && world.task(options.task) === undefined) {
      throw new InstanceError('unknown_task', `world "${world.name}" has no task "${options.task}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`);
    }
    this.taskId = options.task;

    let loaded: LoadedFixture | null = null;
    if (this.fixture !== null) {
      if (!(this.fixture in world.fixtures)) {
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
    this.tracker = new ChangeTracker(this.tracked);
    this.calls = from ? from.callLog.slice() : [];
    this.callNames = from ? from.callNames.slice() : [];
    if (from) {
      this.clock.base = from.clock.base;
      this.clock.calls = from.clock.calls;
    }

    const mounts: [string | null, World][] = [[null, world], ...Object.entries(world.mounts).map(([m, spec]): [string, World] => [m, spec.world])];
    for (const [mount, w] of mounts) {
      const image = from ? from.images.get(mount)! : loaded ? loaded.armed.get(mount)! : null;
      const base = loaded ? loaded.base.get(mount)! : from ? from.blankBases.get(mount)! : undefined;
      this.slots.push(this.openSlot(mount, w, image, base));
    }
    if (from) from.tracker.copyInto(this.tracker);
    if (from) this.slots.forEach((s, i) => {
      s.rng.stream.restore(from.streams[i * 3]);
      s.ids.stream.restore(from.streams[i * 3 + 1]);
      s.sql.restore(from.streams[i * 3 + 2]);
    });
    this.bound = boundTools(world);
  }

  /**
   * Open one store. `base` is where its rows started: a fixture's shared reader, a blank store's starting image
   * (null when it started empty), or undefined for a new blank store, whose schema runs here.
   */
  private openSlot(mount: string | null, w: World, image: Buffer | null, base: RowReader | Buffer | null | undefined): Slot {
    const db: Db = image ? new Database(image) : new Database(':memory:');
    const offset = this.tracked.length;
    db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    db.function(CAPTURE_FN, { varargs: true, safeIntegers: true, directOnly: false }, this.tracker.captureFunction(offset));
    const suffix = mount === null ? '' : `\u0000${mount}`;
    const sql = new Stream(this.seedText + suffix + '\u0000sql');
    installSqlOverrides(db, () => this.clock.iso(), sql);
    const store = new Store(db);
    if (image === null) {
      db.exec(KIT_DDL);
      db.exec(w.schema);
      db.exec(captureTriggersSql(w.tables));
      const seeded = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n > 0;
      base = seeded ? db.serialize() : null;
    }
    let baseReader: RowReader | null;
    if (base instanceof RowReader || base === null) baseReader = base ?? null;
    else {
      const baseDb = new Database(base!, { readonly: true });
      this.ownedBases.push(baseDb);
      baseReader = new RowReader(baseDb, w.tables);
    }
    if (!(base instanceof RowReader)) this.blankBases.set(mount, base ?? null);
    const live = new RowReader(db, w.tables);
    w.tables.forEach((info, local) => {
      this.tracked.push({ info, name: mount === null ? info.name : `${mount}.${info.name}`, local, live, base: baseReader });
    });
    const rng = new Rng(new Stream(this.seedText + suffix + '\u0000rng'));
    const ids = new Ids(new Stream(this.seedText + suffix + '\u0000ids'), (name) => {
      const row = store.one<{ value: number }>(`INSERT INTO ${SEQ_TABLE} (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`, [name]);
      return row!.value;
    });
    const clock = { now: () => this.clock.now(), iso: () => this.clock.iso() };
    const worlds: Record<string, WorldHandle> = {};
    const ctx = {
      db: store.face(),
      clock,
      rng,
      ids,
      call: { tool: '', args: {}, index: 0 } as CallInfo,
      instance: { id: this.id, fixture: this.fixture, seed: this.seed },
      worlds,
    };
    const slot: Slot = {
      mount, world: w, store, ctx, ids, rng, sql,
      begin: null, commit: null,
    };
    if (mount === null) {
      // Sub-world handles, bound lazily: slots for mounts are opened after the host's.
      for (const m of Object.keys(w.mounts)) {
        worlds[m] = {
          call: (tool, args) => this.callMounted(m, tool, args),
          db: {
            one: (s, ...p) => this.slotOf(m).store.one(s, p),
            all: (s, ...p) => this.slotOf(m).store.all(s, p),
          },
        };
      }
    }
    return slot;
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
      return slot.store.transaction(() => tool.run(slot.ctx, parsed.data));
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
    this.alive();
    const bound = this.bound.get(name);
    if (bound === undefined) {
      const error: ToolFailure = { code: 'unknown_tool', message: `Unknown tool "${name}". Available tools: ${[...this.bound.keys()].join(', ')}.` };
      this.calls.push({ tool: name, args, ok: false, error });
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
      this.calls.push({ tool: name, args, ok: false, error });
      return { ok: false, error };
    }
    const index = this.callNames.length + 1;
    this.callNames.push(name);
    this.clock.calls = index;
    this.currentCall = index;
    const slot = this.slots[bound.slot];
    const call: CallInfo = { tool: name, args: parsed.data, index };
    for (const s of this.slots) s.ctx.call = call;
    const saved = this.saveStreams();
    for (const s of this.slots) (s.begin ??= s.store.db.prepare('BEGIN')).run();
    try {
      let result = bound.tool.run(slot.ctx, parsed.data);
      if (result instanceof Promise) {
        result.catch(() => undefined);
        throw new TypeError(`tool ${name} returned a Promise; tools must be synchronous`);
      }
      if (result === undefined) result = null;
      for (const s of this.slots) (s.commit ??= s.store.db.prepare('COMMIT')).run();
      this.tracker.commitCall(index, name);
      this.calls.push({ index, tool: name, args, ok: true, result });
      return { ok: true, result };
    } catch (e) {
      for (const s of this.slots) if (s.store.db.inTransaction) s.store.db.exec('ROLLBACK');
      this.tracker.discardCall();
      this.restoreStreams(saved);
      const error = this.failureOf(e, name, index);
      this.calls.push({ index, tool: name, args, ok: false, error });
      return { ok: false, error };
    } finally {
      this.currentCall = 0;
    }
  }

  private failureOf(e: unknown, tool: string, index: number): ToolFailure {
    if (e instanceof ToolError) return e.details === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, details: e.details };
    const id = 'err_' + hashHex(`${this.seedText}\u0000${this.id}\u0000${index}`).slice(0, 16);
    const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
    this.logger(`[seahaven] world bug ${id} in ${this.world.name}/${tool} (instance ${this.id}, call ${index}): ${stack}`);
    return { code: 'internal', message: 'internal error', details: { id } };
  }

  private saveStreams(): number[][] {
    const out: number[][] = [];
    for (const s of this.slots) out.push(s.rng.stream.save(), s.ids.stream.save(), s.sql.save());
    return out;
  }

  private restoreStreams(saved: number[][]): void {
    this.slots.forEach((s, i) => {
      s.rng.stream.restore(saved[i * 3]);
      s.ids.stream.restore(saved[i * 3 + 1]);
      s.sql.restore(saved[i * 3 + 2]);
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

  /** One record per call, in order. */
  callLog(): CallLogEntry[] {
    return this.calls.slice();
  }

  /** Numbered calls so far. */
  get callCount(): number {
    return this.callNames.length;
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
    const stmt = slot.store.statement(sql);
    if (!stmt.readonly || !stmt.reader) throw new InstanceError('not_read_only', `query() is read-only and must return rows; change state through tool calls. Got: ${sql}`);
    const rows = stmt.all(...(params as never[])) as Record<string, unknown>[];
    for (const r of rows) rowToJson(r);
    return rows as T[];
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

  /** The same episode, diverging from here: state, clock, random streams and history are carried over. */
  fork(): Instance {
    this.alive();
    const images = new Map<string | null, Buffer>();
    for (const s of this.slots) images.set(s.mount, s.store.db.serialize());
    return new Instance(
      this.world,
      { fixture: this.fixture ?? undefined, seed: this.seed, clock: this.clock.mode, logger: this.logger, task: this.taskId },
      {
        images,
        streams: this.saveStreams(),
        clock: { base: this.clock.base, calls: this.clock.calls },
        tracker: this.tracker,
        blankBases: this.blankBases,
        callLog: this.calls,
        callNames: this.callNames,
        id: `${this.id}~${++this.forks}`,
      },
    );
  }

  /** Run `fn` with a tool context as one transaction (fixture builds). */
  runBuild(fn: (ctx: Ctx) => void): void {
    const slot = this.slots[0];
    // A build's writes become the fixture itself; there is nothing to record.
    this.tracker.enabled = false;
    for (const s of this.slots) s.store.db.exec('BEGIN');
    try {
      fn(slot.ctx);
      for (const s of this.slots) s.store.db.exec('COMMIT');
    } catch (e) {
      for (const s of this.slots) if (s.store.db.inTransaction) s.store.db.exec('ROLLBACK');
      throw e;
    } finally {
      this.tracker.enabled = true;
    }
  }

  /** @internal The store databases, host first (fixture freezing, benchmarks). */
  databases(): Map<string | null, Db> {
    return new Map(this.slots.map((s) => [s.mount, s.store.db]));
  }

  /** Close the databases. Further use throws. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const s of this.slots) s.store.db.close();
    for (const db of this.ownedBases) db.close();
  }

  [Symbol.dispose](): void {
    this.destroy();
  }
}

export { z };
