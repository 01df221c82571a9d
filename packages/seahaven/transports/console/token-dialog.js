// @ts-check
/** The token prompt: the console's page is public, its data is not; the token is kept for this tab only. */
import { setToken } from './api.js';
import { h } from './dom.js';

/**
 * Ask for the server's bearer token, once at a time; `then` runs after it is stored.
 * @param {string} why the server's refusal
 * @param {() => void} then
 */
export function askToken(why, then) {
  if (document.querySelector('.token-dialog')) return;
  const input = h('input', {
    type: 'password',
    id: 'token',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const dialog = h(
    'div',
    {
      class: 'token-dialog',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'token-title',
    },
    h(
      'form',
      {
        class: 'token-form',
        on: {
          submit: (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            setToken(input.value.trim() || null);
            dialog.remove();
            then();
          },
        },
      },
      h('h2', { id: 'token-title' }, 'This server needs its token'),
      h('p', { class: 'quiet' }, why),
      h('label', { for: 'token' }, 'Bearer token'),
      input,
      h(
        'p',
        { class: 'help' },
        'The token the server was started with (--token or SEAHAVEN_TOKEN). It is kept for this tab only.',
      ),
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Use token'),
      ),
    ),
  );
  document.body.append(dialog);
  input.focus();
}
