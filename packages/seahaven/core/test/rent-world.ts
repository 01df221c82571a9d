/**
 * The leases world of the clock-advance tests (clock-advance.test.ts, clock-slices.test.ts): a lease is charged once
 * per whole 30 days that pass, each charge stamped at the day it fell due. `chargeLeases` is the billing run, a
 * generator that pauses after each charge, so a world can run it whole or in slices.
 */
import { defineTool, defineWorld, z, type Ctx, type WorldSpec } from '../index.ts';

export const DAY = 86_400_000;

const SCHEMA =
  'CREATE TABLE leases (id TEXT PRIMARY KEY, paid_through TEXT NOT NULL) STRICT; CREATE TABLE charges (id TEXT PRIMARY KEY, lease TEXT NOT NULL, at TEXT NOT NULL) STRICT;';

const signLease = defineTool({
  name: 'sign_lease',
  description: 'Sign a lease paid through now.',
  input: z.object({}),
  run: (ctx) => {
    const id = ctx.ids.token('lease_', 6);
    ctx.db.run('INSERT INTO leases (id, paid_through) VALUES (?, ?)', id, ctx.clock.iso());
    return { id };
  },
});

/** Charge every lease up to `to`, pausing after each charge; answers how many charges it wrote. */
export function* chargeLeases(ctx: Ctx, to: number): Generator<void, number> {
  let charged = 0;
  for (const lease of ctx.db.all<{ id: string; paid_through: string }>(
    'SELECT id, paid_through FROM leases ORDER BY id',
  )) {
    let due = Date.parse(lease.paid_through) + 30 * DAY;
    while (due <= to) {
      ctx.db.run(
        'INSERT INTO charges (id, lease, at) VALUES (?, ?, ?)',
        ctx.ids.token('ch_', 6),
        lease.id,
        new Date(due).toISOString(),
      );
      ctx.db.run(
        'UPDATE leases SET paid_through = ? WHERE id = ?',
        new Date(due).toISOString(),
        lease.id,
      );
      due += 30 * DAY;
      charged++;
      yield;
    }
  }
  return charged;
}

/** The leases world named `name`, its clock hook `onClockAdvance`. */
export function rentWorld(name: string, onClockAdvance: WorldSpec['onClockAdvance']) {
  return defineWorld({ name, version: '1', schema: SCHEMA, tools: [signLease], onClockAdvance });
}
