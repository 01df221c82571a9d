import rule from './no-process-env.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  processEnv: [
    '`process.env` differs between machines, so the same episode could behave differently elsewhere. Put settings in the world definition (or a fixture) instead.',
  ],
});

testRule('no-process-env', rule, {
  valid: [
    'const settings = { env: "prod" }; settings.env;',
    'function f(process) { return process.env.HOME; }',
    'const process = { env: {} }; process.env.X;',
    'import { env } from "./config.ts"; env.X;',
  ],
  invalid: [
    { code: 'const key = process.env.API_KEY;', errors: [{ messageId: 'processEnv', column: 13 }] },
    {
      code: 'const key = process.env["API_KEY"];',
      errors: [{ messageId: 'processEnv', column: 13 }],
    },
    {
      code: 'if (globalThis.process.env.DEBUG) {}',
      errors: [{ messageId: 'processEnv', column: 5 }],
    },
    { code: 'const { env } = process; env.X;', errors: [{ messageId: 'processEnv', column: 9 }] },
    { code: 'const p = process; p.env.X;', errors: [{ messageId: 'processEnv', column: 20 }] },
    {
      code: 'import { env } from "node:process"; env.X;',
      errors: [{ messageId: 'processEnv', column: 10 }],
    },
    {
      code: 'import proc from "process"; proc.env.X;',
      errors: [{ messageId: 'processEnv', column: 29 }],
    },
    {
      code: 'process.env.A; function f(process) { return process.env.B; }',
      errors: [{ messageId: 'processEnv', column: 1 }],
    },
    {
      code: 'process.env.A;',
      languageOptions: { globals: { process: 'readonly' } },
      errors: [{ messageId: 'processEnv', column: 1 }],
    },
  ],
});
