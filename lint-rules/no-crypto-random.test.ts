import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-crypto-random.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-crypto-random', rule, {
  valid: [
    // Hashing is deterministic.
    'import { createHash } from "node:crypto"; createHash("sha256").update("x").digest("hex");',
    'import crypto from "node:crypto"; crypto.createHash("sha256");',
    'function f(ctx) { return ctx.ids.uuid(); }',
    'const crypto = { randomUUID: () => "fixed" }; crypto.randomUUID();',
    'function id(crypto) { return crypto.randomUUID(); }',
    'import { randomUUID } from "./fake-ids.ts"; randomUUID();',
    'import type { randomBytes } from "node:crypto"; type F = typeof randomBytes;',
  ],
  invalid: [
    { code: 'const id = crypto.randomUUID();', errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' } }] },
    { code: 'globalThis.crypto.getRandomValues(new Uint8Array(4));', errors: [{ messageId: 'randomBytes' }] },
    { code: 'import { randomUUID } from "node:crypto"; randomUUID();', errors: [{ messageId: 'randomUUID' }] },
    { code: 'import { randomUUID as uuid } from "crypto"; uuid();', errors: [{ messageId: 'randomUUID' }] },
    { code: 'import crypto from "node:crypto"; crypto.randomBytes(8);', errors: [{ messageId: 'randomBytes' }] },
    { code: 'import * as c from "node:crypto"; c.randomInt(10);', errors: [{ messageId: 'randomInt', suggestions: [] }] },
    { code: 'import { webcrypto } from "node:crypto"; webcrypto.getRandomValues(new Uint32Array(1));', errors: [{ messageId: 'randomBytes' }] },
    { code: 'const { randomBytes } = require("node:crypto"); randomBytes(4);', errors: [{ messageId: 'randomBytes' }] },
    { code: 'const c = require("crypto"); c.randomUUID();', errors: [{ messageId: 'randomUUID' }] },
    { code: 'const { randomUUID } = crypto; randomUUID();', errors: [{ messageId: 'randomUUID' }] },
    { code: 'import { randomFillSync } from "node:crypto"; const fill = randomFillSync; fill(Buffer.alloc(4));', errors: [{ messageId: 'randomBytes' }] },
    { code: 'const ids = [1].map(crypto.randomUUID);', errors: [{ messageId: 'randomUUID' }] },
    {
      code: 'defineTool({ run(ctx) { return { id: crypto.randomUUID() }; } });',
      errors: [{ messageId: 'randomUUID', suggestions: [{ messageId: 'useIdsUuid', output: 'defineTool({ run(ctx) { return { id: ctx.ids.uuid() }; } });' }] }],
    },
    {
      code: 'import { randomInt } from "node:crypto"; function roll(ctx: Ctx) { return randomInt(1, 7); }',
      errors: [{ messageId: 'randomInt', suggestions: [{ messageId: 'useRngInt', output: 'import { randomInt } from "node:crypto"; function roll(ctx: Ctx) { return ctx.rng.int(1, 6); }' }] }],
    },
    {
      code: 'import { randomInt } from "node:crypto"; function pick(ctx: Ctx, n: number) { return randomInt(n + 1); }',
      errors: [{ messageId: 'randomInt', suggestions: [{ messageId: 'useRngInt', output: 'import { randomInt } from "node:crypto"; function pick(ctx: Ctx, n: number) { return ctx.rng.int(0, (n + 1) - 1); }' }] }],
    },
  ],
});
