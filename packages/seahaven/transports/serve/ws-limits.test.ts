import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { WireProbe, callFrame as call, openReset as openResetOn, wsUrlOf } from './wire-probe.ts';

const wsUrl = (s: RunningServer, prefix = '') => wsUrlOf(s.url, prefix);

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0 });
});
afterAll(async () => {
  await server.close();
});

const openReset = (data?: Record<string, unknown>) => openResetOn(wsUrl(server), data);

describe('WebSocket limits', () => {
  it('at capacity accepts the upgrade, sends one CAPACITY_REACHED frame with the counts, then closes with 1000', async () => {
    const small = await startServer({ worlds: [crm], port: 0, maxSessions: 1 });
    try {
      const first = await WireProbe.open(wsUrl(small));
      const second = await WireProbe.open(wsUrl(small));
      const f = await second.next();
      expect(f.json).toEqual({
        type: 'error',
        data: {
          message: expect.stringContaining('--max-sessions'),
          code: 'CAPACITY_REACHED',
          active_sessions: 1,
          max_sessions: 1,
        },
      });
      expect((await second.closed).code).toBe(1000);
      expect((await first.ask({ type: 'state' })).type).toBe('state');
      await first.close();
      await expect.poll(() => small.sessions.size).toBe(0);
      const third = await WireProbe.open(wsUrl(small));
      expect((await third.ask({ type: 'state' })).type).toBe('state');
      await third.close();
    } finally {
      await small.close();
    }
  });

  it('sends FACTORY_ERROR and closes when the instance cannot start', async () => {
    const broken = defineWorld({
      name: 'broken',
      version: '1.0.0',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({ name: 'noop', description: 'Nothing.', input: z.object({}), run: () => null }),
      ],
      fixturesDir: mkdtempSync(join(tmpdir(), 'seahaven-missing-')),
      fixtures: {
        base: { description: 'Never frozen.', now: '2026-01-01T00:00:00.000Z', build() {} },
      },
    });
    const s = await startServer({ worlds: [broken], port: 0 });
    try {
      const p = await WireProbe.open(wsUrl(s));
      const f = (await p.next()).json;
      expect(f.type).toBe('error');
      expect(f.data.code).toBe('FACTORY_ERROR');
      expect(f.data.message).toContain('fixtures build');
      expect((await p.closed).code).toBe(1011);
      expect(s.sessions.size).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('sends SESSION_ERROR to connections that arrive while the server shuts down', async () => {
    const s = await startServer({ worlds: [crm], port: 0 });
    try {
      s.endpoints.get('crm')!.closing = true;
      const p = await WireProbe.open(wsUrl(s));
      expect((await p.next()).json.data.code).toBe('SESSION_ERROR');
      expect((await p.closed).code).toBe(1001);
    } finally {
      await s.close();
    }
  });

  it('reads a binary frame as UTF-8 text, like a text frame', async () => {
    const p = await openReset();
    p.ws.send(Buffer.from(JSON.stringify(call('search_contacts', { query: 'ü' }))), {
      binary: true,
    });
    const r = await p.next();
    expect(r.json.type).toBe('observation');
    expect(r.json.data.observation.error).toBeNull();
    expect(r.json.data.observation.tool_name).toBe('search_contacts');
    p.ws.send(Buffer.from('{"type": "nope"}'), { binary: true });
    expect((await p.next()).json.data.code).toBe('UNKNOWN_TYPE');
    await p.close();
  });

  it('refuses an oversized frame with a readable error and keeps the session', async () => {
    const s = await startServer({ worlds: [crm], port: 0, maxFrameBytes: 2048 });
    try {
      const p = await WireProbe.open(wsUrl(s));
      const r = await p.ask(call('create_company', { name: 'x'.repeat(3000) }));
      expect(r.data.code).toBe('VALIDATION_ERROR');
      expect(r.data.message).toContain('--max-frame-bytes');
      expect(r.data.errors[0].type).toBe('string_too_long');
      expect((await p.ask({ type: 'state' })).type).toBe('state');
      await p.close();
    } finally {
      await s.close();
    }
  });

  it('reaps idle sessions and tells the client why', async () => {
    const s = await startServer({ worlds: [crm], port: 0, idleTimeoutMs: 150 });
    try {
      const p = await WireProbe.open(wsUrl(s));
      await p.ask({ type: 'state' });
      const closed = await p.closed;
      expect(closed.code).toBe(1000);
      expect(closed.reason).toContain('idle');
      expect(s.sessions.size).toBe(0);
    } finally {
      await s.close();
    }
  });
});
