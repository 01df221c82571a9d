/** Where a client connects: the WebSocket URL of a server's base URL. */
import { ClientError } from './errors.ts';

/** The WebSocket URL for a base URL: `http://host:8000` → `ws://host:8000/ws`, path prefixes kept. */
export function wsUrlOf(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:')
    throw new ClientError(
      'CONNECT',
      `cannot connect to ${url}: use an http(s):// or ws(s):// URL, like http://127.0.0.1:8000`,
    );
  if (!u.pathname.endsWith('/ws')) u.pathname = u.pathname.replace(/\/$/, '') + '/ws';
  return u.toString();
}
