import rule from './no-io.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  ioModule: [
    "`node:fs` reaches outside the world (files, network, processes or the host), so episodes stop being isolated and reproducible. Keep data in the schema and fixtures; read the schema with `readSql(import.meta.url, 'schema.sql')`.",
    { name: 'node:fs' },
  ],
  ioGlobal: [
    '`fetch` does network I/O, so episodes stop being isolated and reproducible. Model the remote system as tables and tools of the world (or a composed sub-world).',
    { name: 'fetch' },
  ],
  dynamicImport: [
    'Dynamic `import()` loads code while a tool runs, outside its transaction and at a time the host decides. Import modules statically at the top of the file.',
  ],
});

testRule('no-io', rule, {
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
    {
      code: 'import { readFileSync } from "node:fs";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:fs' }, column: 1 }],
    },
    {
      code: 'import fs from "fs";',
      errors: [{ messageId: 'ioModule', data: { name: 'fs' }, column: 1 }],
    },
    {
      code: 'import * as fsp from "node:fs/promises";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:fs/promises' }, column: 1 }],
    },
    {
      code: 'import "node:net";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:net' }, column: 1 }],
    },
    {
      code: 'import { request } from "node:https"; import http from "http";',
      errors: [
        { messageId: 'ioModule', data: { name: 'node:https' }, column: 1 },
        { messageId: 'ioModule', data: { name: 'http' }, column: 39 },
      ],
    },
    {
      code: 'import { spawnSync } from "node:child_process";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:child_process' }, column: 1 }],
    },
    {
      code: 'import { Worker } from "node:worker_threads";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:worker_threads' }, column: 1 }],
    },
    {
      code: 'import { WebSocket } from "ws";',
      errors: [{ messageId: 'ioModule', data: { name: 'ws' }, column: 1 }],
    },
    {
      code: 'export { readFile } from "node:fs";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:fs' }, column: 1 }],
    },
    {
      code: 'export * from "node:dgram";',
      errors: [{ messageId: 'ioModule', data: { name: 'node:dgram' }, column: 1 }],
    },
    {
      code: 'import fs = require("fs");',
      errors: [{ messageId: 'ioModule', data: { name: 'fs' }, column: 1 }],
    },
    {
      code: 'const fs = require("node:fs");',
      errors: [{ messageId: 'ioModule', data: { name: 'node:fs' }, column: 12 }],
    },
    {
      code: 'const { execSync } = require("child_process");',
      errors: [{ messageId: 'ioModule', data: { name: 'child_process' }, column: 22 }],
    },
    {
      code: 'const mod = "node:fs"; const fs = require(mod);',
      errors: [{ messageId: 'ioModule', data: { name: 'node:fs' }, column: 35 }],
    },
    {
      code: 'const plugin = await import("./plugin.ts");',
      errors: [{ messageId: 'dynamicImport', column: 22 }],
    },
    {
      code: 'const res = await fetch("https://example.com");',
      errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' }, column: 19 }],
    },
    {
      code: 'globalThis.fetch("https://example.com");',
      errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' }, column: 1 }],
    },
    {
      code: 'const get = fetch; get("/x");',
      errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' }, column: 13 }],
    },
    {
      code: 'new WebSocket("ws://x"); new XMLHttpRequest();',
      errors: [
        { messageId: 'ioGlobal', data: { name: 'WebSocket' }, column: 5 },
        { messageId: 'ioGlobal', data: { name: 'XMLHttpRequest' }, column: 30 },
      ],
    },
    {
      code: 'fetch("/a"); function f(fetch) { return fetch("/b"); }',
      errors: [{ messageId: 'ioGlobal', data: { name: 'fetch' }, column: 1 }],
    },
  ],
});
