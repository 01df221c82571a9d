// @ts-check
/**
 * Forms generated from JSON Schemas (the tools' `inputSchema`, the reset schema): strings, numbers, integers, enums,
 * booleans, nested objects and arrays, nullable values, required marks, defaults and descriptions. Anything the
 * generator has no control for (unions, maps, tuples) gets a JSON text box. Empty optional fields are left out of
 * the arguments, so the tool's own defaults apply; the server checks everything and reports every problem at once.
 */
import { h } from './dom.js';

/**
 * @typedef {{
 *   type?: string | string[], enum?: unknown[], const?: unknown, properties?: Record<string, Schema>, required?: string[],
 *   items?: Schema | Schema[], prefixItems?: Schema[], default?: unknown, description?: string, title?: string,
 *   anyOf?: Schema[], oneOf?: Schema[], allOf?: Schema[], $ref?: string, minimum?: number, maximum?: number,
 *   exclusiveMinimum?: number, exclusiveMaximum?: number, minLength?: number, maxLength?: number, pattern?: string,
 *   format?: string, additionalProperties?: boolean | Schema, $defs?: Record<string, Schema>, definitions?: Record<string, Schema>
 * }} Schema
 */
/** @typedef {{ set: true, value: unknown } | { set: false }} Reading */
/** @typedef {{ element: HTMLElement, read: () => Reading, focus?: () => void }} Editor */
/** @typedef {{ root: Schema, path: string[], required: boolean, depth: number, compact?: boolean }} Where */

/** A field whose text cannot become a value (JSON that does not parse); `path` names the field. */
export class FormError extends Error {
  /**
   * @param {string[]} path
   * @param {string} message
   */
  constructor(path, message) {
    super(`${path.join('.') || 'arguments'}: ${message}`);
    this.path = path;
  }
}

let nextId = 0;
const UNSET = /** @type {Reading} */ ({ set: false });
const MAX_DEPTH = 8;

/**
 * Follow local `$ref`s (`#/$defs/x`, `#/definitions/x`) against the root schema.
 * @param {Schema} schema
 * @param {Schema} root
 * @returns {Schema}
 */
function resolve(schema, root) {
  let s = schema;
  for (let hops = 0; s && typeof s.$ref === 'string' && hops < 16; hops++) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const target = m
      ? root[/** @type {'$defs' | 'definitions'} */ (m[1])]?.[decodeURIComponent(m[2])]
      : undefined;
    if (target === undefined) return {};
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s ?? {};
}

/**
 * Split `X | null` (a `type` list or an `anyOf`/`oneOf` with a null branch) into X and a nullable flag.
 * @param {Schema} schema
 * @returns {{ schema: Schema, nullable: boolean }}
 */
function splitNullable(schema) {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((t) => t !== 'null');
    if (rest.length === 1) return { schema: { ...schema, type: rest[0] }, nullable: true };
  }
  for (const key of /** @type {const} */ (['anyOf', 'oneOf'])) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length === 2) {
      const other = branches.find((b) => b?.type !== 'null');
      if (other !== undefined && branches.some((b) => b?.type === 'null')) {
        const { [key]: _branches, ...rest } = schema;
        return { schema: { ...rest, ...other }, nullable: true };
      }
    }
  }
  return { schema, nullable: false };
}

/**
 * The kind of control a schema gets.
 * @param {Schema} s
 * @returns {'enum' | 'const' | 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'json'}
 */
function kindOf(s) {
  if (Array.isArray(s.enum) && s.enum.length > 0) return 'enum';
  if ('const' in s) return 'const';
  if (s.anyOf || s.oneOf || s.allOf || Array.isArray(s.type)) return 'json';
  if (s.type === 'string' || s.type === 'number' || s.type === 'integer' || s.type === 'boolean')
    return s.type;
  if (
    s.type === 'object' &&
    s.properties &&
    (s.additionalProperties === undefined || s.additionalProperties === false)
  )
    return 'object';
  if (s.type === 'array' && s.items && !Array.isArray(s.items) && !s.prefixItems) return 'array';
  return 'json';
}

/**
 * A short type label for a field: `string`, `integer ≥ 1`, `email`, `one of 4`…
 * @param {Schema} s
 * @param {boolean} nullable
 */
