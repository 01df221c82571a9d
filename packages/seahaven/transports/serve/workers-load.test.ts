/**
 * `seahaven serve --workers 2` under hostile load, over the real command line: bursts of connections against
 * `--max-sessions`, requests sent to a worker's private port, forks adopted on the other worker, and a SIGTERM while
 * requests are in flight. One server for the whole file, in order, to keep it quick.
 */
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { ClusterRouter } from './cluster.ts';
import { spawnServe, type ServeProcess } from './test-fixtures/spawn-serve.ts';
import { WireProbe } from './wire-probe.ts';

const MAX = 6;
/** Preloaded into the server: a worker started while `slowStart` exists waits as long as it says. */
const SLOW_REPLACEMENT = fileURLToPath(
  new URL('./test-fixtures/slow-replacement.mjs', import.meta.url),
);
const scratch = mkdtempSync(join(tmpdir(), 'seahaven-workers-load-'));
const slowStart = join(scratch, 'slow-start');
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** One request on a connection of its own (a pooled one could be to a worker killed since). */
function send(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url + path,
      {
        method,
        agent: false,
        headers: {
          ...(text === undefined ? {} : { 'content-type': 'application/json' }),
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
    // A connection the cluster dealt to a worker in the instant it was killed is never answered (Node's round-robin
    // hand-off is lost with the worker): give up on it, as any client with a timeout would.
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end(text);
  });
}

const health = async (url: string) => (await send(url, 'GET', '/health')).json;
const post = (url: string, path: string, body: unknown, id: string) =>
  send(url, 'POST', path, body, { 'x-session-id': id });
const step = (name: string) => ({
  action: { type: 'call_tool', tool_name: 'create_company', arguments: { name } },
});

/** The TCP ports a process listens on (Linux): its sockets' inodes, found in /proc/net/tcp in state LISTEN. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m !== null) inodes.add(m[1]);
    } catch {
      // A descriptor closed while listing.
    }
  }
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === '0A' && inodes.has(f[9]))
    .map((f) => parseInt(f[1].split(':')[1], 16));
}

/**
 * One burst against the server at `url`, all at once: 12 WebSocket connections that each read their state and fork
 * (a held fork takes a place too) and 12 HTTP resets of fresh session ids. Resolves once every attempt is answered,
 * with the places taken (sessions and held forks, none given back yet) and a function that gives them all back.
 */
async function burst(
  url: string,
  tag: string,
): Promise<{ admitted: number; close: () => Promise<void> }> {
  const sockets = Array.from({ length: 12 }, async () => {
    const p = await WireProbe.open(`${url.replace('http', 'ws')}/ws`);
    p.send({ type: 'state' });
    p.send({ type: 'step', data: { type: 'fork' } });
    const first = (await p.next()).json;
    if (first.type !== 'state') {
      expect(first.data.code).toBe('CAPACITY_REACHED');
      return { p, places: 0, token: undefined };
    }
    const fork = (await p.next()).json;
    if (fork.type === 'error') {
      expect(fork.data.code).toBe('CAPACITY_REACHED');
      return { p, places: 1, token: undefined };
    }
    return { p, places: 2, token: fork.data.observation.fork.token as string };
  });
  const resets = Array.from({ length: 12 }, async (_, i) => {
    const id = `${tag}-${i}`;
    const r = await post(url, '/reset', {}, id);
    if (r.status !== 200) expect(r).toMatchObject({ status: 503, json: { max_sessions: MAX } });
    return { id, places: r.status === 200 ? 1 : 0 };
  });
  const ws = await Promise.all(sockets);
  const http = await Promise.all(resets);
  const admitted = [...ws, ...http].reduce((n, x) => n + x.places, 0);
  return {
    admitted,
    async close() {
      // A reset that adopts its own fork gives the held fork's place back; closing the socket then ends the session.
      for (const w of ws)
        if (w.token !== undefined)
          expect((await w.p.ask({ type: 'reset', data: { fork_token: w.token } })).type).toBe(
            'observation',
          );
      for (const w of ws) w.p.ws.terminate();
      for (const h of http)
        if (h.places > 0)
          await post(
            url,
            '/mcp',
            {
              jsonrpc: '2.0',
              id: 1,
              method: 'openenv/session/close',
              params: { session_id: h.id },
            },
            h.id,
          );
    },
  };
}

