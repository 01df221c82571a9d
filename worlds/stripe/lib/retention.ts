/**
 * Event retention. Stripe keeps an account's events for 30 days: `GET /v1/events` and `GET /v1/events/{id}` reach back
 * that far and no further. Stripe World does the same as its clock advances: `pruneEvents` (run at the end of every
 * billing tick, the world's `onClockAdvance`) deletes the events created more than 30 days before the new time, in one
 * statement over the `events_order` index. Nothing else refers to an event, so nothing is left dangling.
 *
 * An episode that advances the clock past the 30 days records those deletions among its changes, as Stripe's own log
 * would lose them.
 */
import type { Ctx } from '../../../kit/index.ts';
import { DAY } from './money.ts';

/** How long Stripe keeps an event (seconds). */
export const EVENT_RETENTION = 30 * DAY;

/** Delete the events created more than 30 days before `now` (unix seconds). Returns how many went. */
export function pruneEvents(ctx: Ctx, now: number): number {
  return ctx.db.run('DELETE FROM events WHERE created < ?', now - EVENT_RETENTION).changes;
}
