import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z, type Instance } from 'seahaven';
import { stripe, forwardWebhooks, type WebhookRequest } from '../index.ts';
import { RETRY_DELAYS } from '../lib/webhooks.ts';
import { fetchFor, sdkFor } from './sdk.ts';

// Webhooks through the official SDK: endpoints' five operations, deliveries signed as Stripe signs them (checked with
// stripe.webhooks.constructEvent), enabled_events, retries on the world clock, the composed world's handler in
// process, and a forwarder posting to a local receiver.

const HOUR = 3600_000;
const verifier = new Stripe('sk_test_verifier');

/** Verify a delivery as a receiver does; the world's time is the receiver's (the signature's `t` is world time). */
function verify(body: string, header: string, secret: string, nowMs: number): Stripe.Event {
  return verifier.webhooks.constructEvent(body, header, secret, 300, undefined, nowMs);
}

/**
 * A composed world whose mount receives Stripe's webhooks: it keeps each request it gets, answers 500 while `failing`
 * is set, and marks a CRM account paid on `invoice.paid`, inside the episode.
 */
const shop = defineWorld({
  name: 'shop',
  version: '1.0.0',
  schema: `
    CREATE TABLE received (n INTEGER PRIMARY KEY, path TEXT NOT NULL, signature TEXT NOT NULL, body TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
    CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT NOT NULL) STRICT;
    CREATE TABLE paid_invoices (id TEXT PRIMARY KEY, customer TEXT NOT NULL, amount INTEGER NOT NULL) STRICT;`,
  tools: [
    defineTool({
      name: 'set_failing',
      description: 'Make the webhook handler answer 500 (true) or 200 (false).',
      input: z.object({ failing: z.boolean().describe('Whether the handler fails.') }),
      run(ctx, { failing }) {
        ctx.db.run(
          "INSERT INTO settings (k, v) VALUES ('failing', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
          failing ? '1' : '0',
        );
        return { failing };
      },
    }),
  ],
  worlds: {
    stripe: {
      world: stripe,
      prefix: 'stripe_',
      http: true,
      receive(ctx, message) {
        const req = message as WebhookRequest;
        const failing = ctx.db.one<{ v: string }>("SELECT v FROM settings WHERE k = 'failing'");
        if (failing?.v === '1') return { status: 500 };
        ctx.db.run(
          'INSERT INTO received (path, signature, body, at) VALUES (?, ?, ?, ?)',
          req.path,
          req.headers['Stripe-Signature'],
          req.body,
          ctx.clock.now(),
        );
        const event = JSON.parse(req.body) as Stripe.Event;
        if (event.type === 'invoice.paid') {
          const inv = event.data.object;
          ctx.db.run(
            'INSERT INTO paid_invoices (id, customer, amount) VALUES (?, ?, ?)',
            inv.id,
            inv.customer as string,
            inv.amount_paid,
          );
        }
        return { status: 200 };
      },
    },
  },
});

interface Received {
  path: string;
  signature: string;
  body: string;
  at: number;
}

function deliveries(inst: Instance, mount: string | null = 'stripe') {
  const sql = 'SELECT data FROM webhook_deliveries ORDER BY seq';
  const rows = (mount === null ? inst.query(sql) : inst.queryStore(mount, sql)) as {
    data: string;
  }[];
  return rows.map((r) => JSON.parse(r.data));
}

async function paidInvoice(s: Stripe): Promise<Stripe.Invoice> {
  const cus = await s.customers.create({ email: 'ada@example.com' });
  const draft = await s.invoices.create({ customer: cus.id });
  await s.invoiceItems.create({
    customer: cus.id,
    invoice: draft.id,
    amount: 2500,
    currency: 'usd',
  });
  await s.invoices.finalizeInvoice(draft.id);
  return s.invoices.pay(draft.id, { payment_method: 'pm_card_visa' });
}

const open: Instance[] = [];
function track(inst: Instance): Instance {
  open.push(inst);
  return inst;
}
afterEach(() => {
  for (const i of open.splice(0)) i.destroy();
});

