/** The server's task listing (`GET /tasks`), read over HTTP beside a client's WebSocket. */
import { ClientError } from './errors.ts';

/** A task as the server lists it: what it asks and where it starts, never how it is graded. */
export interface TaskInfo {
  id: string;
  world: string;
  fixture: string;
  prompt: string;
  /** The task's declared difficulty (1 = easiest), or null. */
  difficulty: number | null;
  tags: string[];
  /** The curriculum stages the task is in. */
  stages: { curriculum: string; stage: string }[];
}

/**
 * The HTTP URL of `path` on the server a base or WebSocket URL names: `ws://host:8000/crm/ws` → `http://host:8000/crm/tasks`.
 * @example
 * httpUrlOf('ws://127.0.0.1:8000/ws', '/tasks'); // 'http://127.0.0.1:8000/tasks'
 */
export function httpUrlOf(url: string, path: string): string {
  const u = new URL(url);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  else if (u.protocol === 'wss:') u.protocol = 'https:';
  else if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ClientError(
      'CONNECT',
      `cannot reach ${url}: use an http(s):// or ws(s):// URL, like http://127.0.0.1:8000`,
    );
  u.pathname = u.pathname.replace(/\/$/, '').replace(/\/ws$/, '') + path;
  u.search = '';
  return u.toString();
}

/** `GET /tasks` of the server at `url`: its `tasks`. Rejects with `CONNECT` or `HTTP_<status>` naming the URL. */
export async function fetchTasks(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<TaskInfo[]> {
  const target = httpUrlOf(url, '/tasks');
  let res: Response;
  try {
    res = await fetch(target, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new ClientError('CONNECT', `cannot reach ${target}: ${(e as Error).message}`, {
      host: url,
    });
  }
  if (!res.ok) {
    const hint = res.status === 401 ? '; pass { token } (the server was started with --token)' : '';
    throw new ClientError(`HTTP_${res.status}`, `${target} answered HTTP ${res.status}${hint}`, {
      host: url,
      status: res.status,
    });
  }
  return ((await res.json()) as { tasks: TaskInfo[] }).tasks;
}
