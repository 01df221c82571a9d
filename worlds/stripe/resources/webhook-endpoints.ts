/**
 * Webhook endpoints: the five operations of `/v1/webhook_endpoints`, and, since Stripe shows delivery attempts only in
 * its Dashboard, world-only routes under `/v1/test_helpers/webhook_deliveries` to read them and to report the answer
 * of an attempt a forwarder made over the network (lib/webhooks.ts has the delivery rules).
 *
 * An endpoint's URL is `https://…` or `http://…` (posted by a forwarder, never by the world), or `seahaven://host/<path>`
 * (handed in process to the world that mounts Stripe World). Its `secret` (whsec_…) is in the create reply only.
 */
import { invalidRequest, resourceMissing } from '../lib/errors.ts';
import { listPage } from '../lib/list.ts';
import { op } from '../lib/op.ts';
import { mergeMetadata, p, type OpParams } from '../lib/params.ts';
import { get, newId, nowSeconds, put, remove, type Stored } from '../lib/store.ts';
import { cancelPending, newSecret, recordAttempt, requestOf, retarget } from '../lib/webhooks.ts';
import type { Ctx, SqlParam } from 'seahaven';
import { copyJson } from '../lib/clone.ts';

/** Stripe allows 16 endpoints on an account. */
const MAX_ENDPOINTS = 16;
const EVENT_TYPE = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;
const API_VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

const pageParams = { limit: p.int(), starting_after: p.string(), ending_before: p.string() };

function mustEndpoint(ctx: Ctx, id: string): Stored<'webhook_endpoints'> {
  const endpoint = get(ctx, 'webhook_endpoints', id);
  if (endpoint === undefined) throw resourceMissing('webhook_endpoint', id, 'id');
  return endpoint;
}

function checkedUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const ok =
    parsed !== undefined &&
    (parsed.protocol === 'https:' ||
      parsed.protocol === 'http:' ||
      (parsed.protocol === 'seahaven:' && parsed.host === 'host'));
  if (!ok)
    throw invalidRequest(
      `Invalid URL: ${url}. Give an http(s) URL (https://example.com/webhook; a forwarder posts to it), or seahaven://host/<path> for the handler of the world that mounts Stripe World.`,
      'url',
      'url_invalid',
    );
  return url;
}

function checkedEvents(events: (string | null)[] | undefined | null): string[] {
  const list = (events ?? []).filter((e): e is string => e !== null);
  if (list.length === 0)
    throw invalidRequest(
      'Missing required param: enabled_events. List the event types to send, like enabled_events[]=invoice.paid, or enabled_events[]=* for all of them.',
      'enabled_events',
      'parameter_missing',
    );
  list.forEach((e, i) => {
    if (e !== '*' && !EVENT_TYPE.test(e))
      throw invalidRequest(
        `Invalid enabled_events[${i}]: ${e} is not an event type; use a name such as invoice.paid, or * for all events.`,
        `enabled_events[${i}]`,
      );
  });
  return [...new Set(list)];
}

/** A delivery as the test_helpers routes show it; a pending one with the request its next attempt would send now. */
function deliveryShown(
  ctx: Ctx,
  delivery: Stored<'webhook_deliveries'>,
): Stored<'webhook_deliveries'> & { request?: ReturnType<typeof requestOf> | null } {
  if (delivery.next_attempt === null) return delivery;
  return { ...delivery, request: requestOf(ctx, delivery, nowSeconds(ctx)) ?? null };
}

function mustDelivery(ctx: Ctx, id: string): Stored<'webhook_deliveries'> {
  const delivery = get(ctx, 'webhook_deliveries', id);
  if (delivery === undefined) throw resourceMissing('webhook_delivery', id, 'delivery');
  return delivery;
}

