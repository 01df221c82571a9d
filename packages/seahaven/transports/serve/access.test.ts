import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { createMcpHttpHandler } from '../mcp/index.ts';
import { accessCheck, isLoopbackHost } from './access.ts';
import { consoleRoutes, startServer, type RunningServer, type ServerOptions } from './index.ts';
import { MCP_HEADERS, initializeText, rawHttp } from './test-fixtures/raw-http.ts';
import { WireProbe } from './wire-probe.ts';
import { compiledBin } from '../../core/test/compiled-copy.ts';

// Cross-site and DNS-rebinding protection on every route of a server without a token, over real sockets.

const JSON_TYPE = { 'content-type': 'application/json' };
const CALL = JSON.stringify({
  action: { type: 'call_tool', tool_name: 'create_company', arguments: { name: 'Injected' } },
});

async function serve(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const web = consoleRoutes();
  return startServer({
    worlds: [crm],
    port: 0,
    mcpHttp: createMcpHttpHandler({ world: crm }),
    ...web,
    logger: () => {},
    ...options,
  });
}

/** Open a WebSocket with these headers; resolves with the upgrade's refusal (status and message header) or the open socket. */
function upgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; refused?: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({
        status: res.statusCode!,
        refused: String(res.headers['x-seahaven-refused'] ?? ''),
      });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (e) =>
      e.message.includes('Unexpected server response') ? undefined : reject(e),
    );
  });
}

let server: RunningServer;
let host: string;
beforeAll(async () => {
  server = await serve();
  host = `127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
});

describe('the access check', () => {
  it('knows the loopback names', () => {
    for (const h of [
      'localhost',
      'localhost:8000',
      '127.0.0.1',
      '127.45.6.7:80',
      '[::1]:8000',
      '[::1]',
      '::1',
      'LOCALHOST',
    ])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of [
      'evil.example',
      '127.0.0.1.evil.example',
      'localhost.evil.example:8000',
      '[::2]:8000',
      '0.0.0.0',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it('compares an Origin with the Host it came to, and lets a token decide instead', () => {
    const check = accessCheck({ allowedOrigins: ['https://studio.example.com/'] });
    const req = (headers: Record<string, string>) => new Request('http://x/state', { headers });
    expect(check(req({ host: 'localhost:8000', origin: 'http://localhost:8000' }))).toBeUndefined();
    expect(
      check(req({ host: 'localhost:8000', origin: 'https://studio.example.com' })),
    ).toBeUndefined();
    expect(check(req({ host: 'localhost:8000', origin: 'http://localhost:6274' }))?.status).toBe(
      403,
    );
    expect(check(req({ host: 'localhost:8000', origin: 'null' }))?.status).toBe(403);
    expect(check(req({ host: 'localhost', origin: 'http://localhost' }))).toBeUndefined();
    expect(
      accessCheck({ token: 't' })(req({ host: 'evil.example', origin: 'http://evil.example' })),
    ).toBeUndefined();
  });
});

describe('without a token', () => {
  it('refuses a foreign Host on every kind of route with 403 naming --allow-host, and answers loopback names', async () => {
    const foreign = { host: 'attacker.example' };
    for (const [method, path, body] of [
      ['GET', '/state'],
      ['GET', '/health'],
      ['GET', '/console/'],
      ['GET', '/console/api/sessions'],
      ['POST', '/step', CALL],
      ['POST', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
      ['POST', '/mcp', initializeText()],
    ]) {
      const r = await rawHttp(`${server.url}${path}`, {
        method,
        headers: { ...MCP_HEADERS, ...foreign },
        body,
      });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.text).toContain('--allow-host attacker.example');
      expect(r.headers['x-seahaven-refused']).toContain('DNS rebinding');
    }
    for (const name of ['localhost', '127.0.0.1', '127.0.0.2', '[::1]']) {
      expect(
        (await rawHttp(`${server.url}/health`, { headers: { host: `${name}:${server.port}` } }))
          .status,
      ).toBe(200);
    }
    const ws = await upgrade(`ws://${host}/ws`, foreign);
    expect(ws.status).toBe(403);
    expect(ws.refused).toContain('--allow-host');
  });

  it("refuses browser requests from a foreign Origin, WebSocket upgrades included, and accepts the server's own pages", async () => {
    const evil = { origin: 'http://evil.example' };
    const step = await rawHttp(`${server.url}/step`, {
      method: 'POST',
      headers: { ...JSON_TYPE, ...evil },
      body: CALL,
    });
    expect(step.status).toBe(403);
    expect(step.json().detail).toContain('--allow-origin http://evil.example');
    const rpc = await rawHttp(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...JSON_TYPE, ...evil },
      body: '{"jsonrpc":"2.0","id":1,"method":"openenv/session/close","params":{"session_id":"default"}}',
    });
    expect(rpc.status).toBe(403);
    expect(rpc.json().error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('--allow-origin'),
    });
    const ws = await upgrade(`ws://${host}/ws`, evil);
    expect(ws.status).toBe(403);
    expect(ws.refused).toContain('--allow-origin http://evil.example');
    // The server's own origin (a console page) is same-site.
    const own = { origin: `http://${host}` };
    expect((await rawHttp(`${server.url}/state`, { headers: own })).status).toBe(200);
    const opened = await upgrade(`ws://${host}/ws`, own);
    expect(opened.status).toBe(101);
    opened.ws!.close();
  });

  it('takes only JSON bodies on the routes that change state, so a text/plain POST writes nothing', async () => {
    const before = await (await fetch(`${server.url}/state`)).json();
    for (const [path, type] of [
      ['/step', 'text/plain'],
      ['/reset', 'application/x-www-form-urlencoded'],
      ['/mcp', 'text/plain;charset=UTF-8'],
      ['/console/api/sessions', 'multipart/form-data; boundary=x'],
    ]) {
      const r = await rawHttp(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: CALL,
      });
      expect(r.status, path).toBe(415);
      expect(r.text).toContain('Content-Type: application/json');
    }
    expect((await rawHttp(`${server.url}/reset`, { method: 'POST', body: '{}' })).status).toBe(415);
    const after = await (await fetch(`${server.url}/state`)).json();
    expect(after.call_count).toBe(before.call_count);
    expect(
      (
        await rawHttp(`${server.url}/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
  });

  it('answers the hosts and origins it is told to allow, and the address it was bound to', async () => {
    const s = await serve({
      allowedHosts: ['space.example', 'pinned.example:443'],
      allowedOrigins: ['https://studio.example.com'],
    });
    try {
      const get = (headers: Record<string, string>) => rawHttp(`${s.url}/health`, { headers });
      expect((await get({ host: 'space.example' })).status).toBe(200);
      expect((await get({ host: 'space.example:8443' })).status).toBe(200);
      expect((await get({ host: 'pinned.example:443' })).status).toBe(200);
      expect((await get({ host: 'pinned.example:8443' })).status).toBe(403);
      expect(
        (await get({ host: 'space.example', origin: 'https://studio.example.com' })).status,
      ).toBe(200);
      expect(
        (await get({ host: 'space.example', origin: 'https://other.example.com' })).status,
      ).toBe(403);
      // The allowed origin gets CORS answers, so a front end there can call the server from the browser.
      const studio = { host: 'space.example', origin: 'https://studio.example.com' };
      const preflight = await rawHttp(`${s.url}/step`, {
        method: 'OPTIONS',
        headers: {
          ...studio,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': 'https://studio.example.com',
        'access-control-allow-methods': expect.stringContaining('POST'),
      });
      const stepped = await rawHttp(`${s.url}/step`, {
        method: 'POST',
        headers: { ...studio, ...JSON_TYPE },
        body: CALL,
      });
      expect(stepped.status).toBe(200);
      expect(stepped.headers['access-control-allow-origin']).toBe('https://studio.example.com');
      expect(
        (await get({ host: 'space.example', origin: 'http://localhost:1' })).headers[
          'access-control-allow-origin'
        ],
      ).toBeUndefined();
      const allowed = await upgrade(`ws://127.0.0.1:${s.port}/ws`, studio);
      expect(allowed.status).toBe(101);
      allowed.ws!.close();
    } finally {
      await s.close();
    }
  });

  it('warns when it listens beyond loopback, and still refuses names it was not given', async () => {
    const lines: string[] = [];
    const s = await serve({ host: '0.0.0.0', logger: (l) => lines.push(l) });
    try {
      expect(lines.join('\n')).toMatch(
        /warning: listening on 0\.0\.0\.0:\d+ without a token.*--token.*--allow-host/s,
      );
      expect((await rawHttp(`http://127.0.0.1:${s.port}/health`)).status).toBe(200);
      expect(
        (await rawHttp(`http://127.0.0.1:${s.port}/health`, { headers: { host: 'my-box.lan' } }))
          .status,
      ).toBe(403);
    } finally {
      await s.close();
    }
    const quiet: string[] = [];
    const local = await serve({ logger: (l) => quiet.push(l) });
    await local.close();
    expect(quiet).toEqual([]);
  });
});

