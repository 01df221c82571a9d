#!/usr/bin/env node
// The `seahaven` command: runs the TypeScript sources through tsx, so no build step is needed after `npm ci`.
process.env.TZ = 'UTC';
const { register } = await import('tsx/esm/api');
register();
await import('../kit/cli/main.ts');
