/**
 * An endpoint's step actions: a tool call (the `submit` tool's included), `advance_clock` (at once, or a turn's budget
 * at a time), `list_tools`, `grade`, `submit` and `fork`, each answered with its step payload.
 */
import { advanceProblem } from '../../core/clock.ts';
import {
  advanceInSlices,
  advanceWithJson,
  callWithJson,
  type CallOutcome,
} from '../../core/instance-internals.ts';
import type { EndpointCore } from './endpoint-core.ts';
import { gradeNow, gradeOf, submit } from './endpoint-grade.ts';
import { validationError } from './errors.ts';
import { callObservation } from './observation.ts';
import type { Reply } from './outbox.ts';
import { SUBMIT_TOOL, stepPayload, type StepAction } from './payload.ts';
import type { Session } from './sessions.ts';
import { SlicedStep } from './sliced-step.ts';
import { traceWanted } from './trace.ts';

type Transport = 'ws' | 'http';

/**
 * `advance_clock` run a turn's budget at a time (`inst[advanceInSlices]`): its reply when one slice did it all, else
 * a `SlicedStep` whose last slice answers. Other sessions are answered between slices; the session's later requests
 * wait in its queue.
 */
export function advanceStep(
  ep: EndpointCore,
  session: Session,
  ms: number,
  where: (string | number)[],
  transport: Transport,
): Reply | SlicedStep {
  checkAdvance(session, ms, where);
  const run = session.inst[advanceInSlices](ms);
  // A slice ends at the world's first pause past its budget, so with a quarter of a turn it is mostly one step of
  // the world's work (a subscription's invoice, or its payment): that long is what everyone else waits for.
  const budget = ep.options.scheduler.budgetMs / 4;
  const first = run.slice(budget);
  if (first !== null) return stepCall(ep, session, 'advance_clock', first, transport);
  return new SlicedStep(session, () => {
    const outcome = run.slice(budget);
    return outcome === null ? null : stepCall(ep, session, 'advance_clock', outcome, transport);
  });
}

/** `advance_clock`: refused as a validation error, the episode untouched, past the most one advance may move its clock. */
export function advance(
  ep: EndpointCore,
  session: Session,
  ms: number,
  where: (string | number)[],
  transport: Transport,
): Reply {
  checkAdvance(session, ms, where);
  return stepCall(ep, session, 'advance_clock', session.inst[advanceWithJson](ms), transport);
}

/** Refuse, as a validation error with the episode untouched, an advance past the most one may move the clock. */
function checkAdvance(session: Session, ms: number, where: (string | number)[]): void {
  const problem = advanceProblem(ms, session.inst.clock.now());
  if (problem !== null)
    throw validationError('invalid action', [
      { type: 'value_error', loc: [...where, 'ms'], msg: problem, input: ms },
    ]);
}

/** `list_tools`, `submit`, `grade` or `fork`: the step payload's JSON text. */
export function otherStep(
  ep: EndpointCore,
  session: Session,
  a: Exclude<StepAction, { type: 'call_tool' } | { type: 'advance_clock' }>,
  where: (string | number)[],
  transport: Transport,
  wholeGrades = false,
): string | Promise<string> {
  switch (a.type) {
    case 'list_tools':
      session.stepCount++;
      return session.submitTool ? ep.listToolsWithSubmitPayload : ep.listToolsPayload;
    case 'submit':
      return submit(
        ep,
        session,
        where,
        wholeGrades,
        'step',
        traceWanted(a.trace, wholeGrades || session.wholeGrades, where, ep.isGraderToken !== null),
      );
    case 'grade':
      return gradeNow(
        ep,
        session,
        where,
        wholeGrades,
        traceWanted(a.trace, wholeGrades || session.wholeGrades, where, ep.isGraderToken !== null),
      );
    case 'fork':
      return fork(ep, session, transport);
  }
}

/**
 * `fork`: snapshot the episode (`inst.fork()`: state, clock, random streams, call history, task, reward mode and step
 * count, this step included) for a branch. Over a WebSocket the fork is held under a token for a reset to adopt; over
 * HTTP it becomes a new HTTP session at once, whose id is answered. Either takes a place under `--max-sessions`.
 */
