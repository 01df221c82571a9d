// @ts-check
/**
 * The table browser: one table of the session's current state at a time, a page of rows sorted by any column, rows
 * this episode inserted or updated marked.
 */
import { api, sessionPath } from './api.js';
import { fill, h, valueText } from './dom.js';

/** @typedef {{ name: string, columns: string[], pk: string[] }} TableInfo */
/** @typedef {{ table: string, columns: string[], pk: string[], total: number, offset: number, limit: number, sort: string | null, dir: 'asc' | 'desc', rows: unknown[][], changed: (string | null)[] }} RowsPage */

/** @type {Record<string, string>} */
const PAST = { insert: 'inserted', update: 'updated', delete: 'deleted' };

/**
 * A browser over a world's tables for one session.
 * @param {TableInfo[]} tables
 * @param {{ world: string, id: string }} session
 * @param {(e: unknown) => void} onError
 */
export function tableBrowser(tables, session, onError) {
  const state = {
    table: tables[0]?.name ?? '',
    offset: 0,
    limit: 25,
    sort: /** @type {string | null} */ (null),
    dir: /** @type {'asc' | 'desc'} */ ('asc'),
  };
  const picker = h(
    'select',
    {
      'aria-label': 'table',
      on: {
        change: () => {
          state.table = picker.value;
          state.offset = 0;
          state.sort = null;
          state.dir = 'asc';
          load();
        },
      },
    },
    tables.map((t) => h('option', { value: t.name }, t.name)),
  );
  const sizes = h(
    'select',
    {
      'aria-label': 'rows per page',
      on: {
        change: () => {
          state.limit = Number(sizes.value);
          state.offset = 0;
          load();
        },
      },
    },
    [25, 50, 100].map((n) =>
      h('option', { value: String(n), selected: n === state.limit }, `${n} rows`),
    ),
  );
  const prev = h(
    'button',
    {
      type: 'button',
      on: {
        click: () => {
          state.offset = Math.max(0, state.offset - state.limit);
          load();
        },
      },
    },
    '‹ Prev',
  );
  const next = h(
    'button',
    {
      type: 'button',
      on: {
        click: () => {
          state.offset += state.limit;
          load();
        },
      },
    },
    'Next ›',
  );
  const position = h('span', { class: 'page-position' });
  const grid = h('div', { class: 'grid-wrap' });
  const element = h(
    'div',
    { class: 'table-browser' },
    h(
      'div',
      { class: 'toolbar' },
      picker,
      sizes,
      h('span', { class: 'spacer' }),
      position,
      prev,
      next,
    ),
    grid,
  );

  /** @param {string} column */
  function sortBy(column) {
    if (state.sort === column) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
    else {
      state.sort = column;
      state.dir = 'asc';
    }
    state.offset = 0;
    load();
  }

  /** @param {RowsPage} page */
  function render(page) {
    const last = Math.min(page.offset + page.rows.length, page.total);
    position.textContent =
      page.total === 0 ? 'no rows' : `rows ${page.offset + 1}–${last} of ${page.total}`;
    prev.disabled = page.offset === 0;
    next.disabled = last >= page.total;
    const head = page.columns.map((c) => {
      const arrow = page.sort === c ? (page.dir === 'asc' ? ' ▲' : ' ▼') : '';
      return h(
        'th',
        {
          'aria-sort':
            page.sort === c ? (page.dir === 'asc' ? 'ascending' : 'descending') : undefined,
        },
        h(
          'button',
          {
            type: 'button',
            class: page.pk.includes(c) ? 'sort pk' : 'sort',
            'data-column': c,
            title: `Sort by ${c}${page.pk.includes(c) ? ' (primary key)' : ''}`,
            on: { click: () => sortBy(c) },
          },
          c,
          arrow,
        ),
      );
    });
    const body = page.rows.map((row, i) =>
      h(
        'tr',
        {
          class: page.changed[i] ? `row-${page.changed[i]}` : undefined,
          title: page.changed[i] ? `${PAST[page.changed[i] ?? '']} in this episode` : undefined,
        },
        row.map((v) =>
          h('td', { title: typeof v === 'string' && v.length > 40 ? v : undefined }, valueText(v)),
        ),
      ),
    );
    fill(
      grid,
      h(
        'table',
        { class: 'rows', 'data-table': page.table },
        h('thead', {}, h('tr', {}, head)),
        h(
          'tbody',
          {},
          body.length > 0
            ? body
            : h(
                'tr',
                {},
                h('td', { colspan: page.columns.length, class: 'quiet' }, 'This table is empty.'),
              ),
        ),
      ),
    );
  }

  let seq = 0;
  async function load() {
    if (!state.table) {
      fill(grid, h('p', { class: 'quiet' }, 'This world has no tables.'));
      return;
    }
    const mine = ++seq;
    const params = new URLSearchParams({
      offset: String(state.offset),
      limit: String(state.limit),
      dir: state.dir,
    });
    if (state.sort !== null) params.set('sort', state.sort);
    element.setAttribute('aria-busy', 'true');
    try {
      const page = await api(
        `${sessionPath(session)}/tables/${encodeURIComponent(state.table)}?${params}`,
      );
      // A slow answer to an earlier click must not overwrite a newer page.
      if (mine === seq) render(page);
    } catch (e) {
      onError(e);
    } finally {
      if (mine === seq) element.removeAttribute('aria-busy');
    }
  }

  return { element, refresh: load };
}
