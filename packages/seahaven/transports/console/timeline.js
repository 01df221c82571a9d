// @ts-check
/**
 * The timeline of an episode: each call (newest first) with its arguments, its result or error, and the rows it changed.
 * Calls refused before they reached the tool (an unknown tool, invalid arguments) have no number and change nothing.
 */
import { changeList } from './diff.js';
import { h, jsonBlock, valueText } from './dom.js';

/** @typedef {import('./diff.js').Change} Change */
/** @typedef {{ code: string, message: string, details?: Record<string, unknown> }} ToolFailure */
/** @typedef {{ index?: number, tool: string, args: unknown, ok: boolean, result?: unknown, error?: ToolFailure, changes: Change[] }} Call */

/**
 * A tool failure: code, message, and each violation of invalid arguments on its own line.
 * @param {ToolFailure} error
 */
export function failureView(error) {
  const violations = Array.isArray(error.details?.violations)
    ? /** @type {{ path?: string, message?: string }[]} */ (error.details.violations)
    : null;
  const { violations: _v, ...otherDetails } = error.details ?? {};
  return h(
    'div',
    { class: 'failure' },
    h(
      'div',
      {},
      h('span', { class: 'error-code' }, error.code),
      ' ',
      h('span', { class: 'error-message' }, error.message),
    ),
    violations
      ? h(
          'ul',
          { class: 'violations' },
          violations.map((v) =>
            h(
              'li',
              {},
              v.path ? h('code', {}, v.path) : null,
              v.path ? ': ' : null,
              v.message ?? '',
            ),
          ),
        )
      : null,
    Object.keys(otherDetails).length > 0 ? jsonBlock(otherDetails, 'json small') : null,
  );
}

/**
 * A call's arguments as `name value` pairs (nested values as compact JSON).
 * @param {unknown} args
 */
function argsView(args) {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return h('div', { class: 'call-args' }, h('code', {}, JSON.stringify(args)));
  const entries = Object.entries(args);
  return h(
    'dl',
    { class: 'call-args' },
    entries.length === 0
      ? h('dd', { class: 'quiet' }, 'no arguments')
      : entries.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, valueText(v))]),
  );
}

/**
 * One call of the timeline.
 * @param {Call} call
 * @param {number} position where it sits in the call log (refused calls have no index)
 */
export function callEntry(call, position) {
  const rows = call.changes.length;
  const summary = call.ok
    ? rows === 0
      ? 'no rows changed'
      : `${rows} row${rows === 1 ? '' : 's'} changed`
    : (call.error?.code ?? 'failed');
  return h(
    'li',
    {
      class: `call ${call.ok ? 'ok' : 'failed'}`,
      'data-index': call.index ?? '',
      'data-position': position,
      'data-tool': call.tool,
    },
    h(
      'div',
      { class: 'call-head' },
      h(
        'span',
        {
          class: 'call-index',
          title:
            call.index === undefined ? 'refused before it reached the tool' : `call ${call.index}`,
        },
        call.index === undefined ? '–' : `#${call.index}`,
      ),
      h('span', { class: 'call-tool' }, call.tool),
      h(
        'span',
        { class: `badge ${call.ok ? 'badge-ok' : 'badge-error'}` },
        call.ok ? 'ok' : 'error',
      ),
      h('span', { class: 'call-summary' }, summary),
    ),
    argsView(call.args),
    call.ok
      ? h('details', { class: 'call-result' }, h('summary', {}, 'result'), jsonBlock(call.result))
      : failureView(/** @type {ToolFailure} */ (call.error)),
    rows > 0 ? changeList(call.changes) : null,
  );
}

/**
 * The whole timeline, newest call first, so what just happened sits under the form that did it.
 * @param {Call[]} calls
 */
export function timelineView(calls) {
  if (calls.length === 0)
    return h(
      'p',
      { class: 'quiet' },
      'No calls yet: pick a tool on the left, fill in its form and call it.',
    );
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    calls.map((c, i) => callEntry(c, i + 1)).reverse(),
  );
}
