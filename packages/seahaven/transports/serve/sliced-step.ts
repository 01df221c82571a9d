/**
 * A step that runs in slices: a long `advance_clock`, which the scheduler resumes turn by turn (scheduler.ts) while
 * other sessions are answered between its slices.
 */
import { FrameError } from './errors.ts';
import type { Reply } from './outbox.ts';
import type { Session, Slices } from './sessions.ts';

/**
 * A step that runs in slices (`advance_clock`): the scheduler resumes it in the session's turns, and its last slice
 * hands the step's reply to `deliver` (the session's socket, or an HTTP request's promise). A slice that throws, or a
 * session that ends between slices, ends it: the instance rolls an unfinished advance back when it is destroyed.
 */
export class SlicedStep implements Slices {
  deliver: (reply: Reply) => void = () => undefined;
  fail: (e: unknown) => void = () => undefined;
  private readonly next: () => Reply | null;
  private readonly session: Session;

  constructor(session: Session, next: () => Reply | null) {
    this.session = session;
    this.next = next;
  }

  resume(): boolean {
    if (this.session.closed) {
      this.fail(new FrameError('SESSION_ERROR', `session ${this.session.id} has ended`));
      return true;
    }
    let reply: Reply | null;
    try {
      reply = this.next();
    } catch (e) {
      this.fail(e);
      return true;
    }
    if (reply === null) return false;
    this.deliver(reply);
    return true;
  }
}
