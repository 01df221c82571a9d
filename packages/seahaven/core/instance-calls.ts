/**
 * The call path of an instance: how a tool call, an HTTP operation or an advance of the clock becomes one numbered call
 * (one transaction, changes captured, the outcome logged), how a failed one is rolled back, and the episode's running
 * state (destroyed, advancing in slices, ended). `Instance` (instance.ts) owns one and delegates to it.
 */
import {
  databaseFull,
  failureOf,
  isDatabaseFull,
  safeJson,
  type ToolFailure,
} from './call-failure.ts';
import type { CallHistory } from './call-history.ts';
import type { CallTimer } from './call-timing.ts';
import type { CallTransaction } from './call-transaction.ts';
import { advanceProblem, type VirtualClock } from './clock.ts';
import { MAX_DB_BYTES } from './connection.ts';
import type { CallInfo, Ctx } from './ctx.ts';
import { InstanceError } from './errors.ts';
import type { EpisodeSettings } from './instance-start.ts';
import {
  outcomeOf,
  type CallOutcome,
  type ClockRun,
  type KnownJson,
} from './instance-internals.ts';
import { clockHookSteps, type Bound, type ClockHook } from './mount.ts';
import { violationsOf } from './tool.ts';
import type { WorldStore } from './world-store.ts';
import type { World } from './world-types.ts';

/** What an instance's calls run against: its world, stores, transaction, history and timer. */
export interface CallParts {
  world: World;
  id: string;
  settings: EpisodeSettings;
  clock: VirtualClock;
  /** Host first, then mounts in declaration order. */
  stores: WorldStore[];
  tx: CallTransaction;
  calls: CallHistory;
  timer: CallTimer;
  bound: Map<string, Bound>;
  hooks: ClockHook[];
  /** Where the HTTP face's operations run: the host's store, or the mount's for a face served through one (`MountSpec.http`). */
  faceStore: number;
}

/** An instance's calls and its running state. */
export class InstanceCalls {
  /** The number of the call running now (0 between calls): what a composed world's tool sees as its call. */
  currentCall = 0;
  destroyed = false;
  /** An advance running in slices: its transaction is open, and nothing else may use the instance until it ends. */
  advancing: ClockRun | null = null;
  /** Why the episode ended while the instance lives on (its database filled up, and SQLite undid it); null while it runs. */
  ended: ToolFailure | null = null;
  readonly #p: CallParts;

  constructor(parts: CallParts) {
    this.#p = parts;
  }

  storeOf(mount: string | null): WorldStore {
    return this.#p.stores.find((s) => s.mount === mount)!;
  }

  alive(): void {
    if (this.destroyed)
      throw new InstanceError(
        'destroyed',
        `instance ${this.#p.id} was destroyed; start a new one with world.instance()`,
      );
    if (this.advancing !== null)
      throw new InstanceError(
        'advancing',
        `instance ${this.#p.id} is advancing its clock in slices; wait for the advance to finish (its last slice answers it)`,
      );
  }

  /** Alive, and its episode not ended: what reading or forking its state needs. */
  running(): void {
    this.alive();
    if (this.ended !== null) throw new InstanceError('resource_exhausted', this.ended.message);
  }

