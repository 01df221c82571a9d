// @ts-check
/**
 * The console page: a left column with the world, the reset form, the open sessions and the tools; a main area with
 * the session, the selected tool's form and its result, and tabs (tab-views.js) for the timeline, the tables, the net
 * changes, the grade and the world's fixtures, tasks and curricula. It draws the console's state; what a control does
 * is an action of the entry module (app.js).
 */
import { fill, h } from './dom.js';
import { schemaForm } from './schema-form.js';
import { noSessionHead, sessionHead, sessionItem, toolPanel, toolResult } from './session-views.js';
import { consoleTabs } from './tab-views.js';

/** @typedef {import('./timeline.js').Call} Call */
/** @typedef {import('./world-overview.js').World} World */
/** @typedef {import('./session-views.js').SessionView} SessionView */
/** @typedef {import('./grade.js').Grade} Grade */
/** @typedef {import('./tab-views.js').Tab} Tab */
/**
 * What the console shows: the served worlds, the sessions, the current one with its calls, the picked tool and tab.
 * @typedef {{
 *   worlds: World[], world: World | null, sessions: SessionView[], session: SessionView | null, calls: Call[],
 *   tool: string | null, lastCall: Call | null, grade: Grade | null, tab: Tab,
 *   tables: { element: HTMLElement, refresh: () => Promise<void> } | null
 * }} State
 */
/**
 * What the page's controls do.
 * @typedef {{
 *   report: (e: unknown) => void, refreshAll: () => Promise<void>, switchWorld: (name: string) => void,
 *   openSession: (args: Record<string, unknown>) => Promise<void>, selectSession: (view: SessionView | null) => Promise<void>,
 *   callTool: (tool: string, args: Record<string, unknown>) => Promise<void>, submit: () => Promise<void>,
 *   fork: () => Promise<void>, closeSession: () => Promise<void>, advanceClock: (ms: number) => Promise<void>
 * }} Actions
 */

/** How often a watched session (another client drives it) is looked at again, in milliseconds. */
export const LIVE_MS = 2000;

/**
 * The page's elements and the functions that draw `state` into them; `layout()` puts them in `#app`.
 * @param {State} state
 * @param {Actions} actions
 */
