// @ts-check
/**
 * The grade of a submitted task: the reward, passed or not, and each criterion with its id (what trainers log it
 * under), name, score, weight and reason.
 */
import { h } from './dom.js';

/** @typedef {{ reward: number, passed: boolean, criteria: { id: string, name: string, score: number, weight: number, reason: string }[] }} Grade */

/**
 * The Grade tab: the grade, or what to do to get one.
 * @param {Grade | null} grade
 * @param {{ id: string } | null} task
 * @param {(() => void) | null} submit null when the session is watched, not driven
 */
export function gradeView(grade, task, submit) {
  if (!task)
    return h(
      'p',
      { class: 'quiet' },
      'This session plays no task, so there is nothing to grade. Open a session with a task to submit it.',
    );
  if (!grade)
    return h(
      'div',
      {},
      h('p', {}, `Submit grades the episode with task ${task.id}.`),
      submit
        ? h('button', { type: 'button', class: 'primary', on: { click: submit } }, 'Submit')
        : null,
    );
  return h(
    'div',
    { class: 'grade' },
    h(
      'div',
      { class: 'grade-head' },
      h('span', { class: 'reward' }, grade.reward.toFixed(2)),
      h(
        'span',
        { class: `badge ${grade.passed ? 'badge-ok' : 'badge-error'}` },
        grade.passed ? 'passed' : 'not passed',
      ),
      h('span', { class: 'quiet' }, `task ${task.id}`),
    ),
    h(
      'table',
      { class: 'criteria' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'criterion'),
          h('th', {}, 'score'),
          h('th', {}, 'weight'),
          h('th', {}, 'reason'),
        ),
      ),
      h(
        'tbody',
        {},
        grade.criteria.map((c) =>
          h(
            'tr',
            { class: c.score >= 1 ? 'met' : c.score > 0 ? 'partial' : 'unmet' },
            h('td', { class: 'criterion-name', title: c.id }, c.name),
            h('td', { class: 'score' }, String(Math.round(c.score * 100) / 100)),
            h('td', {}, String(c.weight)),
            h('td', { class: 'reason' }, c.reason),
          ),
        ),
      ),
    ),
  );
}
