// @ts-check
/**
 * Changed rows as before/after diffs: an insert shows its new row, a delete the row it removed, an update the key and
 * each changed field with its old and new value, highlighted.
 */
import { h, valueText } from './dom.js';

/** @typedef {{ table: string, op: 'insert' | 'update' | 'delete', key: Record<string, unknown>, before?: Record<string, unknown>, after?: Record<string, unknown> }} Change */

/**
 * `id=con_1, …` for a change's key.
 * @param {Record<string, unknown>} key
 */
export function keyText(key) {
  return Object.entries(key)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/**
 * One changed row as a small table: field and value for an insert or a delete, field, before and after for an update
 * (the key fields plain, the changed ones highlighted).
 * @param {Change} change
 */
export function changeCard(change) {
  const update = change.op === 'update';
  const before = change.before ?? {};
  const after = change.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const rows = fields.map((f) => {
    const isKey = f in change.key;
    if (!update) {
      const value = change.op === 'insert' ? after[f] : before[f];
      return h(
        'tr',
        { class: change.op === 'insert' ? 'added' : 'removed', 'data-column': f },
        h('th', { scope: 'row' }, f),
        h('td', { class: change.op === 'insert' ? 'after' : 'before' }, valueText(value)),
      );
    }
    return h(
      'tr',
      { class: isKey ? 'same' : 'changed', 'data-column': f },
      h('th', { scope: 'row' }, f),
      h('td', { class: 'before' }, isKey ? valueText(change.key[f]) : valueText(before[f])),
      h('td', { class: 'after' }, isKey ? null : valueText(after[f])),
    );
  });
  const head = update
    ? [h('th', {}, 'field'), h('th', {}, 'before'), h('th', {}, 'after')]
    : [h('th', {}, 'field'), h('th', {}, change.op === 'insert' ? 'new row' : 'removed row')];
  return h(
    'div',
    { class: `change change-${change.op}`, 'data-table': change.table, 'data-op': change.op },
    h(
      'div',
      { class: 'change-head' },
      h('span', { class: `op op-${change.op}` }, change.op),
      h('span', { class: 'change-table' }, change.table),
      h('span', { class: 'change-key' }, keyText(change.key)),
    ),
    h(
      'table',
      { class: `diff diff-${change.op}` },
      h('thead', {}, h('tr', {}, head)),
      h('tbody', {}, rows),
    ),
  );
}

/**
 * Every change of a list, or a quiet note when there is none.
 * @param {Change[]} changes
 * @param {string} [empty]
 */
export function changeList(changes, empty = 'No rows changed.') {
  if (changes.length === 0) return h('p', { class: 'quiet' }, empty);
  return h('div', { class: 'changes' }, changes.map(changeCard));
}
