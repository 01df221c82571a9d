/**
 * An instance: one private SQLite database (plus one per composed sub-world) started from a fixture image, the tools
 * of its world, and the history of the episode. Each tool call is one transaction (call-transaction.ts); every row
 * written is captured. How an instance begins (fresh, restarted or forked) is instance-start.ts.
 */
import { databaseFull, failureOf, isDatabaseFull, safeJson, type ToolFailure } from './call-failure.ts';
import { CallHistory, type CallLogEntry } from './call-history.ts';
import { CallTimer } from './call-timing.ts';
import { CallTransaction } from './call-transaction.ts';
import { ChangeTracker, type Change, type ChangeLogEntry } from './capture.ts';
import { VirtualClock, advanceProblem, isoOf } from './clock.ts';
import type { CallInfo, Ctx } from './ctx.ts';
import { InstanceError } from './errors.ts';
import { freshStart, forkStart, restartStart, startingFixture, type EpisodeSettings, type InstanceOptions, type InstanceStart } from './instance-start.ts';
import { advanceInSlices, advanceWithJson, callWithJson, openBytes, outcomeOf, runFixtureBuild, storeDatabases, type CallOutcome, type ClockRun } from './instance-internals.ts';
import { boundTools, clockHookSteps, clockHooksOf, type Bound, type ClockHook } from './mount.ts';
import { StreamPositions, type Stream } from './random.ts';
import type { Db } from './sqlite.ts';
import type { StateDocument } from './state-document.ts';
import type { Grade, Task } from './task.ts';
import { violationsOf, type ToolListing } from './tool.ts';
import type { Row } from './values.ts';
import { WorldStore } from './world-store.ts';
import type { World } from './world-types.ts';
import { answerRequest, type FaceReply, type FaceRequest } from './http-face.ts';
import { hasIdleRoom, keepIdle, takeIdle } from './idle-connections.ts';
import { MAX_DB_BYTES, type Connection } from './connection.ts';

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
  readonly #bound: Map<string, Bound>;
  readonly #hooks: ClockHook[];
  /** Where the HTTP face's operations run: the host's store, or the mount's for a face served through one (`MountSpec.http`). */
  readonly #faceStore: number;
  readonly #tracker = new ChangeTracker();
  readonly #tx: CallTransaction;
  readonly #calls: CallHistory;
  readonly #timer: CallTimer;
  /** The number of the call running now (0 between calls): what a composed world's tool sees as its call. */
  #currentCall = 0;
  #forks = 0;
  #destroyed = false;
  /** An advance running in slices: its transaction is open, and nothing else may use the instance until it ends. */
  #advancing: ClockRun | null = null;
  /** Why the episode ended while the instance lives on (its database filled up, and SQLite undid it); null while it runs. */
  #ended: ToolFailure | null = null;

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
    const parts = { seedText: s.seedText, clock: this.clock, tracker: this.#tracker, tx: this.#tx, instance: { id: this.id, fixture: this.fixture, seed: this.seed }, admitOpen: s.options.admitOpen };
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
    for (const m of Object.keys(this.world.mounts)) {
      const sub = this.#storeOf(m);
      this.#stores[0].worlds[m] = {
        call: (tool, args) => sub.callTool(tool, args, this.#currentCall),
        db: { one: (sql, ...params) => sub.ctx.db.one(sql, ...params), all: (sql, ...params) => sub.ctx.db.all(sql, ...params) },
      };
    }
    const carried = start.carried;
    if (carried) {
      this.clock.base = carried.clock.base;
      this.clock.calls = carried.clock.calls;
      carried.tracker.copyInto(this.#tracker);
      carried.streams.restore(this.#streams);
    }
    this.#bound = boundTools(this.world);
    this.#faceStore = this.world.httpMount === undefined ? 0 : stores.findIndex((st) => st.mount === this.world.httpMount);
    if ((this.#hooks = clockHooksOf(this.world)).length > 0) this.clock.advancer = (ms) => void this.advanceClock(ms);
  }

  #storeOf(mount: string | null): WorldStore {
    return this.#stores.find((s) => s.mount === mount)!;
  }

  #alive(): void {
    if (this.#destroyed) throw new InstanceError('destroyed', `instance ${this.id} was destroyed; start a new one with world.instance()`);
    if (this.#advancing !== null) throw new InstanceError('advancing', `instance ${this.id} is advancing its clock in slices; wait for the advance to finish (its last slice answers it)`);
  }

  /** Alive, and its episode not ended: what reading or forking its state needs. */
  #running(): void {
    this.#alive();
    if (this.#ended !== null) throw new InstanceError('resource_exhausted', this.#ended.message);
  }

  /**
   * The failure of a call that filled a database (SQLITE_FULL), or whose episode SQLite undid (`lost`); null for any
   * other failure. When the episode is lost it ends here: its history no longer matches its databases.
   */
  #exhausted(e: unknown, lost: boolean): ToolFailure | null {
    if (!lost && !isDatabaseFull(e)) return null;
    const limit = Math.min(MAX_DB_BYTES, Math.max(...this.#stores.map((st) => st.limitBytes)));
    const failure = databaseFull({ world: this.world.name, limitBytes: limit, growthBytes: this.#settings.maxDbGrowthBytes, endedAt: lost ? this.clock.calls : null });
    if (lost) this.#ended = failure;
    return failure;
  }

  /** Why the episode ended while the instance lives on (a database filled up: `resource_exhausted`), or null while it runs. */
  get ended(): ToolFailure | null {
    return this.#ended;
  }

  /** The agent-facing tool list: `[{ name, description, inputSchema }]`. */
  tools(): ToolListing[] {
    return this.world.toolListings();
  }

  /** Call a tool. Never throws for agent mistakes: failures come back as `{ ok: false, error }`. */
  call(name: string, args: unknown = {}): CallResult {
    const r = this.#call(name, args);
    return r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error };
  }

  /** @internal `call()`, also returning the JSON text the call log recorded (a transport sends it as it is). */
  [callWithJson](name: string, args: unknown = {}): CallOutcome {
    return this.#call(name, args);
  }

  #call(name: string, args: unknown): CallOutcome {
    this.#alive();
    if (this.#ended !== null) return this.#refused(name, args, this.#ended);
    const bound = this.#bound.get(name);
    if (bound === undefined) {
      return this.#refused(name, args, { code: 'unknown_tool', message: `Unknown tool "${name}". Available tools: ${[...this.#bound.keys()].join(', ')}.` });
    }
    const parsed = bound.tool.input.safeParse(args);
    if (!parsed.success) {
      const violations = violationsOf(parsed.error);
      const message = `Invalid arguments for ${name}: ${violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; ')}`;
      return this.#refused(name, args, { code: 'invalid_arguments', message, details: { violations } });
    }
    return this.#numbered(bound.name, args, parsed.data, bound.store, (ctx) => bound.tool.run(ctx, parsed.data));
  }

  /**
   * Run `run` as one numbered call recorded under `name`: one transaction, changes captured, the outcome logged. A
   * tool's call and an HTTP operation's go through here alike.
   */
  #numbered(name: string, rawArgs: unknown, args: Record<string, unknown>, storeIndex: number, run: (ctx: Ctx) => unknown, bulk = false): CallOutcome {
    const index = this.#beginCall(name, args, bulk);
    try {
      return this.#commitCall(index, name, rawArgs, run(this.#stores[storeIndex].ctx));
    } catch (e) {
      return this.#failCall(index, name, rawArgs, e);
    } finally {
      this.#endCall(name, index);
    }
  }

  /** Number a call and begin its transaction: the first part of `#numbered`, and of an advance run in slices. */
  #beginCall(name: string, args: Record<string, unknown>, bulk: boolean): number {
    // The clock counts numbered calls (calls refused before reaching a tool are not numbered).
    const index = ++this.clock.calls;
    this.#currentCall = index;
    const stores = this.#stores;
    const call: CallInfo = { tool: name, args, index };
    for (let i = 0; i < stores.length; i++) stores[i].ctx.call = call;
    this.#timer.start();
    this.#tx.begin(true, bulk);
    return index;
  }

  /** A call's result checked and serialised, its transaction committed and the call logged; throws to be rolled back. */
  #commitCall(index: number, name: string, rawArgs: unknown, value: unknown): CallOutcome {
    const outcome = outcomeOf(name, value);
    this.#tx.commit(index, name);
    this.#calls.push(index, true, name, safeJson(rawArgs), outcome.json);
    return outcome;
  }

  /** An advance's hooks and then its commit (`commitSteps`), pausing wherever either does: what its slices run. */
  *#advanceSteps(index: number, args: { ms: number }, hooks: Generator<unknown, unknown>): Generator<unknown, CallOutcome> {
    const outcome = outcomeOf('advance_clock', yield* hooks);
    yield* this.#tx.commitSteps(index, 'advance_clock');
    this.#calls.push(index, true, 'advance_clock', safeJson(args), outcome.json);
    return outcome;
  }

  /** A call that threw: everything it did rolled back, and the failure logged. */
  #failCall(index: number, name: string, rawArgs: unknown, e: unknown): CallOutcome {
    const lost = this.#tx.rollback();
    const s = this.#settings;
    const error = this.#exhausted(e, lost) ?? failureOf(e, { world: this.world.name, tool: name, instance: this.id, index, seedText: s.seedText, logger: s.logger });
    const json = safeJson(error);
    this.#calls.push(index, false, name, safeJson(rawArgs), json);
    return { ok: false, error, json };
  }

  #endCall(name: string, index: number): void {
    this.#currentCall = 0;
    this.#timer.stop(this.world.name, name, this.id, index);
  }

  /**
   * Run one operation of the world's HTTP face as a call: recorded in `callLog()` under the operation's name with
   * `input` as its arguments, like a tool call, in the store of the world whose face it is (a mount's, for `MountSpec.http`).
   * `request()` is the usual way in; this is the replay of a logged one.
   */
  operation(name: string, input: unknown = {}): CallResult {
    this.#alive();
    if (this.#ended !== null) {
      this.#refused(name, input, this.#ended);
      return { ok: false, error: this.#ended };
    }
    const op = this.world.http?.operationsByName.get(name);
    if (op === undefined) {
      const error: ToolFailure = { code: 'unknown_operation', message: this.world.http ? `Unknown operation "${name}" of ${this.world.name}'s HTTP face.` : `${this.world.name} has no HTTP face (no http option in defineWorld, and no mount with http: true).` };
      this.#refused(name, input, error);
      return { ok: false, error };
    }
    const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
    const r = this.#numbered(name, input, args, this.#faceStore, (ctx) => op.run(ctx, input));
    return r.ok ? { ok: true, result: r.result } : { ok: false, error: r.error };
  }

  /**
   * Answer one request of the world's HTTP face on this instance, as `seahaven serve` does for the request's key: the
   * face routes it (outside any call), runs its operation as one call, and shapes the reply.
   * @example
   * const reply = inst.request({ method: 'GET', path: '/customers', query: 'limit=3', headers: {}, body: '' });
   */
  request(req: FaceRequest): FaceReply {
    this.#alive();
    const face = this.world.http;
    if (face === undefined) throw new InstanceError('no_http_face', `${this.world.name} has no HTTP face; declare one with defineWorld({ http: defineHttpFace({...}) }), or serve a mounted world's with http: true on its mount`);
    return answerRequest(face, req, (name, input) => this.operation(name, input), (context, e) => {
      const s = this.#settings;
      const error = failureOf(e, { world: this.world.name, tool: context, instance: this.id, index: this.clock.calls, seedText: s.seedText, logger: s.logger });
      return `internal error ${String(error.details?.id ?? '')}`.trim();
    });
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
    this.#alive();
    if (this.#ended !== null) {
      const refused = this.#refused('advance_clock', { ms }, this.#ended);
      return { slice: () => refused };
    }
    const problem = advanceProblem(ms, this.clock.now());
    if (problem !== null) throw new RangeError(`advanceClock(ms): ${problem}`);
    let steps: Generator<unknown, CallOutcome> | null = null;
    let index = 0;
    let done: CallOutcome | null = null;
    const args = { ms };
    const run: ClockRun = {
      slice: (budgetMs) => {
        if (done !== null) return done;
        if (steps === null) {
          this.#alive();
          const from = this.clock.now();
          this.clock.base += ms;
          if (this.#hooks.length === 0) return (done = { ok: true, result: null, json: 'null' });
          index = this.#beginCall('advance_clock', args, true);
          steps = this.#advanceSteps(index, args, clockHookSteps(this.world, this.#hooks, (m) => this.#storeOf(m).ctx, { from, to: from + ms }));
          this.#advancing = run;
        } else {
          if (this.#destroyed) throw new InstanceError('destroyed', `instance ${this.id} was destroyed while its clock advanced; the advance was rolled back`);
          this.#currentCall = index;
          this.#timer.resume();
        }
        const deadline = performance.now() + budgetMs;
        try {
          for (;;) {
            const r = steps.next();
            if (r.done) {
              done = r.value;
              break;
            }
            if (performance.now() >= deadline) break;
          }
        } catch (e) {
          done = this.#failCall(index, 'advance_clock', args, e);
        }
        if (done === null) {
          this.#currentCall = 0;
          this.#timer.pause();
          return null;
        }
        this.#advancing = null;
        this.#endCall('advance_clock', index);
        return done;
      },
    };
    return run;
  }

  /** A call refused before it reached a tool: logged without a number. */
  #refused(tool: string, args: unknown, error: ToolFailure): CallOutcome {
    const json = safeJson(error);
    this.#calls.push(0, false, tool, safeJson(args), json);
    return { ok: false, error, json };
  }

  /** Milliseconds the last call that reached a tool took. */
  get lastCallMs(): number {
    return this.#timer.lastMs;
  }

  /** Net diff since reset, one entry per changed row, sorted by table then key. */
  changes(): Change[] {
    this.#running();
    return this.#tracker.changes();
  }

  /** One record per row per call: what each call changed, net within that call. */
  changeLog(): ChangeLogEntry[] {
    this.#running();
    return this.#tracker.changeLog();
  }

  /** One record per call, in order (fresh objects on every read). */
  callLog(): CallLogEntry[] {
    this.#alive();
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
    this.#alive();
    this.#running();
    const store = mount === null ? this.#stores[0] : this.#stores.find((s) => s.mount === mount);
    if (!store) throw new InstanceError('unknown_store', `no composed world is mounted as "${mount}"`);
    const connection = store.live();
    const p = connection.prepared(sql);
    if (!p.stmt.readonly || !p.stmt.reader) throw new InstanceError('not_read_only', `query() is read-only and must return rows; change state through tool calls. Got: ${sql}`);
    return connection.rows(p, params) as T[];
  }

  /** The state document. */
  state(): StateDocument {
    this.#running();
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
    if (this.#destroyed || this.fixture === null || startingFixture(this.world, options) !== this.fixture) return null;
    if (!this.#stores.every((s) => s.restartable)) return null;
    const next = construct(restartStart(this.world, options, () => this.#stores.map((s) => s.handOver())));
    this.destroy();
    return next;
  }

  /** The same episode, diverging from here: state, clock, random streams and history are carried over. */
  fork(): Instance {
    this.#running();
    const snapshots = this.#stores.map((s) => ({ image: s.snapshot(), blankBase: s.blankBase }));
    const streams = new StreamPositions(this.#streams.length);
    streams.save(this.#streams);
    // A fork logs slow calls from the threshold this instance has, even if the process default changed since.
    const settings = { ...this.#settings, options: { ...this.#settings.options, slowCallMs: this.#timer.slowMs } };
    const carried = { tracker: this.#tracker, callLog: this.#calls, streams, clock: { base: this.clock.base, calls: this.clock.calls } };
    return construct(forkStart(this.world, settings, `${this.id}~${++this.#forks}`, snapshots, carried));
  }

  /** @internal Run `fn` with the host's tool context as one transaction; its writes become a fixture, so nothing is recorded. */
  [runFixtureBuild](fn: (ctx: Ctx) => void): void {
    this.#tx.begin(false, true);
    try {
      fn(this.#stores[0].ctx);
      this.#tx.commit(0, '');
    } catch (e) {
      this.#tx.rollback();
      throw e;
    }
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
    this.#alive();
    // An ended episode's databases hold nothing worth keeping; they close when the instance is destroyed.
    if (this.#ended !== null) return;
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
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (this.#advancing !== null) {
      // An advance cut off between slices (its session ended) is undone whole.
      this.#advancing = null;
      this.#tx.rollback();
    }
    this.#leaveConnections();
    for (const s of this.#stores) s.destroy();
    this.#calls.release();
    this.#tracker.release();
  }

  /**
   * Roll this episode's connections back to the fixture and leave them for the next instance of it
   * (idle-connections.ts), when every store can roll back and the fixture keeps fewer than its room.
   */
  #leaveConnections(): void {
    const loaded = this.#settings.loaded;
    if (loaded === null || !hasIdleRoom(loaded) || !this.#stores.every((s) => s.restartable)) return;
    const connections: (Connection | null)[] = [];
    try {
      for (const s of this.#stores) connections.push(s.handOver(true));
    } catch {
      // A connection that cannot roll back (a statement still running) is closed with the rest by destroy().
      for (const c of connections) c?.close();
      return;
    }
    if (!connections.some((c) => c !== null) || !keepIdle(loaded, connections)) for (const c of connections) c?.close();
  }

  [Symbol.dispose](): void {
    this.destroy();
  }
}

/** @internal A new episode of `world`: what `world.instance(options)` returns. */
export function startInstance(world: World, options: InstanceOptions): Instance {
  return construct(freshStart(world, options, takeIdle));
}
