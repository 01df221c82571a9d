/**
 * Fair scheduling. Tool calls are synchronous SQLite work, so whoever runs first holds the event loop. Each session keeps
 * its own FIFO (one request at a time, in order) and sessions take turns in rounds: in each round every session with
 * work runs one job, so a session that pipelines a thousand frames (or calls a slow tool) gets one turn per round like
 * everyone else. Work runs in the check phase (`setImmediate`), after the poll phase has read every socket that had
 * data; when a turn budget is spent the scheduler yields to I/O, and sessions whose frames arrived meanwhile go ahead
 * of those that already had their turn.
 *
 * A job is a WebSocket frame's text, which the session's endpoint answers (`SessionEndpoint.answerFrame`), or a
 * closure from an HTTP handler. A job too long for one turn (a clock advance of months) answers `Slices`: the
 * scheduler resumes it once per round, in the session's turn, and the session's next job waits until it is done, so
 * the session keeps its order and every other session is answered between two slices. A turn ends after a slice:
 * the replies it held go out and the sockets are read before the next slice, so a session waits for at most one
 * slice, never a turn of them. Replies written to sockets during a turn are held in the outbox (outbox.ts) and
 * written together when the turn yields, or once they have waited `flushMs`, or before a job of a session whose jobs
 * usually take long.
 */
import { errorFrame, logInternal } from './errors.ts';
import { Outbox } from './outbox.ts';
import type { Job, JobResult, Session, Slices } from './sessions.ts';

const isSlices = (out: JobResult): out is Slices => out !== undefined && !(out instanceof Promise);

export class FairScheduler {
  /** Where the sockets' replies wait while a turn runs. */
  readonly outbox = new Outbox();
  /** Sessions waiting for their turn in this round, from `head` on. */
  private ready: Session[] = [];
  private head = 0;
  /** Sessions that had their turn in this round and have more work. */
  private again: Session[] = [];
  private pendingDrain = false;
  private idleWaiters: (() => void)[] = [];
  /** Sessions running an asynchronous job. */
  private running = 0;
  /** How long one turn may run jobs before yielding to I/O; also the length of one slice of a job run in slices. */
  readonly budgetMs: number;
  private readonly flushMs: number;
  private readonly logger: (line: string) => void;

  /**
   * `budgetMs`: how long one turn of the event loop may run jobs before yielding to I/O. `flushMs`: how long a reply
   * may be held while the turn goes on. `logger`: where a job that throws is logged (its session still gets a reply).
   */
  constructor(
    budgetMs = 4,
    flushMs = 0.5,
    logger: (line: string) => void = (line) => console.error(line),
  ) {
    this.budgetMs = budgetMs;
    this.flushMs = flushMs;
    this.logger = logger;
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
    if (!session.queued && !session.busy && (session.pending > 0 || session.slices !== null)) {
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
    const outbox = this.outbox;
    outbox.holding = true;
    try {
      this.turn();
    } finally {
      outbox.holding = false;
      outbox.flush();
    }
    this.schedule();
    if (!this.busy()) this.notifyIdle();
  };

  private turn(): void {
    // Sessions that arrived while the loop was polling go before the ones that already had a turn.
    this.startRound();
    const outbox = this.outbox;
    let now = performance.now();
    const deadline = now + this.budgetMs;
    while (this.head < this.ready.length) {
      const s = this.ready[this.head++];
      s.queued = false;
      if (s.closed) s.slices = null;
      if (!s.closed && (s.pending > 0 || s.slices !== null)) {
        // A session whose jobs usually take long, or the next slice of a job in slices, would hold everyone else's
        // replies for that long: send them first.
        if (outbox.pending && (s.slices !== null || s.jobMs >= this.flushMs / 2)) {
          outbox.flush();
          now = performance.now();
        }
        const started = now;
        s.lastActive = now;
        let out: JobResult;
        let frame = false;
        try {
          const slices = s.slices;
          if (slices !== null) {
            // The next slice of the session's current job; its last one answers the request.
            s.slices = null;
            out = slices.resume() ? undefined : slices;
          } else {
            const job = s.nextJob();
            frame = typeof job === 'string';
            // A frame goes to the session's endpoint, which answers it on the session's socket.
            out = typeof job === 'string' ? s.endpoint.answerFrame(s, job) : job();
          }
        } catch (e) {
          // Nothing may escape and stall other sessions, and the request still gets its one reply.
          this.fail(s, e);
          out = undefined;
        }
        if (isSlices(out)) {
          s.slices = out;
          s.queued = true;
          this.again.push(s);
        } else if (out !== undefined) {
          s.busy = true;
          s.answering = frame;
          this.running++;
          const done = this.asyncJobEnded(s);
          out.then(done, (e) => {
            this.fail(s, e);
            done();
          });
        } else if (s.pending > 0) {
          s.queued = true;
          this.again.push(s);
        }
        now = performance.now();
        s.jobMs += (now - started - s.jobMs) / 4;
        if (outbox.pending && now - outbox.heldSince >= this.flushMs) {
          outbox.flush();
          now = performance.now();
        }
        // A job running in slices has had its slice: yield, so the replies held meanwhile go out and frames that
        // arrived during it are read before its next slice. Going on to the next round within this turn would give
        // it slice after slice until the budget ran out while every other session's reply waited in the outbox.
        if (s.slices !== null || now >= deadline) break;
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
  }

  private startRound(): void {
    if (this.again.length === 0) return;
    for (const s of this.again) this.ready.push(s);
    this.again.length = 0;
  }

  /**
   * A job threw: log it under a reference, and answer the request with that reference (a WebSocket's on its socket;
   * an HTTP handler's closure settles its own request).
   */
  private fail(s: Session, e: unknown): void {
    const message = logInternal(this.logger, `in a request of session ${s.id}`, e);
    try {
      if (s.socket !== null) this.outbox.send(s.socket, errorFrame('EXECUTION_ERROR', message));
    } catch (again) {
      logInternal(this.logger, `answering a failed request of session ${s.id}`, again);
    }
  }

  /** What runs once a session's asynchronous job settles: the session is free again, and goes back in line. */
  private asyncJobEnded(s: Session): () => void {
    return () => {
      s.busy = false;
      s.answering = false;
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
