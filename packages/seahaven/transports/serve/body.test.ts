import { connect, type Socket } from 'node:net';
import { describe, expect, it, type TestContext } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { stripe } from '../../../../worlds/stripe/index.ts';
import { rateLimited } from './body.ts';
import { consoleRoutes, startServer, type RunningServer } from './index.ts';

// Bodies that never finish, over real sockets: a client that hangs up mid-body costs one log line (and a burst of them
// a count), and one that sends its body too slowly gets 408 and loses its connection. Each test has a server and a
// log of its own, so they wait out their deadlines at once.

/** A crm server with a 400 ms body deadline, closed when the test ends, and the lines it logged. */
async function crmServer(
  onTestFinished: TestContext['onTestFinished'],
): Promise<{ server: RunningServer; logged: string[] }> {
  const logged: string[] = [];
  const server = await startServer({
    worlds: [crm],
    port: 0,
    bodyTimeoutMs: 400,
    logger: (l) => logged.push(l),
  });
  onTestFinished(() => server.close());
  return { server, logged };
}

/** Open a socket and send a request head announcing `length` bytes of JSON body, plus the first bytes of it. */
async function partial(
  server: RunningServer,
  path: string,
  length: number,
  first: string,
): Promise<Socket> {
  const socket = connect(server.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${first}`,
  );
  return socket;
}

/** Everything the server sends until it closes the socket, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  let text = '';
  socket.on('data', (d) => (text += d));
  return new Promise((resolve) =>
    socket.once('close', () => resolve({ text, ms: performance.now() - started })),
  );
}

describe.concurrent('request bodies', () => {
  it('logs a burst of aborted bodies as one line, then one count, without stacks', async ({
    expect,
    onTestFinished,
  }) => {
    const { server, logged } = await crmServer(onTestFinished);
    for (let i = 0; i < 25; i++) {
      const s = await partial(server, i % 2 ? '/reset' : '/mcp', 500, '{"fixture": "sm');
      await new Promise((r) => setTimeout(r, 5));
      s.destroy();
    }
    await expect
      .poll(() => logged.some((l) => l.includes('more like this')), { timeout: 3000 })
      .toBe(true);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(
      /^\[seahaven\] POST \/(reset|mcp): the client closed the connection after \d+ bytes of its body$/,
    );
    expect(logged[1]).toMatch(/\((\d+) more like this in the last 1 s\)$/);
    expect(Number(/\((\d+) more/.exec(logged[1])![1])).toBeGreaterThanOrEqual(20);
    expect(logged.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('cuts a body that does not arrive in time with 408 and closes the connection', async ({
    expect,
    onTestFinished,
  }) => {
    const { server, logged } = await crmServer(onTestFinished);
    const s = await partial(server, '/reset', 200, '{');
    const drip = setInterval(() => s.write(' '), 100);
    try {
      const { text, ms } = await untilClosed(s);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(text).toContain('--body-timeout');
      expect(ms).toBeLessThan(3000);
    } finally {
      clearInterval(drip);
    }
    expect(logged.some((l) => l.includes('body not received within 400 ms'))).toBe(true);
    // The server goes on answering.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('reads a world faces bodies off the Node stream, with the same deadline and report lines', async ({
    expect,
  }) => {
    const logged: string[] = [];
    const face = await startServer({
      worlds: [stripe],
      port: 0,
      bodyTimeoutMs: 400,
      logger: (l) => logged.push(l),
    });
    try {
      for (const [path, type] of [
        ['/v1/customers', 'application/x-www-form-urlencoded'],
        ['/stripe/v1/customers', 'application/x-www-form-urlencoded'],
      ]) {
        logged.length = 0;
        const socket = connect(face.port, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_body\r\nContent-Type: ${type}\r\nContent-Length: 200\r\n\r\nname=`,
        );
        const { text } = await untilClosed(socket);
        expect(text).toMatch(/^HTTP\/1\.1 408 /);
        // The second route's line may come at the end of the first one's second, with its count (rateLimited).
        await expect
          .poll(
            () =>
              logged.some((l) =>
                l.startsWith(
                  `[seahaven] POST ${path}: body not received within 400 ms after 5 bytes`,
                ),
              ),
            { timeout: 3000 },
          )
          .toBe(true);
      }
    } finally {
      await face.close();
    }
  });

  it('closes the connection of a body sent too slowly on every route that reads one, face and console included', async ({
    expect,
  }) => {
    const face = await startServer({
      worlds: [stripe],
      port: 0,
      bodyTimeoutMs: 300,
      ...consoleRoutes(),
      logger: () => {},
    });
    const form = 'application/x-www-form-urlencoded';
    // [path, content type]: OpenEnv routes, JSON-RPC, the face through its fast path and through Hono (a query the fast
    // path leaves alone), under the world's name, and the console's API.
    const routes = [
      ['/reset', 'application/json'],
      ['/step', 'application/json'],
      ['/mcp', 'application/json'],
      ['/v1/customers', form],
      ["/v1/customers?expand='x'", form],
      ['/stripe/v1/customers', form],
      ['/console/api/sessions', 'application/json'],
    ];
    try {
      const closed = await Promise.all(
        routes.map(async ([path, type]) => {
          const socket = connect(face.port, '127.0.0.1');
          await new Promise((r) => socket.once('connect', r));
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_slow\r\nContent-Type: ${type}\r\nContent-Length: 400\r\n\r\n{`,
          );
          // A client that keeps sending, a byte at a time, would keep a connection that is only told to close open.
          const drip = setInterval(() => socket.write(' '), 50);
          // The server ends the connection ('end' here), or at last the client gives up (no 'end').
          let ended = false;
          socket.once('end', () => (ended = true));
          const cut = setTimeout(() => socket.destroy(), 8000);
          try {
            const { text } = await untilClosed(socket);
            return {
              path,
              status: /^HTTP\/1\.1 (\d+)/.exec(text)?.[1],
              close: /\r\nconnection: close\r\n/i.test(text),
              ended,
            };
          } finally {
            clearInterval(drip);
            clearTimeout(cut);
          }
        }),
      );
      for (const r of closed)
        expect(r, r.path).toMatchObject({ status: '408', close: true, ended: true });
    } finally {
      await face.close();
    }
  });

  it('reads a body sent whole with its headers, on one kept-alive connection, with the same limit', async ({
    expect,
  }) => {
    const face = await startServer({
      worlds: [stripe],
      port: 0,
      maxBodyBytes: 64,
      logger: () => {},
    });
    try {
      const socket = connect(face.port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      let text = '';
      socket.on('data', (d) => (text += d));
      const head = `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_whole\r\nContent-Type: application/x-www-form-urlencoded\r\n`;
      const replies = (n: number) =>
        expect.poll(() => text.split('HTTP/1.1 ').length - 1, { timeout: 5000 }).toBe(n);
      // Each request in one write: its head and its whole body (by length, then chunked), the next after the reply.
      for (const [i, name] of ['Ada', 'Grace', 'Édith'].entries()) {
        const body = `name=${encodeURIComponent(name)}`;
        socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        await replies(2 * i + 1);
        const chunked = `email=${name.length}%40example.com`;
        socket.write(
          `${head}Transfer-Encoding: chunked\r\n\r\n${chunked.length.toString(16)}\r\n${chunked}\r\n0\r\n\r\n`,
        );
        await replies(2 * i + 2);
      }
      // A chunked body past the limit, all of it in one write: no length to refuse it by, so it is refused once read.
      const long = `description=${'x'.repeat(80)}`;
      socket.write(
        `${head}Transfer-Encoding: chunked\r\n\r\n${long.length.toString(16)}\r\n${long}\r\n0\r\n\r\n`,
      );
      await replies(7);
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]);
      expect(statuses).toEqual(['200', '200', '200', '200', '200', '200', '413']);
      const names = [...text.matchAll(/"name": "([^"]*)"/g)].map((m) => m[1]);
      expect(names).toEqual(['Ada', 'Grace', 'Édith']);
      expect(text).toContain('"email": "5@example.com"');
      socket.destroy();
    } finally {
      await face.close();
    }
  });

  it('gives JSON-RPC on /mcp the same deadline', async ({ expect, onTestFinished }) => {
    const { server } = await crmServer(onTestFinished);
    const s = await partial(server, '/mcp', 100, '{"jsonrpc"');
    const { text } = await untilClosed(s);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('rateLimited', () => {
  it('writes one line per kind per interval and then the count of the rest', async () => {
    const lines: string[] = [];
    const log = rateLimited((l) => lines.push(l), 50);
    for (let i = 0; i < 10; i++) log('a', `a${i}`);
    log('b', 'b0');
    expect(lines).toEqual(['a0', 'b0']);
    await new Promise((r) => setTimeout(r, 80));
    expect(lines).toEqual(['a0', 'b0', 'a9 (9 more like this in the last 0.05 s)']);
    log('a', 'late');
    expect(lines).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 130));
    expect(lines.at(-1)).toBe('late (1 more like this in the last 0.05 s)');
    log('a', 'fresh');
    expect(lines.at(-1)).toBe('fresh');
  });
});
