import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';

// An episode runs as one SQLite transaction so that a reset can roll it back cheaply; past 5,000 written rows it is
// committed instead (writes inside a large transaction get slower), and a later reset reopens the fixture image.
// Nothing observable changes either way.

const bulk = defineWorld({
  name: 'bulk',
  version: '1',
  schema: 'CREATE TABLE rows (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT;',
  fixtures: { base: { description: 'One row.', now: '2026-06-01T09:00:00.000Z', build: (ctx) => void ctx.db.run("INSERT INTO rows (id, v) VALUES (0, 'seed')") } },
  tools: [
    defineTool({
      name: 'add',
      description: 'Add n rows.',
      input: z.object({ n: z.number().int().min(1).max(10_000) }),
      run(ctx, { n }) {
        for (let i = 0; i < n; i++) ctx.db.run('INSERT INTO rows (v) VALUES (?)', ctx.ids.token('', 8));
        return ctx.db.one('SELECT count(*) AS n FROM rows');
      },
    }),
  ],
});

describe('a long episode', () => {
  it('keeps the cheap restart while small, and gives it up past 5,000 rows with the same observable state', () => {
    const small = bulk.instance({ fixture: 'base', seed: 1 });
    small.call('add', { n: 100 });
    const again = small.restart({ fixture: 'base', seed: 1 });
    expect(again).not.toBeNull();
    expect(again!.query('SELECT count(*) AS n FROM rows')).toEqual([{ n: 1 }]);

    const big = bulk.instance({ fixture: 'base', seed: 2 });
    for (let i = 0; i < 6; i++) expect(big.call('add', { n: 1000 })).toEqual({ ok: true, result: { n: 1 + (i + 1) * 1000 } });
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
});