describe('with a token', () => {
  it('lets the token decide instead of Host and Origin, and still wants JSON bodies', async () => {
    const s = await serve({ token: 'sekret' });
    try {
      const auth = {
        authorization: 'Bearer sekret',
        host: 'anything.example',
        origin: 'https://elsewhere.example',
      };
      expect((await rawHttp(`${s.url}/state`, { headers: auth })).status).toBe(200);
      expect(
        (await rawHttp(`${s.url}/state`, { headers: { host: 'anything.example' } })).status,
      ).toBe(401);
      expect(
        (
          await rawHttp(`${s.url}/step`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'text/plain' },
            body: CALL,
          })
        ).status,
      ).toBe(415);
      const ws = await WireProbe.open(`ws://127.0.0.1:${s.port}/ws`, auth);
      expect((await ws.ask({ type: 'state' })).type).toBe('state');
      await ws.close();
    } finally {
      await s.close();
    }
  });
});

describe('seahaven serve flags', () => {
  // The command line, compiled for the test suite (core/test/compiled-copy.ts).
  const bin = compiledBin();
  const run = async (args: string[]) => {
    const child = spawn(process.execPath, [...bin, 'serve', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, out, err };
  };

  it('documents --allow-host, --allow-origin and --body-timeout, and refuses a bad --body-timeout', async () => {
    const help = await run(['--help']);
    for (const flag of [
      '--allow-host <host>',
      '--allow-origin <origin>',
      '--body-timeout <seconds>',
    ])
      expect(help.out).toContain(flag);
    const bad = await run(['--body-timeout', '0']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe(
      'seahaven: --body-timeout must be a number of seconds > 0, like 10 or 0.5; got "0"',
    );
  });
});
