/**
 * The servers the HTTP face benchmark measures, each in a process of its own so that neither shares a heap or an
 * event loop with the other, with the load generator or with the benchmark itself.
 *
 * `seahaven`: `startServer` with Stripe World (no idle timeout); answers `{port}`.
 * `floor`: a bare Hono app on @hono/node-server. It waits for `{cmd: 'canned', get, post}` (the status, headers and
 * body Seahaven gave to one `GET /v1/customers/:id` and one `POST /v1/customers`), then answers `{port}`. Its routes
 * send those bytes from memory without reading the request's headers or body.
 *
 * Both answer `{cmd: 'cpu'}` with the CPU time the process has used so far (`{us}`, user and system), so the benchmark
 * can give each server's CPU cost per request, which other work on the machine distorts less than requests per
 * second; and `{cmd: 'exit'}` by exiting.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { startServer } from 'seahaven/serve';
import { stripe } from '@seahaven/stripe';

/** One recorded reply: what the floor sends back. */
export interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function seahaven(): Promise<number> {
  const server = await startServer({
    worlds: [stripe],
    port: 0,
    idleTimeoutMs: 0,
    logger: () => undefined,
  });
  return server.port;
}

async function floor(get: Canned, post: Canned): Promise<number> {
  const app = new Hono();
  app.get('/v1/customers/:id', (c) => c.body(get.body, get.status as 200, get.headers));
  app.post('/v1/customers', (c) => c.body(post.body, post.status as 200, post.headers));
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const mode = process.argv[2];
process.on('message', async (m: { cmd: string; get?: Canned; post?: Canned }) => {
  if (m.cmd === 'canned') process.send!({ port: await floor(m.get!, m.post!) });
  else if (m.cmd === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ us: user + system });
  } else if (m.cmd === 'exit') process.exit(0);
});
if (mode === 'seahaven') process.send!({ port: await seahaven() });
else if (mode === 'floor') process.send!({ ready: true });
else throw new Error(`http-face-servers: unknown mode ${mode}; use seahaven or floor`);
