/**
 * Places under `--max-sessions` across workers (place-ledger.ts, places.ts), in process: the primary's ledger and the
 * workers' quotas wired through message queues that the test delivers one message at a time, in any order across
 * queues (in order within one, as IPC does). No processes, no timers: every interleaving here is chosen by a seed.
 */
import { describe, expect, it } from 'vitest';
import type { ToWorker } from './cluster-protocol.ts';
import { PlaceLedger, shareOf } from './place-ledger.ts';
import { WorkerPlaces, type PlacesToPrimary } from './places.ts';
import { CapacityError } from './sessions.ts';

/** A small seeded generator (mulberry32), so a failing interleaving can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SimWorker {
  places: WorkerPlaces;
  used: number;
  /** Messages from the primary, not yet delivered. */
  inbox: ToWorker[];
  /** Messages to the primary, not yet delivered. */
  outbox: PlacesToPrimary[];
}

/** A primary and `n` workers sharing `max` places, with every message held until the test delivers it. */
class Cluster {
  readonly ledger: PlaceLedger;
  readonly workers: SimWorker[] = [];
  readonly max: number;
  constructor(max: number, n: number) {
    this.max = max;
    this.ledger = new PlaceLedger(max, n, (slot, m) => this.workers[slot].inbox.push(m));
    for (let slot = 0; slot < n; slot++) this.workers.push(this.boot(slot));
    for (let slot = 0; slot < n; slot++) this.ledger.up(slot);
  }

  private boot(slot: number): SimWorker {
    const w: SimWorker = {
      places: new WorkerPlaces(
        this.ledger.start(slot),
        shareOf(slot, this.ledger.workers, this.max),
      ),
      used: 0,
      inbox: [],
      outbox: [],
    };
    w.places.used = () => w.used;
    w.places.send = (m) => w.outbox.push(m);
    return w;
  }

  /** Worker `slot` tries to open a session: true if admitted; a refusal is thrown as the registry would. */
  open(slot: number): boolean {
    const w = this.workers[slot];
    w.places.elsewhere = this.workers.reduce((n, x, i) => (i === slot ? n : n + x.used), 0);
    try {
      w.places.ensureRoom(w.used, this.max, 0);
    } catch (e) {
      if (!(e instanceof CapacityError)) throw e;
      return false;
    }
    w.used++;
    w.places.settle();
    return true;
  }

  close(slot: number): void {
    const w = this.workers[slot];
    if (w.used === 0) return;
    w.used--;
    w.places.settle();
  }

  /** Deliver the oldest message of one queue: worker `slot`'s inbox (`toWorker`) or outbox. */
  deliver(slot: number, toWorker: boolean): void {
    const w = this.workers[slot];
    if (toWorker) {
      const m = w.inbox.shift()!;
      if (m.seahaven === 'grant') w.places.grant(m.places);
      else if (m.seahaven === 'reclaim') w.places.reclaim();
      return;
    }
    const m = w.outbox.shift()!;
    if (m.seahaven === 'want') this.ledger.want(slot);
    else this.ledger.returned(slot, m.places, m.answer);
  }

  /** Deliver every message, in queue order, until none is left. */
  settle(): void {
    for (let busy = true; busy;) {
      busy = false;
      this.workers.forEach((w, slot) => {
        while (w.outbox.length > 0 || w.inbox.length > 0) {
          busy = true;
          if (w.outbox.length > 0) this.deliver(slot, false);
          else this.deliver(slot, true);
        }
      });
    }
  }

  /** Worker `slot` dies with its sessions and undelivered messages; a replacement starts in its place. */
  kill(slot: number): void {
    this.ledger.exit(slot);
    this.workers[slot] = this.boot(slot);
    this.ledger.up(slot);
  }

  /**
   * What must hold at every moment: the places in use fit the limit, and no worker holds more than the ledger counts
   * (plain comparisons, thrown as one error: this runs after every event of thousands).
   */
  check(): void {
    const used = this.workers.reduce((n, w) => n + w.used, 0);
    let counted = this.ledger.unallocated;
    const wrong: string[] = [];
    if (used > this.max) wrong.push(`${used} places used of ${this.max}`);
    this.workers.forEach((w, slot) => {
      const q = w.places.quota;
      if (w.used > q || q < 0 || q > this.ledger.quotaOf(slot))
        wrong.push(
          `worker ${slot} uses ${w.used} of ${q} places, the ledger counts ${this.ledger.quotaOf(slot)}`,
        );
      counted += this.ledger.quotaOf(slot);
    });
    if (counted !== this.max) wrong.push(`the ledger counts ${counted} places of ${this.max}`);
    if (wrong.length > 0) throw new Error(wrong.join('; '));
  }
}

