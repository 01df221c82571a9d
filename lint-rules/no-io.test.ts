import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-io.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-io', rule, {
  valid: [
    'import { defineWorld, readSql } from "seahaven";',
    'import { createHash } from "node:crypto";',
    'import { join } from "node:path";',
    'import type { Stats } from "node:fs";',
    'import { type Stats } from "node:fs";',
    'export type { Server } from "node:http";',
    'const fetch = (url) => url; fetch("x");',
    'function load(fetch) { return fetch("/a"); }',
    'const fs = { readFileSync: () => "" }; fs.readFileSync("x");',
    'const profile = "fs"; require.resolve;',
  ],
  invalid: [
    { code: 'import { readFileSync } from "node:fs";', errors: [{ messageId: 'ioModule', data: { name: 'node:fs' } }] },
    { code: 'import fs from "fs";', errors: [{ messageId: 'ioModule', data: { name: 'fs' } }] },
    { code: 'import * as fsp from "node:fs/promises";', errors: [{ messageId: 'ioModule', data: { name: 'node:fs/promises' } }] },
    { code: 'import "node:net";', errors: [{ messageId: 'ioModule', data: { name: 'node:net' } }] },
    { code: 'import { request } from "node:https"; import http from "http";', errors: [{ messageId: 'ioModule' }, { messageId: 'ioModule' }] },
    { code: 'import { spawnSync } from "node:child_process";', errors: [{ messageId: 'ioModule', data: { name: 'node:child_process' } }] },
    { code: 'import { Worker } from "node:worker_threads";', errors: [{ messageId: 'ioModule', data: { name: 'node:worker_threads' } }] },
    { code: 'import { WebSocket } from "ws";', errors: [{ messageId: 'ioModule', data: { name: 'ws' } }] },
    { code: 'export { readFile } from "node:fs";', errors: [{ messageId: 'ioModule' }] },
    { code: 'export * from "node:dgram";', errors: [{ messageId: 'ioModule' }] },
    { code: 'import fs = require("fs");', errors: [{ messageId: 'ioModule' }] },
    { code: 'const fs = require("node:fs");', errors: [{ messageId: 'ioModule', data: { name: 'node:fs' } }] },
    { code: 'const { execSync } = require("child_process");', errors: [{ messageId: 'ioModule' }] },
    { code: 'const mod = "node:fs"; const fs = require(mod);', errors: [{ messageId: 'ioModule', data: { name: 'node:fs' } }] },
    { code: 'const plugin = await import("./plugin.ts");', errors: [{ messageId: 'dynamicImport' }] },
    { code: 'const res = await fetch("https://example.com");', errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' } }] },
    { code: 'globalThis.fetch("https://example.com");', errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' } }] },
    { code: 'const get = fetch; get("/x");', errors: [{ messageId: 'ioGlobal' }] },
    { code: 'new WebSocket("ws://x"); new XMLHttpRequest();', errors: [{ messageId: 'ioGlobal' }, { messageId: 'ioGlobal' }] },
    { code: 'fetch("/a"); function f(fetch) { return fetch("/b"); }', errors: [{ messageId: 'ioGlobal', column: 1 }] },
  ],
});
