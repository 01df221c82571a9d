// @ts-check
/**
 * The console's entry: its state, and the actions on worlds and sessions that the page's controls run. The page
 * (page.js) draws the state; each action asks the server, updates the state and redraws what changed.
 */
import { api, ApiError, sessionPath } from './api.js';
import { shortId } from './dom.js';
import { consolePage, LIVE_MS } from './page.js';
import { askToken } from './token-dialog.js';

/** @typedef {import('./world-overview.js').World} World */
/** @typedef {import('./session-views.js').SessionView} SessionView */
/** @typedef {import('./page.js').State} State */

/** @type {State} */
const state = {
  worlds: [],
  world: null,
  sessions: [],
  session: null,
  calls: [],
  tool: null,
  lastCall: null,
  grade: null,
  tab: 'world',
  tables: null,
};

const page = consolePage(state, {
  report,
  refreshAll,
  switchWorld,
  openSession,
  selectSession,
  callTool,
  submit,
  fork,
  closeSession,
  advanceClock,
});
const {
  clearBanner,
  renderAll,
  renderSessions,
  renderSessionHead,
  renderToolResult,
  renderTabs,
  renderTab,
  appendCall,
} = page;

/**
 * Show an error above the main area (or ask for the token when the server wants one).
 * @param {unknown} e
 */
function report(e) {
  if (e instanceof ApiError && e.status === 401) return askToken(e.message, boot);
  page.showError(e instanceof Error ? e.message : String(e));
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
  page.showServerInfo(`${state.sessions.length} of ${data.max_sessions} sessions open`);
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

page.layout();
watch();
boot();
