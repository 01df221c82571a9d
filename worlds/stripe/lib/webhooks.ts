/**
 * Webhook deliveries. Every event is sent to each enabled endpoint whose `enabled_events` name its type (or `*`): one
 * `webhook_deliveries` row per event and endpoint, holding its attempts, written when the event is. A delivery is an
 * HTTP POST of the event's JSON, signed as Stripe signs: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" keyed with the endpoint's whsec_ secret>`, `t` read off the world clock.
 *
 * Where it goes depends on the endpoint's URL:
 *  - `seahaven://host/<path>`: the composed world that mounts Stripe World (`MountSpec.receive`). Due deliveries are
 *    handed to it in process at the end of the call that made them (`withDeliveries`, from op.ts) and, for
 *    retries, when the clock passes their time (index.ts): deterministic, inside the episode.
 *  - `http(s)://…`: the world sends nothing itself (world code does no I/O). A forwarder outside the episode
 *    (`forwardWebhooks`, webhook-forward.ts) takes the due ones, posts them and reports each answer back as a recorded
 *    call, so a replay needs no network.
 *
 * An attempt succeeds on a 2xx answer. A failed one is retried on the world clock after 1 hour, then after twice the
 * previous wait each time (1, 2, 4, 8, 16 and 32 hours: attempts at +0, 1, 3, 7, 15, 31 and 63 hours), within the 3
 * days over which Stripe retries in live mode with exponential backoff (docs.stripe.com/webhooks, "Retry behavior";
 * Stripe does not publish its intervals). After the seventh attempt the delivery has failed.
 */
import { createHmac } from 'node:crypto';
import type { Ctx } from 'seahaven';
import { withoutHidden } from './expand.ts';
import { get, newId, put, type Stored } from './store.ts';
import { worldSeconds } from './test-clocks.ts';
import { copyJson } from './clone.ts';

type Delivery = Stored<'webhook_deliveries'>;

/** Waits before each retry, in seconds: 1 hour, doubling. */
export const RETRY_DELAYS: readonly number[] = [1, 2, 4, 8, 16, 32].map((h) => h * 3600);

/** The scheme of an endpoint delivered to the composed world's own handler. */
export const HOST_SCHEME = 'seahaven:';

/** The User-Agent Stripe's webhook requests carry. */
const USER_AGENT = 'Stripe/1.0 (+https://stripe.com/docs/webhooks)';

/** The most due deliveries one call hands to its host; the rest wait for the next call or clock advance. */
const MAX_PER_CALL = 500;

/** Where an endpoint's deliveries go: `host` (in process) or `network` (a forwarder posts them). */
export function targetOf(url: string): 'host' | 'network' {
  return url.startsWith(HOST_SCHEME) ? 'host' : 'network';
}

