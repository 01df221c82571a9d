import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startServer } from './index.ts';
import { WireProbe } from './wire-probe.ts';
import { seahaven } from '../../core/test/cli-in-process.ts';

const call = (name: string) => ({
  type: 'step',
  data: { type: 'call_tool', tool_name: 'create_company', arguments: { name } },
});

describe('startServer', () => {
  it('binds 127.0.0.1 by default and reports the port it got for port 0', async () => {
    const s = await startServer({ worlds: [crm], port: 0 });
    try {
      expect(s.host).toBe('127.0.0.1');
      expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
      expect(s.port).toBeGreaterThan(0);
      expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'healthy' });
    } finally {
      await s.close();
    }
  });

  it('shuts down gracefully: queued frames are answered, then every socket closes with 1001 and sessions end', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inHook = new Promise<void>((r) => (entered = r));
    const s = await startServer({
      worlds: [crm],
      port: 0,
      hooks: {
        resolveReset: async () => {
          entered();
          await new Promise<void>((r) => (release = r));
          return { fixture: 'small_startup' };
        },
      },
    });
    const a = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
    const b = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
    a.send({ type: 'reset', data: { run_id: 'r1' } });
    for (let i = 0; i < 5; i++) a.send(call(`A${i}`));
    await inHook;
    const session = [...s.sessions.list()].find((x) => x.busy)!;
    await expect.poll(() => session.pending).toBe(5);
    const closing = s.close();
    // Frames that arrive after shutdown began are answered in order with SESSION_ERROR, not run.
    a.send(call('late'));
    await expect.poll(() => session.pending).toBe(6);
    release();
    const replies = [];
    for (let i = 0; i < 7; i++) replies.push((await a.next()).json);
    expect(replies[0].data.observation.fixture).toBe('small_startup');
    expect(replies.slice(1, 6).map((r) => r.data.observation.result.data.name)).toEqual([
      'A0',
      'A1',
      'A2',
      'A3',
      'A4',
    ]);
    expect(replies[6]).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR' } });
    expect((await a.closed).code).toBe(1001);
    expect(await b.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    await closing;
    expect(s.sessions.size).toBe(0);
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();
  });

  it('requires the bearer token on the WebSocket upgrade', async () => {
    const s = await startServer({ worlds: [crm], port: 0, token: 'tok' });
    const url = `${s.url.replace('http', 'ws')}/ws`;
    try {
      await expect(WireProbe.open(url)).rejects.toThrow(/401/);
      const p = await WireProbe.open(url, { authorization: 'Bearer tok' });
      expect((await p.ask({ type: 'state' })).type).toBe('state');
      await p.close();
      const r = await fetch(`${s.url}/health`);
      expect(r.status).toBe(401);
      expect((await r.json()).detail).toMatch(/bearer token/);
    } finally {
      await s.close();
    }
  });
});

describe('seahaven serve (the npm start command)', () => {
  it('starts on a free port, prints the URL and a client snippet, answers /health, and exits cleanly on SIGTERM', async () => {
    const bin = fileURLToPath(new URL('../../bin/seahaven.mjs', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        bin,
        'serve',
        '--port',
        '0',
        '--curricula-db',
        join(mkdtempSync(join(tmpdir(), 'seahaven-serve-')), 'runs.sqlite'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SEAHAVEN_TOKEN: '' } },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no URL printed; stdout: ${out} stderr: ${err}`)),
        15_000,
      );
      child.stdout.on('data', (d) => {
        out += d;
        const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    try {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
      await expect.poll(() => out).toContain('Press Ctrl+C');
      expect(out).toContain(`SeahavenClient.connect('${url}')`);
      expect(out).toContain(`GenericEnvClient(base_url="${url}")`);
      // MCP Streamable HTTP and OpenEnv JSON-RPC share /mcp.
      const init = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
      expect(init.headers.get('mcp-session-id')).toBeTruthy();
      const rpc = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect((await rpc.json()).result.tools.length).toBeGreaterThan(0);
      // The console (page and API) and the curricula progress route are both mounted.
      expect(out).toContain(`console:          ${url}/console/`);
      expect((await fetch(`${url}/console/`)).status).toBe(200);
      expect(
        (
          (await (await fetch(`${url}/console/api/worlds`)).json()) as {
            worlds: { name: string }[];
          }
        ).worlds.map((w) => w.name),
      ).toEqual(['crm']);
      const progress = await fetch(`${url}/curricula/crm-basics/runs/never-started`);
      expect(progress.status).toBe(404);
      expect(await progress.json()).toMatchObject({ error: expect.anything() });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(err).toContain('SIGTERM');
  });

  it('refuses bad flags with a one-line error and exit code 2', async () => {
    // In process: the port is checked before anything starts.
    const r = await seahaven(['serve', '--port', 'eighty']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('seahaven: --port must be a whole number >= 0; got "eighty"');
  });
});
