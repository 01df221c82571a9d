import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { createMcpHttpHandler } from '../mcp/index.ts';
import { MAX_JSON_DEPTH, jsonTooDeep } from './json-limits.ts';
import {
  consoleRoutes,
  serveCurricula,
  startServer,
  type RunningServer,
  type ServedCurricula,
} from './index.ts';
import { MCP_HEADERS, initializeText, rawHttp } from './test-fixtures/raw-http.ts';
import { WireProbe } from './wire-probe.ts';

// Hostile input over real sockets: whatever a frame or body holds, it gets exactly one answer, a client error rather
// than a server error, and no answer names a file on the server.

const PROTO_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const deep = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

let dir: string;
let served: ServedCurricula;
let server: RunningServer;
const logged: string[] = [];
const wsUrl = () => `${server.url.replace('http', 'ws')}/ws`;
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

/** No reply may show where the server keeps its files. */
function expectNoPath(text: string): void {
  expect(text).not.toContain(process.cwd());
  expect(text).not.toMatch(/(?:^|[\s"'(])\/(?:work|tmp|home|usr|var|Users)\//);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'seahaven-robust-'));
  served = serveCurricula({ worlds: [crm], path: join(dir, 'c.sqlite') });
  const mcp = createMcpHttpHandler({ world: crm, defaults: { fixture: 'small_startup' } });
  const web = consoleRoutes();
  server = await startServer({
    worlds: [crm],
    port: 0,
    logger: (l) => logged.push(l),
    hooks: served.hooks,
    mcpHttp: mcp,
    publicRoutes: web.publicRoutes,
    extend: (app, s) => {
      web.extend(app, s);
      served.extend(app, s);
    },
  });
});
afterAll(async () => {
  await server.close();
  served.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the nesting limit', () => {
  it('is found by a scan of the raw text, strings and escapes skipped', () => {
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(deepObject(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(`{"a": "${'['.repeat(500)}"}`)).toBe(false);
    expect(jsonTooDeep(`{"a": "\\"${'['.repeat(500)}\\\\"}`)).toBe(false);
    expect(jsonTooDeep(`["\\\\", ${deep(MAX_JSON_DEPTH)}]`)).toBe(true);
    expect(jsonTooDeep(deep(200_000))).toBe(true);
  });
});

describe('every WebSocket frame gets exactly one reply, in order', () => {
  it('answers deep nesting, binary frames, garbage and invalid UTF-8 each with one error, then keeps going', async () => {
    const p = await WireProbe.open(wsUrl());
    const frames: [string | Buffer, boolean, string][] = [
      [deep(6000), false, 'VALIDATION_ERROR'],
      ['{"type":"state"}', false, 'state'],
      [
        `{"type":"reset","data":{"fixture":${deep(5000, '"small_startup"')}}}`,
        false,
        'VALIDATION_ERROR',
      ],
      [
        `{"type":"step","data":{"type":"call_tool","tool_name":"create_company","arguments":{"name":${deepObject(8000)}}}}`,
        false,
        'VALIDATION_ERROR',
      ],
      [
        `{"type":"mcp","data":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deep(3000)}}}`,
        false,
        'VALIDATION_ERROR',
      ],
      [Buffer.from([0x00, 0xff, 0x13, 0x37]), true, 'INVALID_JSON'],
      [Buffer.from([0xff, 0xfe, 0x7b, 0x22]), false, 'INVALID_JSON'],
      ['}{', false, 'INVALID_JSON'],
      [deep(60), false, 'VALIDATION_ERROR'],
      ['{"type":"step","data":{"type":"list_tools"}}', false, 'observation'],
    ];
    for (const [frame, binary] of frames) p.ws.send(frame, { binary });
    const replies = [];
    for (let i = 0; i < frames.length; i++) replies.push((await p.next()).json);
    expect(replies.map((r) => (r.type === 'error' ? r.data.code : r.type))).toEqual(
      frames.map((f) => f[2]),
    );
    expect(replies[0].data.errors[0]).toMatchObject({
      type: 'too_deep',
      msg: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`),
    });
    // Nothing more is on its way: the next reply answers the next frame.
    const r = await p.ask({ type: 'reset', data: { fixture: 'small_startup', seed: 3 } });
    expect(r.data.observation.seed).toBe(3);
    const made = await p.ask({
      type: 'step',
      data: { type: 'call_tool', tool_name: 'create_company', arguments: { name: 'Still Here' } },
    });
    expect(made.data.observation.result.data.name).toBe('Still Here');
    expect((await p.ask({ type: 'state' })).data.step_count).toBe(1);
    await p.close();
  });

  it('a client that hangs up with calls in flight loses its session and nothing else: other sessions go on, nothing is logged', async () => {
    const before = server.sessions.size;
    const bystander = await WireProbe.open(wsUrl());
    await bystander.ask({ type: 'reset', data: { fixture: 'small_startup', seed: 5 } });
    const logs = logged.length;
    for (let round = 0; round < 5; round++) {
      const leaver = await WireProbe.open(wsUrl());
      await leaver.ask({ type: 'reset', data: { fixture: 'small_startup', seed: round } });
      for (let i = 0; i < 50; i++)
        leaver.ws.send(
          JSON.stringify({
            type: 'step',
            data: {
              type: 'call_tool',
              tool_name: 'create_company',
              arguments: { name: `Left ${round}/${i}` },
            },
          }),
        );
      if (round % 2 === 0) leaver.ws.terminate();
      else leaver.ws.close();
      // The bystander's calls interleave with the leaver's queued ones and are all answered.
      const made = await bystander.ask({
        type: 'step',
        data: {
          type: 'call_tool',
          tool_name: 'create_company',
          arguments: { name: `Stayed ${round}` },
        },
      });
      expect(made.data.observation.result.data.name).toBe(`Stayed ${round}`);
      await leaver.closed;
    }
    await expect.poll(() => server.sessions.size).toBe(before + 1);
    const state = (await bystander.ask({ type: 'state' })).data;
    expect(state.step_count).toBe(5);
    expect(state.changes.map((c: { after: { name: string } }) => c.after.name).sort()).toEqual(
      [0, 1, 2, 3, 4].map((r) => `Stayed ${r}`),
    );
    expect(logged.slice(logs)).toEqual([]);
    await bystander.close();
  });

  it('answers a frame whose reply cannot be built with an internal error and a log line under the same reference', async () => {
    const ep = server.endpoints.get('crm')!;
    const p = await WireProbe.open(wsUrl());
    const original = ep.reply;
    ep.reply = () => {
      throw new Error(`broken while reading ${join(process.cwd(), 'secret.sqlite')}`);
    };
    try {
      p.send({ type: 'state' });
      const failed = (await p.next()).json;
      expect(failed.data.code).toBe('EXECUTION_ERROR');
      expectNoPath(JSON.stringify(failed));
      const ref = /server error (\w+)/.exec(failed.data.message)![1];
      expect(logged.some((l) => l.includes(ref) && l.includes('secret.sqlite'))).toBe(true);
    } finally {
      ep.reply = original;
    }
    expect((await p.ask({ type: 'state' })).type).toBe('state');
    await p.close();
  });
});

describe('HTTP and JSON-RPC answer malformed bodies with client errors', () => {
  it('refuses deep nesting with 422 (HTTP) and -32600 (JSON-RPC), garbage with 422 and -32700', async () => {
    for (const [path, body] of [
      ['/reset', deep(6000)],
      ['/reset', `{"fixture":${deep(5000, '"x"')}}`],
      [
        '/step',
        `{"action":{"type":"call_tool","tool_name":"create_company","arguments":${deepObject(7000)}}}`,
      ],
    ]) {
      const r = await post(path, body);
      expect(r.status).toBe(422);
      expect((await r.json()).detail[0]).toMatchObject({ type: 'too_deep', loc: ['body'] });
    }
    expect((await post('/reset', '{"fixture": ')).status).toBe(422);
    const rpc = async (body: string) => {
      const r = await post('/mcp', body);
      expect(r.status).toBe(200);
      return (await r.json()).error.code;
    };
    expect(await rpc(deep(6000))).toBe(-32600);
    expect(
      await rpc(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pipeline_summary","arguments":${deepObject(5000)}}}`,
      ),
    ).toBe(-32600);
    expect(await rpc('{"jsonrpc": "2.0", "id": 1, "meth')).toBe(-32700);
    expect(await rpc('{}')).toBe(-32600);
    // Found by the fuzzer: a request without "jsonrpc" was routed to its session_id before being checked.
    expect(await rpc('{"method":"tools/list","params":{"session_id":""}}')).toBe(-32600);
    expect(
      await rpc(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pipeline_summary","arguments":5}}',
      ),
    ).toBe(-32602);
  });

  it('answers MCP initialize with deeply nested capabilities with -32600, and starts sessions with ordinary ones', async () => {
    const refused = await rawHttp(`${server.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: initializeText(deepObject(6000)),
    });
    expect(refused.json().error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('deeper than'),
    });
    const ok = await rawHttp(`${server.url}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: initializeText(`{"experimental":{"x":${deep(40)}}}`),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toBeTruthy();
    await rawHttp(`${server.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': String(ok.headers['mcp-session-id']) },
    });
  });
});

describe('names are looked up among their own keys only', () => {
  it('refuses prototype names as fixture, task, curriculum and tool over the WebSocket', async () => {
    const p = await WireProbe.open(wsUrl());
    for (const name of PROTO_NAMES) {
      const fixture = await p.ask({ type: 'reset', data: { fixture: name } });
      expect(fixture.data).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: [
          {
            loc: ['data', 'fixture'],
            msg: expect.stringContaining(
              `has no fixture "${name}"; its fixtures are empty, small_startup`,
            ),
          },
        ],
      });
      const task = await p.ask({ type: 'reset', data: { task: name } });
      expect(task.data.errors[0]).toMatchObject({
        loc: ['data', 'task'],
        msg: expect.stringContaining(`has no task "${name}"`),
      });
      const curriculum = await p.ask({ type: 'reset', data: { curriculum: name } });
      expect(curriculum.data.errors[0]).toMatchObject({
        loc: ['data', 'curriculum'],
        msg: expect.stringContaining(name),
      });
      const tool = await p.ask({
        type: 'step',
        data: { type: 'call_tool', tool_name: name, arguments: {} },
      });
      expect(tool.data.observation.error.error_type).toBe('tool_not_found');
      for (const r of [fixture, task, curriculum, tool]) expectNoPath(JSON.stringify(r));
    }
    // The session never left its episode.
    expect((await p.ask({ type: 'state' })).data).toMatchObject({
      fixture: { id: 'empty' },
      call_count: 0,
    });
    await p.close();
  });

  it('refuses them over HTTP, JSON-RPC, MCP and the console with client errors that name the known ones', async () => {
    for (const name of PROTO_NAMES) {
      const reset = await post('/reset', JSON.stringify({ fixture: name }), {
        'x-session-id': 'proto',
      });
      expect(reset.status).toBe(422);
      const text = await reset.text();
      expect(text).toContain(`has no fixture \\"${name}\\"; its fixtures are empty, small_startup`);
      expectNoPath(text);
      expect((await post('/reset', JSON.stringify({ task: name }))).status).toBe(422);
      const call = await (
        await post(
          '/mcp',
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name, arguments: {} },
          }),
        )
      ).json();
      expect(call.error).toMatchObject({ code: -32603, data: { error_type: 'tool_not_found' } });
      for (const query of [
        `fixture=${encodeURIComponent(name)}`,
        `task=${encodeURIComponent(name)}`,
      ]) {
        const init = await rawHttp(`${server.url}/mcp?${query}`, {
          method: 'POST',
          headers: MCP_HEADERS,
          body: initializeText(),
        });
        expect(init.json().error).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/has no (fixture|task)/),
        });
        expectNoPath(init.text);
      }
      const world = await post('/console/api/sessions', JSON.stringify({ world: name }));
      expect(world.status).toBe(404);
      expect((await world.json()).detail).toContain('the worlds are crm');
      expect(
        (await fetch(`${server.url}/console/api/sessions/${encodeURIComponent(name)}/x`)).status,
      ).toBe(404);
      expect((await fetch(`${server.url}/${encodeURIComponent(name)}/health`)).status).toBe(404);
    }
  });
});