describe('webhook endpoints', () => {
  it('create, retrieve, update, list and delete, with the secret in the create reply only', async () => {
    const inst = track(stripe.instance({ fixture: 'empty' }));
    const s = sdkFor(inst);
    const created = await s.webhookEndpoints.create({
      url: 'https://example.com/hooks',
      enabled_events: ['invoice.paid', 'customer.created'],
      description: 'Billing',
      metadata: { team: 'finance' },
    });
    const keys: (keyof Stripe.WebhookEndpoint)[] = [
      'id',
      'object',
      'api_version',
      'application',
      'created',
      'description',
      'enabled_events',
      'livemode',
      'metadata',
      'secret',
      'status',
      'url',
    ];
    expect(
      Object.keys(created)
        .filter((k) => k !== 'lastResponse')
        .sort(),
    ).toEqual([...keys].sort());
    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      api_version: null,
      application: null,
      created: Math.floor(inst.clock.now() / 1000),
      description: 'Billing',
      enabled_events: ['invoice.paid', 'customer.created'],
      livemode: false,
      metadata: { team: 'finance' },
      status: 'enabled',
      url: 'https://example.com/hooks',
    });
    expect(created.id).toMatch(/^we_[A-Za-z0-9]{24}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);

    const got = await s.webhookEndpoints.retrieve(created.id);
    expect(got.secret).toBeUndefined();
    expect(got.url).toBe('https://example.com/hooks');

    const updated = await s.webhookEndpoints.update(created.id, {
      disabled: true,
      enabled_events: ['*'],
      url: 'https://example.com/v2/hooks',
      description: '',
    });
    expect(updated).toMatchObject({
      status: 'disabled',
      enabled_events: ['*'],
      url: 'https://example.com/v2/hooks',
      description: null,
    });
    expect(updated.secret).toBeUndefined();
    const second = await s.webhookEndpoints.create({
      url: 'seahaven://host/stripe',
      enabled_events: ['*'],
    });
    const listed = await s.webhookEndpoints.list({ limit: 1 });
    expect(listed.data.map((e) => e.id)).toEqual([second.id]);
    expect(listed.has_more).toBe(true);
    const all = await s.webhookEndpoints.list();
    expect(all.data.map((e) => e.id)).toEqual([second.id, created.id]);
    expect(all.data.every((e) => e.secret === undefined)).toBe(true);

    const deleted = await s.webhookEndpoints.del(created.id);
    expect(deleted).toMatchObject({ id: created.id, object: 'webhook_endpoint', deleted: true });
    await expect(s.webhookEndpoints.retrieve(created.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('refuses a bad URL, an unknown event name and a missing enabled_events, naming the fix', async () => {
    const inst = track(stripe.instance({ fixture: 'empty' }));
    const s = sdkFor(inst);
    await expect(
      s.webhookEndpoints.create({ url: 'ftp://example.com', enabled_events: ['*'] }),
    ).rejects.toMatchObject({
      statusCode: 400,
      param: 'url',
      message: expect.stringMatching(/seahaven:\/\/host/),
    });
    await expect(
      s.webhookEndpoints.create({
        url: 'https://example.com',
        enabled_events: ['paid' as Stripe.WebhookEndpointCreateParams.EnabledEvent],
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'enabled_events[0]' });
    await expect(
      s.webhookEndpoints.create({ url: 'https://example.com', enabled_events: [] }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'enabled_events' });
  });
});

describe('in-process delivery to the composed world', () => {
  it('signs each delivery as Stripe does, filters by enabled_events, and lets the host react to invoice.paid in the call', async () => {
    const inst = track(shop.instance());
    const s = sdkFor(inst);
    const endpoint = await s.webhookEndpoints.create({
      url: 'seahaven://host/stripe/webhook',
      enabled_events: ['invoice.paid', 'customer.created'],
    });
    const invoice = await paidInvoice(s);

    const received = inst.query(
      'SELECT path, signature, body, at FROM received ORDER BY n',
    ) as unknown as Received[];
    const events = received.map((r) => verify(r.body, r.signature, endpoint.secret!, r.at));
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'invoice.paid']);
    expect(received.every((r) => r.path === '/stripe/webhook')).toBe(true);
    // The signature's t is the world clock, and the payload is the event as GET /v1/events/{id} returns it, as of the
    // attempt (this delivery still pending then).
    for (const r of received) {
      expect(r.signature).toMatch(new RegExp(`^t=${Math.floor(r.at / 1000)},v1=[0-9a-f]{64}$`));
    }
    const stored = await s.events.retrieve(events[1].id);
    expect(JSON.parse(received[1].body)).toEqual(
      JSON.parse(JSON.stringify({ ...stored, pending_webhooks: 1, lastResponse: undefined })),
    );
    expect(stored.pending_webhooks).toBe(0);
    // Tampering is caught by the SDK's check.
    expect(() =>
      verify(
        received[1].body.replace('2500', '9999'),
        received[1].signature,
        endpoint.secret!,
        received[1].at,
      ),
    ).toThrow(/signature/i);

    // The host reacted inside the episode: its own row, in the same changes as Stripe's.
    expect(inst.query('SELECT id, amount FROM paid_invoices')).toEqual([
      { id: invoice.id, amount: 2500 },
    ]);
    const tables = new Set(inst.changes().map((c) => c.table));
    expect(tables.has('paid_invoices')).toBe(true);
    expect(tables.has('stripe.webhook_deliveries')).toBe(true);

    // Only the listened-to types were delivered; every delivery is data, one succeeded attempt each.
    const list = deliveries(inst);
    expect(list.map((d) => [d.event_type, d.status, d.attempts.length])).toEqual([
      ['customer.created', 'succeeded', 1],
      ['invoice.paid', 'succeeded', 1],
    ]);
    const viaApi = (await (
      await fetchFor(inst)(
        `http://stripe.invalid/v1/test_helpers/webhook_deliveries?event=${events[1].id}`,
        {
          headers: { Authorization: 'Bearer sk_test_x' },
        },
      )
    ).json()) as {
      data: { id: string; webhook_endpoint: string; attempts: { status_code: number }[] }[];
    };
    expect(viaApi.data).toHaveLength(1);
    expect(viaApi.data[0]).toMatchObject({
      webhook_endpoint: endpoint.id,
      attempts: [{ status_code: 200 }],
    });
  });

  it("retries a failed delivery on the world clock with Stripe's backoff, then gives up after three days", async () => {
    const inst = track(shop.instance());
    const s = sdkFor(inst);
    await s.webhookEndpoints.create({
      url: 'seahaven://host/hook',
      enabled_events: ['customer.created'],
    });
    expect(inst.call('set_failing', { failing: true }).ok).toBe(true);
    const t0 = Math.floor(inst.clock.now() / 1000);
    const cus = await s.customers.create({ name: 'Retry' });
    let [d] = deliveries(inst);
    expect(d).toMatchObject({ status: 'pending', next_attempt: t0 + RETRY_DELAYS[0] });
    expect(d.attempts).toEqual([{ attempted_at: t0, status_code: 500, error: null }]);
    const event = (await s.events.list({ type: 'customer.created' })).data[0];
    expect(event.data.object).toMatchObject({ id: cus.id });
    expect(event.pending_webhooks).toBe(1);

    // An hour on: the second attempt, still failing; two hours after that the handler is back and the third succeeds.
    inst.clock.advance(HOUR);
    [d] = deliveries(inst);
    expect(d.attempts.map((a: { attempted_at: number }) => a.attempted_at - t0)).toEqual([0, 3600]);
    expect(inst.call('set_failing', { failing: false }).ok).toBe(true);
    inst.clock.advance(HOUR);
    expect(deliveries(inst)[0].attempts).toHaveLength(2);
    inst.clock.advance(HOUR);
    [d] = deliveries(inst);
    expect(d.status).toBe('succeeded');
    expect(
      d.attempts.map((a: { attempted_at: number; status_code: number }) => [
        a.attempted_at - t0,
        a.status_code,
      ]),
    ).toEqual([
      [0, 500],
      [3600, 500],
      [3 * 3600, 200],
    ]);
    expect((await s.events.retrieve(event.id)).pending_webhooks).toBe(0);
    expect(inst.query('SELECT count(*) AS n FROM received')).toEqual([{ n: 1 }]);
    expect((await s.events.list({ delivery_success: true })).data.map((e) => e.id)).toContain(
      event.id,
    );

    // Failing for good: seven attempts at +0, 1, 3, 7, 15, 31 and 63 hours, then failed.
    expect(inst.call('set_failing', { failing: true }).ok).toBe(true);
    const t1 = Math.floor(inst.clock.now() / 1000);
    await s.customers.create({ name: 'Never' });
    inst.clock.advance(72 * HOUR);
    const last = deliveries(inst)[1];
    expect(last.status).toBe('failed');
    const undelivered = await s.events.list({ delivery_success: false });
    expect(undelivered.data.map((e) => [e.type, e.pending_webhooks])).toEqual([
      ['customer.created', 1],
    ]);
    expect(undelivered.data[0].id).toBe(last.event);
    expect(last.next_attempt).toBeNull();
    expect(
      last.attempts.map((a: { attempted_at: number }) => (a.attempted_at - t1) / 3600),
    ).toEqual([0, 1, 3, 7, 15, 31, 63]);
  });

  it('stops attempts for a disabled endpoint, and fails with no answer where no host receives', async () => {
    const inst = track(shop.instance());
    const s = sdkFor(inst);
    const endpoint = await s.webhookEndpoints.create({
      url: 'seahaven://host/hook',
      enabled_events: ['*'],
    });
    inst.call('set_failing', { failing: true });
    await s.products.create({ name: 'Box' });
    await s.webhookEndpoints.update(endpoint.id, { disabled: true });
    expect(deliveries(inst).map((d) => [d.status, d.next_attempt])).toEqual([['canceled', null]]);
    await s.products.create({ name: 'Crate' });
    expect(deliveries(inst)).toHaveLength(1);

    // Stripe World alone: a seahaven://host URL reaches nobody, and the attempt says why.
    const alone = track(stripe.instance({ fixture: 'empty' }));
    const a = sdkFor(alone);
    await a.webhookEndpoints.create({ url: 'seahaven://host/hook', enabled_events: ['*'] });
    await a.customers.create({ name: 'Solo' });
    const [d] = deliveries(alone, null);
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/receive/),
    });
  });

  it('replays byte for byte: the same episode gives the same deliveries, signatures and host rows', async () => {
    // Plain requests: the SDK's own idempotency keys are random, and the events record them.
    function post(inst: Instance, path: string, body: string): { id: string } {
      const reply = inst.request({
        method: 'POST',
        path,
        query: '',
        headers: { authorization: 'Bearer sk_test_replay' },
        body,
      });
      expect(reply.status).toBe(200);
      return JSON.parse(reply.body as string) as { id: string };
    }
    async function episode(): Promise<string> {
      const inst = track(shop.instance({ seed: 7 }));
      post(inst, '/webhook_endpoints', 'url=seahaven://host/hook&enabled_events[]=*');
      inst.call('set_failing', { failing: true });
      const cus = post(inst, '/customers', 'email=a%40example.com');
      inst.call('set_failing', { failing: false });
      inst.clock.advance(2 * HOUR);
      const inv = post(inst, '/invoices', `customer=${cus.id}`);
      post(inst, '/invoiceitems', `customer=${cus.id}&invoice=${inv.id}&amount=2500&currency=usd`);
      post(inst, `/invoices/${inv.id}/finalize`, '');
      post(inst, `/invoices/${inv.id}/pay`, 'payment_method=pm_card_visa');
      return JSON.stringify([inst.changes(), inst.query('SELECT * FROM received ORDER BY n')]);
    }
    const first = await episode();
    expect(await episode()).toBe(first);
    expect(first).toContain('v1=');
  });
});

