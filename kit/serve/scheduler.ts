/**
 * Fair scheduling. Tool calls are synchronous SQLite work, so whoever runs first holds the event loop. Each session keeps
 * its own FIFO (one request at a time, in order) and sessions take turns in rounds: in each round every session with
 * work runs one job, so a session that pipelines a thousand frames (or calls a slow tool) gets one turn per round like
 * everyone else. Work runs in the check phase (`setImmediate`), after the poll phase has read every socket that had
 * data; when a turn budget is spent the scheduler yields to I/O, and sessions whose frames arrived meanwhile go ahead
 * of those that already had their turn.
 */
import type { Job, Session } from './sessions.ts';

export class FairScheduler {
  /** Sessions waiting for their turn in this round, from `head` on. */
  private ready: Session[] = [];
  private head = 0;
  /** Sessions that had their turn in this round and have more work. */
  private again: Session[] = [];
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
    return this.head < this.ready.length || this.again.length > 0 || this.running > 0;
  }

  private wake(session: Session): void {
    if (!session.queued && !session.busy && session.pending > 0) {
      session.queued = true;
      this.ready.push(session);
    }
    this.schedule();
  }

  private schedule(): void {
    if (!this.pendingDrain && (this.head < this.ready.length || this.again.length > 0)) {
      this.pendingDrain = true;
      setImmediate(this.drain);
    }
  }

  private readonly drain = (): void => {
    this.pendingDrain = false;
    // Sessions that arrived while the loop was polling go before the ones that already had a turn.
    this.startRound();
    let now = performance.now();
    const deadline = now + this.budgetMs;
    while (this.head < this.ready.length) {
      const s = this.ready[this.head++];
      s.queued = false;
      if (!s.closed && s.pending > 0) {
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
          this.again.push(s);
        }
        now = performance.now();
        if (now >= deadline) break;
      }
      // Nothing new can arrive without yielding, so the next round may start right away.
      if (this.head === this.ready.length) this.startRound();
    }
    if (this.head === this.ready.length) {
      this.ready.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      this.ready = this.ready.slice(this.head);
      this.head = 0;
    }
    this.schedule();
    if (!this.busy()) this.notifyIdle();
  };

  private startRound(): void {
    if (this.again.length === 0) return;
    for (const s of this.again) this.ready.push(s);
    this.again.length = 0;
  }

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
