import rule from './no-math-random.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  mathRandom: [
    "`Math.random()` cannot be seeded, so a replay draws other numbers. Draw from the instance's seeded stream with `ctx.rng.next()` (or `ctx.rng.int(min, max)`, `ctx.rng.pick(items)`).",
  ],
  useRng: ['Use `ctx.rng.next()` instead.', { ctx: 'ctx' }],
});

testRule('no-math-random', rule, {
  valid: [
    'function pick(ctx) { return ctx.rng.next(); }',
    'const x = Math.floor(2.5) + Math.max(1, 2);',
    'const Math = { random: () => 4 }; Math.random();',
    'function f(Math) { return Math.random(); }',
    'import * as Math from "./seeded.ts"; Math.random();',
    'const rng = { random: Math.floor }; rng.random(1);',
  ],
  invalid: [
    {
      code: 'const r = Math.random();',
      errors: [{ messageId: 'mathRandom', column: 11, suggestions: [] }],
    },
    { code: 'globalThis.Math.random();', errors: [{ messageId: 'mathRandom', column: 1 }] },
    { code: 'window.Math.random();', errors: [{ messageId: 'mathRandom', column: 1 }] },
    { code: 'const r = Math.random; r();', errors: [{ messageId: 'mathRandom', column: 24 }] },
    {
      code: 'const { random } = Math; random();',
      errors: [{ messageId: 'mathRandom', column: 26 }],
    },
    { code: 'const M = Math; M.random();', errors: [{ messageId: 'mathRandom', column: 17 }] },
    {
      code: 'const { random: r } = Math; const x = r() * 10;',
      errors: [{ messageId: 'mathRandom', column: 39 }],
    },
    {
      code: 'const xs = [1, 2].map(Math.random);',
      errors: [{ messageId: 'mathRandom', column: 23 }],
    },
    {
      code: 'Math.random(); { const Math = { random() { return 1; } }; Math.random(); }',
      errors: [{ messageId: 'mathRandom', column: 1 }],
    },
    {
      code: 'defineTool({ run(ctx, input) { return Math.random() < 0.5; } });',
      errors: [
        {
          messageId: 'mathRandom',
          column: 39,
          suggestions: [
            {
              messageId: 'useRng',
              data: { ctx: 'ctx' },
              output: 'defineTool({ run(ctx, input) { return ctx.rng.next() < 0.5; } });',
            },
          ],
        },
      ],
    },
    {
      code: 'function build(ctx) { return [3, 1].sort(() => Math.random() - 0.5); }',
      errors: [
        {
          messageId: 'mathRandom',
          column: 48,
          suggestions: [
            {
              messageId: 'useRng',
              data: { ctx: 'ctx' },
              output: 'function build(ctx) { return [3, 1].sort(() => ctx.rng.next() - 0.5); }',
            },
          ],
        },
      ],
    },
  ],
});