function typeLabel(s, nullable) {
  const kind = kindOf(s);
  let label = kind === 'enum' ? 'choice' : kind === 'json' ? 'JSON' : kind;
  if (kind === 'string' && s.format) label = s.format;
  if (
    (kind === 'number' || kind === 'integer') &&
    (s.minimum !== undefined || s.maximum !== undefined)
  ) {
    const lo =
      s.minimum !== undefined && s.minimum > -Number.MAX_SAFE_INTEGER ? `${s.minimum}` : '';
    const hi = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? `${s.maximum}` : '';
    if (lo && hi) label += ` ${lo}–${hi}`;
    else if (lo) label += ` ≥ ${lo}`;
    else if (hi) label += ` ≤ ${hi}`;
  }
  return nullable ? `${label} or null` : label;
}

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
  const required = where.required;
  const aria = required ? 'true' : undefined;
  switch (kind) {
    case 'enum': {
      const values = /** @type {unknown[]} */ (s.enum);
      const hasDefault = 'default' in s && values.some((v) => v === s.default);
      const blank = !hasDefault || !required;
      const select = h(
        'select',
        { id, 'aria-required': aria },
        blank ? h('option', { value: '' }, hasDefault ? '—' : required ? '— choose —' : '—') : null,
        values.map((v, i) =>
          h(
            'option',
            { value: String(i), selected: hasDefault && v === s.default },
            typeof v === 'string' ? v : JSON.stringify(v),
          ),
        ),
      );
      return {
        element: select,
        read: () =>
          select.value === '' ? UNSET : { set: true, value: values[Number(select.value)] },
        focus: () => select.focus(),
      };
    }
    case 'const': {
      return {
        element: h('code', { id, class: 'const' }, JSON.stringify(s.const)),
        read: () => ({ set: true, value: s.const }),
      };
    }
    case 'boolean': {
      if (required || typeof s.default === 'boolean') {
        const box = h('input', {
          id,
          type: 'checkbox',
          checked: s.default === true,
          'aria-required': aria,
        });
        return {
          element: box,
          read: () => ({ set: true, value: box.checked }),
          focus: () => box.focus(),
        };
      }
      const select = h(
        'select',
        { id },
        h('option', { value: '' }, '—'),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
      return {
        element: select,
        read: () => (select.value === '' ? UNSET : { set: true, value: select.value === 'true' }),
        focus: () => select.focus(),
      };
    }
    case 'number':
    case 'integer': {
      const input = h('input', {
        id,
        type: 'number',
        step: kind === 'integer' ? '1' : 'any',
        'aria-required': aria,
        min:
          s.minimum !== undefined && s.minimum > -Number.MAX_SAFE_INTEGER ? s.minimum : undefined,
        max: s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined,
        value: typeof s.default === 'number' ? String(s.default) : undefined,
      });
      return {
        element: input,
        read() {
          if (input.value.trim() === '') {
            if (input.validity.badInput)
              throw new FormError(where.path, `"${input.value}" is not a number`);
            return UNSET;
          }
          return { set: true, value: Number(input.value) };
        },
        focus: () => input.focus(),
      };
    }
    case 'string': {
      const long =
        (s.maxLength ?? 0) > 200 ||
        /^(body|notes|description|text|content|message)$/.test(where.path.at(-1) ?? '');
      const placeholder =
        s.format === 'date-time'
          ? '2026-01-01T00:00:00.000Z'
          : s.format === 'date'
            ? 'YYYY-MM-DD'
            : s.format === 'email'
              ? 'name@example.com'
              : undefined;
      const props = {
        id,
        placeholder,
        'aria-required': aria,
        value: typeof s.default === 'string' ? s.default : undefined,
      };
      const input = long
        ? h('textarea', { ...props, rows: 2 })
        : h('input', { ...props, type: 'text', spellcheck: 'false' });
      // An empty required string is sent, so the tool's own check explains what it wants.
      return {
        element: input,
        read: () => (input.value === '' && !required ? UNSET : { set: true, value: input.value }),
        focus: () => input.focus(),
      };
    }
    case 'object':
      return objectEditor(s, where, id);
    case 'array':
      return arrayEditor(s, where, id);
    default:
      return jsonEditor(s, where, id);
  }
}

/**
 * A JSON text box, for schemas without a dedicated control.
 * @param {Schema} s
 * @param {Where} where
 * @param {string} id
 * @returns {Editor}
 */
function jsonEditor(s, where, id) {
  const area = h('textarea', {
    id,
    class: 'json-input',
    rows: 2,
    spellcheck: 'false',
    placeholder: 'JSON',
    value: 'default' in s ? JSON.stringify(s.default) : undefined,
  });
  return {
    element: area,
    read() {
      if (area.value.trim() === '') return UNSET;
      try {
        return { set: true, value: JSON.parse(area.value) };
      } catch (e) {
        throw new FormError(where.path, `not JSON (${/** @type {Error} */ (e).message})`);
      }
    },
    focus: () => area.focus(),
  };
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
    items.forEach(
      (it, i) =>
        /** @type {HTMLElement} */ (it.row.querySelector('.item-index').textContent = `[${i}]`),
    );
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
