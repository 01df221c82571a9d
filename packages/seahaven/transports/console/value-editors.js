// @ts-check
/**
 * The controls for single values of a generated form: a choice, a constant, a check box, a number, a text, and a JSON
 * text box for schemas without a dedicated control. Each reads back `{set: false}` when left empty, and a
 * `FormError` when its text cannot become a value.
 */
import { h } from './dom.js';

/** @typedef {import('./schema-kinds.js').Schema} Schema */
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

export const UNSET = /** @type {Reading} */ ({ set: false });

/**
 * The editor for one value whose schema is resolved and whose kind is neither an object nor an array.
 * @param {Schema} s
 * @param {Exclude<import('./schema-kinds.js').Kind, 'object' | 'array'>} kind
 * @param {Where} where
 * @param {string} id
 * @returns {Editor}
 */
export function valueEditor(s, kind, where, id) {
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
export function jsonEditor(s, where, id) {
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
