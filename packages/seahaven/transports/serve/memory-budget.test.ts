import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { ToolError } from '../../core/index.ts';
import { createMcpHttpHandler } from '../mcp/index.ts';
import { MemoryRefusal } from './errors.ts';
import { startServer, type RunningServer } from './index.ts';
import { MemoryBudget, cgroupLimit } from './memory-budget.ts';
import { WireProbe, callFrame, wsUrlOf } from './wire-probe.ts';
import { initializeMessage } from '../mcp/test-fixtures/initialize.ts';

// Sessions and forks were limited by count only, so enough held forks or big episodes ran the process out of memory.
// Each admission is now weighed against --max-memory before it is done, and refused with RESOURCE_EXHAUSTED.

const MiB = 1024 * 1024;
const post = (body: unknown, session?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) },
});

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the memory budget', () => {
  it('reads the cgroup limit (v2 memory.max, v1 memory.limit_in_bytes, the smallest up the tree), and none when unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seahaven-cgroup-'));
    try {
      mkdirSync(join(dir, 'fs/box/inner'), { recursive: true });
      writeFileSync(join(dir, 'fs/box/memory.max'), `${1536 * MiB}\n`);
      writeFileSync(join(dir, 'fs/box/inner/memory.max'), 'max\n');
      writeFileSync(join(dir, 'v2'), '0::/box/inner\n');
      expect(cgroupLimit(join(dir, 'v2'), join(dir, 'fs'))).toBe(1536 * MiB);
      mkdirSync(join(dir, 'fs/memory/job'), { recursive: true });
      writeFileSync(join(dir, 'fs/memory/memory.limit_in_bytes'), '9223372036854771712\n');
      writeFileSync(join(dir, 'fs/memory/job/memory.limit_in_bytes'), `${512 * MiB}\n`);
      writeFileSync(join(dir, 'v1'), '5:devices:/\n4:memory:/job\n0::/\n');
      expect(cgroupLimit(join(dir, 'v1'), join(dir, 'fs'))).toBe(512 * MiB);
      writeFileSync(join(dir, 'none'), '4:memory:/\n');
      expect(cgroupLimit(join(dir, 'none'), join(dir, 'fs'))).toBeNull();
      expect(cgroupLimit(join(dir, 'missing'), join(dir, 'fs'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what does not fit beside the resident set, and counts admitted memory until it is resident', () => {
    let rss = 100 * MiB;
    const budget = new MemoryBudget(200 * MiB, () => rss);
    budget.admit('open a database', 60 * MiB);
    // The 60 MiB are not resident yet: 40 MiB are left, not 100.
    expect(() => budget.check('fork this episode', 50 * MiB)).toThrow(MemoryRefusal);
    rss += 60 * MiB;
    expect(() => budget.check('fork this episode', 39 * MiB)).not.toThrow();
    try {
      budget.check('fork this episode', 41 * MiB);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        neededMb: 41,
        availableMb: 40,
        message: expect.stringMatching(
          /^not enough memory to fork this episode: it needs about 41 MiB and 40 MiB of this server's 200 MiB \(--max-memory\) are left/,
        ),
      });
    }
  });

  it('refuses new sessions over every transport, resets to another fixture and forks; the refused session goes on', async () => {
    const mcpHttp = createMcpHttpHandler({ world: crm });
    server = await startServer({ worlds: [crm], port: 0, maxMemoryBytes: 1, mcpHttp });
    const ws = await WireProbe.open(wsUrlOf(server.url));
    const refused = await ws.next();
    expect(refused.json).toMatchObject({
      type: 'error',
      data: {
        code: 'RESOURCE_EXHAUSTED',
        message: expect.stringContaining('--max-memory'),
        needed_mb: expect.any(Number),
        available_mb: 0,
        option: '--max-memory',
      },
    });
    expect((await ws.closed).code).toBe(1013);
    const reset = await fetch(`${server.url}/reset`, post({ fixture: 'small_startup' }));
    expect(reset.status).toBe(503);
    expect(await reset.json()).toMatchObject({
      code: 'RESOURCE_EXHAUSTED',
      option: '--max-memory',
      detail: expect.stringContaining('not enough memory to open a session'),
    });
    const rpc = await (
      await fetch(
        `${server.url}/mcp`,
        post({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create' }),
      )
    ).json();
    expect(rpc.error).toMatchObject({ code: -32000, data: { code: 'RESOURCE_EXHAUSTED' } });
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(initializeMessage(1, 't')),
    });
    expect((await mcp.json()).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('--max-memory'),
      data: { code: 'RESOURCE_EXHAUSTED', option: '--max-memory' },
    });
    expect(server.sessions.size).toBe(0);
    await mcpHttp.close();
  });

  it('a session already open keeps working when its fork or another fixture is refused', async () => {
    server = await startServer({ worlds: [crm], port: 0 });
    const ws = await WireProbe.open(wsUrlOf(server.url));
    expect(
      (await ws.ask(callFrame('create_company', { name: 'Kept' }))).data.observation.error,
    ).toBeNull();
    // Squeeze the budget to nothing: the episode's own database is open already.
    const endpoint = server.endpoints.get('crm')! as unknown as {
      options: { memory: MemoryBudget };
    };
    endpoint.options.memory = new MemoryBudget(1);
    const fork = await ws.ask({ type: 'step', data: { type: 'fork' } });
    expect(fork).toMatchObject({
      type: 'error',
      data: {
        code: 'RESOURCE_EXHAUSTED',
        message: expect.stringContaining('not enough memory to fork this episode'),
      },
    });
    const other = await ws.ask({ type: 'reset', data: { fixture: 'small_startup' } });
    expect(other).toMatchObject({
      type: 'error',
      data: {
        code: 'RESOURCE_EXHAUSTED',
        message: expect.stringContaining('reset to this fixture'),
      },
    });
    expect((await ws.ask({ type: 'state' })).data.changes).toHaveLength(1);
    expect((await ws.ask(callFrame('list_companies', {}))).data.observation.error).toBeNull();
    // The same fixture takes the episode's place: no new memory.
    expect((await ws.ask({ type: 'reset', data: { fixture: 'empty' } })).type).toBe('observation');
    await ws.close();
  });

  it('a call that would open an episode database past the budget fails with resource_exhausted and can be retried', () => {
    let allow = false;
    using inst = crm.instance({
      fixture: 'small_startup',
      admitOpen: (bytes) => {
        if (!allow)
          throw new ToolError('resource_exhausted', `not enough memory to open ${bytes} bytes`, {
            option: '--max-memory',
          });
      },
    });
    expect(inst.call('create_company', { name: 'Later' })).toMatchObject({
      ok: false,
      error: { code: 'resource_exhausted', details: { option: '--max-memory' } },
    });
    expect(inst.awake).toBe(false);
    allow = true;
    expect(inst.call('create_company', { name: 'Later' }).ok).toBe(true);
    expect(inst.changes()).toHaveLength(1);
  });
});
