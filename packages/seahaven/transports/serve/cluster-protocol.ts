/**
 * What the primary and the workers of `seahaven serve --workers N` share (cluster.ts, cluster-primary.ts): the
 * environment a worker starts with, the headers of a handed-over request, the messages between the processes, and the
 * `--workers` option.
 */
import { availableParallelism } from 'node:os';
import type { Context } from 'hono';
import type { PlacesToPrimary } from './places.ts';

/** The environment a worker is started with: its slot (0-based) and how many workers there are. */
export const SLOT_ENV = 'SEAHAVEN_CLUSTER_SLOT';
export const COUNT_ENV = 'SEAHAVEN_CLUSTER_SIZE';
/** How many WebSocket connections a worker may give the primary a duplicate of at once (its share of the primary's descriptors). */
export const GUARDS_ENV = 'SEAHAVEN_CLUSTER_GUARDS';
/** The places under `--max-sessions` a worker starts with, and its share of them (place-ledger.ts). */
export const PLACES_ENV = 'SEAHAVEN_CLUSTER_PLACES';
export const SHARE_ENV = 'SEAHAVEN_CLUSTER_SHARE';
/** A secret the primary draws for one run: the workers' private ports answer only requests that carry it. */
export const SECRET_ENV = 'SEAHAVEN_CLUSTER_SECRET';
/** Header carrying that secret on a handed-over request (taken off before any route sees it). */
export const HAND_OVER_HEADER = 'x-seahaven-hand-over';
/** How long a request for a worker that is starting waits for it, in milliseconds, before it is answered 503. */
export const START_WAIT_MS = 15_000;

/** Header naming the worker that answered a request (every response of a `--workers` server carries it). */
export const WORKER_HEADER = 'x-seahaven-worker';
/** Header naming the worker a handed-over request landed on first. */
export const ENTRY_HEADER = 'x-seahaven-entry-worker';

/** One worker as the primary describes it to the others. */
export interface WorkerInfo {
  worker: number;
  pid: number;
  /** The worker's private port on 127.0.0.1, where handed-over requests go; null until it listens. */
  port: number | null;
  /** Its sessions and held forks. */
  sessions: number;
  ready: boolean;
  /** Whether this worker replaces one that exited (false for the workers the server started with). */
  replaces: boolean;
}

/** Messages between the primary and the workers, all under the `seahaven` key. */
export type ToPrimary =
  | { seahaven: 'ready'; port: number; banner: string }
  | { seahaven: 'count'; sessions: number }
  | { seahaven: 'guard'; id: number }
  | { seahaven: 'release'; id: number }
  | PlacesToPrimary;
export type ToWorker =
  | { seahaven: 'table'; workers: WorkerInfo[] }
  | { seahaven: 'shutdown' }
  | { seahaven: 'grant'; places: number }
  | { seahaven: 'reclaim' };

/** `--workers`: a whole number >= 1, or `auto` for the machine's cores. Throws with the accepted forms. */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 256)
    throw new Error(
      `--workers must be a whole number from 1 to 256, or auto (the machine's ${availableParallelism()} cores); got "${value}"`,
    );
  return n;
}

/** Whether a request came in on this worker's private port: another worker handed it over, so it is answered here. */
export function handedOver(c: Context): boolean {
  return (c.env as { seahavenHandedOver?: unknown } | undefined)?.seahavenHandedOver === true;
}
