// @ts-check
/**
 * The tabs under the session: the timeline of calls, the tables, the net changes, the grade and the world's fixtures,
 * tasks and curricula, one shown at a time.
 */
import { api, sessionPath } from './api.js';
import { changeList } from './diff.js';
import { fill, h } from './dom.js';
import { tableBrowser } from './tables.js';
import { callEntry, timelineView } from './timeline.js';
import { gradeView } from './grade.js';
import { worldOverview } from './world-overview.js';

/** @typedef {import('./timeline.js').Call} Call */
/** @typedef {'timeline' | 'tables' | 'changes' | 'grade' | 'world'} Tab */

const TABS = /** @type {Tab[]} */ (['timeline', 'tables', 'changes', 'grade', 'world']);

/**
 * The tab bar and the tab's body, with the functions that draw the current tab of `state` into them.
 * @param {{
 *   tab: Tab, world: import('./world-overview.js').World | null, session: import('./session-views.js').SessionView | null,
 *   calls: Call[], grade: import('./grade.js').Grade | null, tables: { element: HTMLElement, refresh: () => Promise<void> } | null
 * }} state the console's state, of which the tabs show a part
 * @param {{ report: (e: unknown) => void, submit: () => Promise<void> }} actions
 * @param {(task: string) => void} playTask opens a session on a task of the World tab
 */
export function consoleTabs(state, actions, playTask) {
  const report = actions.report;
  const ui = {
    tabs: h('nav', { class: 'tabs', role: 'tablist' }),
    body: h('section', { class: 'tab-body', role: 'tabpanel' }),
  };

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
    const body = ui.body;
    body.setAttribute('data-tab', state.tab);
    if (state.tab === 'world')
      return fill(
        body,
        state.world
          ? worldOverview(state.world, playTask)
          : h('p', { class: 'quiet' }, 'No world.'),
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
    fill(body, gradeView(state.grade, s.task, s.drivable ? actions.submit : null));
  }

  /** @param {Call} call */
  function appendCall(call) {
    let list = ui.body.querySelector('ol.timeline');
    if (!list) {
      list = h('ol', { class: 'timeline', reversed: true });
      fill(ui.body, list);
    }
    list.prepend(callEntry(call, state.calls.length));
    renderTabs();
  }

  return { tabs: ui.tabs, body: ui.body, renderTabs, renderTab, appendCall };
}
