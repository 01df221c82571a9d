import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, InstanceError, z, type Instance } from '../index.ts';
import { chargeLeases, DAY, rentWorld } from './rent-world.ts';
import { advanceInSlices, type CallOutcome } from '../instance-internals.ts';

// A clock advance run in slices (what `seahaven serve` does with a long advance_clock): a hook written as a generator
// pauses at each yield, the call's transaction stays open between slices, and the advance writes the same state
// however it is sliced; a failure in a late slice rolls the whole advance back.

// The work may pause after each charge.
const rent = rentWorld('rent_slices', function* (ctx, { from, to }) {
  const charged = yield* chargeLeases(ctx, to);
  // Found only once every charge is written, many slices in.
  if (to - from > 300 * DAY) throw new Error('more than 300 days at once');
  return { charged, random: ctx.rng.int(0, 1_000_000) };
});

function leased(logger?: (line: string) => void): Instance {
  const inst = rent.instance({ seed: 5, now: '2026-01-01T00:00:00.000Z', logger });
  for (let i = 0; i < 4; i++) inst.call('sign_lease');
  return inst;
}

/** Run an advance one hook step per slice (budget 0); answers the outcome and how many slices it took. */
function sliced(inst: Instance, ms: number): { outcome: CallOutcome; slices: number } {
  const run = inst[advanceInSlices](ms);
  for (let slices = 1; ; slices++) {
    const outcome = run.slice(0);
    if (outcome !== null) return { outcome, slices };
  }
}

/** Everything observable of an instance: tables, changes, the call log, the clock, and what its random streams give next. */
function observed(inst: Instance): unknown {
  return {
    leases: inst.query('SELECT * FROM leases ORDER BY id'),
    charges: inst.query('SELECT * FROM charges ORDER BY id'),
    changes: inst.changes(),
    changeLog: inst.changeLog(),
    calls: inst.callLog(),
    now: inst.clock.now(),
    next: inst.call('sign_lease'),
  };
}

