/**
 * Event retention. Stripe keeps an account's events for 30 days: `GET /v1/events` and `GET /v1/events/{id}` reach back
 * that far and no further. Stripe World does the same as its clock advances: `pruneEvents` (run at the end of every
 * billing tick, the world's `onClockAdvance`) deletes the events created more than 30 days before the new time: it
 * takes the oldest `PRUNE_BATCH` of them at a time (over the `events_order` index) and deletes each batch in ascending
 * rowid order, `PRUNE_CHUNK` rows per statement, pausing between statements. A year's advance forgets hundreds of
 * thousands of events, and one statement of a hundred is a few milliseconds, so a served advance answers other sessions
 * between them. The batches, and the order rows go in, do not depend on the chunks: the database ends up the same
 * bytes as when each batch was one statement (SQLite deletes a statement's rows in ascending rowid order). Nothing
 * else refers to an event, so nothing is left dangling.
 *
 * An episode that advances the clock past the 30 days records those deletions among its changes, as Stripe's own log
 * would lose them.
 */
import type { Ctx } from 'seahaven';
import { DAY } from './money.ts';

/** How long Stripe keeps an event (seconds). */
export const EVENT_RETENTION = 30 * DAY;

/** How many of the oldest expired events one batch takes. */
export const PRUNE_BATCH = 2000;

/** Most events one statement deletes: the billing run may pause after each. */
export const PRUNE_CHUNK = 100;

/**
 * Delete the events created more than 30 days before `now` (unix seconds), oldest batch first, pausing (`yield`) after
 * each statement that leaves work to do. Returns how many went.
 */
export function* pruneEvents(ctx: Ctx, now: number): Generator<void, number> {
  let deleted = 0;
  for (;;) {
    const batch = ctx.db
      .all<{ r: number }>(
        'SELECT rowid AS r FROM events WHERE created < ? ORDER BY created, seq LIMIT ?',
        now - EVENT_RETENTION,
        PRUNE_BATCH,
      )
      .map((row) => row.r);
    batch.sort((a, b) => a - b);
    for (let i = 0; i < batch.length; i += PRUNE_CHUNK) {
      deleted += ctx.db.run(
        'DELETE FROM events WHERE rowid IN (SELECT value FROM json_each(?))',
        JSON.stringify(batch.slice(i, i + PRUNE_CHUNK)),
      ).changes;
      if (i + PRUNE_CHUNK < batch.length) yield;
    }
    if (batch.length < PRUNE_BATCH) return deleted;
    yield;
  }
}
