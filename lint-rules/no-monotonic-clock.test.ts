import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-monotonic-clock.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-monotonic-clock', rule, {
  valid: [
    'function f(ctx) { return ctx.clock.now(); }',
    'const performance = { now: () => 0 }; performance.now();',
    'function f(process) { return process.hrtime(); }',
    'import { performance } from "./fake-perf.ts"; performance.now();',
    'process.exitCode = 0;',
  ],
  invalid: [
    { code: 'const t0 = performance.now();', errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' }, suggestions: [] }] },
    { code: 'globalThis.performance.now();', errors: [{ messageId: 'hostTimer' }] },
    { code: 'const t = performance.timeOrigin;', errors: [{ messageId: 'hostTimer', data: { name: 'performance.timeOrigin' } }] },
    { code: 'process.hrtime();', errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime()' } }] },
    { code: 'process.hrtime.bigint();', errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime.bigint()' } }] },
    { code: 'const up = process.uptime();', errors: [{ messageId: 'hostTimer', data: { name: 'process.uptime()' } }] },
    { code: 'const { now } = performance; now();', errors: [{ messageId: 'hostTimer' }] },
    { code: 'const { hrtime } = process; hrtime.bigint();', errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime.bigint()' } }] },
    { code: 'import { performance } from "node:perf_hooks"; performance.now();', errors: [{ messageId: 'hostTimer', data: { name: 'performance.now()' } }] },
    { code: 'import { uptime } from "node:process"; uptime();', errors: [{ messageId: 'hostTimer', data: { name: 'process.uptime()' } }] },
    { code: 'import process from "process"; process.hrtime();', errors: [{ messageId: 'hostTimer', data: { name: 'process.hrtime()' } }] },
    { code: 'const stamp = { at: performance.now };', errors: [{ messageId: 'hostTimer' }] },
    {
      code: 'defineTool({ run(ctx) { const t = performance.now(); return t; } });',
      errors: [{ messageId: 'hostTimer', suggestions: [{ messageId: 'useClockNow', output: 'defineTool({ run(ctx) { const t = ctx.clock.now(); return t; } });' }] }],
    },
  ],
});
