/**
 * Event retention. Stripe keeps an account's events for 30 days: `GET /v1/events` and `GET /v1/events/{id}` reach back
 * that far and no further. Stripe World does the same as its clock advances: `pruneEvents` (run at the end of every
 * billing tick, the world's `onClockAdvance`) deletes the events created more than 30 days before the new time, oldest
 * first, `PRUNE_BATCH` at a time over the `events_order` index: a year's advance forgets hundreds of thousands, and
 * the billing run pauses between batches. Nothing else refers to an event, so nothing is left dangling.
 *
 * An episode that advances the clock past the 30 days records those deletions among its changes, as Stripe's own log
 * would lose them.
 */
import type { Ctx } from '../../../kit/index.ts';
import { DAY } from './money.ts';

/** How long Stripe keeps an event (seconds). */
export const EVENT_RETENTION = 30 * DAY;

/** Most events one `pruneEvents` deletes. */
export const PRUNE_BATCH = 2000;

/** Delete up to `PRUNE_BATCH` of the events created more than 30 days before `now` (unix seconds), oldest first. Returns how many went. */
export function pruneEvents(ctx: Ctx, now: number): number {
  return ctx.db.run('DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created < ? ORDER BY created, seq LIMIT ?)', now - EVENT_RETENTION, PRUNE_BATCH).changes;
}
