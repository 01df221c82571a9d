import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { crm } from '../../../../worlds/crm/index.ts';
import notes from '../../libraries/curricula/test-fixtures/notes-world.ts';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { recordGold } from './test-fixtures/wire-gold.ts';
import { expectCreateContact, expectSessionsApart } from '../mcp/test-fixtures/crm-sessions.ts';
import { initializeMessage } from '../mcp/test-fixtures/initialize.ts';

// MCP Streamable HTTP against the real `seahaven serve` command (two worlds, so both /mcp and /<world>/mcp), with
// the official SDK client; and OpenEnv's JSON-RPC still answering on the same path of the same server.

const NOTES_MODULE = fileURLToPath(
  new URL('../../libraries/curricula/test-fixtures/notes-world.ts', import.meta.url),
);

let cwd: string;
let serve: ServeProcess;
const opened: { client: Client; transport: StreamableHTTPClientTransport }[] = [];

beforeAll(async () => {
  // No --curricula-db: the runs file goes to .data/curricula.sqlite under the working directory.
  cwd = mkdtempSync(join(tmpdir(), 'seahaven-serve-mcp-'));
  serve = await spawnServe(['crm', NOTES_MODULE], { cwd });
});
afterAll(async () => {
  for (const s of opened) await s.client.close();
  const code = await serve.stop('SIGTERM');
  rmSync(cwd, { recursive: true, force: true });
  expect(code).toBe(0);
  expect(serve.stderr()).not.toMatch(/unhandled|failed|Error/);
});

