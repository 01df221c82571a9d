import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { createMcpHttpHandler } from '../mcp/index.ts';
import { consoleRoutes, startServer, type ServerOptions } from './index.ts';
import { MCP_HEADERS, initializeText, rawHttp } from './test-fixtures/raw-http.ts';
import { WireProbe } from './wire-probe.ts';

// One capacity for every transport: WebSocket, HTTP, OpenEnv JSON-RPC and MCP Streamable HTTP sessions count together,
// each transport is refused in its own words once the server is full, and all of them are listed in the console.

async function serve(options: Partial<ServerOptions> = {}) {
  const mcp = createMcpHttpHandler({ world: crm });
  const server = await startServer({
    worlds: [crm],
    port: 0,
    mcpHttp: mcp,
    ...consoleRoutes(),
    logger: () => {},
    ...options,
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const initialize = () =>
    rawHttp(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: initializeText() });
  return {
    server,
    mcp,
    post,
    initialize,
    ws: () => WireProbe.open(`${server.url.replace('http', 'ws')}/ws`),
  };
}

describe('--max-sessions across transports', () => {
  it('fills with a mix of WebSocket, HTTP, JSON-RPC and MCP sessions, then refuses each transport with its capacity error', async () => {
    const { server, mcp, post, initialize, ws } = await serve({ maxSessions: 4 });
    try {
      const socket = await ws();
      expect((await socket.ask({ type: 'state' })).type).toBe('state');
      expect(
        (await post('/reset', { fixture: 'small_startup' }, { 'x-session-id': 'curl' })).status,
      ).toBe(200);
      const created = await (
        await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'openenv/session/create' })
      ).json();
      expect(created.result.session_id).toBeTruthy();
      const init = await initialize();
      const mcpId = String(init.headers['mcp-session-id']);
      expect(init.status).toBe(200);
      expect(mcpId).not.toBe('undefined');
      expect(server.sessions.size).toBe(4);

      const full = { active_sessions: 4, max_sessions: 4 };
      const refusedSocket = await ws();
      expect((await refusedSocket.next()).json.data).toMatchObject({
        code: 'CAPACITY_REACHED',
        ...full,
      });
      expect((await refusedSocket.closed).code).toBe(1000);
      const refusedHttp = await post('/reset', {}, { 'x-session-id': 'second' });
      expect(refusedHttp.status).toBe(503);
      expect(await refusedHttp.json()).toMatchObject({
        detail: expect.stringContaining('--max-sessions'),
        ...full,
      });
      const refusedRpc = await (
        await post('/mcp', { jsonrpc: '2.0', id: 2, method: 'openenv/session/create' })
      ).json();
      expect(refusedRpc.error).toMatchObject({ code: -32000, data: full });
      const refusedMcp = await initialize();
      expect(refusedMcp.status).toBe(200);
      expect(refusedMcp.json().error).toMatchObject({
        code: -32000,
        message: expect.stringContaining('--max-sessions'),
        data: { code: 'CAPACITY_REACHED', ...full },
      });
      expect(mcp.activeSessions()).toBe(1);

      // The console lists every one of them, the MCP session with its owner.
      const listed = (await (await fetch(`${server.url}/console/api/sessions`)).json())
        .sessions as { id: string; owner: string; drivable: boolean }[];
      expect(listed.map((s) => s.owner).sort()).toEqual(['http', 'mcp', 'mcp-http', 'ws']);
      expect(listed.find((s) => s.owner === 'mcp-http')).toMatchObject({
        id: mcpId,
        drivable: false,
      });
      // An MCP session belongs to its client: HTTP routes and JSON-RPC session ids cannot drive or close it.
      expect(
        (await fetch(`${server.url}/state`, { headers: { 'x-session-id': mcpId } })).status,
      ).toBe(409);
      const close = await (
        await post('/mcp', {
          jsonrpc: '2.0',
          id: 3,
          method: 'openenv/session/close',
          params: { session_id: mcpId },
        })
      ).json();
      expect(close.error.code).toBe(-32602);

      // Ending the MCP session frees its place for any transport.
      await rawHttp(`${server.url}/mcp`, {
        method: 'DELETE',
        headers: { 'mcp-session-id': mcpId },
      });
      expect(server.sessions.size).toBe(3);
      const next = await ws();
      expect((await next.ask({ type: 'state' })).type).toBe('state');
      await next.close();
      await socket.close();
    } finally {
      await server.close();
      await mcp.close();
    }
    expect(mcp.activeSessions()).toBe(0);
  });

  it('ends idle MCP sessions with the others, and at shutdown', async () => {
    // The reaper is run with its clock given (its timer is ws-limits.test.ts's), so no test waits out a timeout.
    const { server, mcp, initialize } = await serve({ idleTimeoutMs: 60_000 });
    const reap = (later = 0) => server.sessions.reapIdle(performance.now() + later);
    try {
      const id = String((await initialize()).headers['mcp-session-id']);
      expect(mcp.activeSessions()).toBe(1);
      expect(reap(30_000)).toBe(0);
      expect(mcp.activeSessions()).toBe(1);
      expect(reap(61_000)).toBe(1);
      await expect.poll(() => mcp.activeSessions()).toBe(0);
      expect(server.sessions.size).toBe(0);
      const gone = await rawHttp(`${server.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': id },
        body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      });
      expect(gone.status).toBe(404);
      // A session in use is kept: every request counts as activity. Each round it is made to look a minute idle, then
      // asked something.
      const busy = String((await initialize()).headers['mcp-session-id']);
      for (let i = 0; i < 3; i++) {
        for (const s of server.sessions.list()) s.lastActive -= 61_000;
        const r = await rawHttp(`${server.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-session-id': busy },
          body: `{"jsonrpc":"2.0","id":${i},"method":"tools/list"}`,
        });
        expect(r.status).toBe(200);
        expect(reap()).toBe(0);
      }
      expect(mcp.activeSessions()).toBe(1);
    } finally {
      await server.close();
    }
    expect(mcp.activeSessions()).toBe(0);
    await mcp.close();
  });
});
