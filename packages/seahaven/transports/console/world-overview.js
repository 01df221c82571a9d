// @ts-check
/** A served world as the console lists it, and the World tab: fixtures, tasks (each playable), curricula, tables. */
import { h } from './dom.js';

/** @typedef {{ name: string, description: string, input_schema: import('./schema-form.js').Schema }} Tool */
/** @typedef {{ id: string, description: string, difficulty: number | null, now: string | null }} Fixture */
/** @typedef {{ id: string, fixture: string, prompt: string, difficulty: number | null, tags: string[] }} Task */
/** @typedef {{ name: string, description: string, stages: { name: string, tasks: string[] }[] | null, measured_stages: number | null, promote: { successRate: number, window: number }, review: number }} Curriculum */
/**
 * @typedef {{ name: string, version: string, description: string, default_fixture: string | null, fixtures: Fixture[], tasks: Task[],
 *   curricula: Curriculum[], tables: import('./tables.js').TableInfo[], tools: Tool[], reset_schema: import('./schema-form.js').Schema }} World
 */

/**
 * The World tab.
 * @param {World} w
 * @param {(task: string) => void} play opens a session on a task
 */
export function worldOverview(w, play) {
  return h(
    'div',
    { class: 'overview' },
    h('h2', {}, 'Fixtures'),
    h(
      'table',
      { class: 'plain' },
      h(
        'tbody',
        {},
        w.fixtures.map((f) =>
          h(
            'tr',
            {},
            h(
              'td',
              {},
              h('code', {}, f.id),
              f.id === w.default_fixture ? h('span', { class: 'tag' }, 'default') : null,
            ),
            h('td', {}, f.description),
            h(
              'td',
              { class: 'quiet nowrap' },
              f.difficulty === null ? '' : `difficulty ${f.difficulty}`,
            ),
          ),
        ),
      ),
    ),
    h('h2', {}, `Tasks (${w.tasks.length})`),
    w.tasks.length === 0
      ? h('p', { class: 'quiet' }, 'This world declares no tasks.')
      : h(
          'table',
          { class: 'plain tasks' },
          h(
            'tbody',
            {},
            w.tasks.map((t) =>
              h(
                'tr',
                { 'data-task': t.id },
                h(
                  'td',
                  {},
                  h('code', {}, t.id),
                  h(
                    'div',
                    { class: 'quiet' },
                    `${t.fixture}${t.difficulty === null ? '' : ` · difficulty ${t.difficulty}`}`,
                  ),
                ),
                h('td', {}, t.prompt),
                h(
                  'td',
                  {},
                  h(
                    'button',
                    {
                      type: 'button',
                      title: `Open a session on task ${t.id}`,
                      on: { click: () => play(t.id) },
                    },
                    'Play',
                  ),
                ),
              ),
            ),
          ),
        ),
    h('h2', {}, `Curricula (${w.curricula.length})`),
    w.curricula.length === 0
      ? h('p', { class: 'quiet' }, 'This world declares no curricula.')
      : w.curricula.map((c) =>
          h(
            'div',
            { class: 'curriculum' },
            h('h3', {}, c.name),
            c.description ? h('p', { class: 'quiet' }, c.description) : null,
            c.stages
              ? h(
                  'ol',
                  {},
                  c.stages.map((st) =>
                    h('li', {}, h('strong', {}, st.name), ': ', st.tasks.join(', ')),
                  ),
                )
              : h(
                  'p',
                  {},
                  `${c.measured_stages} stages, measured from the gold solutions when a run starts.`,
                ),
            h(
              'p',
              { class: 'quiet' },
              `promote at ${Math.round(c.promote.successRate * 100)}% over ${c.promote.window} episodes · review ${Math.round(c.review * 100)}%`,
            ),
          ),
        ),
    h('h2', {}, 'Tables'),
    h(
      'table',
      { class: 'plain' },
      h(
        'tbody',
        {},
        w.tables.map((t) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, t.name)),
            h('td', { class: 'quiet' }, t.columns.join(', ')),
          ),
        ),
      ),
    ),
  );
}
