/**
 * Fair scheduling. Tool calls are synchronous SQLite work, so whoever runs first holds the event loop. Each session keeps
 * its own FIFO (one request at a time, in order) and sessions take turns round-robin: a session that pipelines a
 * thousand frames gets one turn per round like everyone else. Work runs in the check phase (`setImmediate`), after the
 * poll phase has read every socket that had data, and yields back to I/O once a turn budget is spent.
 */
import type { Job, Session } from './sessions.ts';

export class FairScheduler {
  private ready: Session[] = [];
  private head = 0;
  private pendingDrain = false;
  private idleWaiters: (() => void)[] = [];
  /** Sessions running an asynchronous job. */
  private running = 0;
  private readonly budgetMs: number;

  /** `budgetMs`: how long one turn of the event loop may run jobs before yielding to I/O. */
  constructor(budgetMs = 4) {
    this.budgetMs = budgetMs;
  }

  /** Queue a job on a session; it runs after the session's earlier jobs, in the session's turn. */
  push(session: Session, job: Job): void {
    if (session.closed) return;
    session.jobs.push(job);
    this.wake(session);
  }

  /** Resolves once no session has queued or running work. */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private busy(): boolean {
    return this.head < this.ready.length || this.running > 0;
  }

  private wake(session: Session): void {
    if (!session.queued && !session.busy && session.pending > 0) {
      session.queued = true;
      this.ready.push(session);
    }
    if (!this.pendingDrain && this.head < this.ready.length) {
      this.pendingDrain = true;
      setImmediate(this.drain);
    }
  }

  private readonly drain = (): void => {
    this.pendingDrain = false;
    let now = performance.now();
    const deadline = now + this.budgetMs;
    const ready = this.ready;
    while (this.head < ready.length) {
      const s = ready[this.head++];
      s.queued = false;
      if (s.closed || s.pending === 0) continue;
      s.lastActive = now;
      let out: void | Promise<void>;
      try {
        out = s.runNext();
      } catch {
        // Transports turn their own failures into error frames; nothing may escape and stall other sessions.
        out = undefined;
      }
      if (out !== undefined) {
        s.busy = true;
        this.running++;
        out.then(this.settle(s), this.settle(s));
      } else if (s.pending > 0) {
        s.queued = true;
        ready.push(s);
      }
      now = performance.now();
      if (now >= deadline) break;
    }
    if (this.head === ready.length) {
      ready.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      this.ready = ready.slice(this.head);
      this.head = 0;
    }
    if (this.head < this.ready.length) {
      this.pendingDrain = true;
      setImmediate(this.drain);
    } else if (this.running === 0) {
      this.notifyIdle();
    }
  };

  private settle(s: Session): () => void {
    return () => {
      s.busy = false;
      this.running--;
      s.lastActive = performance.now();
      this.wake(s);
      if (!this.busy()) this.notifyIdle();
    };
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    if (waiters.length === 0) return;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
