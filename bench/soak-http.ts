/**
 * The soak's HTTP clients, beside its WebSocket sessions (soak.ts): Stripe World's REST API, each client on keys of its
 * own (a key is an account: its own session), and MCP Streamable HTTP clients of the crm world. Each keeps one request
 * in flight and checks every answer against what its request should get.
 */

/** What a client counts: answers by kind, and the answers that were wrong (with up to a few examples). */
export interface HttpTally {
  frames: Record<string, number>;
  errors: number;
  note(what: string): void;
}

/** Requests on one key before a REST client moves to a fresh key (the old account idles out with `--session-timeout`). */
const REQUESTS_PER_KEY = 1500;

async function expectJson(
  tally: HttpTally,
  kind: string,
  res: Response,
  status: number,
  must: (body: any) => boolean,
): Promise<any> {
  tally.frames[kind] = (tally.frames[kind] ?? 0) + 1;
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: wrong however it looks.
  }
  if (res.status !== status || body === null || !must(body)) {
    tally.errors++;
    tally.note(`error (${kind}: expected ${status}): ${res.status} ${text.slice(0, 300)}`);
    return null;
  }
  return body;
}

/** A Stripe REST client: create customers, read them back one by one and in lists, and ask for ones that do not exist. */
export async function stripeRestClient(
  base: string,
  client: number,
  until: () => boolean,
  tally: HttpTally,
): Promise<void> {
  for (let key = 0, n = 0; until(); key++) {
    const auth = { authorization: `Bearer sk_test_soak_${client}_${key}` };
    let last: string | null = null;
    for (let i = 0; i < REQUESTS_PER_KEY && until(); i++, n++) {
      const pick = n % 8;
      if (pick < 3 || last === null) {
        const name = `Soak ${client}.${n}`;
        const form = new URLSearchParams({
          name,
          email: `soak${n}@example.com`,
          'metadata[run]': String(n),
        });
        const res = await fetch(`${base}/stripe/v1/customers`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        const body = await expectJson(
          tally,
          'rest_create',
          res,
          200,
          (b) => b.object === 'customer' && b.name === name && b.metadata?.run === String(n),
        );
        if (body !== null) last = body.id;
      } else if (pick < 5) {
        const res = await fetch(`${base}/stripe/v1/customers/${last}`, { headers: auth });
        await expectJson(tally, 'rest_read', res, 200, (b) => b.id === last);
      } else if (pick < 7) {
        const res = await fetch(`${base}/stripe/v1/customers?limit=3`, { headers: auth });
        await expectJson(
          tally,
          'rest_list',
          res,
          200,
          (b) => b.object === 'list' && Array.isArray(b.data) && b.data.length > 0,
        );
      } else {
        const res = await fetch(`${base}/stripe/v1/customers/cus_soak_missing_${n}`, {
          headers: auth,
        });
        await expectJson(
          tally,
          'rest_missing',
          res,
          404,
          (b) => b.error?.type === 'invalid_request_error',
        );
      }
    }
  }
}

/** An MCP Streamable HTTP client of the crm world: initialize, then tool calls that succeed and ones that fail. */
export async function mcpClient(
  base: string,
  client: number,
  until: () => boolean,
  tally: HttpTally,
): Promise<void> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  // A session starts on the fixture its initialize names in the query; later requests carry its id.
  const post = (body: unknown, session?: string) =>
    fetch(`${base}/crm/mcp${session ? '' : '?fixture=small_startup'}`, {
      method: 'POST',
      headers: session ? { ...headers, 'mcp-session-id': session } : headers,
      body: JSON.stringify(body),
    });
  while (until()) {
    const init = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'soak', version: '1' },
      },
    });
    const session = init.headers.get('mcp-session-id');
    if (
      (await expectJson(
        tally,
        'mcp_init',
        init,
        200,
        (b) => b.result?.serverInfo !== undefined,
      )) === null ||
      session === null
    )
      return;
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    for (let n = 1; n <= 500 && until(); n++) {
      const pick = n % 4;
      if (pick === 0) {
        const name = `Mcp ${client}.${n}`;
        const res = await post(
          {
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'create_company', arguments: { name } },
          },
          session,
        );
        await expectJson(
          tally,
          'mcp_call',
          res,
          200,
          (b) =>
            b.id === n && b.result?.isError !== true && JSON.stringify(b.result).includes(name),
        );
      } else if (pick === 1) {
        const res = await post(
          {
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'search_contacts', arguments: { query: 'whit', limit: 3 } },
          },
          session,
        );
        await expectJson(
          tally,
          'mcp_call',
          res,
          200,
          (b) => b.id === n && JSON.stringify(b.result).includes('Whitaker'),
        );
      } else if (pick === 2) {
        const res = await post(
          {
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'get_company', arguments: { id: `cmp_missing_${n}` } },
          },
          session,
        );
        await expectJson(
          tally,
          'mcp_failed_call',
          res,
          200,
          (b) => b.id === n && b.result?.isError === true,
        );
      } else {
        const res = await post({ jsonrpc: '2.0', id: n, method: 'tools/list' }, session);
        await expectJson(
          tally,
          'mcp_list',
          res,
          200,
          (b) => b.id === n && Array.isArray(b.result?.tools),
        );
      }
    }
    await fetch(`${base}/crm/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': session } });
  }
}
