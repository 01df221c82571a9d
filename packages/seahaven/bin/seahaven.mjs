#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.hugetlb=1 node
// The `seahaven` command: runs the TypeScript sources through tsx, so no build step is needed after `npm ci`.
// The shebang asks glibc's malloc for transparent huge pages (docs/performance.md, "Memory pages"); `node` on this file
// runs without them.
process.env.TZ = 'UTC';
const { register } = await import('tsx/esm/api');
register();
// Registered after tsx, so it runs first: a world's `seahaven` and `@seahaven/…` imports resolve to the sources.
const { register: registerResolveHook } = await import('node:module');
registerResolveHook('./source-condition.mjs', import.meta.url);
await import('../command/cli/main.ts');
