import { describe, expect, it } from 'vitest';
import { crm } from '../../../../../worlds/crm/index.ts';
import { initializeMessage } from '../../../transports/mcp/test-fixtures/initialize.ts';
import { mcpStreamableHttp } from './serve-services.ts';

// `seahaven serve` loads the MCP SDK on the first MCP request (serve-services.ts); the handler it hands the server
// must behave as the loaded one would, before, during and after that load.

const initialize = () =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      host: '127.0.0.1',
    },
    body: JSON.stringify(initializeMessage(1, 'lazy-test')),
  });

const handler = () =>
  mcpStreamableHttp([crm], () => undefined, {}, {}, { slowCallMs: Number.POSITIVE_INFINITY });

describe("seahaven serve's MCP Streamable HTTP handler", () => {
  it('has no sessions before its first request, starts one on initialize, and ends it at close', async () => {
    const mcp = handler();
    expect(mcp.activeSessions()).toBe(0);
    const res = await mcp(initialize());
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await res.body?.cancel();
    expect(mcp.activeSessions()).toBe(1);
    await mcp.close();
    expect(mcp.activeSessions()).toBe(0);
    expect((await mcp(initialize())).status).toBe(503);
  });

  it('answers 503 after a close that came before any request', async () => {
    const mcp = handler();
    await mcp.close();
    expect((await mcp(initialize())).status).toBe(503);
    expect(mcp.activeSessions()).toBe(0);
  });
});
