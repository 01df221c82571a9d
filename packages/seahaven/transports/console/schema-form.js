// @ts-check
/**
 * Forms generated from JSON Schemas (the tools' `inputSchema`, the reset schema): strings, numbers, integers, enums,
 * booleans, nested objects and arrays, nullable values, required marks, defaults and descriptions. Anything the
 * generator has no control for (unions, maps, tuples) gets a JSON text box. Empty optional fields are left out of
 * the arguments, so the tool's own defaults apply; the server checks everything and reports every problem at once.
 */
import { h } from './dom.js';
import { kindOf, resolve, splitNullable, typeLabel } from './schema-kinds.js';
import { FormError, jsonEditor, UNSET, valueEditor } from './value-editors.js';

/** @typedef {import('./schema-kinds.js').Schema} Schema */
/** @typedef {import('./value-editors.js').Editor} Editor */
/** @typedef {import('./value-editors.js').Where} Where */

let nextId = 0;
const MAX_DEPTH = 8;

/**
 * The editor for one schema (without label): reads back `{set: false}` when left empty.
 * @param {Schema} schema
 * @param {Where} where
 * @param {string} id
 * @returns {Editor}
 */
function editorFor(schema, where, id) {
  const s = resolve(schema, where.root);
  const kind = where.depth > MAX_DEPTH ? 'json' : kindOf(s);
  if (kind === 'object') return objectEditor(s, where, id);
  if (kind === 'array') return arrayEditor(s, where, id);
  return valueEditor(s, kind, where, id);
}

/**
 * A labelled field: name, required mark, type, description, the editor, and a null switch for nullable values.
 * @param {string} name
 * @param {Schema} schema
 * @param {Where} where
 * @returns {Editor}
 */
function field(name, schema, where) {
  const { schema: s, nullable } = splitNullable(resolve(schema, where.root));
  const id = `sf${++nextId}`;
  const editor = editorFor(s, where, id);
  const control = /** @type {HTMLInputElement} */ (editor.element);
  let nullBox = /** @type {HTMLInputElement | null} */ (null);
  if (nullable) {
    nullBox = h('input', {
      type: 'checkbox',
      'aria-label': `${name} is null`,
      checked: s.default === null && 'default' in s,
    });
    const box = nullBox;
    const sync = () => {
      if ('disabled' in control) control.disabled = box.checked;
    };
    box.addEventListener('change', sync);
    sync();
  }
  const nested =
    editor.element.tagName === 'FIELDSET' || editor.element.classList.contains('array-editor');
  const head = h(
    'div',
    { class: 'field-head', title: where.compact ? s.description : undefined },
    nested
      ? h('span', { class: 'field-name' }, name)
      : h('label', { for: id, class: 'field-name' }, name),
    where.required ? h('span', { class: 'req', title: 'required' }, '*') : null,
    h('span', { class: 'field-type' }, typeLabel(s, nullable)),
    'default' in s && s.default !== undefined
      ? h('span', { class: 'field-default' }, `default ${JSON.stringify(s.default)}`)
      : null,
    nullBox ? h('label', { class: 'null-switch' }, nullBox, 'null') : null,
  );
  const element = h(
    'div',
    { class: `field field-${kindOf(s)}`, 'data-field': where.path.join('.') },
    head,
    s.description && !where.compact ? h('div', { class: 'help' }, s.description) : null,
    editor.element,
  );
  return {
    element,
    read: () => (nullBox?.checked ? { set: true, value: null } : editor.read()),
    focus: editor.focus,
  };
}

/**
 * A fieldset of properties; an optional object with nothing filled in is left out.
 * @param {Schema} s
 * @param {Where} where
 * @param {string} id
 * @returns {Editor}
 */