describe('places under --max-sessions across workers', () => {
  it('starts each worker with its share, the first ones one more when the limit does not divide', () => {
    expect([0, 1, 2].map((slot) => shareOf(slot, 3, 7))).toEqual([3, 2, 2]);
    expect([0, 1, 2].map((slot) => shareOf(slot, 3, 2))).toEqual([1, 1, 0]);
    const c = new Cluster(7, 3);
    expect(c.workers.map((w) => w.places.quota)).toEqual([3, 2, 2]);
    expect(c.ledger.unallocated).toBe(0);
  });

  it('refuses past its quota "for now" while the server has room, and a retry finds places lent by a worker with free ones', () => {
    const c = new Cluster(6, 2);
    for (let i = 0; i < 3; i++) expect(c.open(0)).toBe(true);
    let refusal: unknown;
    try {
      c.workers[0].places.ensureRoom(3, 6, 0);
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(CapacityError);
    expect((refusal as CapacityError).message).toMatch(
      /^server at capacity for now: 3 of 6 sessions are open, .*retry in a moment/,
    );
    // It asked once, however many it refused meanwhile.
    expect(c.open(0)).toBe(false);
    expect(c.workers[0].outbox).toEqual([{ seahaven: 'want' }]);
    c.settle();
    // Worker 1 gave half its 3 free places, rounded up.
    expect(c.workers.map((w) => w.places.quota)).toEqual([5, 1]);
    const opened = [];
    for (let attempt = 0; attempt < 10 && c.workers[0].used < 6; attempt++) {
      opened.push(c.open(0));
      c.settle();
    }
    expect(c.workers[0].used).toBe(6);
    expect(opened.filter((ok) => !ok)).toHaveLength(1);
    // Full for good: the refusal says so, and asking again finds nothing (answered with 0, so the worker may ask later).
    expect(() => c.workers[0].places.ensureRoom(6, 6, 0)).toThrow(
      /^server at capacity: 6 of 6 sessions are open; close a session/,
    );
    c.settle();
    expect(c.workers[1].places.quota).toBe(0);
    expect(c.open(1)).toBe(false);
    c.settle();
    expect(c.workers[1].outbox).toEqual([]);
    // As worker 0's sessions close, its places above its share go back, to worker 1.
    for (let i = 0; i < 6; i++) c.close(0);
    c.settle();
    expect(c.workers.map((w) => w.places.quota)).toEqual([3, 3]);
    c.check();
  });

  it('gives a worker that exits its places back, and its replacement starts with what is free of its share', () => {
    const c = new Cluster(6, 2);
    for (let i = 0; i < 3; i++) c.open(0);
    c.open(0);
    c.settle();
    for (let i = 0; i < 2; i++) c.open(0);
    // Worker 0 holds 5 with 5 used; worker 1, 1 free.
    expect(c.workers.map((w) => w.places.quota)).toEqual([5, 1]);
    c.kill(0);
    c.check();
    // Worker 1 is granted back its share at once; the replacement starts with its own.
    expect(c.workers[0].places.quota).toBe(3);
    expect([c.ledger.quotaOf(0), c.ledger.quotaOf(1), c.ledger.unallocated]).toEqual([3, 3, 0]);
    expect(c.workers[1].inbox).toEqual([{ seahaven: 'grant', places: 2 }]);
    // Kill the other one with a want of its own on the way: the want dies with it, and the ledger still adds up.
    c.open(1);
    c.open(1);
    expect(c.workers[1].outbox).toEqual([{ seahaven: 'want' }]);
    c.kill(1);
    c.check();
    c.settle();
    expect(c.workers.map((w) => w.places.quota)).toEqual([3, 3]);
  });

  it('never lets the workers fill more than the limit, whatever order the messages arrive in', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = rng(seed);
      const n = 2 + Math.floor(random() * 3);
      const max = 1 + Math.floor(random() * 12);
      const c = new Cluster(max, n);
      for (let event = 0; event < 400; event++) {
        const slot = Math.floor(random() * n);
        const r = random();
        const w = c.workers[slot];
        if (r < 0.4) c.open(slot);
        else if (r < 0.6) c.close(slot);
        else if (r < 0.8 && w.outbox.length > 0) c.deliver(slot, false);
        else if (r < 0.995 && w.inbox.length > 0) c.deliver(slot, true);
        else if (r >= 0.995) c.kill(slot);
        try {
          c.check();
        } catch (e) {
          throw new Error(`seed ${seed}, event ${event}: ${(e as Error).message}`);
        }
      }
      // Once the messages settle, a worker that keeps asking fills the server, wherever the free places were.
      c.settle();
      const slot = Math.floor(random() * n);
      for (
        let attempt = 0;
        attempt < 4 * max && c.workers.reduce((k, w) => k + w.used, 0) < max;
        attempt++
      ) {
        c.open(slot);
        c.settle();
        c.check();
      }
      expect(
        c.workers.reduce((k, w) => k + w.used, 0),
        `seed ${seed}`,
      ).toBe(max);
    }
  });
});
