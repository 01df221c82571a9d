/**
 * An endpoint: one world behind the OpenEnv protocol. It opens sessions, and answers reset, step, state and mcp
 * requests: a WebSocket frame in the session's turn (`answerFrame`, which writes the reply to the session's socket),
 * an HTTP request through `run` (its handler sends what `reset`, `act` or `stateJson` return). A tool call's
 * observation, whatever the transport, is built by observation.ts.
 */
import { randomUUID } from 'node:crypto';
import { advanceProblem } from '../clock.ts';
import { InstanceError } from '../errors.ts';
import { rebuildCommand } from '../fixture-command.ts';
import type { EpisodeLimits, Instance, InstanceOptions } from '../instance.ts';
import type { FaceKeys } from './face-keys.ts';
import { advanceInSlices, advanceWithJson, callWithJson, type CallOutcome } from '../instance-internals.ts';
import { admitOpening, episodeCost, forkCost, type MemoryBudget } from './memory-budget.ts';
import { agentGrade, type Grade } from '../task.ts';
import { tokenMatcher } from './auth.ts';
import type { World } from '../world.ts';
import { FrameError, ResetError, errorFrame, frameErrorText, logInternal, resourceError, validationError } from './errors.ts';
import { jsonTooDeep, tooDeepMessage } from './json-limits.ts';
import { callObservation } from './observation.ts';
import { traceJson, traceWanted } from './trace.ts';
import type { Reply } from './outbox.ts';
import { SUBMIT_TOOL, openEnvTools, parseAction, stepPayload, submitToolResult, type OpenEnvTool, type StepAction } from './payload.ts';
import { parseReset, type ResetPlan, type ResetRequest } from './reset.ts';
import { handleRpc } from './rpc.ts';
import type { FairScheduler } from './scheduler.ts';
import type { ServeHooks } from './hooks.ts';
import { ALL_SPLIT, taskAt } from './tasks.ts';
import { CapacityError, Session, type JobResult, type SessionEndpoint, type SessionOwner, type SessionRegistry } from './sessions.ts';
import { SlicedStep } from './sliced-step.ts';

export type { ServeHooks } from './hooks.ts';

export interface EndpointOptions {
  registry: SessionRegistry;
  scheduler: FairScheduler;
  hooks: ServeHooks;
  logger: (line: string) => void;
  /** The keys of the world's HTTP face, when it has one: each session's key goes into its reset metadata as `api_key`. */
  faceKeys?: FaceKeys;
  /** Slow-call threshold of every instance this endpoint starts. Default: the instance's own (1000 ms). */
  slowCallMs?: number;
  /** What one episode may hold (its call log's outcomes), for every instance this endpoint starts. Default: the instance's own. */
  episodeLimits?: EpisodeLimits;
  /** Fixture of sessions before their first reset and of resets that name none. Default: the world's first fixture. */
  defaultFixture?: string;
  /** Frames longer than this many characters are refused. */
  maxFrameChars: number;
  /** The secret a session presents to get whole grades (names and reasons) instead of the agent view. Default: none. */
  graderToken?: string;
  /** The process's memory budget (`--max-memory`): sessions, resets and forks that would not fit are refused. None: no budget. */
  memory?: MemoryBudget;
}

const INSTANCE_FIELDS: Record<string, string> = { unknown_fixture: 'fixture', fixture_mismatch: 'fixture', invalid_seed: 'seed', invalid_clock: 'clock', invalid_now: 'now', unknown_task: 'task' };

/** One world served over OpenEnv. */
export class Endpoint implements SessionEndpoint {
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
  private readonly listToolsPayload: string;
  private readonly toolsWithSubmitJson: string;
  private readonly listToolsWithSubmitPayload: string;
  /** The registry, scheduler, hooks, logger and limits this endpoint serves with. */
  private readonly options: EndpointOptions;
  private readonly isGraderToken: ((value: string | undefined) => boolean) | null;

