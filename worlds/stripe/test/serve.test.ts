import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { forwardWebhooks } from '../index.ts';
import {
  spawnServe,
  type ServeProcess,
} from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import { WireProbe } from 'seahaven/internal/transports/serve/wire-probe';

// The real `seahaven serve stripe` over its socket, driven by the official SDK configured the way docs/stripe.md
// says: host, port and protocol, nothing else.

let cwd: string;
let serve: ServeProcess;
let port: number;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'seahaven-stripe-serve-'));
  serve = await spawnServe(['stripe'], { cwd });
  port = Number(new URL(serve.url).port);
});
afterAll(async () => {
  expect(await serve.stop('SIGTERM')).toBe(0);
  rmSync(cwd, { recursive: true, force: true });
  expect(serve.stderr()).not.toMatch(/world bug|server error/);
});

const sdk = (key: string, extra: Partial<Stripe.StripeConfig> = {}) =>
  new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', ...extra });

describe('seahaven serve stripe', () => {
  it('prints where its API answers', () => {
    expect(serve.stdout()).toContain(
      `stripe HTTP API:  ${serve.url}/v1  (also ${serve.url}/stripe/v1)`,
    );
  });

  it('serves the official SDK at the root with nothing but host, port and protocol set', async () => {
    const s = sdk('sk_test_anything');
    const c = await s.customers.create({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(c.id).toMatch(/^cus_/);
    expect(c.lastResponse.requestId).toMatch(/^req_/);
    expect(c.lastResponse.apiVersion).toBe('2026-10-28.endive');
    expect(((await s.customers.retrieve(c.id)) as Stripe.Customer).email).toBe('ada@example.com');
    // Every POST of stripe-node carries an Idempotency-Key; it is echoed.
    expect(c.lastResponse.idempotencyKey).toMatch(/^stripe-node-retry-/);
  });

  it('also answers under /stripe/v1 (an HTTP client that adds the prefix)', async () => {
    const inner = Stripe.createNodeHttpClient();
    const prefixed: Stripe.HttpClient = Object.assign(Object.create(inner) as Stripe.HttpClient, {
      makeRequest: (host: string, p: string, path: string, ...rest: unknown[]) =>
        (inner.makeRequest as (...a: unknown[]) => ReturnType<Stripe.HttpClient['makeRequest']>)(
          host,
          p,
          '/stripe' + path,
          ...rest,
        ),
    });
    const s = sdk('sk_test_prefixed', { httpClient: prefixed });
    const c = await s.customers.create({ name: 'Under a prefix' });
    expect(((await sdk('sk_test_prefixed').customers.retrieve(c.id)) as Stripe.Customer).name).toBe(
      'Under a prefix',
    );
  });

  it("binds each OpenEnv session's key to its instance; other keys see other accounts", async () => {
    const probe = await WireProbe.open(`${serve.url.replace('http', 'ws')}/ws`);
    const reset = await probe.ask({ type: 'reset', data: { fixture: 'empty', seed: 3 } });
    const key = reset.data.metadata.api_key as string;
    expect(key).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    const mine = sdk(key);
    const c = await mine.customers.create({ name: "Made by the agent's code" });
    // The write is the episode's: the session's state shows it.
    const state = await probe.ask({ type: 'state' });
    expect(JSON.stringify(state.data)).toContain(c.id);
    expect((await mine.customers.list()).data.map((x) => x.id)).toEqual([c.id]);
    // Another key, and a key no session holds, reach other accounts.
    expect(
      (await sdk('sk_test_anything').customers.list({ limit: 100 })).data.map((x) => x.id),
    ).not.toContain(c.id);
    expect((await sdk('sk_test_brandnew').customers.list()).data).toEqual([]);
    await probe.close();
  });

  it("answers a malformed key with Stripe's 401 body", async () => {
    const e = await sdk('not_a_key')
      .customers.list()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(e).toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('Invalid API Key provided'),
    });
    const raw = await fetch(`${serve.url}/v1/customers`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('You did not provide an API key'),
      },
    });
    const live = await fetch(`${serve.url}/v1/customers`, {
      headers: { authorization: 'Bearer sk_live_abcdefghijkl' },
    });
    expect(((await live.json()) as { error: { message: string } }).error.message).toContain(
      'test mode only',
    );
    const url = await fetch(`${serve.url}/v1/nothing_here`, {
      headers: { authorization: 'Bearer sk_test_anything' },
    });
    expect(url.status).toBe(404);
    expect(((await url.json()) as { error: { message: string } }).error.message).toBe(
      'Unrecognized request URL (GET: /v1/nothing_here). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.',
    );
  });

  it("runs docs/stripe.md's Node and curl examples as written (the port aside)", () => {
    const doc = readFileSync(
      fileURLToPath(new URL('../../../docs/stripe.md', import.meta.url)),
      'utf8',
    );
    const block = /```ts no-run\n([\s\S]*?)```/.exec(doc)![1];
    expect(block).toContain('port: 8000');
    const file = join(
      fileURLToPath(new URL('.', import.meta.url)),
      `.docs-example-${process.pid}.ts`,
    );
    writeFileSync(file, block.replace('port: 8000', `port: ${port}`));
    try {
      const out = execFileSync(
        process.execPath,
        ['--conditions=@seahaven/source', '--import', 'tsx', file],
        { encoding: 'utf8' },
      );
      expect(out.trim()).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    } finally {
      rmSync(file, { force: true });
    }
    const curl = /^curl: `(curl [^`]+)`/m.exec(doc)![1];
    let hasCurl = true;
    try {
      execFileSync('curl', ['--version'], { stdio: 'ignore' });
    } catch {
      // CI installs curl (.ci/run); elsewhere a machine without it skips this one example.
      if (process.env.CI)
        throw new Error('curl is missing; .ci/run installs it with apt-get install -y curl');
      hasCurl = false;
      console.log('skipping the curl example: curl is not installed (apt-get install -y curl)');
    }
    if (hasCurl) {
      const command = curl.replace('http://127.0.0.1:8000', `http://127.0.0.1:${port}`);
      const body = JSON.parse(
        execFileSync('bash', ['-c', `${command} --silent`], { encoding: 'utf8' }),
      ) as { object: string; name: string };
      expect(body).toMatchObject({ object: 'customer', name: 'Ada Lovelace' });
    }
  }, 30_000);

  it('forwards webhooks to a local receiver as stripe listen does, signed so the SDK verifies them', async () => {
    const got: { signature: string; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        got.push({ signature: String(req.headers['stripe-signature']), body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const key = 'sk_test_webhooks';
      const s = sdk(key);
      const endpoint = await s.webhookEndpoints.create({
        url: 'https://example.com/never-posted',
        enabled_events: ['customer.created'],
      });
      const cus = await s.customers.create({ email: 'listen@example.com' });
      const to = `127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
      const done = await forwardWebhooks({ api: serve.url, key, forwardTo: to });
      expect(done).toMatchObject([{ status_code: 200, url: `http://${to}` }]);
      const t = Number(/t=(\d+)/.exec(got[0].signature)![1]);
      const event = s.webhooks.constructEvent(
        got[0].body,
        got[0].signature,
        endpoint.secret!,
        300,
        undefined,
        t * 1000,
      );
      expect(event).toMatchObject({ type: 'customer.created', data: { object: { id: cus.id } } });
      expect(await forwardWebhooks({ api: serve.url, key, forwardTo: to })).toEqual([]);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});
