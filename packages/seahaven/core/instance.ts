/**
 * An instance: one private SQLite database (plus one per composed sub-world) started from a fixture image, the tools
 * of its world, and the history of the episode. Each tool call is one transaction (call-transaction.ts); every row
 * written is captured. How an instance begins (fresh, restarted or forked) is instance-start.ts.
 */
import type { ToolFailure } from './call-failure.ts';
import { CallHistory, type CallLogEntry } from './call-history.ts';
import { CallTimer } from './call-timing.ts';
import { CallTransaction } from './call-transaction.ts';
import { ChangeTracker, type Change, type ChangeLogEntry } from './capture.ts';
import { VirtualClock } from './clock.ts';
import type { Ctx } from './ctx.ts';
import { InstanceError } from './errors.ts';
import {
  freshStart,
  forkStart,
  restartStart,
  startingFixture,
  type EpisodeSettings,
  type InstanceOptions,
  type InstanceStart,
} from './instance-start.ts';
import { InstanceCalls } from './instance-calls.ts';
import {
  advanceInSlices,
  advanceWithJson,
  callWithJson,
  openBytes,
  runFixtureBuild,
  storeDatabases,
  type CallOutcome,
  type ClockRun,
} from './instance-internals.ts';
import { boundTools, clockHooksOf } from './mount.ts';
import { StreamPositions, type Stream } from './random.ts';
import type { Db } from './sqlite.ts';
import type { StateDocument } from './state-document.ts';
import type { Grade, Task } from './task.ts';
import type { ToolListing } from './tool.ts';
import type { Row } from './values.ts';
import { WorldStore } from './world-store.ts';
import type { World } from './world-types.ts';
import { answerRequest, type FaceReply, type FaceRequest } from './http-face.ts';
import { takeIdle } from './idle-connections.ts';
import { leaveConnections, linkMounts, queryStores, stateDocument } from './instance-stores.ts';

export type { EpisodeLimits, InstanceOptions } from './instance-start.ts';
export type { StateDocument } from './state-document.ts';
export type { ToolFailure } from './call-failure.ts';
export type { CallLogEntry } from './call-history.ts';

export type CallResult = { ok: true; result: unknown } | { ok: false; error: ToolFailure };

