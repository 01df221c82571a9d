/**
 * Forwarding webhooks to a real URL, as `stripe listen --forward-to` does: the one part of Stripe World that touches
 * the network, and it runs outside the world, as a client of its REST face. World code does no I/O, so a delivery to
 * an `http(s)://` endpoint stays pending in the episode until a forwarder takes it: `forwardWebhooks` reads the due
 * ones (`GET /v1/test_helpers/webhook_deliveries?target=network&due=true`), posts each signed request to its URL (or
 * to `forwardTo`), and reports the answer (`POST /v1/test_helpers/webhook_deliveries/{id}/attempts`), which the world
 * records as a call: a replay of the episode reproduces it without the network. Only loopback hosts are posted to.
 *
 * Nothing runs this by default: a training episode never reaches the network unless whoever runs it starts a
 * forwarder against its key.
 */
/* eslint-disable seahaven/no-io -- a client of the world's face that runs beside an episode, not world code. */
import type { WebhookRequest } from './lib/webhooks.ts';

export interface ForwardOptions {
  /** The REST face's base URL, like `http://127.0.0.1:8000` (the `/v1` is added). */
  api: string;
  /** The episode's secret key (`sk_test_…`), which picks the instance. */
  key: string;
  /** Post every delivery here instead of its endpoint's URL, as `stripe listen --forward-to` (a loopback URL). */
  forwardTo?: string;
  /** How the face is reached; `fetch` by default (tests pass an in-process one). */
  apiFetch?: typeof fetch;
  /** How long to wait for an endpoint's answer, in milliseconds (Stripe waits about 10 s). Default 10000. */
  timeoutMs?: number;
}

/** What one forwarding pass did: each delivery it posted, and the answer. */
export interface ForwardedAttempt {
  delivery: string;
  event: string;
  url: string;
  status_code: number | null;
  error: string | null;
}

interface DeliveryView {
  id: string;
  event: string;
  request: WebhookRequest | null;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Refuse a URL that is not on this machine's loopback interface. */
function loopbackUrl(url: string): URL {
  const u = new URL(url);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !LOOPBACK.test(u.hostname))
    throw new Error(
      `forwardWebhooks posts only to loopback http(s) URLs (localhost, 127.x.x.x, [::1]); ${url} is not one. Pass forwardTo: 'http://localhost:<port>/<path>' to send every delivery to a local receiver.`,
    );
  return u;
}

/** The target of a `forwardTo` like `localhost:4242/webhook` (the scheme is optional, as for `stripe listen`). */
function forwardUrl(to: string): string {
  return /^[a-z]+:\/\//i.test(to) ? to : `http://${to}`;
}

/** One pass: post every due delivery to an http(s) endpoint and report each answer. */
export async function forwardWebhooks(options: ForwardOptions): Promise<ForwardedAttempt[]> {
  const apiFetch = options.apiFetch ?? fetch;
  const base = options.api.replace(/\/$/, '') + '/v1';
  const auth = { Authorization: `Bearer ${options.key}` };
  const to =
    options.forwardTo === undefined ? undefined : loopbackUrl(forwardUrl(options.forwardTo));
  const done: ForwardedAttempt[] = [];
  for (;;) {
    const listed = await apiFetch(
      `${base}/test_helpers/webhook_deliveries?target=network&due=true&limit=100`,
      { headers: auth },
    );
    if (!listed.ok)
      throw new Error(
        `forwardWebhooks: listing deliveries answered ${listed.status}: ${await listed.text()}`,
      );
    const page = (await listed.json()) as { data: DeliveryView[] };
    const due = page.data.filter((d) => d.request !== null).reverse();
    if (due.length === 0) return done;
    for (const d of due) {
      const request = d.request!;
      const url = to ?? loopbackUrl(request.url);
      const t = Number(/(?:^|,)t=(\d+)/.exec(request.headers['Stripe-Signature'])![1]);
      let status: number | null = null;
      let error: string | null = null;
      try {
        const answer = await fetch(url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        status = answer.status;
        await answer.arrayBuffer();
      } catch (e) {
        error = `${url.href}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500);
      }
      const form = new URLSearchParams({ attempted_at: String(t) });
      if (status !== null) form.set('status_code', String(status));
      if (error !== null) form.set('error', error);
      const reported = await apiFetch(`${base}/test_helpers/webhook_deliveries/${d.id}/attempts`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: String(form),
      });
      if (!reported.ok)
        throw new Error(
          `forwardWebhooks: reporting ${d.id} answered ${reported.status}: ${await reported.text()}`,
        );
      done.push({ delivery: d.id, event: d.event, url: url.href, status_code: status, error });
    }
  }
}