  constructor(world: World, options: EndpointOptions) {
    this.world = world;
    this.name = world.name;
    this.options = options;
    if (options.graderToken === '') throw new Error('the grader token is empty; pass a non-empty --grader-token or unset SEAHAVEN_GRADER_TOKEN');
    this.isGraderToken = options.graderToken === undefined ? null : tokenMatcher(options.graderToken);
    const fixtures = Object.keys(world.fixtures);
    if (options.defaultFixture !== undefined && !fixtures.includes(options.defaultFixture)) {
      throw new Error(`world "${world.name}" has no fixture "${options.defaultFixture}"; its fixtures are ${fixtures.join(', ') || '(none)'}`);
    }
    this.defaultFixture = options.defaultFixture ?? fixtures[0];
    this.tools = openEnvTools(world.toolListings());
    this.toolsJson = JSON.stringify(this.tools);
    this.listToolsPayload = stepPayload('{"tools":' + this.toolsJson + '}', null, false);
    this.toolsWithSubmit = [...this.tools, SUBMIT_TOOL];
    this.toolsWithSubmitJson = JSON.stringify(this.toolsWithSubmit);
    this.listToolsWithSubmitPayload = stepPayload('{"tools":' + this.toolsWithSubmitJson + '}', null, false);
    options.registry.onSessionEnd((s) => {
      if (s.endpoint === this) this.abandon(s);
    });
  }

  /** Tell the hooks that a planned episode ended ungraded. */
  private abandon(session: Session, context = session.context): void {
    if (context === undefined || (context === session.context && session.graded) || !this.options.hooks.onAbandon) return;
    try {
      this.options.hooks.onAbandon(session, context);
    } catch (e) {
      this.options.logger(`[seahaven] onAbandon hook failed for session ${session.id}: ${(e as Error)?.stack ?? String(e)}`);
    }
  }

