import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../../core/index.ts';
import { startServer, type RunningServer } from './index.ts';
import { WireProbe, callFrame as call, openReset as openResetOn, wsUrlOf } from './wire-probe.ts';

const wsUrl = (s: RunningServer, prefix = '') => wsUrlOf(s.url, prefix);

let server: RunningServer;
const logged: string[] = [];

beforeAll(async () => {
  server = await startServer({ worlds: [crm], port: 0, logger: (l) => logged.push(l) });
});
afterAll(async () => {
  await server.close();
});

const openReset = (data?: Record<string, unknown>) => openResetOn(wsUrl(server), data);

describe('WebSocket /ws conformance', () => {
  it('answers reset with a step payload whose observation lists fixture, seed, now, task and the tools', async () => {
    const p = await WireProbe.open(wsUrl(server));
    p.send({ type: 'reset', data: { fixture: 'small_startup', seed: 7, episode_id: 'ep-1' } });
    const f = await p.next();
    expect(Object.keys(f.json)).toEqual(['type', 'data']);
    expect(f.json.type).toBe('observation');
    const d = f.json.data;
    expect(Object.keys(d).sort()).toEqual(['done', 'metadata', 'observation', 'reward']);
    expect(d.reward).toBeNull();
    expect(d.done).toBe(false);
    expect(d.metadata).toEqual({ episode_id: 'ep-1' });
    expect(Object.keys(d.observation)).toEqual(['fixture', 'seed', 'now', 'task', 'tools']);
    expect(d.observation).toMatchObject({
      fixture: 'small_startup',
      seed: 7,
      now: '2026-06-01T09:00:00.000Z',
      task: null,
    });
    expect(d.observation.tools.map((t: { name: string }) => t.name)).toEqual(
      crm.tools.map((t) => t.name),
    );
    expect((await p.ask({ type: 'state' })).data.episode_id).toBe('ep-1');
    await p.close();
  });

  it('lists tools before any reset, each with a string description and an object input_schema', async () => {
    const p = await WireProbe.open(wsUrl(server));
    const r = await p.ask({ type: 'step', data: { type: 'list_tools' } });
    expect(r.type).toBe('observation');
    expect(r.data).toMatchObject({ reward: null, done: false, metadata: {} });
    expect(Object.keys(r.data.observation)).toEqual(['tools']);
    expect(r.data.observation.tools.length).toBe(crm.tools.length);
    for (const t of r.data.observation.tools) {
      expect(Object.keys(t)).toEqual(['name', 'description', 'input_schema']);
      expect(typeof t.description).toBe('string');
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.input_schema).toBeTypeOf('object');
      expect(t.input_schema.type).toBe('object');
    }
    await p.close();
  });

  it('answers a successful call_tool with content, structured_content, data and is_error, and no reward before submit', async () => {
    const p = await openReset();
    p.send(call('create_contact', { name: 'Ada Lovelace', email: 'ada@example.com' }));
    const f = await p.next();
    expect(f.text).toContain('"reward":null,"done":false');
    const obs = f.json.data.observation;
    expect(Object.keys(obs)).toEqual(['tool_name', 'result', 'error']);
    expect(obs.tool_name).toBe('create_contact');
    expect(obs.error).toBeNull();
    expect(Object.keys(obs.result)).toEqual(['content', 'structured_content', 'data', 'is_error']);
    expect(obs.result.is_error).toBe(false);
    expect(obs.result.data).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      stage: 'lead',
    });
    expect(obs.result.structured_content).toEqual(obs.result.data);
    expect(obs.result.content).toEqual([{ type: 'text', text: JSON.stringify(obs.result.data) }]);
    expect(f.json.data.metadata).toEqual({});
    await p.close();
  });

  it('reports tool failures as data: error has exactly error_type and message, the world error sits in metadata.seahaven_error', async () => {
    const p = await openReset();
    const cases: [unknown, string, string][] = [
      [call('no_such_tool'), 'tool_not_found', 'unknown_tool'],
      [call('create_contact', { email: 'not-an-email' }), 'invalid_args', 'invalid_arguments'],
      [call('get_contact', { id: 'con_missing' }), 'execution_error', 'not_found'],
    ];
    for (const [frame, errorType, code] of cases) {
      const r = await p.ask(frame);
      expect(r.type).toBe('observation');
      const obs = r.data.observation;
      expect(obs.result).toBeNull();
      expect(Object.keys(obs.error).sort()).toEqual(['error_type', 'message']);
      expect(obs.error.error_type).toBe(errorType);
      expect(typeof obs.error.message).toBe('string');
      expect(r.data.metadata.seahaven_error.code).toBe(code);
      expect(r.data.metadata.seahaven_error.message).toBe(obs.error.message);
    }
    const invalid = await p.ask(call('create_contact', { email: 'x' }));
    expect(
      invalid.data.metadata.seahaven_error.details.violations
        .map((v: { path: string }) => v.path)
        .sort(),
    ).toEqual(['email', 'name']);
    await p.close();
  });

  it('accepts pydantic-style actions: metadata is ignored and a missing type means call_tool', async () => {
    const p = await openReset();
    const a = await p.ask({ type: 'step', data: { type: 'list_tools', metadata: {} } });
    expect(a.data.observation.tools).toBeDefined();
    const b = await p.ask({
      type: 'step',
      data: { tool_name: 'pipeline_summary', arguments: {}, metadata: {} },
    });
    expect(b.data.observation.result.data.stages).toBeInstanceOf(Array);
    await p.close();
  });

  it('counts every step, failed calls included, but not refused frames, state or mcp; a reset starts again at 0', async () => {
    const p = await openReset({ fixture: 'small_startup', seed: 2, episode_id: 'a' });
    const count = async () => (await p.ask({ type: 'state' })).data.step_count;
    expect(await count()).toBe(0);
    await p.ask({ type: 'step', data: { type: 'list_tools' } });
    await p.ask(call('pipeline_summary'));
    await p.ask(call('no_such_tool'));
    expect(await count()).toBe(3);
    await p.ask({ type: 'step', data: { type: 'call_tool' } });
    await p.ask({ type: 'step', data: { type: 'dance' } });
    await p.ask({ type: 'step' });
    await p.ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(await count()).toBe(3);
    const r = await p.ask({ type: 'reset', data: { fixture: 'small_startup' } });
    expect(r.data.metadata.episode_id).not.toBe('a');
    const s = (await p.ask({ type: 'state' })).data;
    expect(s).toMatchObject({
      step_count: 0,
      episode_id: r.data.metadata.episode_id,
      format: 'seahaven.state/1',
      call_count: 0,
      changes: [],
    });
    await p.close();
  });

  it('answers state with episode_id, step_count and the state document', async () => {
    const p = await openReset({ fixture: 'small_startup', seed: 3, clock: 'tick' });
    await p.ask(call('create_company', { name: 'Analytical Engines' }));
    const s = await p.ask({ type: 'state' });
    expect(s.type).toBe('state');
    expect(Object.keys(s.data).slice(0, 2)).toEqual(['episode_id', 'step_count']);
    expect(s.data).toMatchObject({
      world: { name: 'crm', version: '1.0.0' },
      fixture: { id: 'small_startup' },
      seed: 3,
      clock: { mode: 'tick' },
      call_count: 1,
    });
    expect(s.data.changes).toHaveLength(1);
    expect(s.data.changes[0]).toMatchObject({
      table: 'companies',
      op: 'insert',
      after: { name: 'Analytical Engines' },
    });
    await p.close();
  });

  it('sends each error code with its shape and keeps the session and its state after the recoverable ones', async () => {
    const p = await openReset();
    await p.ask(call('create_company', { name: 'Kept' }));
    const invalidJson = await p.ask('{not json');
    expect(invalidJson).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    expect(typeof invalidJson.data.message).toBe('string');
    expect(await p.ask({ type: 'dance' })).toMatchObject({
      type: 'error',
      data: { code: 'UNKNOWN_TYPE' },
    });
    expect(await p.ask({ data: {} })).toMatchObject({
      type: 'error',
      data: { code: 'UNKNOWN_TYPE' },
    });
    const v = await p.ask({ type: 'reset', data: { fixture: 'small_startup', colour: 'blue' } });
    expect(v).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(v.data.errors).toEqual([
      expect.objectContaining({ type: 'extra_forbidden', loc: ['data', 'colour'] }),
    ]);
    expect(v.data.message).toContain('colour');
    expect(await p.ask([1, 2])).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR' },
    });
    // Nothing was created or replaced by the refused reset: the earlier write is still there.
    const s = await p.ask({ type: 'state' });
    expect(s.data.changes).toHaveLength(1);
    expect(s.data.step_count).toBe(1);
    await p.close();
  });

  it('refuses bad reset data before creating anything, with errors that name the fix', async () => {
    const p = await openReset();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ seed: -1 }, 'seed', 'whole number'],
      [{ seed: 1.5 }, 'seed', 'whole number'],
      [{ clock: 'slow' }, 'clock', "'fixed' or 'tick'"],
      [{ now: 'yesterday' }, 'now', 'ISO-8601'],
      [{ now: '2020-01-01T00:00:00Z', fixture: 'small_startup' }, 'now', 'earlier'],
      [{ fixture: 'huge' }, 'fixture', 'small_startup'],
      [{ task: 'nope' }, 'task', 'no task'],
      [{ curriculum: 'basics' }, 'curriculum', 'curricula are not configured'],
      [{ run_id: 'r1' }, 'run_id', 'curricula are not configured'],
      [{ reward_mode: 'dense' }, 'reward_mode', "'final' or 'shaped'"],
    ];
    for (const [data, field, text] of cases) {
      const r = await p.ask({ type: 'reset', data });
      expect(r.data.code, JSON.stringify(data)).toBe('VALIDATION_ERROR');
      expect(r.data.errors[0].loc).toEqual(['data', field]);
      expect(r.data.errors[0].msg).toContain(text);
    }
    expect((await p.ask({ type: 'state' })).data.seed).toBe(1);
    await p.close();
  });

  it('keeps two sessions on the same fixture isolated while they interleave', async () => {
    const [a, b] = await Promise.all([openReset(), openReset()]);
    for (let i = 0; i < 5; i++) {
      a.send(call('create_contact', { name: `A ${i}`, email: `a${i}@example.com` }));
      b.send(call('create_company', { name: `B ${i}` }));
    }
    for (let i = 0; i < 5; i++) {
      expect((await a.next()).json.data.observation.error).toBeNull();
      expect((await b.next()).json.data.observation.error).toBeNull();
    }
    const sa = (await a.ask({ type: 'state' })).data;
    const sb = (await b.ask({ type: 'state' })).data;
    expect(sa.changes.map((c: { table: string }) => c.table)).toEqual(Array(5).fill('contacts'));
    expect(sb.changes.map((c: { table: string }) => c.table)).toEqual(Array(5).fill('companies'));
    const seen = await b.ask(call('search_contacts', { query: 'a0@example.com' }));
    expect(seen.data.observation.result.data.contacts).toEqual([]);
    // The same email is free in B's world, taken in A's.
    expect(
      (await b.ask(call('create_contact', { name: 'B', email: 'a0@example.com' }))).data.observation
        .error,
    ).toBeNull();
    expect(
      (await a.ask(call('create_contact', { name: 'A', email: 'a0@example.com' }))).data.metadata
        .seahaven_error.code,
    ).toBe('conflict');
    await Promise.all([a.close(), b.close()]);
  });

  it('answers mcp frames with JSON-RPC on the session instance, without counting steps', async () => {
    const p = await openReset();
    const list = await p.ask({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(list).toMatchObject({ type: 'mcp', data: { jsonrpc: '2.0', id: 1 } });
    expect(list.data.result.tools).toHaveLength(crm.tools.length);
    const made = await p.ask({
      type: 'mcp',
      data: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'create_company', arguments: { name: 'Via MCP' } },
      },
    });
    expect(made.data.result.data.name).toBe('Via MCP');
    expect(made.data.result.is_error).toBe(false);
    const failed = await p.ask({
      type: 'mcp',
      data: {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_contact', arguments: { id: 'x' } },
      },
    });
    expect(failed.data.error).toMatchObject({
      code: -32603,
      data: { error_type: 'execution_error', seahaven_error: { code: 'not_found' } },
    });
    const created = await p.ask({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 4, method: 'openenv/session/create' },
    });
    const own = created.data.result.session_id;
    expect(typeof own).toBe('string');
    expect(
      (
        await p.ask({
          type: 'mcp',
          data: {
            jsonrpc: '2.0',
            id: 5,
            method: 'openenv/session/close',
            params: { session_id: own },
          },
        })
      ).data.error.code,
    ).toBe(-32600);
    expect((await p.ask({ type: 'mcp', data: 'nope' })).data.code).toBe('VALIDATION_ERROR');
    const s = (await p.ask({ type: 'state' })).data;
    expect(s.step_count).toBe(0);
    expect(s.changes).toHaveLength(1);
    await p.close();
  });

  it('tears the session down on a close frame without replying', async () => {
    const before = server.sessions.size;
    const p = await openReset();
    expect(server.sessions.size).toBe(before + 1);
    p.send({ type: 'close' });
    const closed = await p.closed;
    expect(closed.code).toBe(1000);
    expect(server.sessions.size).toBe(before);
  });

  it('destroys the session when the client disconnects, and logs nothing for a clean or abrupt disconnect', async () => {
    const before = server.sessions.size;
    const a = await openReset();
    const b = await openReset();
    expect(server.sessions.size).toBe(before + 2);
    await a.close();
    b.ws.terminate();
    await b.closed;
    await expect.poll(() => server.sessions.size).toBe(before);
    expect(logged).toEqual([]);
  });

  it('a reset to the same fixture starts from the fixture again, as a fresh session would', async () => {
    const p = await openReset({ fixture: 'small_startup', seed: 4 });
    const fresh = await openReset({ fixture: 'small_startup', seed: 4 });
    const list = await p.ask(call('search_contacts', { query: 'a', limit: 1 }));
    const contact = list.data.observation.result.data.contacts[0];
    await p.ask(call('update_contact', { id: contact.id, name: 'Renamed in episode one' }));
    await p.ask(call('create_company', { name: 'Made in episode one' }));
    expect((await p.ask({ type: 'state' })).data.changes.length).toBe(2);
    await p.ask({ type: 'reset', data: { fixture: 'small_startup', seed: 4 } });
    for (const probe of [p, fresh]) {
      const state = (await probe.ask({ type: 'state' })).data;
      expect(state.changes).toEqual([]);
      expect(state.step_count).toBe(0);
    }
    const again = await p.ask(call('get_contact', { id: contact.id }));
    const want = await fresh.ask(call('get_contact', { id: contact.id }));
    expect(again.data.observation.result.data).toEqual(want.data.observation.result.data);
    expect(again.data.observation.result.data.name).toBe(contact.name);
    const made = await p.ask(call('create_company', { name: 'Made in episode two' }));
    const madeFresh = await fresh.ask(call('create_company', { name: 'Made in episode two' }));
    expect(made.data.observation.result.data).toEqual(madeFresh.data.observation.result.data);
    await p.close();
    await fresh.close();
  });

  it('answers frames that arrive with the upgrade request itself exactly once, in order', async () => {
    const { connect } = await import('node:net');
    const masked = (text: string): Buffer => {
      const payload = Buffer.from(text);
      expect(payload.length).toBeLessThan(126);
      const mask = Buffer.from([1, 2, 3, 4]);
      return Buffer.concat([
        Buffer.from([0x81, 0x80 | payload.length]),
        mask,
        Buffer.from(payload.map((b, i) => b ^ mask[i % 4])),
      ]);
    };
    const url = new URL(server.url);
    const sock = connect(Number(url.port), url.hostname);
    await new Promise((r) => sock.once('connect', r));
    const frames = [
      JSON.stringify({ type: 'reset', data: { seed: 3 } }),
      JSON.stringify({ type: 'state' }),
      JSON.stringify({ type: 'state' }),
    ];
    // The request and the first frames leave in one write, so they reach the server before its session exists.
    sock.write(
      Buffer.concat([
        Buffer.from(
          `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
        ...frames.map(masked),
      ]),
    );
    let got = Buffer.alloc(0);
    const types = (): string[] => {
      const text = got.toString('latin1');
      const body = got.subarray(text.indexOf('\r\n\r\n') + 4);
      const out: string[] = [];
      for (let i = 0; i + 2 <= body.length;) {
        let len = body[i + 1] & 0x7f;
        let at = i + 2;
        if (len === 126) {
          if (at + 2 > body.length) break;
          len = body.readUInt16BE(at);
          at += 2;
        }
        if (at + len > body.length) break;
        out.push(JSON.parse(body.subarray(at, at + len).toString()).type);
        i = at + len;
      }
      return out;
    };
    await new Promise<void>((resolve) =>
      sock.on(
        'data',
        (d: Buffer) => ((got = Buffer.concat([got, d])), types().length >= 3 && resolve()),
      ),
    );
    // Anything answered twice would show up within a few more turns of the loop.
    await new Promise((r) => setTimeout(r, 50));
    expect(got.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    expect(types()).toEqual(['observation', 'state', 'state']);
    sock.destroy();
  });

  it('serves a second world under its name; the first answers at the root and under its name', async () => {
    const notes = defineWorld({
      name: 'notes',
      version: '2.0.0',
      schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;',
      tools: [
        defineTool({
          name: 'add_note',
          description: 'Add a note.',
          input: z.object({ body: z.string() }),
          run: (ctx, { body }) => ctx.db.run('INSERT INTO notes (body) VALUES (?)', body),
        }),
      ],
    });
    const two = await startServer({ worlds: [crm, notes], port: 0 });
    try {
      for (const [prefix, world] of [
        ['', 'crm'],
        ['/crm', 'crm'],
        ['/notes', 'notes'],
      ]) {
        const p = await WireProbe.open(wsUrl(two, prefix));
        const s = await p.ask({ type: 'state' });
        expect(s.data.world.name).toBe(world);
        await p.close();
      }
    } finally {
      await two.close();
    }
  });
});
