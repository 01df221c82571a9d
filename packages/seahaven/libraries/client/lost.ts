/**
 * What a client's requests fail with once its connection is gone: `CLOSED`, the server's own refusal, or, over several
 * hosts, `LOST`, which names the episode that went with the session (it is never replayed).
 */
import { ClientError } from './errors.ts';
import type { HostPool } from './hosts.ts';
import type { Link } from './link.ts';

/** The episode a client is playing: its id, its host and how many requests it has made since its reset. */
export interface Episode {
  id: string | null;
  host: string;
  steps: number;
  /** Its submit answered `done`. */
  finished?: boolean;
}

/** A failure that means the connection is gone (or never took the session), not a refusal of one request. */
export const connectionGone = (e: unknown) =>
  e instanceof ClientError &&
  ['CLOSED', 'LOST', 'CAPACITY_REACHED', 'SESSION_ERROR'].includes(e.code);

/** `LOST`: the session on `link`'s host is gone, and with it the episode `ep` it was playing (if unfinished). */
export function lostError(
  link: Link,
  ep: Episode | null,
  why: string,
  closeCode?: number,
): ClientError {
  const what =
    ep === null
      ? 'before any episode started'
      : ep.finished
        ? `after episode ${ep.id ?? '(no id)'} finished`
        : `during episode ${ep.id ?? '(no id)'} after ${ep.steps} request(s) since its reset; that episode is lost, never replayed`;
  return new ClientError(
    'LOST',
    `the session on ${link.host} was lost ${what}: ${why}. reset() starts a new episode on another host`,
    {
      host: link.host,
      episode_id: ep?.id ?? null,
      steps: ep?.steps ?? 0,
      episode_lost: ep !== null && ep.finished !== true,
      ...(closeCode === undefined ? {} : { close_code: closeCode }),
    },
  );
}

/**
 * What the requests on a client's closed `link` fail with. A pool's host gives the session back, and is marked failed
 * unless the client closed the link itself.
 */
export function closeError(
  link: Link,
  code: number,
  reason: string,
  pool: HostPool | null,
  ep: Episode | null,
): ClientError {
  if (pool !== null) {
    pool.release(link.host);
    if (!link.closedByClient)
      pool.markFailed(
        link.host,
        link.failure?.message ?? `the connection closed (${code}${reason ? ` ${reason}` : ''})`,
      );
  }
  const said = link.failure;
  const closed = `the connection closed (${code}${reason.length > 0 ? ` ${reason}` : ''})${said === null ? '' : ` after ${said.code}: ${said.message}`}`;
  // Turned away (capacity, a session error) before an episode started, or one URL only: the server's answer stands.
  if (said !== null && (pool === null || !link.started)) return said;
  if (pool === null || link.closedByClient) return new ClientError('CLOSED', closed);
  return lostError(link, ep, closed, code);
}
