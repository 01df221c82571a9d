import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { createApp } from './index.ts';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

describe('openenv validate --url criteria', () => {
  const { app } = createApp({ worlds: [crm] });
  for (const base of ['', '/crm']) {
    it(`passes all six checks at "${base || '/'}"`, async () => {
      const openapi = await app.request(`${base}/openapi.json`);
      expect(openapi.status).toBe(200);
      const doc = await openapi.json();
      expect(doc.info.version).toBe('1.0.0');
      expect(typeof doc.info.version).toBe('string');
      const paths = Object.keys(doc.paths);
      expect(paths).toEqual(expect.arrayContaining(['/reset', '/step', '/state']));

      expect(await (await app.request(`${base}/health`)).json()).toEqual({ status: 'healthy' });

      const meta = await (await app.request(`${base}/metadata`)).json();
      expect(Object.keys(meta)).toEqual([
        'name',
        'description',
        'readme_content',
        'version',
        'author',
        'documentation_url',
      ]);
      expect(meta).toMatchObject({
        name: 'crm',
        version: '1.0.0',
        author: null,
        documentation_url: null,
      });
      expect(typeof meta.description).toBe('string');
      expect(meta.readme_content).toContain('small_startup');

      const schema = await (await app.request(`${base}/schema`)).json();
      for (const k of ['action', 'observation', 'state']) expect(schema[k]).toBeTypeOf('object');
      expect(schema.state.required).toEqual(['episode_id', 'step_count']);

      const mcp = await app.request(`${base}/mcp`, json({}));
      expect(mcp.status).toBe(200);
      const body = await mcp.json();
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.any(String) },
      });
    });
  }

  it('tells a browser where things are at the root and 404s unknown routes with JSON', async () => {
    const index = await (await app.request('/')).json();
    expect(index).toMatchObject({
      name: 'crm',
      openenv_base_url: '/',
      websocket: '/ws',
      worlds: ['/crm'],
    });
    expect((await (await app.request('/crm')).json()).websocket).toBe('/crm/ws');
    const missing = await app.request('/nope');
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toContain('/crm');
    const plain = await app.request('/ws');
    expect(plain.status).toBe(426);
  });
});

describe('HTTP /reset, /step, /state', () => {
  it('drives the shared default session and keeps X-Session-Id sessions apart', async () => {
    const { app, sessions } = createApp({ worlds: [crm] });
    const reset = await app.request('/reset', json({ fixture: 'small_startup', seed: 4 }));
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain('"reward":null');
    const step = await app.request(
      '/step',
      json({
        action: { type: 'call_tool', tool_name: 'create_company', arguments: { name: 'Shared' } },
      }),
    );
    const stepped = await step.text();
    // Only submit carries a reward in the default mode.
    expect(stepped).toContain('"reward":null');
    expect(JSON.parse(stepped).observation.result.data.name).toBe('Shared');

    const other = await app.request(
      '/reset',
      json({ fixture: 'small_startup', session_id: 'mine' }),
    );
    expect(other.status).toBe(200);
    await app.request(
      '/step',
      json(
        { action: { tool_name: 'create_company', arguments: { name: 'Mine' } } },
        { 'x-session-id': 'mine' },
      ),
    );

    const shared = await (await app.request('/state')).json();
    const mine = await (
      await app.request('/state', { headers: { 'x-session-id': 'mine' } })
    ).json();
    expect(shared).toMatchObject({ step_count: 1, seed: 4 });
    expect(shared.changes.map((c: { after: { name: string } }) => c.after.name)).toEqual([
      'Shared',
    ]);
    expect(mine.changes.map((c: { after: { name: string } }) => c.after.name)).toEqual(['Mine']);
    expect((await (await app.request('/state?session_id=mine')).json()).episode_id).toBe(
      mine.episode_id,
    );
    expect(sessions.size).toBe(2);
  });

  it('answers bad requests with FastAPI-style 422 bodies and creates nothing', async () => {
    const { app, sessions } = createApp({ worlds: [crm] });
    const cases: [string, RequestInit, (string | number)[]][] = [
      ['/reset', json('{"fixture": '), ['body', 0]],
      ['/reset', json({ fixture: 'small_startup', colour: 'red' }), ['body', 'colour']],
      ['/reset', json([1]), ['body']],
      ['/reset', json({ session_id: 'bad id!' }), ['body', 'session_id']],
      ['/step', json({}), ['body', 'action']],
      ['/step', json({ action: 'list' }), ['body', 'action']],
      ['/step', json({ action: { type: 'fly' } }), ['body', 'action', 'type']],
      [
        '/step',
        json({ action: { type: 'list_tools' } }, { 'x-session-id': 'never-reset' }),
        ['header', 'X-Session-Id'],
      ],
    ];
    for (const [path, init, loc] of cases) {
      const r = await app.request(path, init);
      expect(r.status, `${path} ${init.body}`).toBe(422);
      const body = await r.json();
      expect(Object.keys(body)).toEqual(['detail']);
      expect(body.detail[0]).toMatchObject({
        type: expect.any(String),
        loc,
        msg: expect.any(String),
      });
      expect(Object.keys(body.detail[0]).sort()).toEqual(['input', 'loc', 'msg', 'type']);
    }
    expect(sessions.size).toBe(0);
    const unknownFixture = await app.request(
      '/reset',
      json({ fixture: 'nope' }, { 'x-session-id': 'fresh' }),
    );
    expect(unknownFixture.status).toBe(422);
    expect(sessions.size).toBe(0);
  });

  it('refuses bodies over the limit with 413 and a message naming the flag', async () => {
    const { app } = createApp({ worlds: [crm], maxBodyBytes: 1024 });
    const r = await app.request('/reset', json({ episode_id: 'x'.repeat(2000) }));
    expect(r.status).toBe(413);
    expect((await r.json()).detail).toContain('--max-body-bytes');
    const m = await app.request(
      '/mcp',
      json({ jsonrpc: '2.0', id: 1, method: 'tools/list', pad: 'x'.repeat(2000) }),
    );
    expect(m.status).toBe(200);
    expect((await m.json()).error.code).toBe(-32600);
  });

  it('answers 503 with the counts when no session fits', async () => {
    const { app } = createApp({ worlds: [crm], maxSessions: 1 });
    expect((await app.request('/reset', json({}))).status).toBe(200);
    const r = await app.request('/reset', json({}, { 'x-session-id': 'second' }));
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ active_sessions: 1, max_sessions: 1 });
  });
});