describe('a clock advance in slices', () => {
  it('writes the same state as the same advance in one piece, however it is sliced', () => {
    const whole = leased();
    const pieces = leased();
    try {
      const one = whole.advanceClock(200 * DAY);
      expect(one.ok).toBe(true);
      const { outcome, slices } = sliced(pieces, 200 * DAY);
      expect(slices).toBeGreaterThan(20);
      expect(outcome).toMatchObject({ ok: true, result: (one as { result: unknown }).result });
      expect(observed(pieces)).toEqual(observed(whole));
    } finally {
      whole.destroy();
      pieces.destroy();
    }
  });

  it('rolls a failure in a late slice back whole, and the instance goes on', () => {
    const logged: string[] = [];
    const inst = leased((line) => logged.push(line));
    const tables = () => ({
      leases: inst.query('SELECT * FROM leases ORDER BY id'),
      charges: inst.query('SELECT * FROM charges ORDER BY id'),
      changes: inst.changes(),
      changeLog: inst.changeLog(),
    });
    const before = tables();
    const start = inst.clock.now();
    try {
      const { outcome, slices } = sliced(inst, 360 * DAY);
      expect(slices).toBeGreaterThan(40);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(tables()).toEqual(before);
      expect(logged.join('\n')).toMatch(/more than 300 days at once/);
      // The failed advance is logged, as any failed call, and the instance goes on.
      expect(inst.callLog().at(-1)).toMatchObject({ tool: 'advance_clock', ok: false });
      // Time still passed, as when the same advance fails in one piece; the next one bills all of it.
      expect(inst.clock.now()).toBe(start + 360 * DAY);
      expect(inst.advanceClock(30 * DAY)).toMatchObject({ ok: true, result: { charged: 4 * 13 } });
    } finally {
      inst.destroy();
    }
  });

  it('refuses any other use of the instance between slices, and a destroy between slices undoes the advance', () => {
    const inst = leased();
    const run = inst[advanceInSlices](90 * DAY);
    expect(run.slice(0)).toBeNull();
    let refused: unknown;
    try {
      inst.call('sign_lease');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(InstanceError);
    expect((refused as InstanceError).code).toBe('advancing');
    expect(() => inst.changes()).toThrow(
      /advancing its clock in slices; wait for the advance to finish/,
    );
    inst.destroy();
    expect(() => run.slice(0)).toThrow(
      /destroyed while its clock advanced; the advance was rolled back/,
    );
    // The next instance of the same start sees none of it.
    const next = leased();
    try {
      expect(next.query('SELECT count(*) AS n FROM charges')).toEqual([{ n: 0 }]);
    } finally {
      next.destroy();
    }
  });
});

// A year of a large account's billing commits hundreds of thousands of rows at its end: the commit pauses too, before
// and after the episode's COMMIT and every few hundred rows the change history records, and leaves what a commit in
// one piece leaves.
const ledger = defineWorld({
  name: 'ledger_slices',
  version: '1',
  schema:
    'CREATE TABLE entries (id INTEGER PRIMARY KEY, day TEXT NOT NULL) STRICT; CREATE TABLE days (pair TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (pair, n)) STRICT;',
  fixtures: {
    opened: {
      description: 'One entry.',
      now: '2026-01-01T00:00:00.000Z',
      build: (ctx) => void ctx.db.run("INSERT INTO entries (id, day) VALUES (0, 'start')"),
    },
  },
  tools: [
    defineTool({
      name: 'note',
      description: 'Write one entry.',
      input: z.object({}),
      run: (ctx) => ctx.db.run('UPDATE entries SET day = ? WHERE id = 0', ctx.clock.iso()).changes,
    }),
  ],
  // One step, no pause of its own: 3,000 entries and as many rows of a table keyed on two columns.
  *onClockAdvance(ctx) {
    for (let i = 1; i <= 3000; i++) {
      ctx.db.run('INSERT INTO entries (id, day) VALUES (?, ?)', i, ctx.clock.iso());
      ctx.db.run('INSERT INTO days (pair, n) VALUES (?, ?)', `p${i % 7}`, i);
    }
    ctx.db.run("UPDATE entries SET day = 'advanced' WHERE id = 0");
    return { entries: 3000 };
  },
});

describe('the commit of a clock advance in slices', () => {
  it('pauses while it commits thousands of rows, and leaves what a commit in one piece leaves', () => {
    const whole = ledger.instance({ fixture: 'opened', seed: 2 });
    const pieces = ledger.instance({ fixture: 'opened', seed: 2 });
    const seen = (inst: Instance) => ({
      entries: inst.query('SELECT count(*) AS n, max(day) AS last FROM entries'),
      days: inst.query('SELECT count(*) AS n FROM days'),
      changes: inst.changes(),
      changeLog: inst.changeLog(),
      calls: inst.callLog(),
      next: inst.call('note'),
      after: inst.changeLog().slice(-1),
    });
    try {
      for (const inst of [whole, pieces]) inst.call('note');
      const one = whole.advanceClock(DAY);
      expect(one).toMatchObject({ ok: true, result: { entries: 3000 } });
      const { outcome, slices } = sliced(pieces, DAY);
      // The hook's one step, the episode's COMMIT between two pauses, then 6,001 rows recorded 500 at a time.
      expect(slices).toBeGreaterThanOrEqual(15);
      expect(outcome).toMatchObject({ ok: true, result: { entries: 3000 } });
      expect(seen(pieces)).toEqual(seen(whole));
    } finally {
      whole.destroy();
      pieces.destroy();
    }
  });

  it('is undone by a destroy between its pauses, and the next instance of the fixture starts clean', () => {
    const inst = ledger.instance({ fixture: 'opened', seed: 2 });
    const run = inst[advanceInSlices](DAY);
    // The hook's step ends the first slice; the next ones are the commit's.
    expect(run.slice(0)).toBeNull();
    expect(run.slice(0)).toBeNull();
    inst.destroy();
    const next = ledger.instance({ fixture: 'opened', seed: 2 });
    try {
      expect(next.query('SELECT count(*) AS n FROM entries')).toEqual([{ n: 1 }]);
      expect(next.changes()).toEqual([]);
    } finally {
      next.destroy();
    }
  });
});
