/**
 * An endpoint: one world behind the OpenEnv protocol. It opens sessions, and answers reset, step, state and mcp
 * requests: a WebSocket frame in the session's turn (`answerFrame`, which writes the reply to the session's socket),
 * an HTTP request through `run` (its handler sends what `reset`, `act` or `stateJson` return), with endpoint-frame.ts,
 * endpoint-reset.ts, endpoint-step.ts and endpoint-grade.ts; observation.ts builds a tool call's observation.
 */
import { randomUUID } from 'node:crypto';
import { InstanceError } from '../../core/errors.ts';
import { rebuildCommand } from '../../core/fixture-command.ts';
import type { EpisodeLimits, Instance, InstanceOptions } from '../../core/instance.ts';
import { admitOpening, episodeCost, forkCost } from './memory-budget.ts';
import { tokenMatcher } from './auth.ts';
import type { World } from '../../core/world.ts';
import type { EndpointCore, EndpointOptions } from './endpoint-core.ts';
import { graderAccess, submitOverRpc } from './endpoint-grade.ts';
import { reset } from './endpoint-reset.ts';
import { errorText, frameReply } from './endpoint-frame.ts';
import { advance, advanceStep, callTool, otherStep } from './endpoint-step.ts';
import { FrameError, logInternal, resourceError } from './errors.ts';
import type { Reply } from './outbox.ts';
import {
  SUBMIT_TOOL,
  openEnvTools,
  stepPayload,
  type OpenEnvTool,
  type StepAction,
} from './payload.ts';
import type { ResetRequest } from './reset.ts';
import {
  CapacityError,
  Session,
  type JobResult,
  type SessionOwner,
  type SessionRegistry,
} from './sessions.ts';
import { SlicedStep } from './sliced-step.ts';

export type { ServeHooks } from './hooks.ts';
export type { EndpointOptions } from './endpoint-core.ts';

/** One world served over OpenEnv. */
export class Endpoint implements EndpointCore {
  readonly world: World;
  readonly name: string;
  readonly defaultFixture: string | undefined;
  /** The tool listing in OpenEnv's shape, and its JSON. */
  readonly tools: OpenEnvTool[];
  readonly toolsJson: string;
  /** The listing of a session with reset `submit_tool`: the world's tools and `submit`. */
  readonly toolsWithSubmit: OpenEnvTool[];
  /** Refuses new sessions once the server is shutting down. */
  closing = false;
  readonly toolsWithSubmitJson: string;
  /** The step payloads of `list_tools`, without and with `submit`. */
  readonly listToolsPayload: string;
  readonly listToolsWithSubmitPayload: string;
  /** The registry, scheduler, hooks, logger and limits this endpoint serves with. */
  readonly options: EndpointOptions;
  /** Whether a value is the server's grader token; null when the server has none. */
  readonly isGraderToken: ((value: string | undefined) => boolean) | null;

  constructor(world: World, options: EndpointOptions) {
    this.world = world;
    this.name = world.name;
    this.options = options;
    if (options.graderToken === '')
      throw new Error(
        'the grader token is empty; pass a non-empty --grader-token or unset SEAHAVEN_GRADER_TOKEN',
      );
    this.isGraderToken =
      options.graderToken === undefined ? null : tokenMatcher(options.graderToken);
    const fixtures = Object.keys(world.fixtures);
    if (options.defaultFixture !== undefined && !fixtures.includes(options.defaultFixture)) {
      throw new Error(
        `world "${world.name}" has no fixture "${options.defaultFixture}"; its fixtures are ${fixtures.join(', ') || '(none)'}`,
      );
    }
    this.defaultFixture = options.defaultFixture ?? fixtures[0];
    this.tools = openEnvTools(world.toolListings());
    this.toolsJson = JSON.stringify(this.tools);
    this.listToolsPayload = stepPayload('{"tools":' + this.toolsJson + '}', null, false);
    this.toolsWithSubmit = [...this.tools, SUBMIT_TOOL];
    this.toolsWithSubmitJson = JSON.stringify(this.toolsWithSubmit);
    this.listToolsWithSubmitPayload = stepPayload(
      '{"tools":' + this.toolsWithSubmitJson + '}',
      null,
      false,
    );
    options.registry.onSessionEnd((s) => {
      if (s.endpoint === this) this.abandon(s);
    });
  }

  /** Tell the hooks that a planned episode ended ungraded. */
  abandon(session: Session, context = session.context): void {
    if (
      context === undefined ||
      (context === session.context && session.graded) ||
      !this.options.hooks.onAbandon
    )
      return;
    try {
      this.options.hooks.onAbandon(session, context);
    } catch (e) {
      this.options.logger(
        `[seahaven] onAbandon hook failed for session ${session.id}: ${(e as Error)?.stack ?? String(e)}`,
      );
    }
  }

