/**
 * The primary's ledger of places under `--max-sessions` in a `seahaven serve --workers N` server. The primary owns the
 * limit: it grants each worker a number of places (its quota), never more in all than the limit, and a worker opens a
 * session or holds a fork only in a place of its own (places.ts, the workers' side). So no burst of connections dealt to
 * every worker at once can overfill the server, and no admission waits on the primary.
 *
 * - A worker starts with its share of the limit (the limit over the workers; the first ones get one more when it does
 *   not divide), or what is left of it when others borrowed it meanwhile.
 * - A worker whose places are all taken asks for more. The ledger grants from the places no worker holds; if there are
 *   none, it asks every other worker with free places to give some back (a round), and grants what comes back once each
 *   has answered. A want is always answered, with a grant of 0 when nothing was free.
 * - Places given back outside a round (a worker above its share whose count fell) go to workers below their share.
 * - A worker that exits gives its whole quota back with its sessions.
 *
 * Grants are counted here when sent and by the worker when received; returns by the worker when sent and here when
 * received. So the quota counted here for a worker is never below the worker's own, and the sum counted here, kept at
 * or under the limit, bounds the places every worker may fill at any moment, messages in flight included.
 */
import type { ToWorker } from './cluster-protocol.ts';

/** Worker `slot`'s share of `max` places among `workers`: the limit over the workers, the first ones one more when it does not divide. */
export function shareOf(slot: number, workers: number, max: number): number {
  return Math.floor(max / workers) + (slot < max % workers ? 1 : 0);
}

/** The primary's count of places: each worker's quota, and the places no worker holds. */
export class PlaceLedger {
  readonly max: number;
  readonly workers: number;
  private readonly quota: number[];
  /** Each worker's sessions and held forks, as it last reported them: where free places may be. */
  private readonly used: number[];
  /** Whether the worker listens for the primary's messages (it sent `ready` or asked for places). */
  private readonly reachable: boolean[];
  private pool: number;
  /** Workers waiting for an answer to their want, in the order they asked. */
  private readonly wanting = new Set<number>();
  /** Workers asked to give places back in the current round, not yet answered. */
  private readonly reclaiming = new Set<number>();
  private readonly send: (slot: number, message: ToWorker) => void;

  constructor(max: number, workers: number, send: (slot: number, message: ToWorker) => void) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new Error(`PlaceLedger: max must be a whole number >= 1 (--max-sessions); got ${max}`);
    if (!Number.isSafeInteger(workers) || workers < 1)
      throw new Error(
        `PlaceLedger: workers must be a whole number >= 1 (--workers); got ${workers}`,
      );
    this.max = max;
    this.workers = workers;
    this.send = send;
    this.quota = Array(workers).fill(0);
    this.used = Array(workers).fill(0);
    this.reachable = Array(workers).fill(false);
    this.pool = max;
  }

  /** The places worker `slot` holds, as counted here. */
  quotaOf(slot: number): number {
    return this.quota[slot];
  }

  /** The places no worker holds. */
  get unallocated(): number {
    return this.pool;
  }

  /** A worker is starting in `slot` (its predecessor, if any, has exited): the places it starts with, taken out of the pool now. */
  start(slot: number): number {
    const places = Math.min(shareOf(slot, this.workers, this.max), this.pool);
    this.quota[slot] = places;
    this.pool -= places;
    this.used[slot] = 0;
    this.reachable[slot] = false;
    return places;
  }

  /** Worker `slot` is listening for messages: places may be granted to it and asked of it. */
  up(slot: number): void {
    this.reachable[slot] = true;
    this.serve(false);
  }

  /** Worker `slot` reported its count of sessions and held forks. */
  count(slot: number, used: number): void {
    this.used[slot] = used;
  }

  /** Worker `slot` has every place it holds taken, and asks for more. */
  want(slot: number): void {
    this.reachable[slot] = true;
    this.wanting.add(slot);
    this.serve(false);
  }

  /** Worker `slot` gave `places` back: in answer to a reclaim (`answer`), or of its own accord. */
  returned(slot: number, places: number, answer: boolean): void {
    // A worker gives back only places it holds, and it never holds more than counted here: anything else would be a
    // bug, and is not let into the sum.
    const given =
      Number.isSafeInteger(places) && places > 0 ? Math.min(places, this.quota[slot]) : 0;
    this.quota[slot] -= given;
    this.pool += given;
    const roundDone = answer && this.reclaiming.delete(slot) && this.reclaiming.size === 0;
    this.serve(roundDone);
  }

  /** Worker `slot` exited: its places come back with its sessions. */
  exit(slot: number): void {
    this.pool += this.quota[slot];
    this.quota[slot] = 0;
    this.used[slot] = 0;
    this.reachable[slot] = false;
    this.wanting.delete(slot);
    const roundDone = this.reclaiming.delete(slot) && this.reclaiming.size === 0;
    this.serve(roundDone);
  }

  private grant(slot: number, places: number): void {
    this.quota[slot] += places;
    this.pool -= places;
    this.send(slot, { seahaven: 'grant', places });
  }

  /**
   * Answer what can be answered: free places to the workers that want them (shared out evenly); if some still want and
   * no round is under way, a round of reclaims, or a grant of 0 when no worker has a free place or a round just ended;
   * and, with nobody wanting, free places to workers below their share.
   */
  private serve(roundDone: boolean): void {
    for (const slot of this.wanting) {
      if (this.pool === 0) break;
      this.grant(slot, Math.ceil(this.pool / this.wanting.size));
      this.wanting.delete(slot);
    }
    if (this.wanting.size > 0 && this.reclaiming.size === 0) {
      const lenders = this.quota.flatMap((q, slot) =>
        this.reachable[slot] && !this.wanting.has(slot) && q > this.used[slot] ? [slot] : [],
      );
      if (roundDone || lenders.length === 0) {
        for (const slot of this.wanting) this.grant(slot, 0);
        this.wanting.clear();
      } else {
        for (const slot of lenders) {
          this.reclaiming.add(slot);
          this.send(slot, { seahaven: 'reclaim' });
        }
      }
    }
    if (this.wanting.size > 0) return;
    for (let slot = 0; slot < this.workers && this.pool > 0; slot++) {
      const short = shareOf(slot, this.workers, this.max) - this.quota[slot];
      if (this.reachable[slot] && short > 0) this.grant(slot, Math.min(short, this.pool));
    }
  }
}
