/**
 * An endpoint's reset: a new episode on a session, from a task, a fixture, a curriculum's plan (the hooks'
 * `resolveReset`) or a held fork, and the reset's observation and metadata.
 */
import { randomUUID } from 'node:crypto';
import { InstanceError } from '../../core/errors.ts';
import type { Instance, InstanceOptions } from '../../core/instance.ts';
import type { EndpointCore } from './endpoint-core.ts';
import { graderAccess } from './endpoint-grade.ts';
import { FrameError, ResetError, validationError } from './errors.ts';
import { stepPayload } from './payload.ts';
import type { ResetPlan, ResetRequest } from './reset.ts';
import type { Session } from './sessions.ts';
import { ALL_SPLIT, taskAt } from './tasks.ts';

const INSTANCE_FIELDS: Record<string, string> = {
  unknown_fixture: 'fixture',
  fixture_mismatch: 'fixture',
  invalid_seed: 'seed',
  invalid_clock: 'clock',
  invalid_now: 'now',
  unknown_task: 'task',
};

/** Start a new episode on the session: the reset reply's step payload (JSON text). */
export function reset(
  ep: EndpointCore,
  session: Session,
  req: ResetRequest,
  where: string,
): string | Promise<string> {
  const { grader_token: presented, ...episode } = req;
  const whole = graderAccess(ep, presented, [where, 'grader_token']);
  // The token goes no further: hooks (a curriculum's resolveReset) see the episode's keys only.
  const out = startEpisode(ep, session, episode, where);
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

function startEpisode(
  ep: EndpointCore,
  session: Session,
  req: ResetRequest,
  where: string,
): string | Promise<string> {
  if (req.fork_token !== undefined) return adoptFork(ep, session, req.fork_token, where);
  if (req.curriculum !== undefined || req.run_id !== undefined) {
    const field = req.curriculum !== undefined ? 'curriculum' : 'run_id';
    const resolve = ep.options.hooks.resolveReset;
    if (!resolve) {
      throw validationError('invalid reset data', [
        {
          type: 'value_error',
          loc: [where, field],
          msg: `curricula are not configured on this server, so ${field} cannot be used; reset with a task or fixture instead`,
          input: req[field],
        },
      ]);
    }
    let plan: ResetPlan | Promise<ResetPlan>;
    try {
      plan = resolve(req, { world: ep.world, session });
    } catch (e) {
      throw refusal(e, where);
    }
    if (plan instanceof Promise)
      return plan.then(
        (p) => startPlanned(ep, session, req, p, where),
        (e) => {
          throw refusal(e, where);
        },
      );
    return startPlanned(ep, session, req, plan, where);
  }
  return start(ep, session, req, undefined, where);
}

/** Start a planned episode; a plan that cannot start is abandoned at once, so its curriculum does not wait on it. */
function startPlanned(
  ep: EndpointCore,
  session: Session,
  req: ResetRequest,
  plan: ResetPlan,
  where: string,
): string {
  try {
    return start(ep, session, req, plan, where);
  } catch (e) {
    ep.abandon(session, plan.context);
    throw e;
  }
}

function refusal(e: unknown, where: string): unknown {
  return e instanceof ResetError
    ? validationError('reset refused', [
        { type: 'value_error', loc: [where, e.field], msg: e.message },
      ])
    : e;
}

function start(
  ep: EndpointCore,
  session: Session,
  req: ResetRequest,
  plan: ResetPlan | undefined,
  where: string,
): string {
  if (session.closed) throw new FrameError('SESSION_ERROR', `session ${session.id} has ended`);
  const world = ep.world;
  const taskId = plan?.task ?? req.task ?? taskAtIndex(ep, req, where);
  const task = taskId === undefined ? undefined : world.task(taskId);
  if (taskId !== undefined && task === undefined) {
    throw validationError('invalid reset data', [
      {
        type: 'value_error',
        loc: [where, 'task'],
        msg: `world "${world.name}" has no task "${taskId}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`,
        input: taskId,
      },
    ]);
  }
  // A task implies its fixture: the instance starts from it, and refuses another (`fixture_mismatch`).
  const fixture =
    plan?.fixture ?? req.fixture ?? (task === undefined ? ep.defaultFixture : undefined);
  if (fixture !== undefined && !Object.hasOwn(world.fixtures, fixture)) {
    throw validationError('invalid reset data', [
      {
        type: 'value_error',
        loc: [where, 'fixture'],
        msg: `world "${world.name}" has no fixture "${fixture}"; its fixtures are ${Object.keys(world.fixtures).join(', ') || '(none)'}`,
        input: fixture,
      },
    ]);
  }
  if (req.submit_tool === true && task === undefined) {
    throw validationError('invalid reset data', [
      {
        type: 'value_error',
        loc: [where, 'submit_tool'],
        msg: 'submit_tool lists a submit tool that grades the task; reset with a task (task, split and index, or curriculum) too',
        input: true,
      },
    ]);
  }
  const options: InstanceOptions = {
    fixture,
    seed: plan?.seed ?? req.seed,
    clock: plan?.clock ?? req.clock,
    now: plan?.now ?? req.now,
    task: task?.id,
    ...ep.instanceOptions(),
  };
  // A reset to the fixture the session is on takes the place of its episode; another fixture's is weighed first.
  if ((fixture ?? task?.fixture ?? null) !== session.inst.fixture)
    ep.admitFixture('reset to this fixture', fixture ?? task?.fixture);
  let inst: Instance;
  try {
    // A reset to the fixture the session is on rolls its connection back instead of opening a new one.
    inst = session.inst.restart(options) ?? world.instance(options);
  } catch (e) {
    const field = e instanceof InstanceError ? INSTANCE_FIELDS[e.code] : undefined;
    if (field !== undefined)
      throw validationError('invalid reset data', [
        {
          type: 'value_error',
          loc: [where, field],
          msg: (e as Error).message,
          input: (options as Record<string, unknown>)[field],
        },
      ]);
    throw new FrameError('EXECUTION_ERROR', `could not start the episode: ${ep.startFailure(e)}`);
  }
  ep.abandon(session);
  const replaced = session.play(inst, {
    episodeId: plan?.episode_id ?? req.episode_id ?? randomUUID(),
    task: task ?? null,
    rewardMode: plan?.reward_mode ?? req.reward_mode ?? 'final',
    submitTool: req.submit_tool ?? false,
    context: plan?.context,
  });
  replaced.destroy();
  return stepPayload(
    resetObservation(ep, session),
    null,
    false,
    episodeMetadata(ep, session, plan?.metadata),
  );
}

/** The task a reset's `{split, index}` names (the split defaults to `all`), or undefined when it names none. */
function taskAtIndex(ep: EndpointCore, req: ResetRequest, where: string): string | undefined {
  if (req.index === undefined) return undefined;
  const split = req.split ?? ALL_SPLIT;
  const t = taskAt(ep.world, split, req.index);
  if ('refused' in t)
    throw validationError('invalid reset data', [
      {
        type: 'value_error',
        loc: [where, t.field],
        msg: t.refused,
        input: t.field === 'split' ? split : req.index,
      },
    ]);
  return t.id;
}

/** A reset's observation for the episode the session now plays; a fork's names the episode it was forked from. */
function resetObservation(ep: EndpointCore, session: Session, forkedFrom?: string): string {
  const inst = session.inst;
  const task = session.task;
  return (
    '{"fixture":' +
    JSON.stringify(inst.fixture) +
    ',"seed":' +
    inst.seed +
    ',"now":' +
    JSON.stringify(inst.clock.iso()) +
    ',"task":' +
    (task ? JSON.stringify({ id: task.id, prompt: task.prompt }) : 'null') +
    (forkedFrom === undefined ? '' : ',"forked_from":' + JSON.stringify(forkedFrom)) +
    ',"tools":' +
    (session.submitTool ? ep.toolsWithSubmitJson : ep.toolsJson) +
    '}'
  );
}

/** A reset's metadata: what a plan adds, the episode id, and the session's key for the world's HTTP face. */
function episodeMetadata(
  ep: EndpointCore,
  session: Session,
  extra?: Record<string, unknown>,
): string {
  const key = ep.faceKeyOf(session);
  return JSON.stringify({
    ...extra,
    episode_id: session.episodeId,
    ...(key === undefined ? {} : { api_key: key }),
  });
}

/**
 * A reset with `fork_token`: the session adopts the episode a `fork` step held under the token, counters included, as
 * a new episode (fresh id) whose observation says where it was forked from. Tokens work once, on their world only.
 */
function adoptFork(ep: EndpointCore, session: Session, token: string, where: string): string {
  if (session.closed) throw new FrameError('SESSION_ERROR', `session ${session.id} has ended`);
  const fork = ep.options.registry.adoptFork(ep, token);
  if ('refused' in fork)
    throw validationError('invalid reset data', [
      { type: 'value_error', loc: [where, 'fork_token'], msg: fork.refused, input: token },
    ]);
  ep.abandon(session);
  const { episodeId: forkedFrom, ...counters } = fork.origin;
  session.play(fork.inst, { episodeId: randomUUID(), ...counters }).destroy();
  return stepPayload(
    resetObservation(ep, session, forkedFrom),
    null,
    false,
    episodeMetadata(ep, session),
  );
}