  /** The logger, slow-call threshold and episode limits every instance of this endpoint starts with. */
  instanceOptions(): Pick<InstanceOptions, 'logger' | 'slowCallMs'> & EpisodeLimits {
    return {
      logger: this.options.logger,
      slowCallMs: this.options.slowCallMs,
      ...this.options.episodeLimits,
      admitOpen: this.admitOpen,
    };
  }

  /** The tools a session lists: the world's, and `submit` when its reset asked for it. */
  toolsOf(session: Session | null): OpenEnvTool[] {
    return session?.submitTool ? this.toolsWithSubmit : this.tools;
  }

  /** Weighed against the memory budget before a store's database is opened from its image (memory-budget.ts). */
  private readonly admitOpen = (bytes: number): void => {
    if (this.options.memory !== undefined) admitOpening(this.options.memory, bytes);
  };

  /** Refuse (`MemoryRefusal`) an episode of `fixture` that would not fit the memory budget. */
  admitFixture(what: string, fixture: string | null | undefined): void {
    this.options.memory?.check(what, episodeCost(this.world, fixture));
  }

  /** Refuse (`MemoryRefusal`) a fork of `inst` that would not fit the memory budget: it copies the databases it holds open. */
  admitFork(inst: Instance): void {
    this.options.memory?.check('fork this episode', forkCost(inst));
  }
  /** The session's key for the world's HTTP face, or undefined for a world without one. */
  faceKeyOf(session: Session): string | undefined {
    return this.options.faceKeys?.keyOf(session);
  }

  get registry(): SessionRegistry {
    return this.options.registry;
  }

  /**
   * Open a session on the default fixture. Throws `CapacityError`, or a `FACTORY_ERROR` when the instance cannot start.
   * `freeing`: places about to be given back by the session's first request (a connection come to adopt a held fork).
   * `seed`: the instance's until a reset picks another (0: an OpenEnv session's first reset sets its own).
   */
  openSession(
    owner: SessionOwner,
    id: string = this.options.registry.newId(),
    freeing = 0,
    seed = 0,
  ): Session {
    if (this.closing)
      throw new FrameError(
        'SESSION_ERROR',
        'the server is shutting down; reconnect to another server',
      );
    this.options.registry.ensureRoom(freeing);
    this.admitFixture('open a session', this.defaultFixture);
    let inst: Instance;
    try {
      inst = this.world.instance({ fixture: this.defaultFixture, seed, ...this.instanceOptions() });
    } catch (e) {
      throw new FrameError(
        'FACTORY_ERROR',
        `could not start an instance of ${this.name}: ${this.startFailure(e)}`,
        undefined,
        { factory_name: this.name },
      );
    }
    return this.adoptSession(owner, id, inst, freeing);
  }

  /** Count and list a session whose instance is already started (MCP Streamable HTTP starts its own). Throws like `openSession`. */
  adoptSession(owner: SessionOwner, id: string, inst: Instance, freeing = 0): Session {
    if (this.closing)
      throw new FrameError(
        'SESSION_ERROR',
        'the server is shutting down; reconnect to another server',
      );
    this.options.registry.ensureRoom(freeing);
    const session = new Session(id, this, owner, inst, randomUUID());
    this.options.registry.add(session);
    return session;
  }

