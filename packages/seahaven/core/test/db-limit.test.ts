import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, InstanceError, z } from '../index.ts';

// An episode's database may grow only so far beyond its fixture's image (maxDbGrowthBytes). Before the limit, one
// client grew its in-memory database to SQLite's 1 GiB: SQLite dropped the episode's transaction (SQLITE_FULL), the
// call's rollback threw `no such savepoint`, hiding why, and the next commit (hibernation, from a timer) threw again.
// Now the call that passes the limit fails with resource_exhausted and is undone; when SQLite undid the episode's
// earlier calls with it, the episode ends there, and everything asked of it says so.

const MiB = 1024 * 1024;

const ledger = defineWorld({
  name: 'ledger',
  version: '1',
  schema:
    'CREATE TABLE entries (id INTEGER PRIMARY KEY, note TEXT NOT NULL) STRICT; CREATE TABLE scratch (id INTEGER PRIMARY KEY, pad TEXT NOT NULL) STRICT;',
  // Writes to a table without capture triggers need no statement journal, so SQLITE_FULL undoes the whole transaction.
  untracked: ['scratch'],
  tools: [
    defineTool({
      name: 'add',
      description: 'Add an entry.',
      input: z.object({ note: z.string().max(100) }),
      run: (ctx, { note }) =>
        Number(ctx.db.run('INSERT INTO entries (note) VALUES (?)', note).lastInsertRowid),
    }),
    defineTool({
      name: 'pad',
      description: 'Write n rows of padding, in one statement each.',
      input: z.object({ n: z.number().int().max(100_000), tracked: z.boolean() }),
      run(ctx, { n, tracked }) {
        for (let i = 0; i < n; i++)
          ctx.db.run(
            `INSERT INTO ${tracked ? 'entries (note)' : 'scratch (pad)'} VALUES (?)`,
            'x'.repeat(2000),
          );
        return n;
      },
    }),
  ],
});

describe('the episode database limit', () => {
  it('fails the call that passes it with resource_exhausted, undone, and the episode goes on', () => {
    using inst = ledger.instance({ maxDbGrowthBytes: MiB });
    expect(inst.call('add', { note: 'first' })).toEqual({ ok: true, result: 1 });
    const r = inst.call('pad', { n: 5000, tracked: true });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'resource_exhausted',
        message: expect.stringContaining('--max-episode-db-mb'),
        details: { limit_mb: 1, growth_mb: 1, option: '--max-episode-db-mb' },
      },
    });
    expect(inst.ended).toBeNull();
    expect(inst.query('SELECT count(*) AS n FROM entries')).toEqual([{ n: 1 }]);
    expect(inst.changes()).toEqual([
      { table: 'entries', op: 'insert', key: { id: 1 }, after: { id: 1, note: 'first' } },
    ]);
    expect(inst.call('add', { note: 'second' })).toEqual({ ok: true, result: 2 });
  });

  it('ends the episode when SQLite undid it: later calls are refused, state throws, hibernation and a new episode work', () => {
    const lines: string[] = [];
    const inst = ledger.instance({ maxDbGrowthBytes: MiB, logger: (l) => lines.push(l) });
    inst.call('add', { note: 'first' });
    const r = inst.call('pad', { n: 5000, tracked: false });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'resource_exhausted',
        message: expect.stringMatching(
          /^this episode ended at call 2: .*Reset to start a new episode/,
        ),
        details: { episode_ended: true },
      },
    });
    expect(inst.ended).toEqual(r.ok ? null : r.error);
    expect(inst.call('add', { note: 'again' })).toEqual(r);
    expect(inst.advanceClock(1000)).toMatchObject({
      ok: false,
      error: { code: 'resource_exhausted' },
    });
    expect(() => inst.state()).toThrow(InstanceError);
    expect(() => inst.changes()).toThrow(/this episode ended at call 2/);
    expect(() => inst.query('SELECT 1')).toThrow(/this episode ended/);
    expect(() => inst.fork()).toThrow(/this episode ended/);
    expect(inst.callLog().map((c) => [c.tool, c.ok])).toEqual([
      ['add', true],
      ['pad', false],
      ['add', false],
      ['advance_clock', false],
    ]);
    expect(() => inst.hibernate()).not.toThrow();
    expect(inst.restart({})).toBeNull();
    inst.destroy();
    using next = ledger.instance({ maxDbGrowthBytes: MiB });
    expect(next.call('add', { note: 'fresh' })).toEqual({ ok: true, result: 1 });
    // No world bug was logged: a full database is the episode's limit, not a bug.
    expect(lines).toEqual([]);
  });

  it('counts from the fixture image, holds on connections reused by restarts and forks, and defaults to 256 MiB', () => {
    using inst = crm.instance({ fixture: 'small_startup', maxDbGrowthBytes: 256 * 1024 });
    let failed: unknown;
    for (let i = 0; i < 5000 && failed === undefined; i++) {
      const r = inst.call('create_company', { name: `Company ${i} ${'x'.repeat(150)}` });
      if (!r.ok) failed = r.error;
    }
    expect(failed).toMatchObject({ code: 'resource_exhausted', details: { growth_mb: 0.25 } });
    const restarted = inst.restart({ fixture: 'small_startup', maxDbGrowthBytes: 256 * 1024 })!;
    using fork = restarted.fork();
    let forkFailed: unknown;
    for (let i = 0; i < 5000 && forkFailed === undefined; i++) {
      const r = fork.call('create_company', { name: `Fork ${i} ${'x'.repeat(150)}` });
      if (!r.ok) forkFailed = r.error;
    }
    expect(forkFailed).toMatchObject({ code: 'resource_exhausted' });
    restarted.destroy();
    using big = crm.instance({ fixture: 'small_startup' });
    expect(big.call('create_company', { name: 'x'.repeat(150) }).ok).toBe(true);
    expect(() => crm.instance({ maxDbGrowthBytes: -1 })).toThrow(
      /maxDbGrowthBytes must be a whole number of bytes >= 0/,
    );
  });
});