  /**
   * The failure of a call that filled a database (SQLITE_FULL), or whose episode SQLite undid (`lost`); null for any
   * other failure. When the episode is lost it ends here: its history no longer matches its databases.
   */
  #exhausted(e: unknown, lost: boolean): ToolFailure | null {
    if (!lost && !isDatabaseFull(e)) return null;
    const p = this.#p;
    const limit = Math.min(MAX_DB_BYTES, Math.max(...p.stores.map((st) => st.limitBytes)));
    const failure = databaseFull({
      world: p.world.name,
      limitBytes: limit,
      growthBytes: p.settings.maxDbGrowthBytes,
      endedAt: lost ? p.clock.calls : null,
    });
    if (lost) this.ended = failure;
    return failure;
  }

  /** A tool call: checked, then run as one numbered call. */
  call(name: string, args: unknown): CallOutcome {
    this.alive();
    if (this.ended !== null) return this.refused(name, args, this.ended);
    const bound = this.#p.bound.get(name);
    if (bound === undefined) {
      return this.refused(name, args, {
        code: 'unknown_tool',
        message: `Unknown tool "${name}". Available tools: ${[...this.#p.bound.keys()].join(', ')}.`,
      });
    }
    const parsed = bound.tool.input.safeParse(args);
    if (!parsed.success) {
      const violations = violationsOf(parsed.error);
      const message = `Invalid arguments for ${name}: ${violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; ')}`;
      return this.refused(name, args, {
        code: 'invalid_arguments',
        message,
        details: { violations },
      });
    }
    return this.#numbered(bound.name, args, parsed.data, bound.store, (ctx) =>
      bound.tool.run(ctx, parsed.data),
    );
  }

  /** One operation of the world's HTTP face, run as one numbered call (`Instance#operation`). */
  operation(name: string, input: unknown): CallOutcome {
    this.alive();
    if (this.ended !== null) return this.refused(name, input, this.ended);
    const world = this.#p.world;
    const op = world.http?.operationsByName.get(name);
    if (op === undefined) {
      const error: ToolFailure = {
        code: 'unknown_operation',
        message: world.http
          ? `Unknown operation "${name}" of ${world.name}'s HTTP face.`
          : `${world.name} has no HTTP face (no http option in defineWorld, and no mount with http: true).`,
      };
      return this.refused(name, input, error);
    }
    const args =
      input !== null && typeof input === 'object' && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : { input };
    return this.#numbered(
      name,
      input,
      args,
      this.#p.faceStore,
      (ctx) => op.run(ctx, input),
      false,
      op,
    );
  }

  /**
   * Run `run` as one numbered call recorded under `name`: one transaction, changes captured, the outcome logged. A
   * tool's call and an HTTP operation's go through here alike.
   */
  #numbered(
    name: string,
    rawArgs: unknown,
    args: Record<string, unknown>,
    storeIndex: number,
    run: (ctx: Ctx) => unknown,
    bulk = false,
    json?: KnownJson,
  ): CallOutcome {
    const index = this.#beginCall(name, args, bulk);
    try {
      return this.#commitCall(index, name, rawArgs, run(this.#p.stores[storeIndex].ctx), json);
    } catch (e) {
      return this.#failCall(index, name, rawArgs, e);
    } finally {
      this.#endCall(name, index);
    }
  }

  /** Number a call and begin its transaction: the first part of `#numbered`, and of an advance run in slices. */
  #beginCall(name: string, args: Record<string, unknown>, bulk: boolean): number {
    // The clock counts numbered calls (calls refused before reaching a tool are not numbered).
    const index = ++this.#p.clock.calls;
    this.currentCall = index;
    const stores = this.#p.stores;
    const call: CallInfo = { tool: name, args, index };
    for (let i = 0; i < stores.length; i++) stores[i].ctx.call = call;
    this.#p.timer.start();
    this.#p.tx.begin(true, bulk);
    return index;
  }

  /** A call's result checked and serialised, its transaction committed and the call logged; throws to be rolled back. */
  #commitCall(
    index: number,
    name: string,
    rawArgs: unknown,
    value: unknown,
    json?: KnownJson,
  ): CallOutcome {
    const outcome = outcomeOf(name, value, json);
    this.#p.tx.commit(index, name);
    this.#p.calls.push(index, true, name, safeJson(rawArgs), outcome.json);
    return outcome;
  }

  /** An advance's hooks and then its commit (`commitSteps`), pausing wherever either does: what its slices run. */
  *#advanceSteps(
    index: number,
    args: { ms: number },
    hooks: Generator<unknown, unknown>,
  ): Generator<unknown, CallOutcome> {
    const outcome = outcomeOf('advance_clock', yield* hooks);
    yield* this.#p.tx.commitSteps(index, 'advance_clock');
    this.#p.calls.push(index, true, 'advance_clock', safeJson(args), outcome.json);
    return outcome;
  }

  /** A call that threw: everything it did rolled back, and the failure logged. */
  #failCall(index: number, name: string, rawArgs: unknown, e: unknown): CallOutcome {
    const p = this.#p;
    const lost = p.tx.rollback();
    const s = p.settings;
    const error =
      this.#exhausted(e, lost) ??
      failureOf(e, {
        world: p.world.name,
        tool: name,
        instance: p.id,
        index,
        seedText: s.seedText,
        logger: s.logger,
      });
    const json = safeJson(error);
    p.calls.push(index, false, name, safeJson(rawArgs), json);
    return { ok: false, error, json };
  }

  #endCall(name: string, index: number): void {
    this.currentCall = 0;
    this.#p.timer.stop(this.#p.world.name, name, this.#p.id, index);
  }

  /** A call refused before it reached a tool: logged without a number. */
  refused(tool: string, args: unknown, error: ToolFailure): CallOutcome {
    const json = safeJson(error);
    this.#p.calls.push(0, false, tool, safeJson(args), json);
    return { ok: false, error, json };
  }

  /** What a reply of the HTTP face says of a failure while routing or shaping it (`context`): logged, named by its id. */
  internalReply(context: string, e: unknown): string {
    const p = this.#p;
    const s = p.settings;
    const error = failureOf(e, {
      world: p.world.name,
      tool: context,
      instance: p.id,
      index: p.clock.calls,
      seedText: s.seedText,
      logger: s.logger,
    });
    return `internal error ${String(error.details?.id ?? '')}`.trim();
  }

  /** Run `fn` with the host's tool context as one transaction; its writes become a fixture, so nothing is recorded. */
  buildFixture(fn: (ctx: Ctx) => void): void {
    const tx = this.#p.tx;
    tx.begin(false, true);
    try {
      fn(this.#p.stores[0].ctx);
      tx.commit(0, '');
    } catch (e) {
      tx.rollback();
      throw e;
    }
  }

  /** `Instance[advanceInSlices]`: an advance of the clock by `ms`, its hooks run a slice at a time. */
  advanceInSlices(ms: number): ClockRun {
    this.alive();
    if (this.ended !== null) {
      const refused = this.refused('advance_clock', { ms }, this.ended);
      return { slice: () => refused };
    }
    const p = this.#p;
    const problem = advanceProblem(ms, p.clock.now());
    if (problem !== null) throw new RangeError(`advanceClock(ms): ${problem}`);
    let steps: Generator<unknown, CallOutcome> | null = null;
    let index = 0;
    let done: CallOutcome | null = null;
    const args = { ms };
    const run: ClockRun = {
      slice: (budgetMs) => {
        if (done !== null) return done;
        if (steps === null) {
          this.alive();
          const from = p.clock.now();
          p.clock.base += ms;
          if (p.hooks.length === 0) return (done = { ok: true, result: null, json: 'null' });
          index = this.#beginCall('advance_clock', args, true);
          steps = this.#advanceSteps(
            index,
            args,
            clockHookSteps(p.world, p.hooks, (m) => this.storeOf(m).ctx, { from, to: from + ms }),
          );
          this.advancing = run;
        } else {
          if (this.destroyed)
            throw new InstanceError(
              'destroyed',
              `instance ${p.id} was destroyed while its clock advanced; the advance was rolled back`,
            );
          this.currentCall = index;
          p.timer.resume();
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
          this.currentCall = 0;
          p.timer.pause();
          return null;
        }
        this.advancing = null;
        this.#endCall('advance_clock', index);
        return done;
      },
    };
    return run;
  }
}