/** The request a delivery is: what the composed world's `receive` gets, and what a forwarder posts. */
export interface WebhookRequest {
  method: 'POST';
  url: string;
  /** The part of a `seahaven://host/<path>` URL after the host, with its leading slash; for other URLs, the URL's path. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What a composed world's `receive` may answer: an HTTP-like status (2xx: delivered); undefined counts as 200. */
export interface WebhookAnswer {
  status?: number;
  body?: unknown;
}

/** The `Stripe-Signature` header for `body` at unix time `t`. */
export function signatureHeader(secret: string, t: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new signing secret, `whsec_` and 32 base-62 characters from the world's random stream. */
export function newSecret(ctx: Ctx): string {
  let out = 'whsec_';
  for (let i = 0; i < 32; i++) out += BASE62[ctx.rng.int(0, 61)];
  return out;
}

/** Whether an endpoint listening for `enabled` receives events of `type`. */
export function listensTo(enabled: readonly string[], type: string): boolean {
  return enabled.includes('*') || enabled.includes(type);
}

/** The contexts handing deliveries to their host now: a handler whose calls make events does not start another round. */
const delivering = new WeakSet<Ctx>();
/** How deep each context is in operations now: one started by another (`runOp` inside an operation) hands over none. */
const depth = new WeakMap<Ctx, number>();

/**
 * Run an operation's work, then, when it is the outermost operation of the call and did not throw, hand the host the
 * deliveries due now (`deliverDue`): its events reach the handler once the whole operation is done.
 */
export function withDeliveries<T>(ctx: Ctx, run: () => T): T {
  const d = depth.get(ctx) ?? 0;
  depth.set(ctx, d + 1);
  let out: T;
  try {
    out = run();
  } finally {
    depth.set(ctx, d);
  }
  if (d === 0) deliverDue(ctx, Math.floor(ctx.clock.now() / 1000));
  return out;
}

/**
 * Queue the deliveries of a new event (`events.ts` calls this for each one it writes) and answer how many there are:
 * the event's `pending_webhooks`. Costs one read of the (usually empty) endpoint table when nobody listens.
 */
export function queueDeliveries(
  ctx: Ctx,
  event: { id: string; type: string; created: number },
): number {
  const endpoints = ctx.db.all<{ id: string; data: string }>(
    "SELECT id, data FROM webhook_endpoints WHERE status = 'enabled' ORDER BY seq",
  );
  let n = 0;
  for (const row of endpoints) {
    const endpoint = JSON.parse(row.data) as Stored<'webhook_endpoints'>;
    if (!listensTo(endpoint.enabled_events, event.type)) continue;
    const target = targetOf(endpoint.url);
    put(ctx, 'webhook_deliveries', {
      id: newId(ctx, 'whdel_'),
      object: 'test_helpers.webhook_delivery',
      created: event.created,
      event: event.id,
      event_type: event.type,
      webhook_endpoint: endpoint.id,
      url: endpoint.url,
      target,
      status: 'pending',
      attempts: [],
      // Due on the world clock: an event on a test clock carries the clock's time (test-clocks.ts).
      next_attempt: Math.min(event.created, worldSeconds(ctx)),
      livemode: false,
    });
    n++;
  }
  return n;
}

/**
 * The request of a delivery's next attempt, signed at unix time `t`: the event as it is now, as Stripe sends it (JSON
 * indented by two spaces). Undefined when the event or the endpoint is gone.
 */
export function requestOf(ctx: Ctx, delivery: Delivery, t: number): WebhookRequest | undefined {
  const event = ctx.db.one<{ data: string }>(
    'SELECT data FROM events WHERE id = ?',
    delivery.event,
  );
  const endpoint = ctx.db.one<{ data: string; secret: string | null }>(
    'SELECT data, secret FROM webhook_endpoints WHERE id = ?',
    delivery.webhook_endpoint,
  );
  if (!event || !endpoint || endpoint.secret === null) return undefined;
  const url = (JSON.parse(endpoint.data) as Stored<'webhook_endpoints'>).url;
  // The event's object as a reply shows it: without the fields only `expand[]` shows (a price's `tiers`).
  const body = JSON.stringify(withoutHidden(JSON.parse(event.data)), null, 2);
  return {
    method: 'POST',
    url,
    path: pathOf(url),
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Stripe-Signature': signatureHeader(endpoint.secret, t, body),
      'User-Agent': USER_AGENT,
    },
    body,
  };
}

function pathOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  return m && m[1] !== '' ? m[1] : '/';
}

/** One attempt's record, as the delivery's `attempts` lists it. */
export interface Attempt {
  /** Unix seconds: the signature's `t`. */
  attempted_at: number;
  /** The answer's status; null when there was none (no handler, a connection error). */
  status_code: number | null;
  /** Why it failed, when it did without an answer; else null. */
  error: string | null;
}

/**
 * Record an attempt on a pending delivery and settle what follows: delivered on a 2xx (the event's `pending_webhooks`
 * goes down by one), else retried after the next wait of `RETRY_DELAYS`, or failed once they are spent.
 */