describe('POST /mcp (OpenEnv JSON-RPC)', () => {
  const rpc = async (app: ReturnType<typeof createApp>['app'], body: unknown) => {
    const r = await app.request('/mcp', json(body));
    expect(r.status).toBe(200);
    return r.json();
  };

  it('lists tools, calls them on throwaway or named sessions, and closes sessions', async () => {
    const { app, sessions } = createApp({ worlds: [crm] });
    const list = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(list.result.tools[0]).toEqual({
      name: 'search_contacts',
      description: expect.any(String),
      input_schema: expect.objectContaining({ type: 'object' }),
    });

    const oneOff = await rpc(app, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'pipeline_summary', arguments: {} },
    });
    expect(oneOff.result).toMatchObject({ is_error: false, data: { stages: expect.any(Array) } });
    expect(sessions.size).toBe(0);

    const created = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'openenv/session/create' });
    const sid = created.result.session_id;
    expect(sessions.size).toBe(1);
    await rpc(app, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'create_company', arguments: { name: 'Kept' }, session_id: sid },
    });
    const seen = await rpc(app, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'list_companies', arguments: { query: 'Kept' }, session_id: sid },
    });
    expect(seen.result.data.companies.map((c: { name: string }) => c.name)).toEqual(['Kept']);
    const fail = await rpc(app, {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'create_company', arguments: {}, session_id: sid },
    });
    expect(fail).toMatchObject({
      id: 6,
      error: {
        code: -32603,
        data: { error_type: 'invalid_args', seahaven_error: { code: 'invalid_arguments' } },
      },
    });
    expect(
      await rpc(app, {
        jsonrpc: '2.0',
        id: 7,
        method: 'openenv/session/close',
        params: { session_id: sid },
      }),
    ).toEqual({ jsonrpc: '2.0', id: 7, result: { session_id: sid, closed: true } });
    expect(sessions.size).toBe(0);
  });

  it('uses the JSON-RPC error codes', async () => {
    const { app } = createApp({ worlds: [crm], maxSessions: 1 });
    expect((await (await app.request('/mcp', json('{oops'))).json()).error.code).toBe(-32700);
    expect((await rpc(app, [])).error.code).toBe(-32600);
    expect((await rpc(app, { jsonrpc: '1.0', id: 1, method: 'tools/list' })).error.code).toBe(
      -32600,
    );
    expect((await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/dance' })).error.code).toBe(
      -32601,
    );
    expect(
      (await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).error.code,
    ).toBe(-32602);
    expect(
      (await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' })).error.code,
    ).toBe(-32602);
    expect(
      (
        await rpc(app, {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'pipeline_summary', session_id: 'ghost' },
        })
      ).error.code,
    ).toBe(-32602);
    expect(
      (
        await rpc(app, {
          jsonrpc: '2.0',
          id: 1,
          method: 'openenv/session/close',
          params: { session_id: 'ghost' },
        })
      ).error.code,
    ).toBe(-32602);
    expect(
      (await rpc(app, { jsonrpc: '2.0', id: 'a', method: 'openenv/session/create' })).result
        .session_id,
    ).toBeTypeOf('string');
    const full = await rpc(app, { jsonrpc: '2.0', id: 'b', method: 'openenv/session/create' });
    expect(full).toMatchObject({
      id: 'b',
      error: { code: -32000, data: { active_sessions: 1, max_sessions: 1 } },
    });
  });

  it('hands MCP Streamable HTTP requests to the mcpHttp handler and keeps JSON-RPC for the rest', async () => {
    const seen: string[] = [];
    const { app } = createApp({
      worlds: [crm],
      mcpHttp: async (req, { world, parsedBody }) => {
        if (parsedBody !== undefined)
          expect(parsedBody).toEqual(JSON.parse(await req.clone().text()));
        seen.push(
          `${req.method} ${req.headers.get('mcp-session-id') ?? '-'} ${req.method === 'POST' ? await req.text() : ''} ${world.name}`.trim(),
        );
        return new Response('{"delegated":true}', {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18' },
    };
    expect(await (await app.request('/mcp', json(init))).json()).toEqual({ delegated: true });
    expect(
      await (
        await app.request(
          '/mcp',
          json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 's1' }),
        )
      ).json(),
    ).toEqual({ delegated: true });
    expect(
      (await app.request('/mcp', { method: 'GET', headers: { 'mcp-session-id': 's1' } })).status,
    ).toBe(200);
    expect(
      (
        await (
          await app.request('/mcp', json({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))
        ).json()
      ).result.tools,
    ).toBeDefined();
    expect(seen).toEqual([
      `POST - ${JSON.stringify(init)} crm`,
      `POST s1 ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })} crm`,
      'GET s1  crm',
    ]);
    const { app: plain } = createApp({ worlds: [crm] });
    expect((await plain.request('/mcp', { method: 'GET' })).status).toBe(405);
  });
});

describe('bearer token and extensions', () => {
  it('requires the token on every route, including added ones, with a JSON 401', async () => {
    const { app } = createApp({
      worlds: [crm],
      token: 's3cret',
      extend: (a, server) => a.get('/console', (c) => c.json({ sessions: server.sessions.size })),
    });
    for (const path of ['/health', '/crm/metadata', '/openapi.json', '/console', '/ws']) {
      const r = await app.request(path);
      expect(r.status, path).toBe(401);
      expect((await r.json()).detail).toContain('Authorization: Bearer');
    }
    expect(
      (await app.request('/health', { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const ok = await app.request('/health', { headers: { authorization: 'Bearer s3cret' } });
    expect(await ok.json()).toEqual({ status: 'healthy' });
    expect(
      await (await app.request('/console', { headers: { authorization: 'Bearer s3cret' } })).json(),
    ).toEqual({ sessions: 0 });
  });

  it('refuses configurations that cannot work', () => {
    expect(() => createApp({ worlds: [] })).toThrow(/at least one world/);
    expect(() => createApp({ worlds: [crm, crm] })).toThrow(/two worlds are named "crm"/);
    expect(() => createApp({ worlds: [crm], maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => createApp({ worlds: [crm], defaultFixtures: { crm: 'nope' } })).toThrow(
      /no fixture "nope"/,
    );
    expect(() => createApp({ worlds: [crm], token: '' })).toThrow(/token is empty/);
  });
});

describe('MCP Streamable HTTP beside OpenEnv JSON-RPC', () => {
  it('serves an MCP session through createMcpHttpHandler on the same /mcp path', async () => {
    const { createMcpHttpHandler } = await import('../mcp/index.ts');
    const mcp = createMcpHttpHandler({ world: crm, defaults: { fixture: 'small_startup' } });
    const { app } = createApp({ worlds: [crm], mcpHttp: mcp });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await app.request('/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      }),
    });
    expect(init.status).toBe(200);
    const sid = init.headers.get('mcp-session-id')!;
    expect(sid).toBeTruthy();
    expect((await init.json()).result.serverInfo).toBeDefined();
    await app.request('/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const called = await app.request('/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_companies', arguments: { limit: 2 } },
      }),
    });
    const result = (await called.json()).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.companies).toHaveLength(2);
    // OpenEnv's JSON-RPC still answers on the same path.
    expect(
      (
        await (
          await app.request('/mcp', json({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))
        ).json()
      ).result.tools[0].input_schema,
    ).toBeDefined();
    expect(mcp.activeSessions()).toBe(1);
    await mcp.close();
  });
});