  /** Run `fn` in the session's turn (after its earlier requests). Rejects with `SESSION_ERROR` if the session ends first or the server is shutting down. */
  run<T>(session: Session, fn: () => T | Promise<T> | SlicedStep): Promise<T> {
    if (this.closing)
      return Promise.reject(
        new FrameError(
          'SESSION_ERROR',
          'the server is shutting down; retry against a running server',
        ),
      );
    return new Promise<T>((resolve, reject) => {
      this.options.scheduler.push(session, () => {
        if (session.closed)
          return reject(new FrameError('SESSION_ERROR', `session ${session.id} has ended`));
        try {
          const out = fn();
          if (out instanceof Promise) {
            // A session that ends while this waits (shutdown past its grace period) answers the request all the same.
            session.abort = () =>
              reject(
                new FrameError(
                  'SESSION_ERROR',
                  `session ${session.id} ended before this request finished`,
                ),
              );
            return out.then(resolve, reject).finally(() => (session.abort = null));
          }
          if (out instanceof SlicedStep) {
            // The rest runs in the session's next turns; the request is answered by the last slice, or by the
            // session's end if that comes first.
            session.abort = () =>
              reject(
                new FrameError(
                  'SESSION_ERROR',
                  `session ${session.id} ended before this request finished`,
                ),
              );
            out.deliver = (reply: Reply) => ((session.abort = null), resolve(reply as T));
            out.fail = (e: unknown) => ((session.abort = null), reject(e));
            return out;
          }
          resolve(out);
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /**
   * Answer one WebSocket frame of `session` (the scheduler calls this in the session's turn) and write the reply to the
   * session's socket, through the scheduler's outbox. A promise while a reset waits on a hook: the session stays busy
   * until its reply is written.
   */
  answerFrame(session: Session, text: string): JobResult {
    const reply = this.reply(session, text);
    if (reply === null) return;
    if (reply instanceof Promise) return reply.then((r) => this.send(session, r));
    if (reply instanceof SlicedStep) {
      reply.deliver = (r) => this.send(session, r);
      reply.fail = (e) => this.send(session, errorText(this, e));
      return reply;
    }
    this.send(session, reply);
  }

  private send(session: Session, reply: Reply): void {
    if (session.socket !== null) this.options.scheduler.outbox.send(session.socket, reply);
  }

  /**
   * The reply to one WebSocket frame: JSON text, or for a successful call its UTF-8 bytes; a promise of it while a
   * reset waits on a hook; a `SlicedStep` for an `advance_clock` that runs on in later turns; null for `close`, which
   * ends the session and is not answered.
   */
  reply(session: Session, text: string): Reply | null | Promise<Reply> | SlicedStep {
    return frameReply(this, session, text);
  }

  /** A `FrameError` for anything thrown while answering; unexpected ones are logged with a reference, and only that is sent. */
  asFrameError(e: unknown): FrameError {
    if (e instanceof FrameError) return e;
    // A fork that finds the server full: the session goes on (HTTP answers 503 before asking here).
    if (e instanceof CapacityError)
      return new FrameError('CAPACITY_REACHED', e.message, undefined, {
        active_sessions: e.activeSessions,
        max_sessions: e.maxSessions,
      });
    const resource = resourceError(e);
    if (resource !== null) return resource;
    return new FrameError(
      'EXECUTION_ERROR',
      logInternal(this.options.logger, `in ${this.name}`, e),
    );
  }

  /** Why an instance could not start, for a client: the fix for a fixture that cannot load, else a reference to the log. */
  startFailure(e: unknown): string {
    const why = logInternal(this.options.logger, `starting an instance of ${this.name}`, e);
    if (e instanceof InstanceError && e.code === 'fixture_invalid')
      return `a fixture cannot be loaded; rebuild it with \`${rebuildCommand(this.world)}\` (${why})`;
    return why;
  }

  /** Start a new episode on the session: the reset reply's step payload (JSON text). */
  reset(session: Session, req: ResetRequest, where: string): string | Promise<string> {
    return reset(this, session, req, where);
  }

  /**
   * Whether a presented grader token opens whole grades: false when none is presented; a token this server does not
   * have (a wrong one, or any when it has none) is refused, so a trainer never silently gets the agent view.
   */
  graderAccess(presented: string | undefined, loc: (string | number)[]): boolean {
    return graderAccess(this, presented, loc);
  }

  /**
   * Run a checked step action (HTTP, the console): the step payload, as JSON text or (a successful call) UTF-8 bytes.
   * `wholeGrades` answers `grade` and `submit` with whole grades for this step (the grader token came with it).
   */
  act(
    session: Session,
    a: StepAction,
    where: (string | number)[],
    wholeGrades = false,
  ): Reply | Promise<Reply> {
    if (a.type === 'call_tool')
      return callTool(this, session, a.tool_name, a.arguments, 'http', where, wholeGrades);
    if (a.type === 'advance_clock') return advance(this, session, a.ms, where, 'http');
    return otherStep(this, session, a, where, 'http', wholeGrades);
  }

  /**
   * `act` as the HTTP step runs it in the session's turn (`run`): an `advance_clock` that takes longer than a turn
   * goes on in the session's next turns.
   */
  step(
    session: Session,
    a: StepAction,
    where: (string | number)[],
    wholeGrades = false,
  ): Reply | Promise<Reply> | SlicedStep {
    if (a.type === 'advance_clock') return advanceStep(this, session, a.ms, where, 'http');
    return this.act(session, a, where, wholeGrades);
  }

  /** The `submit` tool called over JSON-RPC (`tools/call` on the session): the grade's `{reward, passed}`, the hooks told. */
  submitOverRpc(session: Session): { reward: number; passed: boolean } {
    return submitOverRpc(this, session);
  }

  /** The session's state: `{episode_id, step_count, ...state document}` as JSON text. */
  stateJson(session: Session): string {
    return JSON.stringify({
      episode_id: session.episodeId,
      step_count: session.stepCount,
      ...session.inst.state(),
    });
  }
}