let construct: (start: InstanceStart) => Instance;

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
  readonly #settings: EpisodeSettings;
  /** Host first, then mounts in declaration order. */
  readonly #stores: WorldStore[];
  /** Every random stream of every store, in the order forks and failed calls save and restore them. */
  readonly #streams: Stream[];
  readonly #tracker = new ChangeTracker();
  readonly #tx: CallTransaction;
  readonly #calls: CallHistory;
  readonly #timer: CallTimer;
  /** The call path and the episode's running state (destroyed, advancing, ended). */
  readonly #run: InstanceCalls;
  #forks = 0;
  static {
    construct = (start) => new Instance(start);
  }

  /** Use `world.instance()`, `inst.restart()` or `inst.fork()`. */
  private constructor(start: InstanceStart) {
    const s = start.settings;
    this.world = start.world;
    this.#settings = s;
    this.id = s.id;
    this.fixture = s.fixture;
    this.fixtureSha256 = s.loaded?.sha256 ?? null;
    this.seed = s.seed;
    this.taskId = s.options.task;
    this.clock = new VirtualClock(s.mode, s.startMs);
    this.#timer = new CallTimer(s.options.slowCallMs, s.logger);
    this.#calls = new CallHistory(start.carried?.callLog, s.maxCallLogBytes);
    this.#tx = new CallTransaction(this.#tracker);
    const parts = {
      seedText: s.seedText,
      clock: this.clock,
      tracker: this.#tracker,
      tx: this.#tx,
      instance: { id: this.id, fixture: this.fixture, seed: this.seed },
      admitOpen: s.options.admitOpen,
    };
    const stores: WorldStore[] = [];
    const streams: Stream[] = [];
    for (const st of start.stores) {
      const store = new WorldStore(st, parts);
      stores.push(store);
      store.addStreams(streams);
    }
    this.#stores = stores;
    this.#streams = streams;
    this.#tx.setStreams(this.#streams);
    linkMounts(this.world, stores, () => this.#run.currentCall);
    const carried = start.carried;
    if (carried) {
      this.clock.base = carried.clock.base;
      this.clock.calls = carried.clock.calls;
      carried.tracker.copyInto(this.#tracker);
      carried.streams.restore(this.#streams);
    }
    const faceStore =
      this.world.httpMount === undefined
        ? 0
        : stores.findIndex((st) => st.mount === this.world.httpMount);
    const hooks = clockHooksOf(this.world);
    this.#run = new InstanceCalls({
      world: this.world,
      id: this.id,
      settings: s,
      clock: this.clock,
      stores,
      tx: this.#tx,
      calls: this.#calls,
      timer: this.#timer,
      bound: boundTools(this.world),
      hooks,
      faceStore,
    });
    if (hooks.length > 0) this.clock.advancer = (ms) => void this.advanceClock(ms);
  }

  /** Why the episode ended while the instance lives on (a database filled up: `resource_exhausted`), or null while it runs. */
  get ended(): ToolFailure | null {
    return this.#run.ended;
  }

  /** The agent-facing tool list: `[{ name, description, inputSchema }]`. */
  tools(): ToolListing[] {
    return this.world.toolListings();
  }

  /** Call a tool. Never throws for agent mistakes: failures come back as `{ ok: false, error }`. */
  call(name: string, args: unknown = {}): CallResult {
    const r = this.#run.call(name, args);
    return r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error };
  }

  /** @internal `call()`, also returning the JSON text the call log recorded (a transport sends it as it is). */
  [callWithJson](name: string, args: unknown = {}): CallOutcome {
    return this.#run.call(name, args);
  }

  /**
   * Run one operation of the world's HTTP face as a call: recorded in `callLog()` under the operation's name with
   * `input` as its arguments, like a tool call, in the store of the world whose face it is (a mount's, for `MountSpec.http`).
   * `request()` is the usual way in; this is the replay of a logged one.
   */
  operation(name: string, input: unknown = {}): CallResult {
    const r = this.#run.operation(name, input);
    return r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error };
  }

  /**
   * Answer one request of the world's HTTP face on this instance, as `seahaven serve` does for the request's key: the
   * face routes it (outside any call), runs its operation as one call, and shapes the reply.
   * @example
   * const reply = inst.request({ method: 'GET', path: '/customers', query: 'limit=3', headers: {}, body: '' });
   */
  request(req: FaceRequest): FaceReply {
    this.#run.alive();
    const face = this.world.http;
    if (face === undefined)
      throw new InstanceError(
        'no_http_face',
        `${this.world.name} has no HTTP face; declare one with defineWorld({ http: defineHttpFace({...}) }), or serve a mounted world's with http: true on its mount`,
      );
    return answerRequest(
      face,
      req,
      (name, input) => this.operation(name, input),
      (context, e) => this.#run.internalReply(context, e),
    );
  }

  /**
   * Let `ms` milliseconds pass: the clock moves, then the mounted worlds' and the world's `onClockAdvance` hooks run as one
   * numbered call recorded under `advance_clock` with `{ ms }` (a replay calls this again). So does `inst.clock.advance`.
   */
  advanceClock(ms: number): CallResult {
    const r = this[advanceWithJson](ms);
    return r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error };
  }

  /** @internal `advanceClock()`, also returning the JSON text of its outcome. */
  [advanceWithJson](ms: number): CallOutcome {
    return this[advanceInSlices](ms).slice(Infinity)!;
  }

  /**
   * @internal `advanceClock()` run a slice at a time: each `slice(budgetMs)` runs the hooks until they pause
   * (clockHookSteps, mount.ts) with `budgetMs` spent, and answers null while work remains, the outcome once it is done.
   * The call's transaction stays open between slices, and its commit pauses too (`commitSteps`); the instance refuses
   * any other use meanwhile, and how the work is sliced never changes what it writes. `advanceWithJson` is this with one
   * slice.
   */
  [advanceInSlices](ms: number): ClockRun {
    return this.#run.advanceInSlices(ms);
  }

  /** Milliseconds the last call that reached a tool took. */
  get lastCallMs(): number {
    return this.#timer.lastMs;
  }

  /** Net diff since reset, one entry per changed row, sorted by table then key. */
  changes(): Change[] {
    this.#run.running();
    return this.#tracker.changes();
  }

  /** One record per row per call: what each call changed, net within that call. */
  changeLog(): ChangeLogEntry[] {
    this.#run.running();
    return this.#tracker.changeLog();
  }

  /** One record per call, in order (fresh objects on every read). */
  callLog(): CallLogEntry[] {
    this.#run.alive();
    return this.#calls.entries();
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
    this.#run.alive();
    this.#run.running();
    return queryStores(this.#stores, mount, sql, params) as T[];
  }

  /** The state document. */
  state(): StateDocument {
    this.#run.running();
    const { world, fixture, fixtureSha256, seed, taskId, clock, callCount } = this;
    return stateDocument({
      world,
      fixture,
      fixtureSha256,
      seed,
      taskId,
      clock,
      callCount,
      changes: this.changes(),
    });
  }

  /** The task this instance was started with, if any. */
  task(): Task | undefined {
    return this.taskId === undefined ? undefined : this.world.task(this.taskId);
  }

  /** Grade the instance with its task. */
  submit(): Grade {
    const task = this.task();
    if (!task)
      throw new InstanceError(
        'no_task',
        'this instance has no task; start it with world.instance({ task: "<id>" })',
      );
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
    if (
      this.#run.destroyed ||
      this.fixture === null ||
      startingFixture(this.world, options) !== this.fixture
    )
      return null;
    if (!this.#stores.every((s) => s.restartable)) return null;
    const next = construct(
      restartStart(this.world, options, () => this.#stores.map((s) => s.handOver())),
    );
    this.destroy();
    return next;
  }

  /** The same episode, diverging from here: state, clock, random streams and history are carried over. */
  fork(): Instance {
    this.#run.running();
    const snapshots = this.#stores.map((s) => ({ image: s.snapshot(), blankBase: s.blankBase }));
    const streams = new StreamPositions(this.#streams.length);
    streams.save(this.#streams);
    // A fork logs slow calls from the threshold this instance has, even if the process default changed since.
    const settings = {
      ...this.#settings,
      options: { ...this.#settings.options, slowCallMs: this.#timer.slowMs },
    };
    const carried = {
      tracker: this.#tracker,
      callLog: this.#calls,
      streams,
      clock: { base: this.clock.base, calls: this.clock.calls },
    };
    return construct(
      forkStart(this.world, settings, `${this.id}~${++this.#forks}`, snapshots, carried),
    );
  }

  /** @internal Run `fn` with the host's tool context as one transaction; its writes become a fixture, so nothing is recorded. */
  [runFixtureBuild](fn: (ctx: Ctx) => void): void {
    this.#run.buildFixture(fn);
  }

  /** @internal The bytes of the databases the instance holds open: what a fork would copy. */
  [openBytes](): number {
    return this.#stores.reduce((n, st) => n + st.openBytes, 0);
  }

  /** @internal Each store's open connection, host first, the episode so far committed (fixture freezing, benchmarks). */
  [storeDatabases](): Map<string | null, Db> {
    return new Map(this.#stores.map((s) => [s.mount, s.database()]));
  }

  /**
   * Give the stores' connections back while the episode is idle: each store keeps its image as bytes (an unchanged
   * store keeps sharing the fixture's), and the next use opens it again. Nothing observable changes.
   */
  hibernate(): void {
    this.#run.alive();
    // An ended episode's databases hold nothing worth keeping; they close when the instance is destroyed.
    if (this.#run.ended !== null) return;
    for (const s of this.#stores) s.sleep();
  }

  /** Whether the instance holds open connections (it starts without, and opens them on first use). */
  get awake(): boolean {
    return this.#stores.some((s) => s.awake);
  }

  /**
   * End the instance; further use throws. Connections that can roll back to the fixture are left, rolled back, for the
   * next `world.instance()` of it (a few per fixture, idle-connections.ts); the rest are closed.
   */
  destroy(): void {
    const run = this.#run;
    if (run.destroyed) return;
    run.destroyed = true;
    if (run.advancing !== null) {
      // An advance cut off between slices (its session ended) is undone whole.
      run.advancing = null;
      this.#tx.rollback();
    }
    leaveConnections(this.#settings.loaded, this.#stores);
    for (const s of this.#stores) s.destroy();
    this.#calls.release();
    this.#tracker.release();
  }

  [Symbol.dispose](): void {
    this.destroy();
  }
}

/** @internal A new episode of `world`: what `world.instance(options)` returns. */
export function startInstance(world: World, options: InstanceOptions): Instance {
  return construct(freshStart(world, options, takeIdle));
}
