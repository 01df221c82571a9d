/**
 * A worker process's start in `seahaven serve --workers N`: its router, made from the environment the primary started
 * it with, and its link to the primary (cluster-primary.ts) for the table of workers, places and the drain.
 */
import cluster from 'node:cluster';
import { ClusterRouter } from './cluster.ts';
import {
  COUNT_ENV,
  GUARDS_ENV,
  PLACES_ENV,
  SECRET_ENV,
  SHARE_ENV,
  SLOT_ENV,
  type ToPrimary,
  type ToWorker,
} from './cluster-protocol.ts';
import { WorkerPlaces } from './places.ts';

/** In a worker process of `seahaven serve --workers N`: its router; otherwise undefined. */
export function workerRouter(): ClusterRouter | undefined {
  if (!cluster.isWorker) return undefined;
  const slot = Number(process.env[SLOT_ENV]);
  const workers = Number(process.env[COUNT_ENV]);
  if (!Number.isSafeInteger(slot) || !Number.isSafeInteger(workers) || slot < 0 || slot >= workers)
    return undefined;
  const guards = Number(process.env[GUARDS_ENV]);
  // Kept out of the environment the world's code and anything it starts would see.
  const secret = process.env[SECRET_ENV] ?? '';
  delete process.env[SECRET_ENV];
  // A worker started without places (not by the primary of this version) starts with none, and asks for them.
  const count = (name: string) => {
    const n = Number(process.env[name]);
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  const places = new WorkerPlaces(count(PLACES_ENV), count(SHARE_ENV));
  return new ClusterRouter(
    slot,
    workers,
    Number.isSafeInteger(guards) && guards >= 0 ? guards : undefined,
    secret,
    places,
  );
}

/** What a worker tells the cluster about itself, and what it is told. */
export interface WorkerLink {
  /** Report the count of sessions and held forks (on every change). */
  count(sessions: number): void;
  /** The worker is listening: its banner (the primary prints the first worker's). */
  ready(banner: string): void;
}

/**
 * Join the cluster from a worker: table updates and the primary's grants and reclaims of places go to `router`, and
 * `shutdown` is called when the primary asks every worker to drain, or is gone.
 */
export function joinCluster(router: ClusterRouter, on: { shutdown(): void }): WorkerLink {
  const send = (m: ToPrimary) => {
    if (process.connected) process.send!(m, undefined, undefined, () => {});
  };
  process.on('message', (m: ToWorker) => {
    if (m?.seahaven === 'table') router.setTable(m.workers);
    else if (m?.seahaven === 'grant') router.places?.grant(m.places);
    else if (m?.seahaven === 'reclaim') router.places?.reclaim();
    else if (m?.seahaven === 'shutdown') on.shutdown();
  });
  if (router.places !== null) router.places.send = send;
  // The primary is gone (killed): nobody supervises this worker or deals it connections any more.
  process.on('disconnect', () => on.shutdown());
  return {
    count: (sessions) => send({ seahaven: 'count', sessions }),
    ready: (banner) => send({ seahaven: 'ready', port: router.privatePort!, banner }),
  };
}
