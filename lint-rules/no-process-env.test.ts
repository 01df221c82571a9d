import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-process-env.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-process-env', rule, {
  valid: [
    'const settings = { env: "prod" }; settings.env;',
    'function f(process) { return process.env.HOME; }',
    'const process = { env: {} }; process.env.X;',
    'import { env } from "./config.ts"; env.X;',
  ],
  invalid: [
    { code: 'const key = process.env.API_KEY;', errors: [{ messageId: 'processEnv' }] },
    { code: 'const key = process.env["API_KEY"];', errors: [{ messageId: 'processEnv' }] },
    { code: 'if (globalThis.process.env.DEBUG) {}', errors: [{ messageId: 'processEnv' }] },
    { code: 'const { env } = process; env.X;', errors: [{ messageId: 'processEnv', column: 9 }] },
    { code: 'const p = process; p.env.X;', errors: [{ messageId: 'processEnv' }] },
    { code: 'import { env } from "node:process"; env.X;', errors: [{ messageId: 'processEnv' }] },
    { code: 'import proc from "process"; proc.env.X;', errors: [{ messageId: 'processEnv' }] },
    { code: 'process.env.A; function f(process) { return process.env.B; }', errors: [{ messageId: 'processEnv', column: 1 }] },
    { code: 'process.env.A;', languageOptions: { globals: { process: 'readonly' } }, errors: [{ messageId: 'processEnv' }] },
  ],
});
