import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { crm } from '../../../../worlds/crm/index.ts';
import { createMcpHttpHandler, isMcpRequest, type McpHttpHandler } from './http.ts';
import { expectCreateContact, expectSessionsApart } from './test-fixtures/crm-sessions.ts';
import { initializeMessage } from './test-fixtures/initialize.ts';

type Contacts = { contacts: { email: string }[] };

let mcp: McpHttpHandler;
let server: ServerType;
let base: string;

beforeAll(async () => {
  mcp = createMcpHttpHandler({ world: crm, defaults: { fixture: 'small_startup' } });
  const app = new Hono();
  // Mounted the way the OpenEnv server does: plain JSON-RPC on the same path goes elsewhere.
  app.all('/mcp', async (c) => {
    const body: unknown =
      c.req.method === 'POST' ? await c.req.json().catch(() => undefined) : undefined;
    if (!isMcpRequest(c.req.raw, body))
      return c.json({
        jsonrpc: '2.0',
        id: (body as { id?: unknown })?.id ?? null,
        result: { handledBy: 'openenv' },
      });
    return mcp(c.req.raw, { parsedBody: body });
  });
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await mcp.close();
  await new Promise((resolve) => server.close(resolve));
});

async function open(path = '/mcp', capabilities: Record<string, unknown> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(path, base));
  const client = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP Streamable HTTP', () => {
  it('lists tools, calls one, and reports bad arguments as isError', async () => {
    const { client, transport } = await open('/mcp?seed=3');
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'crm', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('create_contact');

    await expectCreateContact(client);
    await transport.terminateSession();
    await client.close();
  });

  it('gives each session its own instance', async () => {
    const a = await open();
    const b = await open();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(mcp.activeSessions()).toBe(2);
    await expectSessionsApart(a.client, b.client);
    for (const s of [a, b]) {
      await s.transport.terminateSession();
      await s.client.close();
    }
    expect(mcp.activeSessions()).toBe(0);
  });

  it('takes reset options from initialize and refuses a bad fixture without opening a session', async () => {
    const { client, transport } = await open('/mcp', {
      experimental: { seahaven: { fixture: 'empty', seed: 9 } },
    });
    const listed = await client.callTool({ name: 'list_contacts', arguments: {} });
    expect((listed.structuredContent as Contacts).contacts).toEqual([]);
    await transport.terminateSession();
    await client.close();

    await expect(open('/mcp?fixture=nope')).rejects.toThrow(
      /^MCP error -32602: world "crm" has no fixture "nope"; its fixtures are/,
    );
    await expect(open('/mcp', { experimental: { seahaven: { fixtur: 'empty' } } })).rejects.toThrow(
      /unknown key\(s\) "fixtur"/,
    );
    expect(mcp.activeSessions()).toBe(0);
  });

  it('ends a session on DELETE; its id is then unknown', async () => {
    const { client, transport } = await open();
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(mcp.activeSessions()).toBe(0);
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { code: -32001, message: expect.stringContaining('start a new one with initialize') },
    });
    await client.close();
  });

  it('leaves OpenEnv JSON-RPC on the same path alone', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { handledBy: 'openenv' } });
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL('/mcp', base);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...headers,
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'x', version: '1' },
            },
          }),
        );
      });
    const foreign = await post({ host: 'evil.example:8000' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({
      error: {
        code: -32000,
        message: expect.stringContaining('Host "evil.example:8000" is not allowed'),
      },
    });
    const foreignOrigin = await post({ origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).toContain('add it to allowedOrigins');
    expect(mcp.activeSessions()).toBe(0);
    // A page served from localhost may connect.
    const local = await post({ host: 'localhost:8000', origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
    expect(mcp.activeSessions()).toBe(1);
  });
});

describe('createMcpHttpHandler in process', () => {
  const inProcess = (handler: McpHttpHandler, url = 'http://127.0.0.1/mcp') => {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => handler(new Request(input, init)),
    });
    return { client: new Client({ name: 'in-process', version: '1.0.0' }), transport };
  };

  it('reaps idle sessions and destroys their instances', async () => {
    const handler = createMcpHttpHandler({ world: crm, idleTimeoutMs: 40 });
    const { client, transport } = inProcess(handler);
    await client.connect(transport);
    expect(handler.activeSessions()).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(handler.activeSessions()).toBe(0);
    await expect(client.listTools()).rejects.toThrow(/Session not found/);
    await handler.close();
  });

  it('refuses sessions beyond maxSessions with a capacity error', async () => {
    const handler = createMcpHttpHandler({ world: crm, maxSessions: 1 });
    const first = inProcess(handler);
    await first.client.connect(first.transport);
    const second = inProcess(handler);
    await expect(second.client.connect(second.transport)).rejects.toThrow(
      /capacity reached: 1 of 1 MCP sessions are open/,
    );
    await first.transport.terminateSession();
    await second.client.connect(inProcess(handler).transport);
    await handler.close();
    expect(handler.activeSessions()).toBe(0);
    const after = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }),
    );
    expect(after.status).toBe(503);
  });

  it('routes by world and keeps a session to the world that started it', async () => {
    const other = { ...crm } as typeof crm;
    const handler = createMcpHttpHandler({
      world: (req) => ({ '/crm/mcp': crm, '/other/mcp': other })[new URL(req.url).pathname],
    });
    const { client, transport } = inProcess(handler, 'http://127.0.0.1/crm/mcp');
    await client.connect(transport);
    const elsewhere = await handler(
      new Request('http://127.0.0.1/other/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(elsewhere.status).toBe(404);
    const nowhere = await handler(
      new Request('http://127.0.0.1/nope/mcp', { method: 'POST', body: '{}' }),
    );
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({
      error: { message: 'no world is served at /nope/mcp' },
    });
    await handler.close();
  });

  it('lets the mounting server start instances by its own rules', async () => {
    const seen: unknown[] = [];
    const handler = createMcpHttpHandler({
      world: crm,
      startInstance: (world, reset) => {
        seen.push(reset);
        if (reset.seed === 13) throw new McpError(-32602, 'seed 13 is unlucky; pick another');
        return world.instance({ ...reset, fixture: 'empty' });
      },
    });
    const { client, transport } = inProcess(handler, 'http://127.0.0.1/mcp?seed=4');
    await client.connect(transport);
    const listed = await client.callTool({ name: 'list_contacts', arguments: {} });
    expect((listed.structuredContent as Contacts).contacts).toEqual([]);
    const unlucky = inProcess(handler, 'http://127.0.0.1/mcp?seed=13');
    await expect(unlucky.client.connect(unlucky.transport)).rejects.toThrow(
      /^MCP error -32602: seed 13 is unlucky; pick another$/,
    );
    expect(seen).toEqual([{ seed: 4 }, { seed: 13 }]);
    expect(handler.activeSessions()).toBe(1);
    await handler.close();
  });

  it('answers GET with 405, bad JSON with a parse error, and requests without a session with 400', async () => {
    const handler = createMcpHttpHandler({ world: crm });
    const get = await handler(
      new Request('http://127.0.0.1/mcp', { headers: { accept: 'text/event-stream' } }),
    );
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    const parse = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{oops' }),
    );
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ error: { code: -32700 } });
    const noSession = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({
      error: { message: expect.stringContaining('start a session with initialize') },
    });
    // A handshake the transport refuses (no Accept header) leaves no session behind.
    const refused = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(initializeMessage(1, 'x')),
      }),
    );
    expect(refused.status).toBe(406);
    expect(handler.activeSessions()).toBe(0);
    await handler.close();
  });
});

describe('isMcpRequest', () => {
  const post = (headers: Record<string, string> = {}) =>
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
  it('tells MCP from OpenEnv JSON-RPC', () => {
    expect(isMcpRequest(post(), { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBe(
      true,
    );
    expect(
      isMcpRequest(post({ 'mcp-session-id': 'abc' }), {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
      }),
    ).toBe(true);
    expect(isMcpRequest(new Request('http://127.0.0.1/mcp', { method: 'DELETE' }), undefined)).toBe(
      true,
    );
    expect(isMcpRequest(post(), { jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe(false);
    expect(
      isMcpRequest(post(), {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'x', arguments: {} },
      }),
    ).toBe(false);
    expect(isMcpRequest(post(), { jsonrpc: '2.0', id: 1, method: 'openenv/session/create' })).toBe(
      false,
    );
    expect(isMcpRequest(post(), {})).toBe(false);
    expect(isMcpRequest(post(), undefined)).toBe(false);
  });
});