export function consolePage(state, actions) {
  const report = actions.report;
  const tabs = consoleTabs(state, actions, playTask);
  const { renderTabs, renderTab, appendCall } = tabs;

  const ui = {
    worldPicker: h('select', {
      'aria-label': 'world',
      on: { change: () => actions.switchWorld(ui.worldPicker.value) },
    }),
    serverInfo: h('span', { class: 'server-info' }),
    banner: h('div', { class: 'banner', role: 'alert', hidden: true }),
    reset: h('div', { class: 'reset' }),
    sessions: h('ul', { class: 'session-list', 'aria-label': 'sessions' }),
    tools: h('ul', { class: 'tool-list', 'aria-label': 'tools' }),
    sessionHead: h('section', { class: 'session-head', 'aria-label': 'session' }),
    toolPanel: h('section', { class: 'tool-panel', 'aria-label': 'tool' }),
    tabs: tabs.tabs,
    tabBody: tabs.body,
  };

  function layout() {
    const app = /** @type {HTMLElement} */ (document.getElementById('app'));
    fill(
      app,
      h(
        'header',
        { class: 'top' },
        h('span', { class: 'brand' }, 'Seahaven', h('span', { class: 'brand-sub' }, 'console')),
        ui.worldPicker,
        h('span', { class: 'spacer' }),
        ui.serverInfo,
        h(
          'button',
          {
            type: 'button',
            class: 'ghost',
            on: { click: () => actions.refreshAll().catch(report) },
          },
          'Refresh',
        ),
      ),
      h(
        'div',
        { class: 'columns' },
        h(
          'aside',
          { class: 'side' },
          h('section', {}, h('h2', {}, 'New session'), ui.reset),
          h('section', {}, h('h2', {}, 'Sessions'), ui.sessions),
          h('section', {}, h('h2', {}, 'Tools'), ui.tools),
        ),
        h('main', { class: 'main' }, ui.banner, ui.sessionHead, ui.toolPanel, ui.tabs, ui.tabBody),
      ),
    );
  }

  /**
   * Show an error above the main area.
   * @param {string} message
   */
  function showError(message) {
    fill(
      ui.banner,
      h('span', { class: 'banner-text' }, message),
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          'aria-label': 'dismiss',
          on: { click: () => (ui.banner.hidden = true) },
        },
        '×',
      ),
    );
    ui.banner.hidden = false;
  }

  function clearBanner() {
    ui.banner.hidden = true;
  }

  /** @param {string} text */
  function showServerInfo(text) {
    ui.serverInfo.textContent = text;
  }

  /**
   * Open a session on a task, with the seed typed in the new-session form.
   * @param {string} task
   */
  function playTask(task) {
    const seed = /** @type {HTMLInputElement | null} */ (
      ui.reset.querySelector('[data-field="seed"] > input')
    );
    return actions.openSession({
      task,
      seed: seed && seed.value !== '' ? Number(seed.value) : undefined,
    });
  }

  function renderAll() {
    renderWorldPicker();
    renderReset();
    renderSessions();
    renderTools();
    renderSessionHead();
    renderToolPanel();
    renderTabs();
    renderTab().catch(report);
  }

  function renderWorldPicker() {
    fill(
      ui.worldPicker,
      state.worlds.map((w) =>
        h('option', { value: w.name, selected: w === state.world }, `${w.name} ${w.version}`),
      ),
    );
    ui.worldPicker.disabled = state.worlds.length < 2;
  }

  function renderReset() {
    const world = state.world;
    if (!world) return fill(ui.reset);
    // Kept across renders, so a seed typed for the next session survives opening this one.
    if (ui.reset.getAttribute('data-world') === world.name) return;
    ui.reset.setAttribute('data-world', world.name);
    const { form } = schemaForm(world.reset_schema, {
      name: 'reset',
      submitLabel: 'Open session',
      onSubmit: actions.openSession,
      onError: report,
      compact: true,
    });
    fill(ui.reset, form);
  }

  function renderSessions() {
    if (state.sessions.length === 0)
      return fill(ui.sessions, h('li', { class: 'quiet' }, 'None open.'));
    fill(
      ui.sessions,
      state.sessions.map((s) =>
        sessionItem(s, state.session?.id === s.id && state.session.world === s.world, () =>
          actions.selectSession(s).catch(report),
        ),
      ),
    );
  }

  function renderTools() {
    const world = state.world;
    if (!world) return fill(ui.tools);
    fill(
      ui.tools,
      world.tools.map((t) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'tool-item',
              'aria-current': state.tool === t.name ? 'true' : undefined,
              'data-tool': t.name,
              title: t.description,
              on: {
                click: () => {
                  state.tool = t.name;
                  state.lastCall = null;
                  renderTools();
                  renderToolPanel();
                },
              },
            },
            t.name,
          ),
        ),
      ),
    );
  }

  function renderSessionHead() {
    const s = state.session;
    if (!s) return fill(ui.sessionHead, noSessionHead(state.world));
    fill(
      ui.sessionHead,
      ...sessionHead(s, {
        submit: actions.submit,
        fork: actions.fork,
        close: actions.closeSession,
        advance: actions.advanceClock,
        liveMs: LIVE_MS,
      }),
    );
  }

  function renderToolPanel() {
    const world = state.world;
    const tool = world?.tools.find((t) => t.name === state.tool);
    if (!tool) {
      return fill(
        ui.toolPanel,
        h(
          'p',
          { class: 'quiet' },
          world && world.tools.length > 0 ? 'Pick a tool on the left to see its form.' : '',
        ),
      );
    }
    fill(
      ui.toolPanel,
      ...toolPanel(tool, state.session, (args) => actions.callTool(tool.name, args), report),
    );
    renderToolResult();
  }

  function renderToolResult() {
    const box = ui.toolPanel.querySelector('.tool-result');
    const call = state.lastCall;
    if (box) fill(box, ...(call && call.tool === state.tool ? toolResult(call) : []));
  }

  return {
    layout,
    showError,
    clearBanner,
    showServerInfo,
    renderAll,
    renderSessions,
    renderSessionHead,
    renderToolResult,
    renderTabs,
    renderTab,
    appendCall,
  };
}
