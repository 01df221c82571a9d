/**
 * The episode's trace, which a `submit` or `grade` step with `trace: true` answers beside the whole grade: what an
 * evaluator records of an episode played on a served world (its call log, the rows each call changed, the net
 * changes) without replaying it. Only a session holding the grader token gets it, as it gets whole grades.
 */
import type { Instance } from '../../core/instance.ts';
import { validationError, type FrameError } from './errors.ts';

/**
 * The trace's JSON text: the world and version, the fixture's sha256 (so the reader can tell it is the world it
 * knows), the call log (`inst.callLog()`), the change log (`inst.changeLog()`) and the net changes (`inst.changes()`).
 */
export function traceJson(inst: Instance): string {
  return (
    '{"world":' +
    JSON.stringify({ name: inst.world.name, version: inst.world.version }) +
    ',"fixture_sha256":' +
    JSON.stringify(inst.fixtureSha256) +
    ',"calls":' +
    JSON.stringify(inst.callLog()) +
    ',"change_log":' +
    JSON.stringify(inst.changeLog()) +
    ',"changes":' +
    JSON.stringify(inst.changes()) +
    '}'
  );
}

/**
 * Whether a `submit` or `grade` asks for the episode's trace: refused (before anything is graded) when the step does
 * not hold the grader token (`holds`: the session's, or the HTTP step's header); `serverHasToken`: whether it has one.
 */
export function traceWanted(
  trace: boolean | undefined,
  holds: boolean,
  where: (string | number)[],
  serverHasToken: boolean,
): boolean {
  if (trace !== true) return false;
  if (!holds) throw traceRefused(where, serverHasToken);
  return true;
}

function traceRefused(where: (string | number)[], serverHasToken: boolean): FrameError {
  const msg = serverHasToken
    ? 'the trace goes only to the holder of the grader token: reset with grader_token (over HTTP, or send the X-Seahaven-Grader-Token header on this /step), or leave trace out'
    : 'this server has no grader token, so the trace cannot be opened; start it with --grader-token <secret> (or SEAHAVEN_GRADER_TOKEN) and reset with grader_token, or leave trace out';
  return validationError('trace refused', [
    { type: 'value_error', loc: [...where, 'trace'], msg, input: true },
  ]);
}