function objectEditor(s, where, id) {
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([name, prop]) => ({
    name,
    editor: field(name, prop, {
      ...where,
      path: [...where.path, name],
      required: required.has(name),
      depth: where.depth + 1,
    }),
  }));
  const element = h(
    'fieldset',
    { id, class: 'object-editor' },
    fields.map((f) => f.editor.element),
  );
  if (fields.length === 0) element.append(h('div', { class: 'help' }, 'No fields.'));
  return {
    element,
    read() {
      /** @type {Record<string, unknown>} */
      const out = {};
      let any = false;
      for (const f of fields) {
        const r = f.editor.read();
        if (r.set) {
          out[f.name] = r.value;
          any = true;
        }
      }
      return any || where.required || where.depth === 0 ? { set: true, value: out } : UNSET;
    },
    focus: () => fields[0]?.editor.focus?.(),
  };
}

/**
 * A list of item editors with add and remove buttons.
 * @param {Schema} s
 * @param {Where} where
 * @param {string} id
 * @returns {Editor}
 */
function arrayEditor(s, where, id) {
  const itemSchema = /** @type {Schema} */ (s.items);
  /** @type {{ editor: Editor, row: HTMLElement }[]} */
  const items = [];
  const list = h('ol', { class: 'array-items' });
  const renumber = () =>
    items.forEach((it, i) => {
      const index = /** @type {HTMLElement} */ (it.row.querySelector('.item-index'));
      index.textContent = `[${i}]`;
    });
  const add = () => {
    const path = [...where.path, String(items.length)];
    const editor = field(`[${items.length}]`, itemSchema, {
      ...where,
      path,
      required: true,
      depth: where.depth + 1,
    });
    const row = h(
      'li',
      { class: 'array-item' },
      h('span', { class: 'item-index' }, `[${items.length}]`),
      editor.element,
      h(
        'button',
        {
          type: 'button',
          class: 'link remove-item',
          title: 'Remove this item',
          on: {
            click: () => {
              items.splice(
                items.findIndex((it) => it.row === row),
                1,
              );
              row.remove();
              renumber();
            },
          },
        },
        'remove',
      ),
    );
    // The item's own label would repeat the index.
    editor.element.querySelector('.field-head')?.remove();
    items.push({ editor, row });
    list.append(row);
    editor.focus?.();
  };
  const element = h(
    'div',
    { id, class: 'array-editor' },
    list,
    h('button', { type: 'button', class: 'link add-item', on: { click: add } }, '+ add item'),
  );
  return {
    element,
    read() {
      const values = items.map((it) => it.editor.read()).map((r) => (r.set ? r.value : null));
      return values.length > 0 || where.required ? { set: true, value: values } : UNSET;
    },
    focus: () => /** @type {HTMLButtonElement} */ (element.querySelector('.add-item')).focus(),
  };
}

/**
 * A form for an object schema. `onSubmit` gets the arguments read from the fields, or a `FormError`.
 * @param {Schema} schema
 * @param {{ submitLabel: string, onSubmit: (args: Record<string, unknown>) => void | Promise<void>, onError: (e: FormError) => void, name?: string, compact?: boolean }} options
 *   `compact`: descriptions become tooltips, for narrow columns.
 * @example schemaForm(tool.input_schema, { submitLabel: 'Call', onSubmit: (args) => call(tool.name, args), onError: show })
 */
export function schemaForm(schema, options) {
  const root = schema ?? {};
  const s = resolve(root, root);
  const editor =
    kindOf(s) === 'object' || (s.type === 'object' && !s.properties)
      ? objectEditor(
          { ...s, properties: s.properties ?? {} },
          { root, path: [], required: true, depth: 0, compact: options.compact },
          `sf${++nextId}`,
        )
      : jsonEditor(s, { root, path: [], required: true, depth: 0 }, `sf${++nextId}`);
  const button = h('button', { type: 'submit', class: 'primary' }, options.submitLabel);
  const form = h(
    'form',
    { class: 'schema-form', novalidate: true, 'data-form': options.name },
    editor.element,
    h('div', { class: 'form-actions' }, button),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let args;
    try {
      const r = editor.read();
      args = /** @type {Record<string, unknown>} */ (r.set ? r.value : {});
    } catch (e) {
      if (e instanceof FormError) return options.onError(e);
      throw e;
    }
    button.disabled = true;
    try {
      await options.onSubmit(args);
    } finally {
      button.disabled = false;
    }
  });
  return { form, button, read: () => editor.read() };
}
