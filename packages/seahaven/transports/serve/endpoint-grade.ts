/**
 * An endpoint's grading: `grade` and `submit` (as a step, as the `submit` tool, over JSON-RPC), the hooks' `onGrade`,
 * the grader token, and the grade a reply shows (the agent view, or the whole grade).
 */
import { agentGrade, type Grade } from '../../core/task.ts';
import type { EndpointCore } from './endpoint-core.ts';
import { FrameError, validationError } from './errors.ts';
import { stepPayload, submitToolResult } from './payload.ts';
import type { Session } from './sessions.ts';
import { traceJson } from './trace.ts';

/** The refusal of `submit` or `grade` on a session without a task. */
export function noTask(
  ep: EndpointCore,
  where: (string | number)[],
  action: 'submit' | 'grade',
): FrameError {
  const ids = ep.world.tasks.map((t) => t.id);
  const hint =
    ids.length > 0
      ? `reset with {"task": "${ids[0]}"} first (tasks: ${ids.join(', ')})`
      : `world "${ep.name}" declares no tasks`;
  return validationError(`cannot ${action}`, [
    {
      type: 'value_error',
      loc: where,
      msg: `this session has no task to grade; ${hint}`,
      input: action,
    },
  ]);
}

/** The task's grade of the session's episode; a grader whose reward is not a finite number is a bug. */
export function gradeOf(session: Session): Grade {
  const grade = session.inst.submit();
  if (typeof grade?.reward !== 'number' || !Number.isFinite(grade.reward)) {
    throw new Error(
      `the grader of task "${session.task?.id}" returned reward ${JSON.stringify(grade?.reward)}; a grade's reward must be a number in [0, 1]`,
    );
  }
  return grade;
}

/** The grade a `grade` or `submit` step reports: refused without a task, counted as a step. */
function gradeStep(
  ep: EndpointCore,
  session: Session,
  where: (string | number)[],
  action: 'grade' | 'submit',
): Grade {
  if (session.task === null) throw noTask(ep, where, action);
  let grade: Grade;
  try {
    grade = gradeOf(session);
  } catch (e) {
    throw ep.asFrameError(e);
  }
  session.stepCount++;
  return grade;
}

/**
 * `grade`: the task's grade of the episode as it stands, in the observation; the episode goes on. Nothing else
 * changes: no call is made or logged, shaped rewards and the hooks' `onGrade` do not see it. In the default mode the
 * step's reward is null, so a harness that takes an episode's last non-null reward as its final one (OpenEnv's
 * `_resolve_env_reward`) never mistakes a look at the grade mid-episode for the grade at `submit`. Shaped mode
 * reports the grade as the reward, as it always has.
 */
export function gradeNow(
  ep: EndpointCore,
  session: Session,
  where: (string | number)[],
  wholeGrades: boolean,
  trace: boolean,
): string {
  const grade = gradeStep(ep, session, where, 'grade');
  return stepPayload(
    '{"grade":' +
      shownGrade(session, grade, wholeGrades) +
      (trace ? ',"trace":' + traceJson(session.inst) : '') +
      '}',
    session.rewardMode === 'shaped' ? grade.reward : null,
    false,
  );
}

/**
 * `submit`, as a step or (`as: 'tool'`) as the `submit` tool's call: the step payload once the hooks have heard;
 * `trace`: with the episode's trace beside the grade.
 */
export function submit(
  ep: EndpointCore,
  session: Session,
  where: (string | number)[],
  wholeGrades: boolean,
  as: 'step' | 'tool' = 'step',
  trace = false,
): string | Promise<string> {
  const grade = gradeStep(ep, session, where, 'submit');
  const reward = session.rewardMode === 'shaped' ? grade.reward - session.lastReward : grade.reward;
  session.lastReward = grade.reward;
  const gradeJson = shownGrade(session, grade, wholeGrades);
  const observation =
    as === 'step'
      ? '{"grade":' + gradeJson + (trace ? ',"trace":' + traceJson(session.inst) : '') + '}'
      : submitToolObservation(grade, gradeJson);
  const payload = (extra: unknown) =>
    stepPayload(
      observation,
      reward,
      true,
      extra !== null && typeof extra === 'object' && !Array.isArray(extra)
        ? JSON.stringify(extra)
        : undefined,
    );
  const extra = recordGrade(ep, session, grade);
  return extra instanceof Promise ? extra.then(payload) : payload(extra);
}

/** The `submit` tool called over JSON-RPC (`tools/call` on the session): the grade's `{reward, passed}`, the hooks told. */
export function submitOverRpc(
  ep: EndpointCore,
  session: Session,
): { reward: number; passed: boolean } {
  // JSON-RPC requests are not steps: the grade is taken without counting one.
  if (session.task === null) throw noTask(ep, ['params', 'name'], 'submit');
  let grade: Grade;
  try {
    grade = gradeOf(session);
  } catch (e) {
    throw ep.asFrameError(e);
  }
  session.lastReward = grade.reward;
  recordGrade(ep, session, grade);
  return { reward: grade.reward, passed: grade.passed };
}

/**
 * Tell the hooks of an episode's first submit: what `onGrade` adds to the reply's metadata (a promise of it from a
 * hook that answers later, like PostgreSQL runs), undefined when it fails (logged) or the episode was submitted before.
 */
function recordGrade(ep: EndpointCore, session: Session, grade: Grade): unknown {
  const first = !session.graded;
  session.graded = true;
  const hooks = ep.options.hooks;
  if (!first || !hooks.onGrade) return undefined;
  const failed = (e: unknown) =>
    ep.options.logger(
      `[seahaven] onGrade hook failed for session ${session.id}: ${(e as Error)?.stack ?? String(e)}`,
    );
  try {
    const extra = hooks.onGrade(session, grade);
    return extra instanceof Promise ? extra.catch((e) => void failed(e)) : extra;
  } catch (e) {
    failed(e);
    return undefined;
  }
}

/**
 * Whether a presented grader token opens whole grades: false when none is presented; a token this server does not
 * have (a wrong one, or any when it has none) is refused, so a trainer never silently gets the agent view.
 */
export function graderAccess(
  ep: EndpointCore,
  presented: string | undefined,
  loc: (string | number)[],
): boolean {
  if (presented === undefined) return false;
  const msg =
    ep.isGraderToken === null
      ? 'this server has no grader token, so whole grades cannot be opened; start it with --grader-token <secret> (or SEAHAVEN_GRADER_TOKEN), or leave the grader token out to get the agent view'
      : ep.isGraderToken(presented)
        ? null
        : 'the grader token is wrong; send the one the server was started with (--grader-token or SEAHAVEN_GRADER_TOKEN)';
  if (msg === null) return true;
  throw validationError('grader token refused', [{ type: 'value_error', loc, msg, input: null }]);
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