function fork(ep: EndpointCore, session: Session, transport: Transport): string {
  const registry = ep.options.registry;
  registry.ensureRoom();
  ep.admitFork(session.inst);
  const inst = session.inst.fork();
  const counters = {
    task: session.task,
    rewardMode: session.rewardMode,
    stepCount: session.stepCount + 1,
    lastReward: session.lastReward,
    submitTool: session.submitTool,
  };
  if (transport === 'http') {
    let branch: Session;
    try {
      branch = ep.adoptSession('http', registry.newId(), inst);
    } catch (e) {
      inst.destroy();
      throw e;
    }
    branch.play(inst, { episodeId: branch.episodeId, ...counters });
    branch.wholeGrades = session.wholeGrades;
    session.stepCount++;
    const key = ep.faceKeyOf(branch);
    const answer = {
      session_id: branch.id,
      episode_id: branch.episodeId,
      ...(key === undefined ? {} : { api_key: key }),
    };
    return stepPayload('{"fork":' + JSON.stringify(answer) + '}', null, false);
  }
  const held = registry.hold(ep, inst, { episodeId: session.episodeId, ...counters });
  session.stepCount++;
  return stepPayload(
    '{"fork":' +
      JSON.stringify({ token: held.token, expires_in_s: registry.forkTtlMs / 1000 }) +
      '}',
    null,
    false,
  );
}

/**
 * One tool call of the session's episode: the instance runs it (one transaction), and its observation is built for
 * the transport, with the step's reward (in shaped mode, the change in grade) and metadata.
 */
export function callTool(
  ep: EndpointCore,
  session: Session,
  name: string,
  args: Record<string, unknown>,
  transport: Transport,
  where: (string | number)[],
  wholeGrades = false,
): Reply | Promise<Reply> {
  if (name === SUBMIT_TOOL.name && session.submitTool)
    return submitTool(ep, session, args, transport, where, wholeGrades);
  return stepCall(ep, session, name, session.inst[callWithJson](name, args), transport);
}

/**
 * The `submit` tool, called as a tool: the episode ends as at the `submit` step (the grade in the observation, the
 * reward at the top level, `done`, the hooks told), and the tool result is `{reward, passed}`, where a harness that
 * reads a tool result's `data.reward` (OpenEnv's) finds the reward.
 */
function submitTool(
  ep: EndpointCore,
  session: Session,
  args: Record<string, unknown>,
  transport: Transport,
  where: (string | number)[],
  wholeGrades: boolean,
): Reply | Promise<Reply> {
  if (Object.keys(args).length > 0) {
    const error = {
      code: 'invalid_arguments',
      message: `submit takes no arguments; call it with {} (got ${Object.keys(args).join(', ')})`,
    };
    return stepCall(
      ep,
      session,
      SUBMIT_TOOL.name,
      { ok: false, error, json: JSON.stringify(error) },
      transport,
    );
  }
  const wrap = (payload: string) => (transport === 'ws' ? wrapObservation(payload) : payload);
  const out = submit(ep, session, where, wholeGrades, 'tool');
  return typeof out === 'string' ? wrap(out) : out.then(wrap);
}

/** A step that ran as a call (a tool's, or time passing): its observation, reward and metadata. */
function stepCall(
  ep: EndpointCore,
  session: Session,
  name: string,
  outcome: CallOutcome,
  transport: Transport,
): Reply {
  session.stepCount++;
  // In the default (final) mode only `submit` carries a reward: a harness that takes the last non-null reward of an
  // episode must not read a 0.0 from a call made after nothing was graded. Shaped mode reports every change in grade.
  let reward: number | null = session.rewardMode === 'shaped' ? 0 : null;
  let metadata = '{}';
  if (session.rewardMode === 'shaped' && session.task !== null && outcome.ok) {
    try {
      const now = gradeOf(session).reward;
      reward = now - session.lastReward;
      session.lastReward = now;
    } catch (e) {
      metadata = JSON.stringify({ seahaven_grade_error: ep.asFrameError(e).message });
    }
  }
  return callObservation(name, outcome, { transport, reward, metadata });
}

/** A step payload as the WebSocket frame that carries it. */
export function wrapObservation(payload: string): string {
  return '{"type":"observation","data":' + payload + '}';
}