describe('seahaven serve --workers 2 under load', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await spawnServe(['crm', '--workers', '2', '--max-sessions', String(MAX)], {
      timeoutMs: 60_000,
      nodeArgs: ['--import', SLOW_REPLACEMENT],
      env: { SEAHAVEN_TEST_SLOW_START: slowStart },
    });
  }, 70_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  });

  it('never opens more than --max-sessions under bursts of WebSocket sessions, held forks and HTTP sessions dealt to both workers at once', async () => {
    const admittedPerBurst: number[] = [];
    for (let b = 0; b < 20; b++) {
      const { admitted, close } = await burst(s.url, `burst-${b}`);
      admittedPerBurst.push(admitted);
      // Every place taken is still held: the server's own count agrees with what the clients were granted.
      await expect.poll(async () => (await health(s.url)).sessions).toBe(admitted);
      await close();
      await expect.poll(async () => (await health(s.url)).sessions).toBe(0);
    }
    expect(admittedPerBurst.filter((n) => n > MAX)).toEqual([]);
    // The limit is not met by refusing everything: each burst fills (nearly) every place.
    expect(Math.min(...admittedPerBurst)).toBeGreaterThanOrEqual(MAX - 2);
  }, 120_000);

  it('lends free places to a worker that is full: sessions that all belong to one worker still fill the server, after retries', async () => {
    const router = new ClusterRouter(0, 2);
    const owned = (slot: number) =>
      Array.from({ length: 400 }, (_, i) => `lend-${i}`)
        .filter((id) => router.ownerOf(id) === slot)
        .slice(0, MAX + 1);
    /** Open a session of each id in turn, retrying those refused "for now"; resolves with how many refusals that took. */
    const fill = async (ids: string[], worker: string) => {
      let refusals = 0;
      for (const id of ids) {
        for (;;) {
          const r = await post(s.url, '/reset', {}, id);
          if (r.status === 200) {
            expect(r.headers['x-seahaven-worker']).toBe(worker);
            break;
          }
          expect(r).toMatchObject({
            status: 503,
            json: {
              detail: expect.stringMatching(
                /^server at capacity for now: \d of 6 sessions are open, .*retry in a moment/,
              ),
              max_sessions: MAX,
            },
          });
          expect(++refusals).toBeLessThan(100);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      return refusals;
    };
    const zero = owned(0);
    // Worker 0 holds its share, 3 places: the 4th session waits for places worker 1 gives back.
    expect(await fill(zero.slice(0, MAX), '0')).toBeGreaterThan(0);
    expect((await health(s.url)).workers.map((w: { sessions: number }) => w.sessions)).toEqual([
      MAX,
      0,
    ]);
    // Full now: one more, on either worker, is refused in the plain words, with the server-wide count.
    const full = expect.stringMatching(
      /^server at capacity: 6 of 6 sessions are open; close a session/,
    );
    expect(await post(s.url, '/reset', {}, zero[MAX])).toMatchObject({
      status: 503,
      json: { detail: full, active_sessions: MAX, max_sessions: MAX },
    });
    const late = await Promise.all(
      [0, 1].map(() => WireProbe.open(`${s.url.replace('http', 'ws')}/ws`)),
    );
    for (const p of late)
      expect((await p.next()).json.data).toMatchObject({
        code: 'CAPACITY_REACHED',
        message: full,
        active_sessions: MAX,
        max_sessions: MAX,
      });
    for (const id of zero.slice(0, MAX))
      await post(
        s.url,
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'openenv/session/close', params: { session_id: id } },
        id,
      );
    await expect.poll(async () => (await health(s.url)).sessions).toBe(0);
    // The places went back as the sessions closed: worker 1 fills the server the same way.
    await fill(owned(1).slice(0, MAX), '1');
    expect((await health(s.url)).workers.map((w: { sessions: number }) => w.sessions)).toEqual([
      0,
      MAX,
    ]);
    for (const id of owned(1).slice(0, MAX))
      await post(
        s.url,
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'openenv/session/close', params: { session_id: id } },
        id,
      );
    await expect.poll(async () => (await health(s.url)).sessions).toBe(0);
  });

  it('adopts a WebSocket fork on whichever worker the branch connection lands: env.fork() works every time', async () => {
    await using env = await SeahavenClient.connect(s.url);
    await env.reset({ fixture: 'small_startup' });
    await env.call('create_company', { name: 'Trunk Co' });
    // Connections are dealt to the workers in turn, so about every other branch lands on the worker that did not fork.
    for (let i = 0; i < 4; i++) {
      await using branch = await env.fork();
      expect(await branch.call('create_company', { name: `Branch ${i}` })).toMatchObject({
        ok: true,
        result: { name: `Branch ${i}` },
      });
      const state = await branch.state();
      expect(state.step_count).toBe(3 + i);
      expect(JSON.stringify(state)).toContain('Trunk Co');
    }
    // The trunk goes on, unchanged by its branches; the branches' places were given back.
    expect((await env.state()).step_count).toBe(5);
    await expect.poll(async () => (await health(s.url)).sessions).toBe(1);
    // A relayed branch is a session like any other: closing it frees its place, and a bad token is still refused.
    const probe = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
    const refused = await probe.ask({ type: 'reset', data: { fork_token: 'fork_w1-nosuchtoken' } });
    const again =
      refused.type === 'error'
        ? refused
        : await probe.ask({ type: 'reset', data: { fork_token: 'fork_w0-nosuchtoken' } });
    expect(again).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    await probe.close();
  });

  it("answers nothing but hand-overs on a worker's private port", async () => {
    const worker = (await health(s.url)).workers[1];
    const ports = listeningPorts(worker.pid);
    expect(ports).toHaveLength(1);
    const direct = `http://127.0.0.1:${ports[0]}`;
    const refused = await post(direct, '/reset', {}, 'straight-in');
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toMatch(
      /private port .* answers only requests the other workers hand over; send requests to the server's own port/,
    );
    expect((await send(direct, 'GET', '/health')).status).toBe(403);
    // The header has to carry the run's secret, not just be there.
    expect(
      (await send(direct, 'GET', '/health', undefined, { 'x-seahaven-hand-over': 'guess' })).status,
    ).toBe(403);
    expect((await health(s.url)).sessions).toBe(0);
  });

  it('waits for a worker that is being replaced: a new session it owns opens once it is up, and every request is answered', async () => {
    const before = await health(s.url);
    expect(before.sessions).toBe(0);
    const victim = before.workers[1];
    // The replacement takes half a second more to start, so the requests below surely meet it starting.
    writeFileSync(slowStart, '500');
    process.kill(victim.pid, 'SIGKILL');
    const down = async () =>
      (await send(s.url, 'GET', '/health', undefined, {}, 500)).json.workers[1];
    await expect.poll(down, { interval: 20, timeout: 10_000 }).toMatchObject({ ready: false });
    // While worker 1 is down every connection lands on worker 0, which hands these ids over to worker 1.
    const router = new ClusterRouter(0, 2);
    const ids = Array.from({ length: 40 }, (_, i) => `replaced-${i}`)
      .filter((id) => router.ownerOf(id) === 1)
      .slice(0, 2);
    const statuses: number[] = [];
    for (const id of ids) {
      const reset = await post(s.url, '/reset', {}, id);
      statuses.push(reset.status);
      expect(reset.headers['x-seahaven-worker']).toBe('1');
      for (let i = 0; i < 6; i++)
        statuses.push((await post(s.url, '/step', step(`${id} ${i}`), id)).status);
    }
    expect(statuses).toEqual(Array(statuses.length).fill(200));
    rmSync(slowStart);
    expect(s.stderr()).toMatch(/worker 1 is back \(pid \d+\), \d+\.\d s after the last one exited/);
    for (const id of ids)
      await post(
        s.url,
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'openenv/session/close', params: { session_id: id } },
        id,
      );
  }, 60_000);
});
