import rule from './no-timers.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  timer: [
    '`setTimeout` runs its callback after the tool call has returned and its transaction has committed, at a time the host decides. Do the work inside the call; time in a world only moves with the virtual clock (`ctx.clock`), which the harness advances.',
    { name: 'setTimeout' },
  ],
});

testRule('no-timers', rule, {
  valid: [
    'function setTimeout(fn) { fn(); } setTimeout(() => 1);',
    'const queueMicrotask = (f) => f(); queueMicrotask(() => 1);',
    'function f(process) { process.nextTick(() => 1); }',
    'import { setTimeout } from "./virtual-timers.ts"; setTimeout(() => 1, 10);',
    'const o = { setTimeout: 1 }; o.setTimeout;',
  ],
  invalid: [
    {
      code: 'setTimeout(() => {}, 10);',
      errors: [{ messageId: 'timer', data: { name: 'setTimeout' }, column: 1 }],
    },
    {
      code: 'setInterval(tick, 1000);',
      errors: [{ messageId: 'timer', data: { name: 'setInterval' }, column: 1 }],
    },
    {
      code: 'setImmediate(flush);',
      errors: [{ messageId: 'timer', data: { name: 'setImmediate' }, column: 1 }],
    },
    {
      code: 'queueMicrotask(() => log());',
      errors: [{ messageId: 'timer', data: { name: 'queueMicrotask' }, column: 1 }],
    },
    {
      code: 'process.nextTick(cb);',
      errors: [{ messageId: 'timer', data: { name: 'process.nextTick' }, column: 1 }],
    },
    {
      code: 'globalThis.setTimeout(cb, 5);',
      errors: [{ messageId: 'timer', data: { name: 'setTimeout' }, column: 1 }],
    },
    {
      code: 'const later = setTimeout; later(cb, 1);',
      errors: [{ messageId: 'timer', data: { name: 'setTimeout' }, line: 1, column: 15 }],
    },
    {
      code: 'const { setInterval: every } = globalThis; every(cb, 1);',
      errors: [{ messageId: 'timer', data: { name: 'setInterval' }, column: 9 }],
    },
    {
      code: 'import { setTimeout as sleep } from "node:timers/promises"; await sleep(10);',
      errors: [{ messageId: 'timer', data: { name: 'setTimeout' }, column: 10 }],
    },
    {
      code: 'import timers from "timers"; timers.setImmediate(cb);',
      errors: [{ messageId: 'timer', data: { name: 'setImmediate' }, column: 30 }],
    },
    {
      code: 'setTimeout(cb); function g(setTimeout) { setTimeout(cb); }',
      errors: [{ messageId: 'timer', data: { name: 'setTimeout' }, column: 1 }],
    },
  ],
});
