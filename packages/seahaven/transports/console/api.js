// @ts-check
/**
 * The console's calls to its JSON API (`/console/api/…`). The bearer token, when the server wants one, is kept for
 * this browser tab only (sessionStorage) and sent as a header: pages cannot carry headers, API calls can.
 */

const TOKEN_KEY = 'seahaven.console.token';

/** A refused API call: the HTTP status and the server's `detail` (a message, or a list of `{loc, msg}` problems). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {unknown} detail
   */
  constructor(status, detail) {
    super(detailText(detail));
    this.status = status;
    this.detail = detail;
  }
}

/**
 * The server's `detail` as readable lines.
 * @param {unknown} detail
 * @returns {string}
 */
export function detailText(detail) {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        const loc = Array.isArray(item?.loc)
          ? item.loc.filter((/** @type {unknown} */ p) => p !== 'body').join('.')
          : '';
        return loc ? `${loc}: ${item?.msg}` : String(item?.msg ?? JSON.stringify(item));
      })
      .join('\n');
  }
  return JSON.stringify(detail);
}

/** @param {string | null} token */
export function setToken(token) {
  if (token === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

/**
 * Call the API: `path` is relative to `/console/api/`; a `body` is sent as JSON. Resolves with the parsed reply.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`api/${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  /** @type {any} */
  let data;
  try {
    data = await res.json();
  } catch {
    data = { detail: `${res.status} ${res.statusText}` };
  }
  if (!res.ok) throw new ApiError(res.status, data?.detail ?? data);
  return data;
}

/**
 * The API path of a session (`sessions/<world>/<id>`), each part escaped.
 * @param {{ world: string, id: string }} s
 */
export function sessionPath(s) {
  return `sessions/${encodeURIComponent(s.world)}/${encodeURIComponent(s.id)}`;
}
