import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import notes from './test-fixtures/notes-face-world.ts';
import { startServer, type RunningServer } from './server.ts';

// Plain requests of a world's HTTP face are answered off Node's request before Hono (face-fast.ts). They must get
// exactly the answer Hono's face route gives: the same status, headers and body, the same session per key, the same
// body limits. Here each request goes once over the socket (the fast path) under one key, and once through the Hono
// app in process under another key whose account starts the same, so the two sequences of replies must be equal.

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers Node writes itself on a socket (framing, the clock), which `app.request` does not produce. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function overSocket(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers:
          body === undefined
            ? headers
            : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (!TRANSPORT.has(k) && v !== undefined) kept[k] = String(v);
          resolve({
            status: res.statusCode ?? 0,
            headers: kept,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function throughHono(
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  const res = await server.app.request(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { host: `127.0.0.1:${server.port}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const kept: Record<string, string> = {};
  res.headers.forEach((v, k) => (kept[k] = v));
  const text = await res.text();
  if (kept['content-length'] === undefined)
    kept['content-length'] = String(Buffer.byteLength(text));
  return { status: res.status, headers: kept, body: text };
}

describe('the HTTP face fast path', () => {
  let server: RunningServer;
  let honoRequests = 0;
  beforeAll(async () => {
    server = await startServer({
      worlds: [notes],
      port: 0,
      maxBodyBytes: 2048,
      logger: () => undefined,
      // Registered before the worlds' routes: counts every request Hono handles.
      publicRoutes: (app) =>
        app.use('*', async (c, next) => {
          if (process.env.DEBUG_FAST) console.log('hono', c.req.method, c.req.url);
          honoRequests++;
          await next();
        }),
    });
  });
  afterAll(() => server.close());

  it('answers plain face requests as Hono does, without Hono, under the root and the world prefix', async () => {
    const steps: [string, string, Record<string, string>, string?][] = [
      [
        'POST',
        '/api/notes',
        { 'content-type': 'application/json' },
        JSON.stringify({ text: 'hello' }),
      ],
      [
        'POST',
        '/notes/api/notes',
        { 'content-type': 'application/json' },
        JSON.stringify({ text: 'again' }),
      ],
      ['GET', '/api/notes?order=asc&x=%20y', {}],
      ['POST', '/api/notes', { 'content-type': 'application/json' }, JSON.stringify({ text: '' })],
      ['GET', '/api/nope', {}],
      ['POST', '/api/notes', { 'content-type': 'application/json' }, 'x'.repeat(4096)],
      ['GET', '/api', {}],
    ];
    const before = honoRequests;
    for (const [method, path, headers, body] of steps) {
      const fast = await overSocket(
        server.url,
        method,
        path,
        { ...headers, authorization: 'Bearer key_fast' },
        body,
      );
      const hono = await throughHono(
        server,
        method,
        path,
        { ...headers, authorization: 'Bearer key_hono' },
        body,
      );
      // Two keys are two accounts, seeded each from its key, so their ids differ; the rest of the reply is the same.
      const sameIds = (r: typeof fast) => ({ ...r, body: r.body.replace(/note_\w+/g, 'note_…') });
      expect(sameIds(fast), `${method} ${path}`).toEqual(sameIds(hono));
      if (method === 'POST' && fast.status === 200) expect(fast.body).not.toBe(hono.body);
    }
    // Only the in-process requests went through Hono.
    expect(honoRequests - before).toBe(steps.length);
    // A key without the Bearer form gets the face's own refusal either way.
    const refusedFast = await overSocket(server.url, 'GET', '/api/notes', {
      authorization: 'nope',
    });
    expect(refusedFast).toEqual(
      await throughHono(server, 'GET', '/api/notes', { authorization: 'nope' }),
    );
    expect(refusedFast.status).toBe(401);
  });

  it('leaves to Hono what it does not take: browser origins, unusual paths, HEAD, a Host the guard refuses', async () => {
    const before = honoRequests;
    const auth = { authorization: 'Bearer key_other' };
    expect(
      (
        await overSocket(server.url, 'GET', '/api/notes', {
          ...auth,
          origin: `http://127.0.0.1:${server.port}`,
        })
      ).status,
    ).toBe(200);
    expect((await overSocket(server.url, 'HEAD', '/api/notes', auth)).status).toBeLessThan(500);
    expect(honoRequests - before).toBe(2);
    // The guard refuses a Host it does not know, before any route.
    const refused = await overSocket(server.url, 'GET', '/api/notes', {
      ...auth,
      host: 'evil.example',
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['x-seahaven-refused']).toMatch(/^Host "evil.example" is not allowed/);
    // Paths and queries that URL parsing would rewrite are Node's and Hono's to read: none is a server error.
    for (const path of ['/api/./notes', '/api/%2e%2e/api/notes', '/api/notes?q=%27a%27&b="c"']) {
      expect((await overSocket(server.url, 'GET', path, auth)).status, path).toBeLessThan(500);
    }
  });
});