async function open(path: string) {
  const transport = new StreamableHTTPClientTransport(new URL(path, serve.url));
  const client = new Client({ name: 'serve-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  const s = { client, transport };
  opened.push(s);
  return s;
}

async function end(s: { client: Client; transport: StreamableHTTPClientTransport }) {
  await s.transport.terminateSession();
  await s.client.close();
  opened.splice(opened.indexOf(s), 1);
}

const rpc = async (path: string, body: unknown) => {
  const r = await fetch(`${serve.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return r.json();
};

describe('MCP Streamable HTTP on seahaven serve', () => {
  it("lists the world's tools at /mcp, calls one, and answers bad arguments with isError", async () => {
    const s = await open('/mcp?fixture=small_startup&seed=3');
    expect(s.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.client.getServerVersion()).toMatchObject({ name: 'crm', version: '1.0.0' });
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(crm.toolListings().map((t) => t.name));
    expect(tools.find((t) => t.name === 'create_contact')!.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['name', 'email']),
    });

    await expectCreateContact(s.client);
    const unknown = await s.client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    await end(s);
  });

  it('serves each world at /<world>/mcp', async () => {
    const c = await open('/crm/mcp');
    const n = await open('/notes/mcp');
    expect(c.client.getServerVersion()?.name).toBe('crm');
    expect(n.client.getServerVersion()?.name).toBe(notes.mcp.name);
    expect((await n.client.listTools()).tools.map((t) => t.name)).toEqual(
      notes.toolListings().map((t) => t.name),
    );
    expect(
      (await n.client.callTool({ name: 'add_tag', arguments: { name: 'work', color: 'blue' } }))
        .structuredContent,
    ).toEqual({ name: 'work', color: 'blue' });
    // A session belongs to the world that started it.
    const elsewhere = await fetch(`${serve.url}/crm/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': n.transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(elsewhere.status).toBe(404);
    await end(c);
    await end(n);
  });

  it('keeps two HTTP sessions apart, each with its own instance', async () => {
    const a = await open('/crm/mcp?fixture=small_startup');
    const b = await open('/crm/mcp?fixture=small_startup');
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    await expectSessionsApart(a.client, b.client);
    const id = a.transport.sessionId!;
    await end(a);
    // An ended session's id is unknown: MCP clients start over on -32001.
    const gone = await fetch(`${serve.url}/crm/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001 } });
    await end(b);
  });

  it('plays a task named in the query string: its fixture, and its prompt in the instructions', async () => {
    const s = await open('/mcp?task=add_lead');
    expect(s.client.getInstructions()).toContain(crm.task('add_lead')!.prompt);
    const gold = recordGold(crm, 'add_lead');
    for (const c of gold.calls) {
      const r = await s.client.callTool({ name: c.tool, arguments: c.args });
      expect(r.structuredContent).toEqual(c.outcome.ok ? c.outcome.result : c.outcome.error);
    }
    // Tools only: nothing lets the agent read its grade or its changes.
    await expect(s.client.listResources()).rejects.toThrow(/-32601/);
    await end(s);
  });

  it('refuses a foreign Host (DNS rebinding) on the loopback server', async () => {
    const url = new URL('/mcp', serve.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(initializeMessage(1, 'x')));
    });
    expect(status).toBe(403);
  });
});

describe('OpenEnv JSON-RPC on the same /mcp path', () => {
  it('lists and calls tools, on throwaway and named sessions, while an MCP session is open', async () => {
    const mcp = await open('/mcp?fixture=small_startup');
    for (const base of ['', '/crm']) {
      const list = await rpc(`${base}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(
        crm.toolListings().map((t) => t.name),
      );
      expect(list.result.tools[0]).toEqual({
        name: 'search_contacts',
        description: expect.any(String),
        input_schema: expect.objectContaining({ type: 'object' }),
      });
      const oneOff = await rpc(`${base}/mcp`, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'pipeline_summary', arguments: {} },
      });
      expect(oneOff.result).toMatchObject({ is_error: false, data: { stages: expect.any(Array) } });

      const sid = (
        await rpc(`${base}/mcp`, { jsonrpc: '2.0', id: 3, method: 'openenv/session/create' })
      ).result.session_id;
      await rpc(`${base}/mcp`, {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'create_company', arguments: { name: 'Kept' }, session_id: sid },
      });
      const seen = await rpc(`${base}/mcp`, {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'list_companies', arguments: { query: 'Kept' }, session_id: sid },
      });
      expect(seen.result.data.companies.map((c: { name: string }) => c.name)).toEqual(['Kept']);
      const fail = await rpc(`${base}/mcp`, {
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
        await rpc(`${base}/mcp`, {
          jsonrpc: '2.0',
          id: 7,
          method: 'openenv/session/close',
          params: { session_id: sid },
        }),
      ).toEqual({ jsonrpc: '2.0', id: 7, result: { session_id: sid, closed: true } });
    }
    // The MCP session saw none of it.
    const kept = await mcp.client.callTool({
      name: 'list_companies',
      arguments: { query: 'Kept' },
    });
    expect((kept.structuredContent as { companies: unknown[] }).companies).toEqual([]);
    await end(mcp);
  });

  it('uses the JSON-RPC error codes', async () => {
    const parse = await fetch(`${serve.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(parse.status).toBe(200);
    expect((await parse.json()).error.code).toBe(-32700);
    expect((await rpc('/mcp', {})).error.code).toBe(-32600);
    expect((await rpc('/mcp', [])).error.code).toBe(-32600);
    expect((await rpc('/mcp', { jsonrpc: '1.0', id: 1, method: 'tools/list' })).error.code).toBe(
      -32600,
    );
    expect((await rpc('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/dance' })).error.code).toBe(
      -32601,
    );
    expect(
      (await rpc('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).error.code,
    ).toBe(-32602);
    expect(
      (
        await rpc('/mcp', {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'pipeline_summary', session_id: 'ghost' },
        })
      ).error.code,
    ).toBe(-32602);
    expect(
      (
        await rpc('/notes/mcp', {
          jsonrpc: '2.0',
          id: 1,
          method: 'openenv/session/close',
          params: { session_id: 'ghost' },
        })
      ).error.code,
    ).toBe(-32602);
  });
});

describe('seahaven serve defaults', () => {
  it('keeps curriculum runs in .data/curricula.sqlite under the working directory', async () => {
    expect(serve.stdout()).toContain(`runs file:        ${join(cwd, '.data', 'curricula.sqlite')}`);
    expect(existsSync(join(cwd, '.data', 'curricula.sqlite'))).toBe(true);
    // Both worlds' curricula are served from it.
    expect(serve.stdout()).toContain('curricula:        crm/crm-basics, notes/basics');
    const r = await fetch(`${serve.url}/curricula/basics/runs/none-yet`);
    expect(r.status).toBe(404);
    expect((await r.json()).error.code).toBe('unknown_run');
  });
});
