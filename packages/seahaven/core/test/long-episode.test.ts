import { describe, expect, it } from 'vitest';
import { ToolError, defineTool, defineWorld, z, type Ctx } from '../index.ts';
import { storeDatabases } from '../instance-internals.ts';

// An episode runs as one SQLite transaction so that a reset can roll it back cheaply; past 5,000 written rows it is
// committed instead (writes inside a large transaction get slower), and a later reset reopens the fixture image.
// Nothing observable changes either way. Where an episode cannot be rolled back to a fixture (a blank instance, or an
// episode past that bound), calls still run as savepoints in a long transaction, a batch, committed every 5,000 rows and
// whenever the bytes are needed; that too changes nothing observable.

/** Insert `n` rows of random text. */
const addRows = (ctx: Ctx, n: number): void => {
  for (let i = 0; i < n; i++) ctx.db.run('INSERT INTO rows (v) VALUES (?)', ctx.ids.token('', 8));
};

const bulk = defineWorld({
  name: 'bulk',
  version: '1',
  schema: 'CREATE TABLE rows (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT;',
  fixtures: {
    base: {
      description: 'One row.',
      now: '2026-06-01T09:00:00.000Z',
      build: (ctx) => void ctx.db.run("INSERT INTO rows (id, v) VALUES (0, 'seed')"),
    },
  },
  tools: [
    defineTool({
      name: 'add',
      description: 'Add n rows.',
      input: z.object({ n: z.number().int().min(1).max(10_000) }),
      run(ctx, { n }) {
        addRows(ctx, n);
        return ctx.db.one('SELECT count(*) AS n FROM rows');
      },
    }),
    defineTool({
      name: 'add_then_fail',
      description: 'Add n rows, then fail.',
      input: z.object({ n: z.number().int().min(1).max(10_000) }),
      run(ctx, { n }) {
        addRows(ctx, n);
        throw new ToolError('refused', `added ${n} rows, then refused`);
      },
    }),
  ],
});

describe('a long episode', () => {
  it('gives up its transaction after a large call is rolled back in it, with the same observable state', () => {
    // A transaction in which a large savepoint was rolled back stays slow to write in (a failed year of billing on
    // big_co made the next advance ten times slower), so after such a rollback the episode commits and the next call
    // begins afresh. A small failed call keeps the cheap restart.
    const small = bulk.instance({ fixture: 'base', seed: 4 });
    expect(small.call('add_then_fail', { n: 100 }).ok).toBe(false);
    expect(small.restart({ fixture: 'base', seed: 4 })).not.toBeNull();

    const big = bulk.instance({ fixture: 'base', seed: 5 });
    const fresh = bulk.instance({ fixture: 'base', seed: 5 });
    expect(big.call('add_then_fail', { n: 6000 })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(fresh.call('add_then_fail', { n: 6000 }).ok).toBe(false);
    expect(big.changes()).toEqual([]);
    expect(big.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 1 }]);
    expect(big.call('add', { n: 10 })).toEqual(fresh.call('add', { n: 10 }));
    expect(big.changes()).toEqual(fresh.changes());
    expect(big.restart({ fixture: 'base', seed: 5 })).toBeNull();
  });

  it('keeps the cheap restart while small, and gives it up past 5,000 rows with the same observable state', () => {
    const small = bulk.instance({ fixture: 'base', seed: 1 });
    small.call('add', { n: 100 });
    const again = small.restart({ fixture: 'base', seed: 1 });
    expect(again).not.toBeNull();
    expect(again!.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 1 }]);

    const big = bulk.instance({ fixture: 'base', seed: 2 });
    for (let i = 0; i < 6; i++)
      expect(big.call('add', { n: 1000 })).toEqual({ ok: true, result: { n: 1 + (i + 1) * 1000 } });
    // Committed: a failed call still rolls back alone, changes and forks see everything.
    expect(big.call('add', { n: 0 }).ok).toBe(false);
    expect(big.changes()).toHaveLength(6000);
    expect(big.fork().query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 6001 }]);
    expect(big.restart({ fixture: 'base', seed: 2 })).toBeNull();
    const fresh = bulk.instance({ fixture: 'base', seed: 2 });
    expect(fresh.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 1 }]);
    // The same calls on a fresh instance give the same rows: committing early changes nothing observable.
    for (let i = 0; i < 6; i++) fresh.call('add', { n: 1000 });
    expect(fresh.changes()).toEqual(big.changes());
  });

  it('runs a blank instance in batches: failed calls roll back alone, and snapshots, forks and hibernation see every call', () => {
    const inst = bulk.instance({ seed: 3 });
    const db = inst[storeDatabases]().get(null)!;
    for (let i = 0; i < 3; i++) inst.call('add', { n: 10 });
    // The calls are savepoints in an open batch, not transactions of their own.
    expect(db.inTransaction).toBe(true);
    expect(inst.call('add', { n: 0 }).ok).toBe(false);
    expect(inst.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 30 }]);
    const fork = inst.fork();
    expect(fork.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 30 }]);
    inst.call('add', { n: 5 });
    inst.hibernate();
    expect(inst.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 35 }]);
    expect(inst.changes()).toHaveLength(35);
    // Past 5,000 rows the batch commits and the next call that writes begins another.
    const big = bulk.instance({ seed: 4 });
    const bigDb = big[storeDatabases]().get(null)!;
    for (let i = 0; i < 6; i++) big.call('add', { n: 1000 });
    expect(bigDb.inTransaction).toBe(false);
    big.call('add', { n: 1 });
    expect(bigDb.inTransaction).toBe(true);
    expect(big.changes()).toHaveLength(6001);
  });

  it('gives each call a transaction of its own where deferred foreign keys must be checked at every commit', () => {
    const deferred = defineWorld({
      name: 'deferred',
      version: '1',
      schema: `CREATE TABLE parents (id INTEGER PRIMARY KEY) STRICT;
CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED) STRICT;`,
      tools: [
        defineTool({
          name: 'add_child',
          description: 'Add a child of a parent that may not exist.',
          input: z.object({ parent: z.number().int() }),
          run: (ctx, { parent }) =>
            ctx.db.run('INSERT INTO children (parent) VALUES (?)', parent).changes,
        }),
        defineTool({
          name: 'add_parent',
          description: 'Add a parent.',
          input: z.object({ id: z.number().int() }),
          run: (ctx, { id }) => ctx.db.run('INSERT INTO parents (id) VALUES (?)', id).changes,
        }),
      ],
    });
    const inst = deferred.instance();
    const db = inst[storeDatabases]().get(null)!;
    expect(inst.call('add_parent', { id: 1 }).ok).toBe(true);
    expect(db.inTransaction).toBe(false);
    // The missing parent is found when the call commits, so the call fails alone.
    expect(inst.call('add_child', { parent: 2 }).ok).toBe(false);
    expect(inst.call('add_child', { parent: 1 }).ok).toBe(true);
    expect(inst.query('SELECT parent FROM children')).toEqual([{ parent: 1 }]);
  });
});
