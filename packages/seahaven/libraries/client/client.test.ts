import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTask, defineTool, defineWorld, z } from '../../core/index.ts';
import { startServer, type RunningServer } from '../../transports/serve/index.ts';
import { SeahavenClient, ClientError } from './index.ts';
import { wsUrlOf } from './url.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe('SeahavenClient', () => {
  it('plays a full crm episode and reads the changes', async () => {
    await using env = await SeahavenClient.connect(server.url);
    const reset = await env.reset({ fixture: 'small_startup', seed: 42, episode_id: 'demo' });
    expect(reset.observation.fixture).toBe('small_startup');
    expect(reset.observation.tools.map((t) => t.name)).toContain('create_contact');
    expect((await env.listTools()).length).toBe(crm.tools.length);

    const found = await env.call<{ contacts: { id: string; name: string }[] }>('search_contacts', {
      query: 'a',
      limit: 3,
    });
    expect(found.ok).toBe(true);
    const someone = found.ok ? found.result.contacts[0] : undefined;
    expect(someone).toBeDefined();

    const created = await env.call<{ id: string; stage: string }>('create_contact', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(created).toMatchObject({ ok: true, result: { stage: 'lead' } });
    const id = created.ok ? created.result.id : '';
    expect((await env.call('update_contact', { id, stage: 'qualified' })).ok).toBe(true);
    expect(
      (await env.call('log_activity', { contact_id: id, kind: 'call', subject: 'Intro call' })).ok,
    ).toBe(true);

    const bad = await env.call('create_contact', { email: 'nope' });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', details: { violations: expect.any(Array) } },
    });
    const missing = await env.call('get_contact', { id: 'con_missing' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const state = await env.state();
    expect(state).toMatchObject({
      episode_id: 'demo',
      step_count: 7,
      call_count: 5,
      fixture: { id: 'small_startup' },
      seed: 42,
    });
    const byTable = Object.fromEntries(state.changes.map((c) => [c.table, c]));
    expect(byTable.contacts).toMatchObject({
      op: 'insert',
      key: { id },
      after: { name: 'Ada Lovelace', stage: 'qualified' },
    });
    expect(byTable.activities).toMatchObject({
      op: 'insert',
      after: { contact_id: id, subject: 'Intro call' },
    });
    expect(state.changes).toHaveLength(2);
  });

  it('submits a task and reads the grade and reward', async () => {
    const counter = defineWorld({
      name: 'counter',
      version: '1.0.0',
      schema: 'CREATE TABLE hits (id INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'hit',
          description: 'Count one hit.',
          input: z.object({}),
          run: (ctx) => ctx.db.run('INSERT INTO hits DEFAULT VALUES'),
        }),
      ],
      fixtures: { zero: { description: 'No hits.', now: '2026-01-01T00:00:00.000Z', build() {} } },
      tasks: [
        defineTask({
          id: 'hit_once',
          fixture: 'zero',
          prompt: 'Hit once.',
          grade: (t) => {
            const n = t.changes().length;
            return { reward: n === 1 ? 1 : 0, passed: n === 1, criteria: [] };
          },
        }),
      ],
    });
    const s = await startServer({ worlds: [counter], port: 0 });
    try {
      await using env = await SeahavenClient.connect(s.url);
      await expect(env.submit()).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      const r = await env.reset({ task: 'hit_once' });
      expect(r.observation.task).toEqual({ id: 'hit_once', prompt: 'Hit once.' });
      await env.call('hit');
      expect(await env.submit()).toEqual({
        grade: { reward: 1, passed: true, criteria: [] },
        reward: 1,
        done: true,
        metadata: {},
      });
    } finally {
      await s.close();
    }
  });

  it('rejects protocol errors with ClientError and keeps working', async () => {
    const env = await SeahavenClient.connect(`${server.url}/crm`);
    const e = await env.reset({ fixture: 'nope' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ClientError);
    expect(e).toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { errors: [expect.objectContaining({ loc: ['data', 'fixture'] })] },
    });
    expect((e as Error).message).toContain('small_startup');
    expect((await env.state()).step_count).toBe(0);
    await env.close();
    await env.close();
    await expect(env.state()).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('surfaces capacity, auth and timeout failures with clear codes', async () => {
    const full = await startServer({ worlds: [crm], port: 0, maxSessions: 1 });
    const locked = await startServer({ worlds: [crm], port: 0, token: 'tok' });
    const silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    try {
      const first = await SeahavenClient.connect(full.url);
      const second = await SeahavenClient.connect(full.url);
      await expect(second.state()).rejects.toMatchObject({
        code: 'CAPACITY_REACHED',
        data: { active_sessions: 1, max_sessions: 1 },
      });
      await first.close();
      await second.close();

      await expect(SeahavenClient.connect(locked.url)).rejects.toThrow(/401.*pass \{ token \}/);
      const authed = await SeahavenClient.connect(locked.url, { token: 'tok' });
      expect((await authed.state()).step_count).toBe(0);
      await authed.close();

      const quiet = await SeahavenClient.connect(
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        { timeoutMs: 100 },
      );
      await expect(quiet.state()).rejects.toMatchObject({ code: 'TIMEOUT' });
      for (const socket of silent.clients) socket.terminate();
    } finally {
      silent.close();
      await Promise.all([full.close(), locked.close()]);
    }
  });

  it('maps base URLs to the WebSocket route', () => {
    expect(wsUrlOf('http://127.0.0.1:8000')).toBe('ws://127.0.0.1:8000/ws');
    expect(wsUrlOf('https://example.com/crm/')).toBe('wss://example.com/crm/ws');
    expect(wsUrlOf('ws://h:1/ws')).toBe('ws://h:1/ws');
    expect(() => wsUrlOf('ftp://h')).toThrow(/http\(s\):\/\//);
  });
});
