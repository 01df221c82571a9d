/**
 * Several servers behind one client: `HostPool` keeps, for each base URL, how many of this process's sessions are
 * open on it and whether it recently refused or dropped a connection, and orders the hosts to try for a new session:
 * live hosts with the fewest sessions first, then the ones that failed, the longest-failed first.
 */

/** What the pool knows of one host. */
export interface HostStatus {
  /** The base URL, as given. */
  url: string;
  /** Sessions of this pool open on it (or being opened). */
  sessions: number;
  /** Set while the host is skipped: it refused, dropped or turned away a connection less than `retryAfterMs` ago. */
  unavailable: { reason: string; since: number } | null;
}

export interface HostPoolOptions {
  /**
   * Milliseconds a host that refused or dropped a connection (or was full) is tried only after every other host.
   * Default 5000.
   */
  retryAfterMs?: number;
}

interface Host {
  url: string;
  sessions: number;
  /** When the host last failed (ms since the epoch), or null. */
  failedAt: number | null;
  reason: string;
  /** A counter value of the last time it was picked: ties go to the host picked longest ago. */
  picked: number;
}

/**
 * The hosts a client spreads its sessions over. `SeahavenClient.connect([url1, url2, …])` uses one pool per list of
 * URLs for the whole process; make one yourself to read its counts or set `retryAfterMs`.
 * @example
 * const pool = new HostPool(['http://10.0.0.1:8000', 'http://10.0.0.2:8000']);
 * const env = await SeahavenClient.connect(pool);
 * console.log(env.host, pool.status().map((h) => h.sessions)); // http://10.0.0.1:8000 [1, 0]
 */
export class HostPool {
  readonly urls: readonly string[];
  readonly retryAfterMs: number;
  readonly #hosts: Host[];
  #picks = 0;

  constructor(urls: readonly string[], options: HostPoolOptions = {}) {
    if (urls.length === 0)
      throw new TypeError('HostPool needs at least one base URL, like http://127.0.0.1:8000');
    const unique = [...new Set(urls)];
    if (unique.length !== urls.length)
      throw new TypeError(
        `HostPool: a base URL is listed twice (${urls.join(', ')}); list each server once`,
      );
    this.urls = unique;
    this.retryAfterMs = options.retryAfterMs ?? 5000;
    this.#hosts = unique.map((url) => ({
      url,
      sessions: 0,
      failedAt: null,
      reason: '',
      picked: 0,
    }));
  }

  #host(url: string): Host {
    const host = this.#hosts.find((h) => h.url === url);
    if (host === undefined)
      throw new TypeError(`${url} is not one of this pool's hosts (${this.urls.join(', ')})`);
    return host;
  }

  #down(h: Host, now: number): boolean {
    return h.failedAt !== null && now - h.failedAt < this.retryAfterMs;
  }

  /**
   * The hosts in the order a new session should try them: those not failed recently, fewest sessions first (a tie goes
   * to the host picked longest ago), then the recently failed ones, longest ago first. Skips `exclude`.
   */
  order(exclude: ReadonlySet<string> = new Set()): string[] {
    const now = Date.now();
    const candidates = this.#hosts.filter((h) => !exclude.has(h.url));
    const live = candidates
      .filter((h) => !this.#down(h, now))
      .sort((a, b) => a.sessions - b.sessions || a.picked - b.picked);
    const down = candidates
      .filter((h) => this.#down(h, now))
      .sort((a, b) => a.failedAt! - b.failedAt!);
    return [...live, ...down].map((h) => h.url);
  }

  /** Count a session on `url` from now (called before connecting, so concurrent connects spread). @internal */
  acquire(url: string): void {
    const h = this.#host(url);
    h.sessions++;
    h.picked = ++this.#picks;
  }

  /** A session on `url` ended, or its connection never opened. @internal */
  release(url: string): void {
    const h = this.#host(url);
    if (h.sessions > 0) h.sessions--;
  }

  /** `url` refused, dropped or turned away a connection: try it after the others for `retryAfterMs`. @internal */
  markFailed(url: string, reason: string): void {
    const h = this.#host(url);
    h.failedAt = Date.now();
    h.reason = reason;
  }

  /** `url` accepted a connection: it is live again. @internal */
  markLive(url: string): void {
    this.#host(url).failedAt = null;
  }

  /** Each host's open sessions and, while it is skipped, why. */
  status(): HostStatus[] {
    const now = Date.now();
    return this.#hosts.map((h) => ({
      url: h.url,
      sessions: h.sessions,
      unavailable: this.#down(h, now) ? { reason: h.reason, since: h.failedAt! } : null,
    }));
  }
}

const shared = new Map<string, HostPool>();

/** The process-wide pool for this list of base URLs (the same list, in any order, shares one pool). */
export function sharedPool(urls: readonly string[]): HostPool {
  const key = [...urls].sort().join('\n');
  let pool = shared.get(key);
  if (pool === undefined) {
    pool = new HostPool(urls);
    shared.set(key, pool);
  }
  return pool;
}
