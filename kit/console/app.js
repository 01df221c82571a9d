// @ts-check
/**
 * The console page: a left column with the world, the reset form, the open sessions and the tools; a main area with
 * the session, the selected tool's form and its result, and tabs for the timeline, the tables, the net changes, the
 * grade and the world's fixtures, tasks and curricula.
 */
import { api, ApiError, sessionPath } from './api.js';
import { changeList } from './diff.js';
import { fill, h, shortId } from './dom.js';
import { schemaForm } from './schema-form.js';
import { noSessionHead, sessionHead, sessionItem, toolPanel, toolResult } from './session-views.js';
import { tableBrowser } from './tables.js';
import { callEntry, timelineView } from './timeline.js';
import { gradeView } from './grade.js';
import { askToken } from './token-dialog.js';
import { worldOverview } from './world-overview.js';

/** @typedef {import('./timeline.js').Call} Call */
/** @typedef {import('./world-overview.js').World} World */
/** @typedef {import('./session-views.js').SessionView} SessionView */
/** @typedef {import('./grade.js').Grade} Grade */
/** @typedef {'timeline' | 'tables' | 'changes' | 'grade' | 'world'} Tab */

const TABS = /** @type {Tab[]} */ (['timeline', 'tables', 'changes', 'grade', 'world']);
const LIVE_MS = 2000;

const state = {
  /** @type {World[]} */ worlds: [],
  /** @type {World | null} */ world: null,
  /** @type {SessionView[]} */ sessions: [],
  /** @type {SessionView | null} */ session: null,
  /** @type {Call[]} */ calls: [],
  /** @type {string | null} */ tool: null,
  /** @type {Call | null} */ lastCall: null,
  /** @type {Grade | null} */ grade: null,
  /** @type {Tab} */ tab: 'world',
  /** @type {{ element: HTMLElement, refresh: () => Promise<void> } | null} */ tables: null,
};

