import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool, defineWorld, z } from '../index.ts';
import { createMcpHttpHandler } from '../../transports/mcp/http.ts';
import { startServer } from '../../transports/serve/server.ts';
import { spawnServe } from '../../transports/serve/test-fixtures/spawn-serve.ts';
import { WireProbe } from '../../transports/serve/wire-probe.ts';

// A call slower than a threshold is logged with its world, tool and duration, in one line; the caller can read every
// call's duration. `startServer({ slowCallMs })` and `seahaven serve --slow-call-ms` pass a threshold to every session's
// instance, whichever transport opened it; nothing is process-wide.

const world = defineWorld({
  name: 'timing',
  version: '1',
  schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
  tools: [
    defineTool({
      name: 'count_to',
      description: 'Count to n in SQL (takes time in proportion to n).',
      input: z.object({ n: z.number().int().min(1) }),
      run: (ctx, { n }) =>
        ctx.db.one(
          'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c',
          n,
        ),
    }),
  ],
});

describe('slow calls', () => {
  it('logs a call at or over the threshold, once, naming world, tool and duration', () => {
    const lines: string[] = [];
    const inst = world.instance({ logger: (l) => lines.push(l), slowCallMs: 50 });
    expect(inst.call('count_to', { n: 1 })).toEqual({ ok: true, result: { n: 1 } });
    expect(lines).toEqual([]);
    expect(inst.lastCallMs).toBeGreaterThanOrEqual(0);
    expect(inst.lastCallMs).toBeLessThan(50);
    // A million-row recursive CTE takes well over 50 ms (about 200 ms here).
    expect(inst.call('count_to', { n: 1_000_000 })).toEqual({ ok: true, result: { n: 1_000_000 } });
    expect(inst.lastCallMs).toBeGreaterThanOrEqual(50);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[seahaven\] slow call: timing\/count_to took \d+ ms \(instance inst_\w+, call 2\); nothing else ran on this thread meanwhile$/,
    );
    expect(Number(/took (\d+) ms/.exec(lines[0])![1])).toBe(Math.round(inst.lastCallMs));
    // A fork keeps the threshold.
    const fork = inst.fork();
    fork.call('count_to', { n: 1_000_000 });
    expect(lines).toHaveLength(2);
  });

  it('defaults to 1000 ms; Infinity turns it off; bad values are refused', async () => {
    const lines: string[] = [];
    expect(
      world.instance({ logger: (l) => lines.push(l) }).call('count_to', { n: 1 }),
    ).toMatchObject({ ok: true });
    world.instance({ logger: (l) => lines.push(l), slowCallMs: 0 }).call('count_to', { n: 1 });
    expect(lines).toHaveLength(1);
    world
      .instance({ logger: (l) => lines.push(l), slowCallMs: Infinity })
      .call('count_to', { n: 1_000_000 });
    expect(lines).toHaveLength(1);
    expect(() => world.instance({ slowCallMs: -1 })).toThrow(
      /slowCallMs must be a number of milliseconds >= 0 \(Infinity: never log\); got -1/,
    );
    await expect(startServer({ worlds: [world], port: 0, slowCallMs: Number.NaN })).rejects.toThrow(
      /createApp: slowCallMs must be a number of milliseconds >= 0/,
    );
  });

  it('startServer({ slowCallMs }) applies to WebSocket, HTTP and JSON-RPC sessions alike, and to no other server', async () => {
    const lines: string[] = [];
    const quiet: string[] = [];
    const server = await startServer({
      worlds: [world],
      port: 0,
      slowCallMs: 0,
      logger: (l) => lines.push(l),
    });
    const other = await startServer({ worlds: [world], port: 0, logger: (l) => quiet.push(l) });
    try {
      const p = await WireProbe.open(`${server.url.replace('http', 'ws')}/ws`);
      await p.ask({ type: 'reset', data: {} });
      expect(
        (
          await p.ask({
            type: 'step',
            data: { type: 'call_tool', tool_name: 'count_to', arguments: { n: 1 } },
          })
        ).type,
      ).toBe('observation');
      await p.close();
      await expect.poll(() => lines.length).toBe(1);
      const post = (url: string, path: string, body: unknown) =>
        fetch(url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      for (const url of [server.url, other.url]) {
        const reset = (await (await post(url, '/reset', {})).json()) as {
          metadata: { session_id: string };
        };
        expect(
          (
            await post(url, '/step', {
              session_id: reset.metadata.session_id,
              action: { type: 'call_tool', tool_name: 'count_to', arguments: { n: 2 } },
            })
          ).status,
        ).toBe(200);
        // Without a session, JSON-RPC calls on a throwaway instance: it gets the threshold too.
        expect(
          (
            await post(url, '/mcp', {
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'count_to', arguments: { n: 3 } },
            })
          ).status,
        ).toBe(200);
      }
      expect(lines).toHaveLength(3);
      expect(
        lines.every((l) => /^\[seahaven\] slow call: timing\/count_to took \d+ ms/.test(l)),
      ).toBe(true);
      expect(quiet).toEqual([]);
    } finally {
      await server.close();
      await other.close();
    }
  });

  it('createMcpHttpHandler({ slowCallMs }) passes it to each MCP session', async () => {
    const lines: string[] = [];
    const handler = createMcpHttpHandler({ world, slowCallMs: 0, logger: (l) => lines.push(l) });
    const client = new Client({ name: 'slow-call-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => handler(new Request(input, init)),
      }),
    );
    try {
      expect(
        (await client.callTool({ name: 'count_to', arguments: { n: 1 } })).isError,
      ).toBeFalsy();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/slow call: timing\/count_to/);
    } finally {
      await client.close();
      await handler.close();
    }
  });

  it('seahaven serve --slow-call-ms logs slow calls of every session to stderr', async () => {
    // The refused flag's process starts beside the served one.
    const bad = spawnServe(['crm', '--slow-call-ms', 'soon']).catch((e: Error) => e);
    const s = await spawnServe(['crm', '--slow-call-ms', '0']);
    try {
      const p = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
      expect((await p.ask({ type: 'reset', data: { fixture: 'small_startup' } })).type).toBe(
        'observation',
      );
      expect(
        (
          await p.ask({
            type: 'step',
            data: { type: 'call_tool', tool_name: 'search_contacts', arguments: { query: 'dana' } },
          })
        ).type,
      ).toBe('observation');
      await p.close();
      await expect
        .poll(() => s.stderr())
        .toMatch(
          /\[seahaven\] slow call: crm\/search_contacts took \d+ ms \(instance inst_\w+, call 1\)/,
        );
      // MCP Streamable HTTP sessions start their instances apart from OpenEnv's, with the same threshold.
      const client = new Client({ name: 'slow-call-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp?fixture=small_startup', s.url)),
      );
      await client.callTool({ name: 'list_companies', arguments: {} });
      await client.close();
      await expect.poll(() => s.stderr()).toMatch(/slow call: crm\/list_companies took/);
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0);
    }
    expect(String(await bad)).toContain('--slow-call-ms must be a whole number >= 0; got "soon"');
  }, 60_000);
});
