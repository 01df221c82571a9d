// @ts-check
/**
 * Building the page from data without ever parsing data as HTML: elements are created one by one and every value is
 * set as text or as an attribute, so a row value like `<script>` shows as those characters.
 */

/** @typedef {string | number | Node | null | undefined | false} Child */
/** @typedef {Record<string, unknown> & { class?: string, on?: Record<string, (event: any) => void> }} Props */

/**
 * An element with attributes, event listeners and children; strings become text nodes, never markup.
 * `value`, `checked`, `selected` and `disabled` are set as properties; `false`, `null` and `undefined` attributes are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 * @example h('td', { class: 'cell', title: value }, value)
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = String(value);
    else if (key === 'on') {
      for (const [event, listener] of Object.entries(
        /** @type {Record<string, (event: any) => void>} */ (value),
      ))
        el.addEventListener(event, listener);
    } else if (key === 'value' || key === 'checked' || key === 'selected' || key === 'disabled') {
      /** @type {any} */ (el)[key] = value;
    } else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * Append children (nested arrays flattened; strings and numbers as text nodes).
 * @param {Node} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number'
        ? document.createTextNode(String(child))
        : child,
    );
  }
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A JSON value, pretty-printed, as text.
 * @param {unknown} value
 * @param {string} [cls]
 */
export function jsonBlock(value, cls = 'json') {
  return h('pre', { class: cls }, JSON.stringify(value, null, 2) ?? 'undefined');
}

/**
 * One value of a row or a change, as the cell shows it: NULL marked, objects as compact JSON.
 * @param {unknown} value
 */
export function valueText(value) {
  if (value === null) return h('span', { class: 'null' }, 'NULL');
  if (value === undefined) return h('span', { class: 'absent' }, '—');
  if (typeof value === 'string') return document.createTextNode(value);
  return document.createTextNode(JSON.stringify(value));
}

/**
 * A short id for display: the first eight characters of a UUID.
 * @param {string} id
 */
export function shortId(id) {
  return /^[0-9a-f]{8}-/.test(id) ? id.slice(0, 8) : id;
}
