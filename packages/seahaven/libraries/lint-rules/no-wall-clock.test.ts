import rule from './no-wall-clock.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  dateNow: [
    "`Date.now()` reads the host's wall clock, so a replay sees another time. Read the virtual clock with `ctx.clock.now()`.",
  ],
  newDate: [
    "`new Date()` without an argument reads the host's wall clock. Build the date from the virtual clock: `new Date(ctx.clock.now())`, or take `ctx.clock.iso()`.",
  ],
  dateCall: [
    "`Date()` returns the host's current time as text. Use `ctx.clock.iso()`, or `new Date(ctx.clock.now())` for a date.",
  ],
  useClockNow: ['Use `ctx.clock.now()` instead.', { ctx: 'ctx' }],
  useClockDate: ['Use `new Date(c.clock.now())` instead.', { ctx: 'c' }],
  useClockText: ['Use `new Date(context.clock.now()).toString()` instead.', { ctx: 'context' }],
});

testRule('no-wall-clock', rule, {
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
    {
      code: 'const t = Date.now();',
      errors: [{ messageId: 'dateNow', column: 11, suggestions: [] }],
    },
    { code: 'const d = new Date();', errors: [{ messageId: 'newDate', column: 11 }] },
    { code: 'const d = new Date;', errors: [{ messageId: 'newDate', column: 11 }] },
    { code: 'const s = Date();', errors: [{ messageId: 'dateCall', column: 11 }] },
    { code: 'const s = Date(123);', errors: [{ messageId: 'dateCall', column: 11 }] },
    // Through global objects, declared or not.
    { code: 'globalThis.Date.now();', errors: [{ messageId: 'dateNow', column: 1 }] },
    {
      code: 'window.Date.now(); global.Date.now(); self.Date.now();',
      errors: [
        { messageId: 'dateNow', column: 1 },
        { messageId: 'dateNow', column: 20 },
        { messageId: 'dateNow', column: 39 },
      ],
    },
    { code: 'new globalThis.Date();', errors: [{ messageId: 'newDate', column: 1 }] },
    // Aliases and destructuring are followed to the call.
    {
      code: 'const now = Date.now; const a = now();',
      errors: [{ messageId: 'dateNow', line: 1, column: 33 }],
    },
    { code: 'const { now } = Date; now();', errors: [{ messageId: 'dateNow', column: 23 }] },
    { code: 'const D = Date; new D();', errors: [{ messageId: 'newDate', column: 17 }] },
    {
      code: 'const { Date: D } = globalThis; D.now();',
      errors: [{ messageId: 'dateNow', column: 33 }],
    },
    // Handed on as a function.
    { code: 'const clock = { now: Date.now };', errors: [{ messageId: 'dateNow', column: 22 }] },
    { code: 'const f = Date.now.bind(Date);', errors: [{ messageId: 'dateNow', column: 11 }] },
    { code: 'Date.now?.();', errors: [{ messageId: 'dateNow', column: 1 }] },
    // Only the global in an inner scope is shadowed; the outer use is still reported.
    {
      code: 'Date.now(); function f(Date) { return Date.now(); }',
      errors: [{ messageId: 'dateNow', column: 1 }],
    },
    // Suggestions use the context in scope.
    {
      code: 'defineTool({ name: "t", run(ctx) { return Date.now(); } });',
      errors: [
        {
          messageId: 'dateNow',
          column: 43,
          suggestions: [
            {
              messageId: 'useClockNow',
              data: { ctx: 'ctx' },
              output: 'defineTool({ name: "t", run(ctx) { return ctx.clock.now(); } });',
            },
          ],
        },
      ],
    },
    {
      code: 'const build = (c: Ctx) => new Date();',
      errors: [
        {
          messageId: 'newDate',
          column: 27,
          suggestions: [
            {
              messageId: 'useClockDate',
              data: { ctx: 'c' },
              output: 'const build = (c: Ctx) => new Date(c.clock.now());',
            },
          ],
        },
      ],
    },
    {
      code: 'const x = { run: (context, input) => Date() };',
      errors: [
        {
          messageId: 'dateCall',
          column: 38,
          suggestions: [
            {
              messageId: 'useClockText',
              data: { ctx: 'context' },
              output:
                'const x = { run: (context, input) => new Date(context.clock.now()).toString() };',
            },
          ],
        },
      ],
    },
    {
      code: 'function stamp(ctx) { return [1, 2].map(Date.now); }',
      errors: [
        {
          messageId: 'dateNow',
          column: 41,
          suggestions: [
            {
              messageId: 'useClockNow',
              data: { ctx: 'ctx' },
              output: 'function stamp(ctx) { return [1, 2].map(() => ctx.clock.now()); }',
            },
          ],
        },
      ],
    },
  ],
});

// With Node's globals declared in the config, the tracker path is taken instead; the result is the same.
testRule('no-wall-clock (declared globals)', rule, {
  valid: [
    {
      code: 'function f(globalThis) { return globalThis.Date.now(); }',
      languageOptions: { globals: { window: 'readonly' } },
    },
  ],
  invalid: [
    {
      code: 'window.Date.now();',
      languageOptions: { globals: { window: 'readonly' } },
      errors: [{ messageId: 'dateNow', column: 1 }],
    },
  ],
});
