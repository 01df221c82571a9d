/** HTTP requests with exact headers (a forged `Host`, an `Origin`), for tests of what a browser or an attacker sends. */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/**
 * Send one request to `url` (the server's base URL plus a path) with exactly these headers, and read the whole reply.
 * @example
 * const r = await rawHttp(`${server.url}/state`, { headers: { host: 'evil.example' } });
 * r.status; // 403
 */
export function rawHttp(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The headers of an MCP Streamable HTTP POST. */
export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** An MCP `initialize` request's JSON text; `capabilities` is spliced in as given, so it may nest deeper than `JSON.stringify` can. */
export function initializeText(capabilities = '{}', id = 1): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":${capabilities},"clientInfo":{"name":"test","version":"1"}}}`;
}
