// @ts-check
/**
 * Views of sessions: an entry of the session list, the head of the current session (its facts, its task and what can
 * be done with it), the selected tool's form, and the result of the tool call just made.
 */
import { changeList } from './diff.js';
import { h, jsonBlock, shortId } from './dom.js';
import { schemaForm } from './schema-form.js';
import { failureView } from './timeline.js';

/** @typedef {import('./timeline.js').Call} Call */
/** @typedef {import('./world-overview.js').World} World */
/**
 * @typedef {{ id: string, world: string, owner: string, console: boolean, drivable: boolean, forked_from: string | null, episode_id: string,
 *   step_count: number, created_at: string, fixture: string | null, seed: number, clock: { mode: string, now: string }, call_count: number,
 *   task: { id: string, prompt: string } | null, graded: boolean }} SessionView
 */

/**
 * One entry of the session list.
 * @param {SessionView} s
 * @param {boolean} current
 * @param {() => void} select
 */
export function sessionItem(s, current, select) {
  const what = s.task ? `task ${s.task.id}` : (s.fixture ?? 'blank');
  return h(
    'li',
    {},
    h(
      'button',
      {
        type: 'button',
        class: 'session-item',
        'aria-current': current ? 'true' : undefined,
        'data-session': s.id,
        on: { click: select },
      },
      h(
        'span',
        { class: 'session-line' },
        h('strong', {}, shortId(s.id)),
        ' ',
        h(
          'span',
          { class: `owner owner-${s.console ? 'console' : s.owner}` },
          s.console ? 'console' : s.owner,
        ),
      ),
      h(
        'span',
        { class: 'session-line quiet' },
        `${s.world} · ${what} · ${s.call_count} call${s.call_count === 1 ? '' : 's'}`,
      ),
      s.forked_from
        ? h('span', { class: 'session-line quiet' }, `fork of ${shortId(s.forked_from)}`)
        : null,
    ),
  );
}

/**
 * The head of the current session: its id, its facts, its task, and the buttons that submit, fork and close it.
 * @param {SessionView} s
 * @param {{ submit: () => void, fork: () => void, close: () => void, advance: (ms: number) => void, liveMs: number }} actions
 */
export function sessionHead(s, actions) {
  const facts = [
    ['world', s.world],
    ['fixture', s.fixture ?? 'blank'],
    ['seed', String(s.seed)],
    ['clock', `${s.clock.mode} · ${s.clock.now}`],
    ['calls', String(s.call_count)],
    ['owner', s.console ? 'console' : s.owner],
  ];
  return [
    h(
      'div',
      { class: 'session-title' },
      h('h1', {}, 'Session ', h('code', { title: s.id }, shortId(s.id))),
      s.forked_from ? h('span', { class: 'quiet' }, `fork of ${shortId(s.forked_from)}`) : null,
      h('span', { class: 'spacer' }),
      s.drivable && s.task
        ? h(
            'button',
            { type: 'button', class: 'primary', on: { click: actions.submit } },
            s.graded ? 'Submit again' : 'Submit',
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          on: { click: actions.fork },
          title: 'A new session from this state: same rows, clock, random streams and history',
        },
        'Fork',
      ),
      s.drivable
        ? h('button', { type: 'button', class: 'ghost', on: { click: actions.close } }, 'Close')
        : null,
    ),
    h(
      'dl',
      { class: 'facts' },
      facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
    s.drivable ? clockControl(actions.advance) : null,
    s.task
      ? h(
          'div',
          { class: 'task-prompt' },
          h('span', { class: 'label' }, `task ${s.task.id}`),
          h('p', {}, s.task.prompt),
        )
      : null,
    s.drivable
      ? null
      : h(
          'p',
          { class: 'notice' },
          `This session belongs to a ${s.owner === 'ws' ? 'WebSocket' : 'MCP'} client: the console watches it (refreshing every ${actions.liveMs / 1000} s) but does not drive it. Fork it to experiment from here.`,
        ),
  ];
}

/**
 * The head when no session is open: the world, and how to start.
 * @param {World | null} world
 */
export function noSessionHead(world) {
  return h(
    'div',
    { class: 'empty-head' },
    h('h1', {}, world ? `${world.name} ${world.version}` : 'Seahaven console'),
    h('p', { class: 'quiet' }, world?.description ?? ''),
    h(
      'p',
      {},
      'Open a session with the form on the left (or play a task from the World tab), then call tools and watch what changes.',
    ),
  );
}

/**
 * The selected tool: its name, description and form, and a box for the result. The form's button works only on a
 * session the console drives.
 * @param {World['tools'][number]} tool
 * @param {SessionView | null} session
 * @param {(args: Record<string, unknown>) => void} call
 * @param {(e: unknown) => void} onError
 */
export function toolPanel(tool, session, call, onError) {
  const { form, button } = schemaForm(tool.input_schema, {
    name: tool.name,
    submitLabel: `Call ${tool.name}`,
    onSubmit: call,
    onError,
  });
  if (session?.drivable !== true) {
    button.disabled = true;
    button.title = session ? 'This session is watched, not driven' : 'Open a session first';
  }
  return [
    h('h2', {}, tool.name),
    h('p', { class: 'tool-description' }, tool.description),
    form,
    h('div', { class: 'tool-result', 'aria-live': 'polite' }),
  ];
}

/**
 * The result of the call just made: ok or error, its number, the rows it changed.
 * @param {Call} call
 */
export function toolResult(call) {
  const rows = call.changes.length;
  return [
    h(
      'div',
      { class: 'result-head' },
      h(
        'span',
        { class: `badge ${call.ok ? 'badge-ok' : 'badge-error'}` },
        call.ok ? 'ok' : 'error',
      ),
      call.index === undefined ? ' refused before it reached the tool' : ` call #${call.index}`,
      call.ok ? ` · ${rows} row${rows === 1 ? '' : 's'} changed` : null,
    ),
    call.ok
      ? h('details', { open: rows === 0 }, h('summary', {}, 'result'), jsonBlock(call.result))
      : failureView(/** @type {import('./timeline.js').ToolFailure} */ (call.error)),
    rows > 0 ? changeList(call.changes) : null,
  ];
}

/** @type {Record<string, number>} */
const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/**
 * Let time pass in the episode: an amount and a unit, and a button that advances the clock by it (the world's
 * `onClockAdvance` runs as a call, so subscriptions renew in Stripe World).
 * @param {(ms: number) => void} advance
 */
function clockControl(advance) {
  const amount = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'number',
      min: '1',
      step: '1',
      value: '1',
      'aria-label': 'how much time passes',
      class: 'clock-amount',
    })
  );
  const unit = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { 'aria-label': 'unit' },
      ...Object.keys(UNIT_MS).map((u) => h('option', { value: u, selected: u === 'days' }, u)),
    )
  );
  const go = () => {
    const n = Number(amount.value);
    if (!Number.isInteger(n) || n < 1) return;
    advance(n * UNIT_MS[unit.value]);
  };
  return h(
    'div',
    { class: 'clock-control' },
    h('span', { class: 'label' }, 'clock'),
    amount,
    unit,
    h(
      'button',
      {
        type: 'button',
        class: 'ghost',
        title: 'Let this much time pass in the episode',
        on: { click: go },
      },
      'Advance clock',
    ),
  );
}
