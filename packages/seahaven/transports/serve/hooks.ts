/** The server's extension points (a curriculum plans episodes and hears their grades through them). */
import type { Grade } from '../../core/task.ts';
import type { World } from '../../core/world-types.ts';
import type { ResetPlan, ResetRequest } from './reset.ts';
import type { Session } from './sessions.ts';

/** Extension points for what the server does not decide itself (curricula, progress tracking). */
export interface ServeHooks {
  /**
   * Turn a reset that names a `curriculum` or `run_id` into the episode to start. Without this hook such resets are
   * refused. Throw `ResetError` to refuse with a message for the client.
   */
  resolveReset?(
    request: ResetRequest,
    ctx: { world: World; session: Session },
  ): ResetPlan | Promise<ResetPlan>;
  /**
   * Called at the first `submit` of an episode, with its grade. An object it returns becomes the submit reply's
   * `metadata` (a curriculum reports the run's stage there); a promise of one holds the reply until it settles. Errors
   * are logged, never sent to the client.
   */
  onGrade?(
    session: Session,
    grade: Grade,
  ): void | Record<string, unknown> | Promise<void | Record<string, unknown>>;
  /**
   * Called when an episode that `resolveReset` planned ends without a `submit` (the session was reset again, closed,
   * disconnected, reaped or shut down), or never starts (the plan was refused). `context` is the plan's. Errors are logged.
   * The episode's instance may already be gone (a reset reuses its connection), so read what you need from `context`.
   */
  onAbandon?(session: Session, context: unknown): void;
}
