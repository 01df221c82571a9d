/**
 * The official `stripe` SDK, unmodified, talking to an instance in process: its fetch HTTP client is handed a fetch
 * function that answers with `inst.request()`, so every byte the SDK sends is decoded by the face exactly as
 * `seahaven serve` decodes it. (`serve.test.ts` drives the same SDK over a real socket.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import type { Instance } from 'seahaven';
import { stripe } from '../index.ts';

/** A fetch function whose requests to `/v1/...` are answered by `inst`, as `seahaven serve` answers them. */
export function fetchFor(inst: Instance): typeof fetch {
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    );
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const body = init?.body === undefined || init.body === null ? '' : String(init.body);
    const path = url.pathname.replace(/^\/v1/, '');
    const reply = inst.request({
      method: init?.method ?? 'GET',
      path,
      query: url.search.replace(/^\?/, ''),
      headers,
      body,
    });
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    // Lower-case names, as Node's HTTP client hands them to the SDK from a real socket.
    const replyHeaders: Record<string, string> = { 'content-type': 'application/json' };
    for (const [k, v] of Object.entries(reply.headers ?? {})) replyHeaders[k.toLowerCase()] = v;
    return new Response(text, { status: reply.status, headers: replyHeaders });
  };
  return fetchFn as typeof fetch;
}

/** A Stripe client whose requests are answered by `inst`. */
export function sdkFor(
  inst: Instance,
  options: { key?: string; apiVersion?: string } = {},
): Stripe {
  return new Stripe(options.key ?? 'sk_test_inprocess', {
    httpClient: Stripe.createFetchHttpClient(fetchFor(inst)),
    host: 'stripe.invalid',
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
    ...(options.apiVersion ? { apiVersion: options.apiVersion as Stripe.LatestApiVersion } : {}),
  });
}

/** A response header of an SDK result (the fetch client keeps a `Headers`, the Node client a plain object). */
export function headerOf(
  obj: { lastResponse: { headers: unknown } },
  name: string,
): string | undefined {
  const h = obj.lastResponse.headers;
  if (h instanceof Headers) return h.get(name) ?? undefined;
  return (h as Record<string, string | undefined>)[name.toLowerCase()];
}

/** A fresh instance of the empty fixture with seed `seed`, and an SDK client answered by it. */
export function freshSdk(seed: number): { inst: Instance; s: Stripe } {
  const inst = stripe.instance({ fixture: 'empty', seed });
  return { inst, s: sdkFor(inst) };
}

/** The Stripe error `p` rejects with, or null when it resolves. */
export async function stripeError(
  p: Promise<unknown>,
): Promise<InstanceType<typeof Stripe.errors.StripeError>> {
  return (await p.then(
    () => null,
    (e: unknown) => e,
  )) as InstanceType<typeof Stripe.errors.StripeError>;
}

/**
 * Run docs/stripe.md's fenced block tagged `ts no-run <name>` as written, with `stripe` bound to `s`: what it prints
 * with `console.log`, in order.
 */
export async function runDocExample(name: string, s: Stripe): Promise<unknown[]> {
  const doc = readFileSync(
    fileURLToPath(new URL('../../../docs/stripe.md', import.meta.url)),
    'utf8',
  );
  const block = new RegExp('```ts no-run ' + name + '[^\\n]*\\n([\\s\\S]*?)```').exec(doc)![1];
  const printed: unknown[] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (stripe: Stripe, console: { log: (v: unknown) => void }) => Promise<void>;
  await new AsyncFunction('stripe', 'console', block)(s, { log: (v) => printed.push(v) });
  return printed;
}