  /** The logger, slow-call threshold and episode limits every instance of this endpoint starts with. */
  instanceOptions(): Pick<InstanceOptions, 'logger' | 'slowCallMs'> & EpisodeLimits {
    return { logger: this.options.logger, slowCallMs: this.options.slowCallMs, ...this.options.episodeLimits, admitOpen: this.admitOpen };
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
   */
  openSession(owner: SessionOwner, id: string = this.options.registry.newId(), freeing = 0): Session {
    if (this.closing) throw new FrameError('SESSION_ERROR', 'the server is shutting down; reconnect to another server');
    this.options.registry.ensureRoom(freeing);
    this.admitFixture('open a session', this.defaultFixture);
    let inst: Instance;
    try {
      inst = this.world.instance({ fixture: this.defaultFixture, ...this.instanceOptions() });
    } catch (e) {
      throw new FrameError('FACTORY_ERROR', `could not start an instance of ${this.name}: ${this.startFailure(e)}`, undefined, { factory_name: this.name });
    }
    return this.adoptSession(owner, id, inst, freeing);
  }

  /** Count and list a session whose instance is already started (MCP Streamable HTTP starts its own). Throws like `openSession`. */
  adoptSession(owner: SessionOwner, id: string, inst: Instance, freeing = 0): Session {
    if (this.closing) throw new FrameError('SESSION_ERROR', 'the server is shutting down; reconnect to another server');
    this.options.registry.ensureRoom(freeing);
    const session = new Session(id, this, owner, inst, randomUUID());
    this.options.registry.add(session);
    return session;
  }

  /** Run `fn` in the session's turn (after its earlier requests). Rejects with `SESSION_ERROR` if the session ends first or the server is shutting down. */
  run<T>(session: Session, fn: () => T | Promise<T> | SlicedStep): Promise<T> {
    if (this.closing) return Promise.reject(new FrameError('SESSION_ERROR', 'the server is shutting down; retry against a running server'));
    return new Promise<T>((resolve, reject) => {
      this.options.scheduler.push(session, () => {
        if (session.closed) return reject(new FrameError('SESSION_ERROR', `session ${session.id} has ended`));
        try {
          const out = fn();
          if (out instanceof Promise) {
            // A session that ends while this waits (shutdown past its grace period) answers the request all the same.
            session.abort = () => reject(new FrameError('SESSION_ERROR', `session ${session.id} ended before this request finished`));
            return out.then(resolve, reject).finally(() => (session.abort = null));
          }
          if (out instanceof SlicedStep) {
            // The rest runs in the session's next turns; the request is answered by the last slice, or by the
            // session's end if that comes first.
            session.abort = () => reject(new FrameError('SESSION_ERROR', `session ${session.id} ended before this request finished`));
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
      reply.fail = (e) => this.send(session, this.errorText(e));
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
    if (text.length > this.options.maxFrameChars) {
      const msg = `frame of ${text.length} characters exceeds this server's limit of ${this.options.maxFrameChars}; send smaller arguments or start the server with a higher --max-frame-bytes`;
      return errorFrame('VALIDATION_ERROR', msg, [{ type: 'string_too_long', loc: [], msg, input: null }]);
    }
    if (jsonTooDeep(text)) {
      const msg = tooDeepMessage('frame');
      return errorFrame('VALIDATION_ERROR', msg, [{ type: 'too_deep', loc: [], msg, input: null }]);
    }
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return errorFrame('INVALID_JSON', `Invalid JSON: ${(e as Error).message}`);
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
      return errorFrame('VALIDATION_ERROR', 'a frame must be a JSON object like {"type": "step", "data": {…}}', [{ type: 'model_type', loc: [], msg: 'Input should be an object', input: msg }]);
    }
    try {
      switch (msg.type) {
        case 'step': {
          if (msg.data === undefined) throw validationError('invalid step', [{ type: 'missing', loc: ['data'], msg: 'Field required: a step frame carries the action in data' }]);
          const action = parseAction(msg.data, ['data']);
          if (action.type === 'call_tool') {
            const out = this.callTool(session, action.tool_name, action.arguments, 'ws', ['data']);
            return out instanceof Promise ? out.catch((e) => this.errorText(e)) : out;
          }
          if (action.type === 'advance_clock') return this.advanceStep(session, action.ms, ['data'], 'ws');
          const out = this.otherStep(session, action, ['data'], 'ws');
          return typeof out === 'string' ? wrapObservation(out) : out.then(wrapObservation, (e) => this.errorText(e));
        }
        case 'reset': {
          const out = this.reset(session, parseReset(msg.data, 'data'), 'data');
          return typeof out === 'string' ? wrapObservation(out) : out.then(wrapObservation, (e) => this.errorText(e));
        }
        case 'state':
          return '{"type":"state","data":' + this.stateJson(session) + '}';
        case 'close':
          this.options.registry.end(session, 'close');
          return null;
        case 'mcp': {
          if (msg.data === null || typeof msg.data !== 'object' || Array.isArray(msg.data)) {
            throw validationError('invalid mcp frame', [{ type: 'dict_type', loc: ['data'], msg: 'an mcp frame carries a JSON-RPC request object in data', input: msg.data }]);
          }
          return handleRpc(this, msg.data, session, 'socket');
        }
        default:
          return errorFrame('UNKNOWN_TYPE', `Unknown message type: ${JSON.stringify(msg.type ?? null)}; send one of reset, step, state, close, mcp`);
      }
    } catch (e) {
      return this.errorText(e);
    }
  }

  private errorText(e: unknown): string {
    try {
      return frameErrorText(this.asFrameError(e));
    } catch (again) {
      return errorFrame('EXECUTION_ERROR', logInternal(this.options.logger, `building an error reply in ${this.name}`, again));
    }
  }

  /** A `FrameError` for anything thrown while answering; unexpected ones are logged with a reference, and only that is sent. */
  asFrameError(e: unknown): FrameError {
    if (e instanceof FrameError) return e;
    // A fork that finds the server full: the session goes on (HTTP answers 503 before asking here).
    if (e instanceof CapacityError) return new FrameError('CAPACITY_REACHED', e.message, undefined, { active_sessions: e.activeSessions, max_sessions: e.maxSessions });
    const resource = resourceError(e);
    if (resource !== null) return resource;
    return new FrameError('EXECUTION_ERROR', logInternal(this.options.logger, `in ${this.name}`, e));
  }

  /** Why an instance could not start, for a client: the fix for a fixture that cannot load, else a reference to the log. */
  private startFailure(e: unknown): string {
    const why = logInternal(this.options.logger, `starting an instance of ${this.name}`, e);
    if (e instanceof InstanceError && e.code === 'fixture_invalid') return `a fixture cannot be loaded; rebuild it with \`${rebuildCommand(this.world)}\` (${why})`;
    return why;
  }

  /** Start a new episode on the session: the reset reply's step payload (JSON text). */
  reset(session: Session, req: ResetRequest, where: string): string | Promise<string> {
    const { grader_token: presented, ...episode } = req;
    const whole = this.graderAccess(presented, [where, 'grader_token']);
    // The token goes no further: hooks (a curriculum's resolveReset) see the episode's keys only.
    const out = this.startEpisode(session, episode, where);
    // Whole grades are the episode's only once it has started: a refused reset leaves the session as it was.
    if (typeof out === 'string') {
      session.wholeGrades = whole;
      return out;
    }
    return out.then((payload) => {
      session.wholeGrades = whole;
      return payload;
    });
  }

  /**
   * Whether a presented grader token opens whole grades: false when none is presented; a token this server does not
   * have (a wrong one, or any when it has none) is refused, so a trainer never silently gets the agent view.
   */
  graderAccess(presented: string | undefined, loc: (string | number)[]): boolean {
    if (presented === undefined) return false;
    const msg = this.isGraderToken === null
      ? 'this server has no grader token, so whole grades cannot be opened; start it with --grader-token <secret> (or SEAHAVEN_GRADER_TOKEN), or leave the grader token out to get the agent view'
      : this.isGraderToken(presented) ? null : 'the grader token is wrong; send the one the server was started with (--grader-token or SEAHAVEN_GRADER_TOKEN)';
    if (msg === null) return true;
    throw validationError('grader token refused', [{ type: 'value_error', loc, msg, input: null }]);
  }

  private startEpisode(session: Session, req: ResetRequest, where: string): string | Promise<string> {
    if (req.fork_token !== undefined) return this.adoptFork(session, req.fork_token, where);
    if (req.curriculum !== undefined || req.run_id !== undefined) {
      const field = req.curriculum !== undefined ? 'curriculum' : 'run_id';
      const resolve = this.options.hooks.resolveReset;
      if (!resolve) {
        throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, field], msg: `curricula are not configured on this server, so ${field} cannot be used; reset with a task or fixture instead`, input: req[field] }]);
      }
      let plan: ResetPlan | Promise<ResetPlan>;
      try {
        plan = resolve(req, { world: this.world, session });
      } catch (e) {
        throw this.refusal(e, where);
      }
      if (plan instanceof Promise) return plan.then((p) => this.startPlanned(session, req, p, where), (e) => { throw this.refusal(e, where); });
      return this.startPlanned(session, req, plan, where);
    }
    return this.start(session, req, undefined, where);
  }

  /** Start a planned episode; a plan that cannot start is abandoned at once, so its curriculum does not wait on it. */
  private startPlanned(session: Session, req: ResetRequest, plan: ResetPlan, where: string): string {
    try {
      return this.start(session, req, plan, where);
    } catch (e) {
      this.abandon(session, plan.context);
      throw e;
    }
  }

  private refusal(e: unknown, where: string): unknown {
    return e instanceof ResetError ? validationError('reset refused', [{ type: 'value_error', loc: [where, e.field], msg: e.message }]) : e;
  }

  private start(session: Session, req: ResetRequest, plan: ResetPlan | undefined, where: string): string {
    if (session.closed) throw new FrameError('SESSION_ERROR', `session ${session.id} has ended`);
    const world = this.world;
    const taskId = plan?.task ?? req.task ?? this.taskAtIndex(req, where);
    const task = taskId === undefined ? undefined : world.task(taskId);
    if (taskId !== undefined && task === undefined) {
      throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, 'task'], msg: `world "${world.name}" has no task "${taskId}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`, input: taskId }]);
    }
    // A task implies its fixture: the instance starts from it, and refuses another (`fixture_mismatch`).
    const fixture = plan?.fixture ?? req.fixture ?? (task === undefined ? this.defaultFixture : undefined);
    if (fixture !== undefined && !Object.hasOwn(world.fixtures, fixture)) {
      throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, 'fixture'], msg: `world "${world.name}" has no fixture "${fixture}"; its fixtures are ${Object.keys(world.fixtures).join(', ') || '(none)'}`, input: fixture }]);
    }
    if (req.submit_tool === true && task === undefined) {
      throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, 'submit_tool'], msg: 'submit_tool lists a submit tool that grades the task; reset with a task (task, split and index, or curriculum) too', input: true }]);
    }
    const options: InstanceOptions = { fixture, seed: plan?.seed ?? req.seed, clock: plan?.clock ?? req.clock, now: plan?.now ?? req.now, task: task?.id, ...this.instanceOptions() };
    // A reset to the fixture the session is on takes the place of its episode; another fixture's is weighed first.
    if ((fixture ?? task?.fixture ?? null) !== session.inst.fixture) this.admitFixture('reset to this fixture', fixture ?? task?.fixture);
    let inst: Instance;
    try {
      // A reset to the fixture the session is on rolls its connection back instead of opening a new one.
      inst = session.inst.restart(options) ?? world.instance(options);
    } catch (e) {
      const field = e instanceof InstanceError ? INSTANCE_FIELDS[e.code] : undefined;
      if (field !== undefined) throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, field], msg: (e as Error).message, input: (options as Record<string, unknown>)[field] }]);
      throw new FrameError('EXECUTION_ERROR', `could not start the episode: ${this.startFailure(e)}`);
    }
    this.abandon(session);
    const replaced = session.play(inst, {
      episodeId: plan?.episode_id ?? req.episode_id ?? randomUUID(),
      task: task ?? null,
      rewardMode: plan?.reward_mode ?? req.reward_mode ?? 'final',
      submitTool: req.submit_tool ?? false,
      context: plan?.context,
    });
    replaced.destroy();
    return stepPayload(this.resetObservation(session), null, false, this.episodeMetadata(session, plan?.metadata));
  }

  /** The task a reset's `{split, index}` names (the split defaults to `all`), or undefined when it names none. */
  private taskAtIndex(req: ResetRequest, where: string): string | undefined {
    if (req.index === undefined) return undefined;
    const split = req.split ?? ALL_SPLIT;
    const t = taskAt(this.world, split, req.index);
    if ('refused' in t) throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, t.field], msg: t.refused, input: t.field === 'split' ? split : req.index }]);
    return t.id;
  }

  /** A reset's observation for the episode the session now plays; a fork's names the episode it was forked from. */
  private resetObservation(session: Session, forkedFrom?: string): string {
    const inst = session.inst;
    const task = session.task;
    return '{"fixture":' + JSON.stringify(inst.fixture) + ',"seed":' + inst.seed + ',"now":' + JSON.stringify(inst.clock.iso()) +
      ',"task":' + (task ? JSON.stringify({ id: task.id, prompt: task.prompt }) : 'null') +
      (forkedFrom === undefined ? '' : ',"forked_from":' + JSON.stringify(forkedFrom)) + ',"tools":' + (session.submitTool ? this.toolsWithSubmitJson : this.toolsJson) + '}';
  }

  /** A reset's metadata: what a plan adds, the episode id, and the session's key for the world's HTTP face. */
  private episodeMetadata(session: Session, extra?: Record<string, unknown>): string {
    const key = this.faceKeyOf(session);
    return JSON.stringify({ ...extra, episode_id: session.episodeId, ...(key === undefined ? {} : { api_key: key }) });
  }

  /**
   * A reset with `fork_token`: the session adopts the episode a `fork` step held under the token, counters included, as
   * a new episode (fresh id) whose observation says where it was forked from. Tokens work once, on their world only.
   */
  private adoptFork(session: Session, token: string, where: string): string {
    if (session.closed) throw new FrameError('SESSION_ERROR', `session ${session.id} has ended`);
    const fork = this.options.registry.adoptFork(this, token);
    if ('refused' in fork) throw validationError('invalid reset data', [{ type: 'value_error', loc: [where, 'fork_token'], msg: fork.refused, input: token }]);
    this.abandon(session);
    const { episodeId: forkedFrom, ...counters } = fork.origin;
    session.play(fork.inst, { episodeId: randomUUID(), ...counters }).destroy();
    return stepPayload(this.resetObservation(session, forkedFrom), null, false, this.episodeMetadata(session));
  }

  /**
   * Run a checked step action (HTTP, the console): the step payload, as JSON text or (a successful call) UTF-8 bytes.
   * `wholeGrades` answers `grade` and `submit` with whole grades for this step (the grader token came with it).
   */
  act(session: Session, a: StepAction, where: (string | number)[], wholeGrades = false): Reply | Promise<Reply> {
    if (a.type === 'call_tool') return this.callTool(session, a.tool_name, a.arguments, 'http', where, wholeGrades);
    if (a.type === 'advance_clock') return this.advance(session, a.ms, where, 'http');
    return this.otherStep(session, a, where, 'http', wholeGrades);
  }

  /**
   * `act` as the HTTP step runs it in the session's turn (`run`): an `advance_clock` that takes longer than a turn
   * goes on in the session's next turns.
   */
  step(session: Session, a: StepAction, where: (string | number)[], wholeGrades = false): Reply | Promise<Reply> | SlicedStep {
    if (a.type === 'advance_clock') return this.advanceStep(session, a.ms, where, 'http');
    return this.act(session, a, where, wholeGrades);
  }

  /**
   * `advance_clock` run a turn's budget at a time (`inst[advanceInSlices]`): its reply when one slice did it all, else
   * a `SlicedStep` whose last slice answers. Other sessions are answered between slices; the session's later requests
   * wait in its queue.
   */
  private advanceStep(session: Session, ms: number, where: (string | number)[], transport: 'ws' | 'http'): Reply | SlicedStep {
    this.checkAdvance(session, ms, where);
    const run = session.inst[advanceInSlices](ms);
    // A slice ends at the world's first pause past its budget, so with a quarter of a turn it is mostly one step of
    // the world's work (a subscription's invoice, or its payment): that long is what everyone else waits for.
    const budget = this.options.scheduler.budgetMs / 4;
    const first = run.slice(budget);
    if (first !== null) return this.stepCall(session, 'advance_clock', first, transport);
    return new SlicedStep(session, () => {
      const outcome = run.slice(budget);
      return outcome === null ? null : this.stepCall(session, 'advance_clock', outcome, transport);
    });
  }

  /** `advance_clock`: refused as a validation error, the episode untouched, past the most one advance may move its clock. */
  private advance(session: Session, ms: number, where: (string | number)[], transport: 'ws' | 'http'): Reply {
    this.checkAdvance(session, ms, where);
    return this.stepCall(session, 'advance_clock', session.inst[advanceWithJson](ms), transport);
  }

  /** Refuse, as a validation error with the episode untouched, an advance past the most one may move the clock. */
  private checkAdvance(session: Session, ms: number, where: (string | number)[]): void {
    const problem = advanceProblem(ms, session.inst.clock.now());
    if (problem !== null) throw validationError('invalid action', [{ type: 'value_error', loc: [...where, 'ms'], msg: problem, input: ms }]);
  }

  /** `list_tools`, `submit`, `grade` or `fork`: the step payload's JSON text. */
  private otherStep(session: Session, a: Exclude<StepAction, { type: 'call_tool' } | { type: 'advance_clock' }>, where: (string | number)[], transport: 'ws' | 'http', wholeGrades = false): string | Promise<string> {
    switch (a.type) {
      case 'list_tools':
        session.stepCount++;
        return session.submitTool ? this.listToolsWithSubmitPayload : this.listToolsPayload;
      case 'submit':
        return this.submit(session, where, wholeGrades, 'step', traceWanted(a.trace, wholeGrades || session.wholeGrades, where, this.isGraderToken !== null));
      case 'grade':
        return this.gradeNow(session, where, wholeGrades, traceWanted(a.trace, wholeGrades || session.wholeGrades, where, this.isGraderToken !== null));
      case 'fork':
        return this.fork(session, transport);
    }
  }

  /**
   * `grade`: the task's grade of the episode as it stands, in the observation; the episode goes on. Nothing else
   * changes: no call is made or logged, shaped rewards and the hooks' `onGrade` do not see it. In the default mode the
   * step's reward is null, so a harness that takes an episode's last non-null reward as its final one (OpenEnv's
   * `_resolve_env_reward`) never mistakes a look at the grade mid-episode for the grade at `submit`. Shaped mode
   * reports the grade as the reward, as it always has.
   */
  private gradeNow(session: Session, where: (string | number)[], wholeGrades: boolean, trace: boolean): string {
    const grade = this.gradeStep(session, where, 'grade');
    return stepPayload('{"grade":' + shownGrade(session, grade, wholeGrades) + (trace ? ',"trace":' + traceJson(session.inst) : '') + '}', session.rewardMode === 'shaped' ? grade.reward : null, false);
  }


  /**
   * `fork`: snapshot the episode (`inst.fork()`: state, clock, random streams, call history, task, reward mode and step
   * count, this step included) for a branch. Over a WebSocket the fork is held under a token for a reset to adopt; over
   * HTTP it becomes a new HTTP session at once, whose id is answered. Either takes a place under `--max-sessions`.
   */
  private fork(session: Session, transport: 'ws' | 'http'): string {
    const registry = this.options.registry;
    registry.ensureRoom();
    this.admitFork(session.inst);
    const inst = session.inst.fork();
    const counters = { task: session.task, rewardMode: session.rewardMode, stepCount: session.stepCount + 1, lastReward: session.lastReward, submitTool: session.submitTool };
    if (transport === 'http') {
      let branch: Session;
      try {
        branch = this.adoptSession('http', registry.newId(), inst);
      } catch (e) {
        inst.destroy();
        throw e;
      }
      branch.play(inst, { episodeId: branch.episodeId, ...counters });
      branch.wholeGrades = session.wholeGrades;
      session.stepCount++;
      const key = this.faceKeyOf(branch);
      const answer = { session_id: branch.id, episode_id: branch.episodeId, ...(key === undefined ? {} : { api_key: key }) };
      return stepPayload('{"fork":' + JSON.stringify(answer) + '}', null, false);
    }
    const held = registry.hold(this, inst, { episodeId: session.episodeId, ...counters });
    session.stepCount++;
    return stepPayload('{"fork":' + JSON.stringify({ token: held.token, expires_in_s: registry.forkTtlMs / 1000 }) + '}', null, false);
  }

  /** The refusal of `submit` or `grade` on a session without a task. */
  private noTask(where: (string | number)[], action: 'submit' | 'grade'): FrameError {
    const ids = this.world.tasks.map((t) => t.id);
    const hint = ids.length > 0 ? `reset with {"task": "${ids[0]}"} first (tasks: ${ids.join(', ')})` : `world "${this.name}" declares no tasks`;
    return validationError(`cannot ${action}`, [{ type: 'value_error', loc: where, msg: `this session has no task to grade; ${hint}`, input: action }]);
  }

  /**
   * One tool call of the session's episode: the instance runs it (one transaction), and its observation is built for
   * the transport, with the step's reward (in shaped mode, the change in grade) and metadata.
   */
  private callTool(session: Session, name: string, args: Record<string, unknown>, transport: 'ws' | 'http', where: (string | number)[], wholeGrades = false): Reply | Promise<Reply> {
    if (name === SUBMIT_TOOL.name && session.submitTool) return this.submitTool(session, args, transport, where, wholeGrades);
    return this.stepCall(session, name, session.inst[callWithJson](name, args), transport);
  }

  /**
   * The `submit` tool, called as a tool: the episode ends as at the `submit` step (the grade in the observation, the
   * reward at the top level, `done`, the hooks told), and the tool result is `{reward, passed}`, where a harness that
   * reads a tool result's `data.reward` (OpenEnv's) finds the reward.
   */
  private submitTool(session: Session, args: Record<string, unknown>, transport: 'ws' | 'http', where: (string | number)[], wholeGrades: boolean): Reply | Promise<Reply> {
    if (Object.keys(args).length > 0) {
      const error = { code: 'invalid_arguments', message: `submit takes no arguments; call it with {} (got ${Object.keys(args).join(', ')})` };
      return this.stepCall(session, SUBMIT_TOOL.name, { ok: false, error, json: JSON.stringify(error) }, transport);
    }
    const wrap = (payload: string) => (transport === 'ws' ? wrapObservation(payload) : payload);
    const out = this.submit(session, where, wholeGrades, 'tool');
    return typeof out === 'string' ? wrap(out) : out.then(wrap);
  }

  /** The `submit` tool called over JSON-RPC (`tools/call` on the session): the grade's `{reward, passed}`, the hooks told. */
  submitOverRpc(session: Session): { reward: number; passed: boolean } {
    // JSON-RPC requests are not steps: the grade is taken without counting one.
    if (session.task === null) throw this.noTask(['params', 'name'], 'submit');
    let grade: Grade;
    try {
      grade = this.grade(session);
    } catch (e) {
      throw this.asFrameError(e);
    }
    session.lastReward = grade.reward;
    this.recordGrade(session, grade);
    return { reward: grade.reward, passed: grade.passed };
  }

  /** A step that ran as a call (a tool's, or time passing): its observation, reward and metadata. */
  private stepCall(session: Session, name: string, outcome: CallOutcome, transport: 'ws' | 'http'): Reply {
    session.stepCount++;
    // In the default (final) mode only `submit` carries a reward: a harness that takes the last non-null reward of an
    // episode must not read a 0.0 from a call made after nothing was graded. Shaped mode reports every change in grade.
    let reward: number | null = session.rewardMode === 'shaped' ? 0 : null;
    let metadata = '{}';
    if (session.rewardMode === 'shaped' && session.task !== null && outcome.ok) {
      try {
        const now = this.grade(session).reward;
        reward = now - session.lastReward;
        session.lastReward = now;
      } catch (e) {
        metadata = JSON.stringify({ seahaven_grade_error: this.asFrameError(e).message });
      }
    }
    return callObservation(name, outcome, { transport, reward, metadata });
  }

  private grade(session: Session): Grade {
    const grade = session.inst.submit();
    if (typeof grade?.reward !== 'number' || !Number.isFinite(grade.reward)) {
      throw new Error(`the grader of task "${session.task?.id}" returned reward ${JSON.stringify(grade?.reward)}; a grade's reward must be a number in [0, 1]`);
    }
    return grade;
  }

  /** The grade a `grade` or `submit` step reports: refused without a task, counted as a step. */
  private gradeStep(session: Session, where: (string | number)[], action: 'grade' | 'submit'): Grade {
    if (session.task === null) throw this.noTask(where, action);
    let grade: Grade;
    try {
      grade = this.grade(session);
    } catch (e) {
      throw this.asFrameError(e);
    }
    session.stepCount++;
    return grade;
  }

  /**
   * `submit`, as a step or (`as: 'tool'`) as the `submit` tool's call: the step payload once the hooks have heard;
   * `trace`: with the episode's trace beside the grade.
   */
  private submit(session: Session, where: (string | number)[], wholeGrades: boolean, as: 'step' | 'tool' = 'step', trace = false): string | Promise<string> {
    const grade = this.gradeStep(session, where, 'submit');
    const reward = session.rewardMode === 'shaped' ? grade.reward - session.lastReward : grade.reward;
    session.lastReward = grade.reward;
    const gradeJson = shownGrade(session, grade, wholeGrades);
    const observation = as === 'step' ? '{"grade":' + gradeJson + (trace ? ',"trace":' + traceJson(session.inst) : '') + '}' : submitToolObservation(grade, gradeJson);
    const payload = (extra: unknown) => stepPayload(observation, reward, true, extra !== null && typeof extra === 'object' && !Array.isArray(extra) ? JSON.stringify(extra) : undefined);
    const extra = this.recordGrade(session, grade);
    return extra instanceof Promise ? extra.then(payload) : payload(extra);
  }

  /**
   * Tell the hooks of an episode's first submit: what `onGrade` adds to the reply's metadata (a promise of it from a
   * hook that answers later, like PostgreSQL runs), undefined when it fails (logged) or the episode was submitted before.
   */
  private recordGrade(session: Session, grade: Grade): unknown {
    const first = !session.graded;
    session.graded = true;
    if (!first || !this.options.hooks.onGrade) return undefined;
    const failed = (e: unknown) => this.options.logger(`[seahaven] onGrade hook failed for session ${session.id}: ${(e as Error)?.stack ?? String(e)}`);
    try {
      const extra = this.options.hooks.onGrade(session, grade);
      return extra instanceof Promise ? extra.catch((e) => void failed(e)) : extra;
    } catch (e) {
      failed(e);
      return undefined;
    }
  }

  /** The session's state: `{episode_id, step_count, ...state document}` as JSON text. */
  stateJson(session: Session): string {
    return JSON.stringify({ episode_id: session.episodeId, step_count: session.stepCount, ...session.inst.state() });
  }
}

/** The observation of a `submit` tool call: a tool result whose data is `{reward, passed}`, and the grade as at `submit`. */
function submitToolObservation(grade: Grade, gradeJson: string): string {
  const result = submitToolResult(grade);
  return '{"tool_name":"submit","result":' + result + ',"error":null,"grade":' + gradeJson + '}';
}

/**
 * The JSON of the grade a `grade` or `submit` reply shows: the agent view (ids, labels, scores, weights), unless the
 * session or this step presented the grader token; then the whole grade, with the names and reasons that carry the
 * grader's targets. Hooks (`onGrade`) and shaped rewards always see the whole grade.
 */
function shownGrade(session: Session, grade: Grade, wholeGrades: boolean): string {
  return JSON.stringify(wholeGrades || session.wholeGrades ? grade : agentGrade(grade));
}

function wrapObservation(payload: string): string {
  return '{"type":"observation","data":' + payload + '}';
}
