import rule from './no-monotonic-clock.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  hostTimer: [
    '`performance.now()` reads a clock of the host process, so a replay sees other readings. World time is `ctx.clock.now()`; measure durations in the harness, not in tools.',
    { name: 'performance.now()' },
  ],
  useClockNow: ['Use `ctx.clock.now()` instead.', { ctx: 'ctx' }],
});

testRule('no-monotonic-clock', rule, {
  valid: [
    'function f(ctx) { return ctx.clock.now(); }',
    'const performance = { now: () => 0 }; performance.now();',
    'function f(process) { return process.hrtime(); }',
    'import { performance } from "./fake-perf.ts"; performance.now();',
    'process.exitCode = 0;',
  ],
  invalid: [
    {
      code: 'const t0 = performance.now();',
      errors: [
        {
          messageId: 'hostTimer',
          data: { name: 'performance.now()' },
          column: 12,
          suggestions: [],
        },
      ],
    },
    {
      code: 'globalThis.performance.now();',
      errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' }, column: 1 }],
    },
    {
      code: 'const t = performance.timeOrigin;',
      errors: [{ messageId: 'hostTimer', data: { name: 'performance.timeOrigin' }, column: 11 }],
    },
    {
      code: 'process.hrtime();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime()' }, column: 1 }],
    },
    {
      code: 'process.hrtime.bigint();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime.bigint()' }, column: 1 }],
    },
    {
      code: 'const up = process.uptime();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.uptime()' }, column: 12 }],
    },
    {
      code: 'const { now } = performance; now();',
      errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' }, column: 30 }],
    },
    {
      code: 'const { hrtime } = process; hrtime.bigint();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime.bigint()' }, column: 29 }],
    },
    {
      code: 'import { performance } from "node:perf_hooks"; performance.now();',
      errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' }, column: 48 }],
    },
    {
      code: 'import { uptime } from "node:process"; uptime();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.uptime()' }, column: 40 }],
    },
    {
      code: 'import process from "process"; process.hrtime();',
      errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime()' }, column: 32 }],
    },
    {
      code: 'const stamp = { at: performance.now };',
      errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' }, column: 21 }],
    },
    {
      code: 'defineTool({ run(ctx) { const t = performance.now(); return t; } });',
      errors: [
        {
          messageId: 'hostTimer',
          data: { name: 'performance.now()' },
          column: 35,
          suggestions: [
            {
              messageId: 'useClockNow',
              data: { ctx: 'ctx' },
              output: 'defineTool({ run(ctx) { const t = ctx.clock.now(); return t; } });',
            },
          ],
        },
      ],
    },
  ],
});
