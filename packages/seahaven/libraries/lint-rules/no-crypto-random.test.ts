import rule from './no-crypto-random.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  randomUUID: [
    "`crypto.randomUUID()` draws from the host's entropy, so ids differ on replay. Use `ctx.ids.uuid()`, which is seeded per instance.",
    { name: 'crypto.randomUUID()' },
  ],
  randomInt: [
    "`crypto.randomInt()` draws from the host's entropy, so a replay draws other numbers. Use `ctx.rng.int(min, max)` (both ends inclusive).",
    { name: 'crypto.randomInt()' },
  ],
  randomBytes: [
    "`crypto.getRandomValues()` draws from the host's entropy, so a replay sees other bytes. Draw from `ctx.rng` (e.g. `ctx.rng.int(0, 255)` per byte), or use `ctx.ids.token(prefix)` for an opaque id.",
    { name: 'crypto.getRandomValues()' },
  ],
  useIdsUuid: ['Use `ctx.ids.uuid()` instead.', { ctx: 'ctx' }],
  useRngInt: ['Use `ctx.rng.int(…)` instead (its upper bound is inclusive).', { ctx: 'ctx' }],
});

testRule('no-crypto-random', rule, {
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
    {
      code: 'const id = crypto.randomUUID();',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 12 }],
    },
    {
      code: 'globalThis.crypto.getRandomValues(new Uint8Array(4));',
      errors: [{ messageId: 'randomBytes', data: { name: 'crypto.getRandomValues()' }, column: 1 }],
    },
    {
      code: 'import { randomUUID } from "node:crypto"; randomUUID();',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 43 }],
    },
    {
      code: 'import { randomUUID as uuid } from "crypto"; uuid();',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 46 }],
    },
    {
      code: 'import crypto from "node:crypto"; crypto.randomBytes(8);',
      errors: [{ messageId: 'randomBytes', data: { name: 'crypto.randomBytes()' }, column: 35 }],
    },
    {
      code: 'import * as c from "node:crypto"; c.randomInt(10);',
      errors: [
        {
          messageId: 'randomInt',
          data: { name: 'crypto.randomInt()' },
          column: 35,
          suggestions: [],
        },
      ],
    },
    {
      code: 'import { webcrypto } from "node:crypto"; webcrypto.getRandomValues(new Uint32Array(1));',
      errors: [
        { messageId: 'randomBytes', data: { name: 'crypto.getRandomValues()' }, column: 42 },
      ],
    },
    {
      code: 'const { randomBytes } = require("node:crypto"); randomBytes(4);',
      errors: [{ messageId: 'randomBytes', data: { name: 'crypto.randomBytes()' }, column: 49 }],
    },
    {
      code: 'const c = require("crypto"); c.randomUUID();',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 30 }],
    },
    {
      code: 'const { randomUUID } = crypto; randomUUID();',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 32 }],
    },
    {
      code: 'import { randomFillSync } from "node:crypto"; const fill = randomFillSync; fill(Buffer.alloc(4));',
      errors: [{ messageId: 'randomBytes', data: { name: 'crypto.randomFillSync()' }, column: 76 }],
    },
    {
      code: 'const ids = [1].map(crypto.randomUUID);',
      errors: [{ messageId: 'randomUUID', data: { name: 'crypto.randomUUID()' }, column: 21 }],
    },
    {
      code: 'defineTool({ run(ctx) { return { id: crypto.randomUUID() }; } });',
      errors: [
        {
          messageId: 'randomUUID',
          data: { name: 'crypto.randomUUID()' },
          column: 38,
          suggestions: [
            {
              messageId: 'useIdsUuid',
              data: { ctx: 'ctx' },
              output: 'defineTool({ run(ctx) { return { id: ctx.ids.uuid() }; } });',
            },
          ],
        },
      ],
    },
    {
      code: 'import { randomInt } from "node:crypto"; function roll(ctx: Ctx) { return randomInt(1, 7); }',
      errors: [
        {
          messageId: 'randomInt',
          data: { name: 'crypto.randomInt()' },
          column: 75,
          suggestions: [
            {
              messageId: 'useRngInt',
              data: { ctx: 'ctx' },
              output:
                'import { randomInt } from "node:crypto"; function roll(ctx: Ctx) { return ctx.rng.int(1, 6); }',
            },
          ],
        },
      ],
    },
    {
      code: 'import { randomInt } from "node:crypto"; function pick(ctx: Ctx, n: number) { return randomInt(n + 1); }',
      errors: [
        {
          messageId: 'randomInt',
          data: { name: 'crypto.randomInt()' },
          column: 86,
          suggestions: [
            {
              messageId: 'useRngInt',
              data: { ctx: 'ctx' },
              output:
                'import { randomInt } from "node:crypto"; function pick(ctx: Ctx, n: number) { return ctx.rng.int(0, (n + 1) - 1); }',
            },
          ],
        },
      ],
    },
  ],
});
