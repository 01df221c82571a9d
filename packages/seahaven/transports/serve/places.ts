/**
 * A worker's places under `--max-sessions` in a `seahaven serve --workers N` server: the quota the primary granted it
 * (place-ledger.ts has the primary's side and the whole rule). The worker opens a session or holds a fork only while it
 * has a free place of its own, so admitting never waits on the primary and every worker together never fills more than
 * the limit.
 *
 * - Full, it refuses with `CAPACITY_REACHED` ("at capacity for now … retry in a moment" while the other workers count
 *   fewer than the rest of the limit) and asks the primary for more, once until answered. A retry a moment later finds
 *   what the primary moved to it.
 * - Asked to give places back (another worker is full), it gives half its free places, rounded up, at once.
 * - Holding more than its share, it gives back its free places above the share whenever its count falls, so places go
 *   back to even shares when the load does.
 */
import { CapacityError } from './capacity-error.ts';

/** What a worker tells the primary about its places. */
export type PlacesToPrimary =
  { seahaven: 'want' } | { seahaven: 'return'; places: number; answer: boolean };

/** One worker's places, as the worker counts them. */
export class WorkerPlaces {
  /** Places the primary granted this worker, less those it gave back. */
  quota: number;
  /** Its share of the limit: free places above it go back to the primary. */
  readonly share: number;
  /** Sessions and held forks the other workers count, by the primary's last table: for the words of a refusal. */
  elsewhere = 0;
  /** This worker's sessions and held forks now (the registry sets it when it takes these places). */
  used: () => number = () => 0;
  /** Where messages to the primary go; null until the worker has joined the cluster (it asks for nothing before). */
  send: ((message: PlacesToPrimary) => void) | null = null;
  /** A want is on its way or waiting for its answer. */
  private asking = false;
  /** The count when `settle` last looked. */
  private lastUsed = 0;

  constructor(quota: number, share: number) {
    this.quota = quota;
    this.share = share;
  }

  /** Throw a `CapacityError` unless a free place is left with `here` taken (`heldForks` of them by held forks), asking the primary for more if not. */
  ensureRoom(here: number, max: number, heldForks: number): void {
    if (here < this.quota) return;
    this.ask();
    const active = Math.min(here + this.elsewhere, max);
    throw new CapacityError(active, max, heldForks, active < max);
  }

  /** The primary granted `places` more (0: it had none free), answering a want or filling this worker's share. */
  grant(places: number): void {
    this.quota += places;
    this.asking = false;
  }

  /** The primary asks for places back for a worker that is full: half the free ones, rounded up, go at once. */
  reclaim(): void {
    const free = Math.max(0, this.quota - this.used());
    const given = Math.ceil(free / 2);
    this.quota -= given;
    this.send?.({ seahaven: 'return', places: given, answer: true });
  }

  /**
   * The count changed. When it fell, free places above the share go back: not when it rose (places just granted for
   * a burst would go back before the burst's retries came), nor while a want waits (they would be asked for again).
   */
  settle(): void {
    const used = this.used();
    const fell = used < this.lastUsed;
    this.lastUsed = used;
    if (!fell || this.asking || this.send === null) return;
    const surplus = Math.min(this.quota - this.share, this.quota - used);
    if (surplus <= 0) return;
    this.quota -= surplus;
    this.send({ seahaven: 'return', places: surplus, answer: false });
  }

  private ask(): void {
    if (this.asking || this.send === null) return;
    this.asking = true;
    this.send({ seahaven: 'want' });
  }
}