const ui = {
  worldPicker: h('select', {
    'aria-label': 'world',
    on: { change: () => switchWorld(ui.worldPicker.value) },
  }),
  serverInfo: h('span', { class: 'server-info' }),
  banner: h('div', { class: 'banner', role: 'alert', hidden: true }),
  reset: h('div', { class: 'reset' }),
  sessions: h('ul', { class: 'session-list', 'aria-label': 'sessions' }),
  tools: h('ul', { class: 'tool-list', 'aria-label': 'tools' }),
  sessionHead: h('section', { class: 'session-head', 'aria-label': 'session' }),
  toolPanel: h('section', { class: 'tool-panel', 'aria-label': 'tool' }),
  tabs: h('nav', { class: 'tabs', role: 'tablist' }),
  tabBody: h('section', { class: 'tab-body', role: 'tabpanel' }),
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
        { type: 'button', class: 'ghost', on: { click: () => refreshAll().catch(report) } },
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
 * Show an error above the main area (or ask for the token when the server wants one).
 * @param {unknown} e
 */
function report(e) {
  if (e instanceof ApiError && e.status === 401) return askToken(e.message, boot);
  const message = e instanceof Error ? e.message : String(e);
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

// ---- worlds and sessions ----

/** @param {string} name */
function switchWorld(name) {
  const world = state.worlds.find((w) => w.name === name);
  if (!world || world === state.world) return;
  state.world = world;
  state.tool = null;
  if (state.session && state.session.world !== name) selectSession(null);
  renderAll();
}

async function loadSessions() {
  const data = await api('sessions');
  state.sessions = data.sessions;
  ui.serverInfo.textContent = `${state.sessions.length} of ${data.max_sessions} sessions open`;
  if (
    state.session &&
    !state.sessions.some((s) => s.id === state.session?.id && s.world === state.session.world)
  ) {
    report(`Session ${shortId(state.session.id)} has ended (closed, or reaped after being idle).`);
    selectSession(null);
  }
  renderSessions();
}

/**
 * Make a session the current one (null: none) and load its timeline.
 * @param {SessionView | null} view
 */
async function selectSession(view) {
  state.session = view;
  state.calls = [];
  state.lastCall = null;
  state.grade = null;
  state.tables = null;
  if (view === null) {
    history.replaceState(null, '', location.pathname + location.search);
    if (state.tab !== 'world') state.tab = 'world';
    renderAll();
    return;
  }
  if (state.world?.name !== view.world) {
    state.world = state.worlds.find((w) => w.name === view.world) ?? state.world;
    state.tool = null;
  }
  history.replaceState(
    null,
    '',
    `${location.pathname}${location.search}#${encodeURIComponent(view.world)}/${encodeURIComponent(view.id)}`,
  );
  if (state.tab === 'world') state.tab = 'timeline';
  await loadTimeline();
  renderAll();
}

async function loadTimeline() {
  if (!state.session) return;
  const path = sessionPath(state.session);
  const [{ session }, { calls }] = await Promise.all([api(path), api(`${path}/timeline`)]);
  setSession(session);
  state.calls = calls;
}

/**
 * Take a fresh view of the current session, in the list too.
 * @param {SessionView} view
 */
function setSession(view) {
  state.session = view;
  state.sessions = state.sessions.map((s) =>
    s.id === view.id && s.world === view.world ? view : s,
  );
}

/** @param {Record<string, unknown>} args */
async function openSession(args) {
  clearBanner();
  try {
    const { session } = await api('sessions', { body: { world: state.world?.name, ...args } });
    await loadSessions();
    await selectSession(session);
  } catch (e) {
    report(e);
  }
}

/**
 * Open a session on a task, with the seed typed in the new-session form.
 * @param {string} task
 */
function playTask(task) {
  const seed = /** @type {HTMLInputElement | null} */ (
    ui.reset.querySelector('[data-field="seed"] > input')
  );
  return openSession({ task, seed: seed && seed.value !== '' ? Number(seed.value) : undefined });
}

async function refreshAll() {
  clearBanner();
  await loadSessions();
  if (state.session) {
    await loadTimeline();
    renderAll();
  }
}

// ---- actions on the current session ----

/**
 * @param {string} tool
 * @param {Record<string, unknown>} args
 */
async function callTool(tool, args) {
  const s = state.session;
  if (!s) return report('Open a session first: use the New session form on the left.');
  clearBanner();
  try {
    const { call, session } = await api(`${sessionPath(s)}/calls`, {
      body: { tool_name: tool, arguments: args },
    });
    setSession(session);
    state.calls.push(call);
    state.lastCall = call;
    renderToolResult();
    renderSessionHead();
    renderSessions();
    if (state.tab === 'timeline') appendCall(call);
    else await renderTab();
  } catch (e) {
    report(e);
  }
}

async function submit() {
  const s = state.session;
  if (!s) return;
  clearBanner();
  try {
    const { grade, session } = await api(`${sessionPath(s)}/submit`, { method: 'POST', body: {} });
    state.grade = grade;
    setSession(session);
    state.tab = 'grade';
    renderSessionHead();
    renderTabs();
    await renderTab();
  } catch (e) {
    report(e);
  }
}

/** @param {number} ms */
async function advanceClock(ms) {
  const s = state.session;
  if (!s) return;
  clearBanner();
  try {
    const { call, session } = await api(`${sessionPath(s)}/advance`, {
      method: 'POST',
      body: { ms },
    });
    setSession(session);
    renderSessionHead();
    renderSessions();
    if (state.tab === 'timeline') appendCall(call);
    else await renderTab();
  } catch (e) {
    report(e);
  }
}

async function fork() {
  const s = state.session;
  if (!s) return;
  clearBanner();
  try {
    const { session } = await api(`${sessionPath(s)}/fork`, { method: 'POST', body: {} });
    await loadSessions();
    await selectSession(session);
  } catch (e) {
    report(e);
  }
}

async function closeSession() {
  const s = state.session;
  if (!s) return;
  try {
    await api(sessionPath(s), { method: 'DELETE' });
    await selectSession(null);
    await loadSessions();
  } catch (e) {
    report(e);
  }
}

// ---- rendering ----

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
    onSubmit: openSession,
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
        selectSession(s).catch(report),
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
      submit,
      fork,
      close: closeSession,
      advance: advanceClock,
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
    ...toolPanel(tool, state.session, (args) => callTool(tool.name, args), report),
  );
  renderToolResult();
}