describe('forwarding to a real URL on loopback', () => {
  it('posts nothing by itself; a forwarder posts each due delivery, verified by the SDK, and reports the answer', async () => {
    const got: { headers: IncomingMessage['headers']; body: string }[] = [];
    let answer = 500;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const inst = track(stripe.instance({ fixture: 'empty' }));
      const s = sdkFor(inst);
      const endpoint = await s.webhookEndpoints.create({
        url: `http://127.0.0.1:${port}/webhook`,
        enabled_events: ['customer.created'],
      });
      const cus = await s.customers.create({ email: 'net@example.com' });
      // The episode itself sent nothing: the delivery waits for a forwarder.
      expect(got).toHaveLength(0);
      expect(deliveries(inst, null).map((d) => [d.status, d.target, d.attempts.length])).toEqual([
        ['pending', 'network', 0],
      ]);

      const options = {
        api: 'http://stripe.invalid',
        key: 'sk_test_fwd',
        apiFetch: fetchFor(inst),
      };
      const first = await forwardWebhooks(options);
      expect(first).toMatchObject([{ status_code: 500, error: null }]);
      expect(got).toHaveLength(1);
      const header = got[0].headers['stripe-signature'] as string;
      const event = verify(got[0].body, header, endpoint.secret!, inst.clock.now());
      expect(event).toMatchObject({ type: 'customer.created', data: { object: { id: cus.id } } });
      expect(got[0].headers['content-type']).toBe('application/json; charset=utf-8');
      // Not due again until the hour has passed.
      expect(await forwardWebhooks(options)).toEqual([]);
      inst.clock.advance(HOUR);
      answer = 200;
      expect(await forwardWebhooks(options)).toMatchObject([{ status_code: 200 }]);
      const [d] = deliveries(inst, null);
      expect(d.status).toBe('succeeded');
      expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
      expect(
        verify(
          got[1].body,
          got[1].headers['stripe-signature'] as string,
          endpoint.secret!,
          inst.clock.now(),
        ).id,
      ).toBe(event.id);
      // The answers are recorded as calls: replaying the call log reproduces the episode without the network.
      expect(
        inst.callLog().filter((c) => c.tool === 'PostTestHelpersWebhookDeliveriesDeliveryAttempts'),
      ).toHaveLength(2);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('refuses to post anywhere but loopback', async () => {
    const inst = track(stripe.instance({ fixture: 'empty' }));
    const s = sdkFor(inst);
    await s.webhookEndpoints.create({ url: 'https://example.com/hook', enabled_events: ['*'] });
    await s.customers.create({ name: 'Far' });
    await expect(
      forwardWebhooks({
        api: 'http://stripe.invalid',
        key: 'sk_test_fwd',
        apiFetch: fetchFor(inst),
      }),
    ).rejects.toThrow(/loopback/);
    expect(deliveries(inst, null)[0].attempts).toEqual([]);
  });
});
