import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import {
  spawnServe,
  type ServeProcess,
} from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import { stripe } from '../index.ts';

// The official SDK against a real `seahaven serve stripe` whose episodes may grow 1 MiB: the request that would pass
// the limit gets a Stripe-shaped answer the SDK raises once, without retrying, naming the limit and the option.

let serve: ServeProcess;
let port: number;

beforeAll(async () => {
  serve = await spawnServe(['stripe', '--max-episode-db-mb', '1', '--no-console']);
  port = Number(new URL(serve.url).port);
});
afterAll(async () => {
  expect(await serve.stop('SIGTERM')).toBe(0);
  expect(serve.stderr()).not.toMatch(/world bug|server error/);
});

const metadata = Object.fromEntries(
  Array.from({ length: 50 }, (_, k) => [`k${k}`, 'v'.repeat(500)]),
);

describe('an account past --max-episode-db-mb, through the official SDK', () => {
  it('is answered 400 invalid_request_error, code resource_exhausted, once: the SDK does not retry it', async () => {
    const sdk = new Stripe('sk_test_fills_up', {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 2,
      telemetry: false,
    });
    const attempts: number[] = [];
    sdk.on('request', (e: { request_start_time: number }) => attempts.push(e.request_start_time));
    let refused: unknown;
    for (let i = 0; i < 200 && refused === undefined; i++) {
      attempts.length = 0;
      refused = await sdk.customers.create({ name: `Big ${i}`, metadata }).then(
        () => undefined,
        (e: unknown) => e,
      );
    }
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const e = refused as Stripe.errors.StripeInvalidRequestError;
    expect(e).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'resource_exhausted',
    });
    expect(e.message).toMatch(
      /^stripe's database reached its limit of [\d.]+ MiB .*--max-episode-db-mb\)/,
    );
    expect(e.raw).toEqual({
      type: 'invalid_request_error',
      code: 'resource_exhausted',
      message: e.message,
      headers: expect.anything(),
      statusCode: 400,
      requestId: undefined,
    });
    expect(attempts).toHaveLength(1);
    // Nothing the refused call wrote was kept; the account still reads.
    expect((await sdk.customers.list({ limit: 1 })).data).toHaveLength(1);
  }, 60_000);
});

describe("the face's answer to a call refused by the memory budget", () => {
  it('is 503 api_error, code resource_exhausted, marked not to be retried', () => {
    const face = stripe.http!;
    const route = face.route({
      method: 'GET',
      path: '/customers',
      query: '',
      headers: {},
      body: '',
    });
    if (!('operation' in route)) throw new Error('GET /customers should route to an operation');
    const message =
      'the server is out of memory for this: opening the episode needs about 14 MiB and 11 MiB are left; raise --max-memory';
    const reply = face.reply(
      {
        ok: false,
        error: {
          code: 'resource_exhausted',
          message,
          details: { needed_mb: 14, available_mb: 11, option: '--max-memory' },
        },
      },
      { method: 'GET', path: '/customers', query: '', headers: {}, body: '' },
      route,
    );
    expect({ ...reply, body: JSON.parse(reply.body as string) }).toEqual({
      status: 503,
      headers: expect.objectContaining({ 'Stripe-Should-Retry': 'false' }),
      body: { error: { type: 'api_error', code: 'resource_exhausted', message } },
    });
  });
});
