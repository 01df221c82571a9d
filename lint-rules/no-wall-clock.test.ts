import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-wall-clock.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-wall-clock', rule, {
  valid: [
    'const d = new Date(1_767_225_600_000);',
    'function f(ctx) { return new Date(ctx.clock.now()).toISOString(); }',
    'const ms = Date.parse("2026-01-01T00:00:00Z"); const u = Date.UTC(2026, 0, 1);',
    // A shadowed Date is not the global one.
    'class Date { static now() { return 0; } } Date.now(); new Date();',
    'function f(Date) { return Date.now() + new Date().getTime(); }',
    'import { Date } from "./my-date.ts"; Date.now();',
    'const Math = { random: () => 4 }; const Date = { now: () => 0 }; Date.now();',
    'const o = { Date: { now: () => 1 } }; o.Date.now();',
    'typeof Date.now;',
  ],
  invalid: [
    { code: 'const t = Date.now();', errors: [{ messageId: 'dateNow', suggestions: [] }] },
    { code: 'const d = new Date();', errors: [{ messageId: 'newDate' }] },
    { code: 'const d = new Date;', errors: [{ messageId: 'newDate' }] },
    { code: 'const s = Date();', errors: [{ messageId: 'dateCall' }] },
    { code: 'const s = Date(123);', errors: [{ messageId: 'dateCall' }] },
    // Through global objects, declared or not.
    { code: 'globalThis.Date.now();', errors: [{ messageId: 'dateNow' }] },
    { code: 'window.Date.now(); global.Date.now(); self.Date.now();', errors: [{ messageId: 'dateNow' }, { messageId: 'dateNow' }, { messageId: 'dateNow' }] },
    { code: 'new globalThis.Date();', errors: [{ messageId: 'newDate' }] },
    // Aliases and destructuring are followed to the call.
    { code: 'const now = Date.now; const a = now();', errors: [{ messageId: 'dateNow', line: 1, column: 33 }] },
    { code: 'const { now } = Date; now();', errors: [{ messageId: 'dateNow', column: 23 }] },
    { code: 'const D = Date; new D();', errors: [{ messageId: 'newDate' }] },
    { code: 'const { Date: D } = globalThis; D.now();', errors: [{ messageId: 'dateNow' }] },
    // Handed on as a function.
    { code: 'const clock = { now: Date.now };', errors: [{ messageId: 'dateNow' }] },
    { code: 'const f = Date.now.bind(Date);', errors: [{ messageId: 'dateNow' }] },
    { code: 'Date.now?.();', errors: [{ messageId: 'dateNow' }] },
    // Only the global in an inner scope is shadowed; the outer use is still reported.
    { code: 'Date.now(); function f(Date) { return Date.now(); }', errors: [{ messageId: 'dateNow', column: 1 }] },
    // Suggestions use the context in scope.
    {
      code: 'defineTool({ name: "t", run(ctx) { return Date.now(); } });',
      errors: [{ messageId: 'dateNow', suggestions: [{ messageId: 'useClockNow', data: { ctx: 'ctx' }, output: 'defineTool({ name: "t", run(ctx) { return ctx.clock.now(); } });' }] }],
    },
    {
      code: 'const build = (c: Ctx) => new Date();',
      errors: [{ messageId: 'newDate', suggestions: [{ messageId: 'useClockDate', output: 'const build = (c: Ctx) => new Date(c.clock.now());' }] }],
    },
    {
      code: 'const x = { run: (context, input) => Date() };',
      errors: [{ messageId: 'dateCall', suggestions: [{ messageId: 'useClockDate', output: 'const x = { run: (context, input) => new Date(context.clock.now()).toString() };' }] }],
    },
    {
      code: 'function stamp(ctx) { return [1, 2].map(Date.now); }',
      errors: [{ messageId: 'dateNow', suggestions: [{ messageId: 'useClockNow', output: 'function stamp(ctx) { return [1, 2].map(() => ctx.clock.now()); }' }] }],
    },
  ],
});

// With Node's globals declared in the config, the tracker path is taken instead; the result is the same.
ruleTester.run('no-wall-clock (declared globals)', rule, {
  valid: [{ code: 'function f(globalThis) { return globalThis.Date.now(); }', languageOptions: { globals: { window: 'readonly' } } }],
  invalid: [{ code: 'window.Date.now();', languageOptions: { globals: { window: 'readonly' } }, errors: [{ messageId: 'dateNow' }] }],
});