const createParams = {
  url: p.string(5000).req(),
  enabled_events: p.arr(p.string(100)).req(),
  api_version: p.string(40),
  connect: p.bool(),
  description: p.string(5000),
  metadata: p.metadata(),
};
const updateParams = {
  description: p.string(5000),
  disabled: p.bool(),
  enabled_events: p.arr(p.string(100)),
  metadata: p.metadata(),
  url: p.string(5000),
};
const listDeliveriesParams = {
  ...pageParams,
  event: p.string(),
  webhook_endpoint: p.string(),
  status: p.enum('pending', 'succeeded', 'failed', 'canceled'),
  target: p.enum('host', 'network'),
  due: p.bool(),
};
const attemptParams = {
  attempted_at: p.int(0).req(),
  status_code: p.int(100, 599),
  error: p.string(500),
};

export const webhookEndpointsOps = [
  op({
    id: 'PostWebhookEndpoints',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    params: createParams,
    run(c, params: OpParams<typeof createParams>) {
      if (params.connect)
        throw invalidRequest(
          'Stripe World has no connected accounts, so it has no Connect endpoints: leave connect out (or false).',
          'connect',
        );
      if (params.api_version != null && !API_VERSION.test(params.api_version))
        throw invalidRequest(
          `Invalid api_version: ${params.api_version}; give a version such as 2026-10-28.endive.`,
          'api_version',
        );
      const count = c.ctx.db.one<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints')!.n;
      if (count >= MAX_ENDPOINTS)
        throw invalidRequest(
          `You have reached the maximum of ${MAX_ENDPOINTS} test webhook endpoints; delete one you no longer use first.`,
        );
      const endpoint: Stored<'webhook_endpoints'> = {
        id: newId(c.ctx, 'we_'),
        object: 'webhook_endpoint',
        api_version: params.api_version ?? null,
        application: null,
        created: nowSeconds(c.ctx),
        description: params.description || null,
        enabled_events: checkedEvents(params.enabled_events),
        livemode: false,
        metadata: mergeMetadata({}, params.metadata),
        status: 'enabled',
        url: checkedUrl(params.url),
      };
      const secret = newSecret(c.ctx);
      put(c.ctx, 'webhook_endpoints', endpoint);
      c.ctx.db.run('UPDATE webhook_endpoints SET secret = ? WHERE id = ?', secret, endpoint.id);
      // The only reply that carries the secret, as in Stripe.
      return { ...endpoint, secret };
    },
  }),
  op({
    id: 'GetWebhookEndpointsWebhookEndpoint',
    method: 'GET',
    path: '/v1/webhook_endpoints/{webhook_endpoint}',
    params: {},
    run: (c, _params: OpParams, path) => mustEndpoint(c.ctx, path.webhook_endpoint),
  }),
  op({
    id: 'PostWebhookEndpointsWebhookEndpoint',
    method: 'POST',
    path: '/v1/webhook_endpoints/{webhook_endpoint}',
    params: updateParams,
    run(c, params: OpParams<typeof updateParams>, path) {
      const before = mustEndpoint(c.ctx, path.webhook_endpoint);
      const after = copyJson(before);
      if (params.description !== undefined) after.description = params.description || null;
      if (params.enabled_events !== undefined)
        after.enabled_events = checkedEvents(params.enabled_events);
      if (params.metadata !== undefined)
        after.metadata = mergeMetadata(before.metadata ?? {}, params.metadata);
      if (params.url !== undefined && params.url !== null) after.url = checkedUrl(params.url);
      if (typeof params.disabled === 'boolean')
        after.status = params.disabled ? 'disabled' : 'enabled';
      put(c.ctx, 'webhook_endpoints', after);
      // A disabled endpoint gets no further attempts of what was pending; a new URL takes the pending ones.
      if (after.status === 'disabled' && before.status !== 'disabled')
        cancelPending(c.ctx, after.id);
      else if (after.url !== before.url) retarget(c.ctx, after.id, after.url);
      return after;
    },
  }),
  op({
    id: 'GetWebhookEndpoints',
    method: 'GET',
    path: '/v1/webhook_endpoints',
    params: pageParams,
    run: (c, params: OpParams<typeof pageParams>) =>
      listPage(c.ctx, 'webhook_endpoints', params, {
        url: '/v1/webhook_endpoints',
        what: 'webhook_endpoint',
      }),
  }),
  op({
    id: 'DeleteWebhookEndpointsWebhookEndpoint',
    method: 'DELETE',
    path: '/v1/webhook_endpoints/{webhook_endpoint}',
    params: {},
    run(c, _params: OpParams, path) {
      const endpoint = mustEndpoint(c.ctx, path.webhook_endpoint);
      cancelPending(c.ctx, endpoint.id);
      remove(c.ctx, 'webhook_endpoints', endpoint.id);
      return { id: endpoint.id, object: 'webhook_endpoint', deleted: true };
    },
  }),

  // World-only: what Stripe shows of deliveries in the Dashboard, and the forwarder's report of an attempt.
  op({
    id: 'GetTestHelpersWebhookDeliveries',
    method: 'GET',
    path: '/v1/test_helpers/webhook_deliveries',
    params: listDeliveriesParams,
    run(c, params: OpParams<typeof listDeliveriesParams>) {
      const where: [string, ...SqlParam[]][] = [];
      if (params.event) where.push(['event = ?', params.event]);
      if (params.webhook_endpoint) where.push(['webhook_endpoint = ?', params.webhook_endpoint]);
      if (params.status) where.push(['status = ?', params.status]);
      if (params.target) where.push(['target = ?', params.target]);
      if (params.due === true) where.push(['next_attempt <= ?', nowSeconds(c.ctx)]);
      if (params.due === false)
        where.push(['(next_attempt IS NULL OR next_attempt > ?)', nowSeconds(c.ctx)]);
      return listPage(c.ctx, 'webhook_deliveries', params, {
        url: '/v1/test_helpers/webhook_deliveries',
        what: 'webhook_delivery',
        where,
        map: (d) => deliveryShown(c.ctx, d),
      });
    },
  }),
  op({
    id: 'GetTestHelpersWebhookDeliveriesDelivery',
    method: 'GET',
    path: '/v1/test_helpers/webhook_deliveries/{delivery}',
    params: {},
    run: (c, _params: OpParams, path) => deliveryShown(c.ctx, mustDelivery(c.ctx, path.delivery)),
  }),
  op({
    id: 'PostTestHelpersWebhookDeliveriesDeliveryAttempts',
    method: 'POST',
    path: '/v1/test_helpers/webhook_deliveries/{delivery}/attempts',
    params: attemptParams,
    run(c, params: OpParams<typeof attemptParams>, path) {
      const delivery = mustDelivery(c.ctx, path.delivery);
      if (delivery.target !== 'network')
        throw invalidRequest(
          `${delivery.id} goes to seahaven://host, which the world delivers itself; only deliveries to http(s) URLs take reported attempts.`,
          'delivery',
        );
      if (delivery.next_attempt === null)
        throw invalidRequest(
          `${delivery.id} is ${delivery.status}: it takes no more attempts.`,
          'delivery',
        );
      const now = nowSeconds(c.ctx);
      if (params.attempted_at < delivery.next_attempt || params.attempted_at > now)
        throw invalidRequest(
          `Invalid attempted_at: ${params.attempted_at}; give the t of the Stripe-Signature that was sent, between the attempt's due time ${delivery.next_attempt} and now (${now}).`,
          'attempted_at',
        );
      if ((params.status_code ?? null) === null && !params.error)
        throw invalidRequest(
          'Give status_code (the answer the endpoint gave), or error (why no answer came).',
          'status_code',
        );
      return recordAttempt(c.ctx, delivery, {
        attempted_at: params.attempted_at,
        status_code: params.status_code ?? null,
        error: params.error || null,
      });
    },
  }),
];