export function recordAttempt(ctx: Ctx, delivery: Delivery, attempt: Attempt): Delivery {
  const after = copyJson(delivery);
  after.attempts = [...delivery.attempts, attempt];
  const ok =
    attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  if (ok) {
    after.status = 'succeeded';
    after.next_attempt = null;
    const event = get(ctx, 'events', delivery.event);
    if (event && event.pending_webhooks > 0) {
      event.pending_webhooks -= 1;
      put(ctx, 'events', event);
    }
  } else {
    const retries = after.attempts.length - 1;
    if (retries < RETRY_DELAYS.length) {
      after.next_attempt = attempt.attempted_at + RETRY_DELAYS[retries];
    } else {
      after.status = 'failed';
      after.next_attempt = null;
    }
  }
  put(ctx, 'webhook_deliveries', after);
  return after;
}

/** Stop the pending deliveries of an endpoint that was disabled or deleted: Stripe makes no further attempts. */
export function cancelPending(ctx: Ctx, endpoint: string): void {
  const pending = ctx.db.all<{ data: string }>(
    'SELECT data FROM webhook_deliveries WHERE webhook_endpoint = ? AND next_attempt IS NOT NULL ORDER BY seq',
    endpoint,
  );
  for (const row of pending) {
    const d = JSON.parse(row.data) as Delivery;
    put(ctx, 'webhook_deliveries', { ...d, status: 'canceled', next_attempt: null });
  }
}

/** Point an endpoint's pending deliveries at its new URL (an update changed it). */
export function retarget(ctx: Ctx, endpoint: string, url: string): void {
  const pending = ctx.db.all<{ data: string }>(
    'SELECT data FROM webhook_deliveries WHERE webhook_endpoint = ? AND next_attempt IS NOT NULL ORDER BY seq',
    endpoint,
  );
  for (const row of pending) {
    const d = JSON.parse(row.data) as Delivery;
    put(ctx, 'webhook_deliveries', { ...d, url, target: targetOf(url) });
  }
}

/**
 * Hand the composed world every delivery to `seahaven://host/…` due by unix time `until`, oldest first, each attempt
 * signed at its due time; when none is due this is one indexed read. Without a host that receives messages, each
 * attempt fails with no answer and is retried like any other. Deliveries that events of the handler's own calls make
 * are handed over in the same round; more than `MAX_PER_CALL` wait for the next call.
 */
export function deliverDue(ctx: Ctx, until: number): number {
  if (delivering.has(ctx)) return 0;
  delivering.add(ctx);
  let n = 0;
  try {
    for (; n < MAX_PER_CALL; n++) {
      const row = ctx.db.one<{ data: string }>(
        "SELECT data FROM webhook_deliveries WHERE target = 'host' AND next_attempt <= ? ORDER BY next_attempt, seq LIMIT 1",
        until,
      );
      if (!row) break;
      const delivery = JSON.parse(row.data) as Delivery;
      // The query picked a delivery with an attempt due.
      const t = delivery.next_attempt as number;
      const request = requestOf(ctx, delivery, t);
      if (request === undefined) {
        put(ctx, 'webhook_deliveries', { ...delivery, status: 'canceled', next_attempt: null });
        continue;
      }
      recordAttempt(ctx, delivery, attemptAtHost(ctx, request, t));
    }
  } finally {
    delivering.delete(ctx);
  }
  return n;
}

function attemptAtHost(ctx: Ctx, request: WebhookRequest, t: number): Attempt {
  if (ctx.host === undefined)
    return {
      attempted_at: t,
      status_code: null,
      error:
        'No handler: Stripe World is not mounted in a world whose mount declares receive, so seahaven://host URLs reach nobody.',
    };
  try {
    const answer = ctx.host.send(request) as WebhookAnswer | undefined | null;
    const status = answer?.status ?? 200;
    return { attempted_at: t, status_code: status, error: null };
  } catch (e) {
    // A handler that throws is a server error to its sender, as a web framework answers 500; what it wrote is undone.
    return {
      attempted_at: t,
      status_code: 500,
      error: e instanceof Error ? e.message : String(e),
    };
  }
}
