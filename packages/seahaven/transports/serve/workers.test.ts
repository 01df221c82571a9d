/**
 * `seahaven serve --workers 2`, the real command line: sessions on both workers, requests handed over to the worker
 * holding their session, one global --max-sessions, /health and the console across workers, a worker killed and
 * replaced (its WebSocket clients told why, the other worker's sessions untouched), and a drain on SIGTERM. One server
 * for the whole file, in order (each step builds on the sessions of the ones before), to keep it quick.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { WireProbe } from './wire-probe.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** One request on a connection of its own, so the cluster deals successive requests to different workers. */
function send(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url + path,
      {
        method,
        agent: false,
        headers: {
          ...(text === undefined
            ? {}
            : {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              }),
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            json: data === '' ? null : JSON.parse(data),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const NOTES = fileURLToPath(new URL('./test-fixtures/notes-face-world.ts', import.meta.url));
const call = (name: string) => ({
  type: 'step',
  data: { type: 'call_tool', tool_name: 'create_company', arguments: { name } },
});
const health = async (url: string) => (await send(url, 'GET', '/health')).json;

describe('seahaven serve --workers 2', () => {
  let s: ServeProcess;
  const sockets: WireProbe[] = [];
  /** The worker holding each HTTP session. */
  const ownerOf = new Map<string, string>();
  beforeAll(async () => {
    s = await spawnServe(['crm', NOTES, '--workers', '2', '--max-sessions', '16'], {
      timeoutMs: 60_000,
    });
  }, 70_000);
  afterAll(async () => {
    for (const p of sockets) p.ws.terminate();
    await s?.stop('SIGKILL');
  });

  it('prints one banner with its workers, and /health reports both', async () => {
    expect(s.stdout().match(/^seahaven serve: /gm)).toHaveLength(1);
    expect(s.stdout()).toMatch(/workers: +2 processes/);
    const h = await health(s.url);
    expect(h).toMatchObject({ status: 'healthy', sessions: 0, max_sessions: 16 });
    expect(h.workers.map((w: { worker: number; ready: boolean }) => [w.worker, w.ready])).toEqual([
      [0, true],
      [1, true],
    ]);
  });

  it('deals WebSocket sessions to both workers; each stays on its worker', async () => {
    for (let i = 0; i < 4; i++)
      sockets.push(await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`));
    for (const [i, p] of sockets.entries()) {
      expect((await p.ask({ type: 'reset', data: { fixture: 'small_startup' } })).type).toBe(
        'observation',
      );
      expect((await p.ask(call(`Sock ${i}`))).data.observation.result.data.name).toBe(`Sock ${i}`);
    }
    // A fork token names the worker that holds the fork, and adopts it once, on a connection to either worker.
    const fork = await sockets[0].ask({ type: 'step', data: { type: 'fork' } });
    const token = fork.data.observation.fork.token as string;
    expect(token).toMatch(/^fork_w[01]-/);
    const others = await Promise.all(
      [0, 1, 2].map(() => WireProbe.open(`${s.url.replace('http', 'ws')}/ws`)),
    );
    const tries = [];
    for (const p of others) tries.push(await p.ask({ type: 'reset', data: { fork_token: token } }));
    expect(
      tries.filter((t) => t.type === 'observation' && t.data.observation.forked_from !== undefined),
    ).toHaveLength(1);
    expect(
      tries.filter((t) => t.type === 'error' && /already used/.test(JSON.stringify(t.data))),
    ).toHaveLength(2);
    for (const p of others) await p.close();
    for (const p of sockets) await p.ask({ type: 'reset', data: { fixture: 'small_startup' } });
    // A worker reports its count as a session opens; the other workers hear of it a moment later.
    await expect
      .poll(async () => (await health(s.url)).workers.map((w: { sessions: number }) => w.sessions))
      .toEqual([2, 2]);
  });

  it('hands HTTP session requests over to the worker holding the session, wherever they land', async () => {
    const owners = new Set<string>();
    let handedOver = 0;
    for (const id of ['alpha', 'beta', 'gamma', 'delta']) {
      const r = await send(s.url, 'POST', '/reset', {}, { 'x-session-id': id });
      expect(r.status).toBe(200);
      const owner = r.headers['x-seahaven-worker'] as string;
      owners.add(owner);
      ownerOf.set(id, owner);
      for (let i = 1; i <= 4; i++) {
        const step = await send(
          s.url,
          'POST',
          '/step',
          {
            action: {
              type: 'call_tool',
              tool_name: 'create_company',
              arguments: { name: `${id} ${i}` },
            },
          },
          { 'x-session-id': id },
        );
        expect(step.status).toBe(200);
        expect(step.headers['x-seahaven-worker']).toBe(owner);
        if (step.headers['x-seahaven-entry-worker'] !== undefined) handedOver++;
      }
      const state = await send(s.url, 'GET', `/state?session_id=${id}`);
      expect(state.json.step_count).toBe(4);
      expect(state.headers['x-seahaven-worker']).toBe(owner);
    }
    expect(owners.size).toBe(2);
    expect(handedOver).toBeGreaterThan(0);
  });

  it('hands MCP Streamable HTTP and JSON-RPC session requests over too', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    };
    const started = await send(s.url, 'POST', '/mcp', init);
    expect(started.status).toBe(200);
    const id = started.headers['mcp-session-id'] as string;
    expect(id).toMatch(new RegExp(`^w${started.headers['x-seahaven-worker']}-`));
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await send(
        s.url,
        'POST',
        '/mcp',
        {
          jsonrpc: '2.0',
          id: 2 + i,
          method: 'tools/call',
          params: { name: 'create_company', arguments: { name: `Mcp ${i}` } },
        },
        { 'mcp-session-id': id },
      );
      expect(r.status).toBe(200);
      expect(r.json.result.structuredContent.name).toBe(`Mcp ${i}`);
      seen.add(String(r.headers['x-seahaven-entry-worker'] ?? r.headers['x-seahaven-worker']));
    }
    expect(seen.size).toBe(2);
    // OpenEnv JSON-RPC: a session made on one worker, called through both.
    const rpc = await send(s.url, 'POST', '/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'openenv/session/create',
    });
    const sid = rpc.json.result.session_id as string;
    for (let i = 0; i < 3; i++) {
      const r = await send(s.url, 'POST', '/mcp', {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { session_id: sid, name: 'create_company', arguments: { name: `Rpc ${i}` } },
      });
      expect(r.json.result.is_error ?? r.json.result.isError ?? false).toBe(false);
    }
    const closed = await send(s.url, 'POST', '/mcp', {
      jsonrpc: '2.0',
      id: 3,
      method: 'openenv/session/close',
      params: { session_id: sid },
    });
    expect(closed.json.result).toEqual({ session_id: sid, closed: true });
  });

  it("reaches a face key's account wherever its requests land: issued keys on their session, unbound keys on one account each", async () => {
    const issued = await send(s.url, 'POST', '/notes/reset', {}, { 'x-session-id': 'notes-a' });
    const key = issued.json.metadata.api_key as string;
    const owner = issued.headers['x-seahaven-worker'];
    const landed = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await send(
        s.url,
        'POST',
        '/api/notes',
        { text: `n${i}` },
        { authorization: `Bearer ${key}` },
      );
      expect(r.status).toBe(200);
      expect(r.headers['x-seahaven-worker']).toBe(owner);
      landed.add(String(r.headers['x-seahaven-entry-worker'] ?? owner));
    }
    expect(landed.size).toBe(2);
    expect(
      (await send(s.url, 'GET', '/api/notes', undefined, { authorization: `Bearer ${key}` })).json,
    ).toHaveLength(4);
    // A key no session was issued: one account, whichever worker each request lands on.
    for (let i = 0; i < 3; i++)
      await send(
        s.url,
        'POST',
        '/api/notes',
        { text: `u${i}` },
        { authorization: 'Bearer key_unbound' },
      );
    expect(
      (
        await send(s.url, 'GET', '/api/notes', undefined, { authorization: 'Bearer key_unbound' })
      ).json
        .map((n: { text: string }) => n.text)
        .sort(),
    ).toEqual(['u0', 'u1', 'u2']);
    const sessions = (await send(s.url, 'GET', '/console/api/sessions')).json.sessions as {
      world: string;
      owner: string;
    }[];
    expect(
      sessions
        .filter((x) => x.world === 'notes')
        .map((x) => x.owner)
        .sort(),
    ).toEqual(['http', 'http-key']);
    await send(s.url, 'POST', '/notes/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'openenv/session/close',
      params: { session_id: 'notes-a' },
    });
  });

  it("counts --max-sessions across workers, and the console lists every worker's sessions", async () => {
    // The sockets, HTTP, MCP and face sessions of the tests before are open; fill the rest from alternating workers.
    const open = (await health(s.url)).sessions as number;
    const room = 16 - open;
    expect(room).toBeGreaterThan(1);
    const extra: Answer[] = [];
    for (let i = 0; i < room + 2; i++) {
      // An id belongs to the worker its hash picks: one whose places are all taken refuses "for now" while it takes
      // free ones over from the other, and a retry a moment later opens it.
      let r = await send(s.url, 'POST', '/reset', {}, { 'x-session-id': `fill-${i}` });
      for (
        let retry = 0;
        retry < 50 && r.status === 503 && / for now: /.test(r.json.detail);
        retry++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        r = await send(s.url, 'POST', '/reset', {}, { 'x-session-id': `fill-${i}` });
      }
      extra.push(r);
    }
    expect(extra.slice(0, room).map((r) => r.status)).toEqual(Array(room).fill(200));
    for (const r of extra.slice(room))
      expect(r).toMatchObject({ status: 503, json: { active_sessions: 16, max_sessions: 16 } });
    const late = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
    expect((await late.next()).json.data).toMatchObject({
      code: 'CAPACITY_REACHED',
      active_sessions: 16,
      max_sessions: 16,
    });
    const h = await health(s.url);
    expect(h.sessions).toBe(16);
    expect(h.workers.every((w: { sessions: number }) => w.sessions > 0 && w.sessions < 16)).toBe(
      true,
    );
    const listed = (await send(s.url, 'GET', '/console/api/sessions')).json;
    expect(listed.sessions).toHaveLength(16);
    expect(new Set(listed.sessions.map((x: { id: string }) => x.id)).size).toBe(16);
    // A session's console routes reach it from either worker.
    const changes = await Promise.all(
      [0, 1].map(() => send(s.url, 'GET', '/console/api/sessions/crm/alpha/changes')),
    );
    expect(changes.map((r) => r.status)).toEqual([200, 200]);
    expect(changes[0].json.changes.length).toBeGreaterThanOrEqual(4);
    expect(changes[1].json).toEqual(changes[0].json);
    for (let i = 0; i < room; i++)
      await send(s.url, 'POST', '/mcp', {
        jsonrpc: '2.0',
        id: 1,
        method: 'openenv/session/close',
        params: { session_id: `fill-${i}` },
      });
    await expect.poll(async () => (await health(s.url)).sessions).toBe(open);
  });

  it("replaces a worker that dies: its WebSocket clients are told why, the other worker's sessions go on", async () => {
    const before = await health(s.url);
    const victim = before.workers[1];
    process.kill(victim.pid, 'SIGKILL');
    await expect.poll(() => sockets.filter((p) => p.ws.readyState === p.ws.CLOSED).length).toBe(2);
    for (const p of sockets.filter((x) => x.ws.readyState === x.ws.CLOSED)) {
      expect(await p.closed).toEqual({
        code: 1011,
        reason: expect.stringMatching(
          /^worker 1 of this server killed by SIGKILL; the session is lost, reconnect/,
        ),
      });
    }
    // The sockets on worker 0 were not disturbed.
    const alive = sockets.filter((p) => p.ws.readyState === p.ws.OPEN);
    expect(alive).toHaveLength(2);
    for (const p of alive)
      expect((await p.ask(call('After'))).data.observation.result.data.name).toBe('After');
    await expect
      .poll(async () => (await health(s.url)).workers[1], { timeout: 30_000, interval: 200 })
      .toMatchObject({ ready: true, sessions: 0 });
    const after = await health(s.url);
    expect(after.workers[1].pid).not.toBe(victim.pid);
    expect(after.workers[0].pid).toBe(before.workers[0].pid);
    expect(s.stderr()).toMatch(
      /worker 1 \(pid \d+\) was killed by SIGKILL; its 2 WebSocket client\(s\) were told so \(close 1011\); its sessions ended; starting a replacement/,
    );
    // Worker 0's HTTP sessions are still there; worker 1's are gone, and their ids now open on the new worker 1.
    for (const [id, owner] of ownerOf) {
      const r = await send(s.url, 'GET', `/state?session_id=${id}`);
      if (owner === '0') expect(r.json.step_count).toBe(4);
      else
        expect(r).toMatchObject({
          status: 422,
          json: { detail: [{ msg: expect.stringMatching(/no session/) }] },
        });
    }
  }, 40_000);

  it('drains every worker on SIGTERM: frames already received are answered, sockets close with 1001, then the port is closed', async () => {
    const probes = [...sockets.filter((p) => p.ws.readyState === p.ws.OPEN)];
    for (let i = 0; i < 2; i++)
      probes.push(await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`));
    for (const p of probes) {
      p.send({ type: 'reset', data: { fixture: 'small_startup' } });
      for (let i = 0; i < 40; i++) p.send(call(`Drain ${i}`));
    }
    await Promise.all(probes.map((p) => p.next()));
    const exited = s.stop('SIGTERM');
    // Every frame gets its reply, in order: a frame the worker had read when the drain began is run and answered; one
    // still in the socket's buffer then (the signal and the frames race) is answered as refused, and so is every later one.
    let answered = 0;
    for (const p of probes) {
      let refused = 0;
      for (let i = 0; i < 40; i++) {
        const reply = (await p.next()).json;
        if (reply.type === 'observation') {
          expect(refused).toBe(0);
          expect(reply.data.observation.result.data.name).toBe(`Drain ${i}`);
          answered++;
        } else {
          expect(reply).toMatchObject({
            type: 'error',
            data: { code: 'SESSION_ERROR', message: expect.stringMatching(/shutting down/) },
          });
          refused++;
        }
      }
      expect(await p.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    }
    expect(answered).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(s.stderr()).toMatch(/SIGTERM: draining 2 worker\(s\)/);
    await expect(send(s.url, 'GET', '/health')).rejects.toThrow(/ECONNREFUSED/);
  }, 30_000);
});