function renderToolResult() {
  const box = ui.toolPanel.querySelector('.tool-result');
  const call = state.lastCall;
  if (box) fill(box, ...(call && call.tool === state.tool ? toolResult(call) : []));
}

function renderTabs() {
  fill(
    ui.tabs,
    TABS.map((t) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          class: 'tab',
          'data-tab': t,
          'aria-selected': state.tab === t ? 'true' : 'false',
          on: {
            click: () => {
              state.tab = t;
              renderTabs();
              renderTab().catch(report);
            },
          },
        },
        t === 'timeline' && state.session
          ? `Timeline (${state.calls.length})`
          : t[0].toUpperCase() + t.slice(1),
      ),
    ),
  );
}

async function renderTab() {
  const s = state.session;
  const body = ui.tabBody;
  body.setAttribute('data-tab', state.tab);
  if (state.tab === 'world')
    return fill(
      body,
      state.world ? worldOverview(state.world, playTask) : h('p', { class: 'quiet' }, 'No world.'),
    );
  if (!s) return fill(body, h('p', { class: 'quiet' }, 'Open a session to see this.'));
  if (state.tab === 'timeline') return fill(body, timelineView(state.calls));
  if (state.tab === 'tables') {
    const browser = (state.tables ??= tableBrowser(state.world?.tables ?? [], s, report));
    fill(body, browser.element);
    return browser.refresh();
  }
  if (state.tab === 'changes') {
    const { changes } = await api(`${sessionPath(s)}/changes`);
    if (state.tab === 'changes' && state.session === s)
      fill(
        body,
        h('p', { class: 'quiet' }, 'Net changes since the reset, one entry per row.'),
        changeList(changes, 'Nothing has changed since the reset.'),
      );
    return;
  }
  fill(body, gradeView(state.grade, s.task, s.drivable ? submit : null));
}

/** @param {Call} call */
function appendCall(call) {
  let list = ui.tabBody.querySelector('ol.timeline');
  if (!list) {
    list = h('ol', { class: 'timeline', reversed: true });
    fill(ui.tabBody, list);
  }
  list.prepend(callEntry(call, state.calls.length));
  renderTabs();
}

// ---- start ----

/** Watched sessions (another client drives them) are refreshed while the page is visible. */
function watch() {
  setInterval(() => {
    const s = state.session;
    if (!s || s.drivable || document.hidden) return;
    api(sessionPath(s)).then(
      async ({ session }) => {
        if (state.session?.id !== s.id || session.call_count === s.call_count) return;
        await loadTimeline();
        renderSessionHead();
        renderTabs();
        await renderTab();
      },
      () => loadSessions().catch(report),
    );
  }, LIVE_MS);
}

async function boot() {
  clearBanner();
  try {
    const { worlds } = await api('worlds');
    state.worlds = worlds;
    const wanted = new URLSearchParams(location.search).get('world');
    state.world = worlds.find((/** @type {World} */ w) => w.name === wanted) ?? worlds[0] ?? null;
    if (wanted !== null && state.world?.name !== wanted)
      report(`No world "${wanted}" is served here; showing ${state.world?.name}.`);
    await loadSessions();
    const [world, id] = location.hash.slice(1).split('/').map(decodeURIComponent);
    const fromHash = state.sessions.find((s) => s.world === world && s.id === id);
    if (fromHash) await selectSession(fromHash);
    else renderAll();
    document.body.setAttribute('data-ready', 'true');
  } catch (e) {
    report(e);
  }
}

layout();
watch();
boot();
