import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-timers.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-timers', rule, {
  valid: [
    'function setTimeout(fn) { fn(); } setTimeout(() => 1);',
    'const queueMicrotask = (f) => f(); queueMicrotask(() => 1);',
    'function f(process) { process.nextTick(() => 1); }',
    'import { setTimeout } from "./virtual-timers.ts"; setTimeout(() => 1, 10);',
    'const o = { setTimeout: 1 }; o.setTimeout;',
  ],
  invalid: [
    { code: 'setTimeout(() => {}, 10);', errors: [{ messageId: 'timer', data: { name: 'setTimeout' } }] },
    { code: 'setInterval(tick, 1000);', errors: [{ messageId: 'timer', data: { name: 'setInterval' } }] },
    { code: 'setImmediate(flush);', errors: [{ messageId: 'timer', data: { name: 'setImmediate' } }] },
    { code: 'queueMicrotask(() => log());', errors: [{ messageId: 'timer', data: { name: 'queueMicrotask' } }] },
    { code: 'process.nextTick(cb);', errors: [{ messageId: 'timer', data: { name: 'process.nextTick' } }] },
    { code: 'globalThis.setTimeout(cb, 5);', errors: [{ messageId: 'timer', data: { name: 'setTimeout' } }] },
    { code: 'const later = setTimeout; later(cb, 1);', errors: [{ messageId: 'timer', line: 1, column: 15 }] },
    { code: 'const { setInterval: every } = globalThis; every(cb, 1);', errors: [{ messageId: 'timer' }] },
    { code: 'import { setTimeout as sleep } from "node:timers/promises"; await sleep(10);', errors: [{ messageId: 'timer', data: { name: 'setTimeout' } }] },
    { code: 'import timers from "timers"; timers.setImmediate(cb);', errors: [{ messageId: 'timer', data: { name: 'setImmediate' } }] },
    { code: 'setTimeout(cb); function g(setTimeout) { setTimeout(cb); }', errors: [{ messageId: 'timer', column: 1 }] },
  ],
});
