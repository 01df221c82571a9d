import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, DefinitionError, ToolError, z } from '../index.ts';

// Bookkeeping tables (untracked) are not world state: their writes are in no change record or grade, but they roll
// back with a failed call and travel with forks, hibernation and fixtures like any table.

const world = defineWorld({
  name: 'ledger',
  version: '1',
  schema:
    'CREATE TABLE entries (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL) STRICT; CREATE TABLE seen_keys (key TEXT PRIMARY KEY, entry INTEGER NOT NULL) STRICT;',
  untracked: ['seen_keys'],
  fixtures: {
    one: {
      description: 'One entry.',
      now: '2026-06-01T09:00:00.000Z',
      build: (ctx) => void ctx.db.run("INSERT INTO seen_keys (key, entry) VALUES ('k0', 0)"),
    },
  },
  tools: [
    defineTool({
      name: 'add',
      description: 'Add an entry once per key.',
      input: z.object({ key: z.string(), amount: z.number().int() }),
      run(ctx, { key, amount }) {
        const seen = ctx.db.one<{ entry: number }>(
          'SELECT entry FROM seen_keys WHERE key = ?',
          key,
        );
        if (seen) return { id: seen.entry, replayed: true };
        const id = Number(
          ctx.db.run('INSERT INTO entries (amount) VALUES (?)', amount).lastInsertRowid,
        );
        ctx.db.run('INSERT INTO seen_keys (key, entry) VALUES (?, ?)', key, id);
        if (amount < 0) throw new ToolError('negative', 'amounts are positive');
        return { id, replayed: false };
      },
    }),
  ],
});

describe('untracked tables', () => {
  it('are left out of changes and the change log, yet roll back with a failed call and travel with forks', () => {
    for (const fixture of [undefined, 'one']) {
      const inst = world.instance({ fixture });
      expect(inst.call('add', { key: 'a', amount: 5 })).toEqual({
        ok: true,
        result: { id: 1, replayed: false },
      });
      expect(inst.call('add', { key: 'a', amount: 5 })).toEqual({
        ok: true,
        result: { id: 1, replayed: true },
      });
      expect(inst.changes().map((c) => c.table)).toEqual(['entries']);
      expect(inst.changeLog().map((c) => c.table)).toEqual(['entries']);
      expect(inst.call('add', { key: 'b', amount: -1 }).ok).toBe(false);
      expect(inst.query("SELECT count(*) AS n FROM seen_keys WHERE key = 'b'")).toEqual([{ n: 0 }]);
      const fork = inst.fork();
      expect(fork.call('add', { key: 'a', amount: 5 })).toEqual({
        ok: true,
        result: { id: 1, replayed: true },
      });
      inst.hibernate();
      expect(inst.query('SELECT key FROM seen_keys ORDER BY key').map((r) => r.key)).toEqual(
        fixture ? ['a', 'k0'] : ['a'],
      );
    }
  });

  it('must name tables of the schema', () => {
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
        tools: world.tools as never,
        untracked: ['nope'],
      }),
    ).toThrow(DefinitionError);
    expect(() =>
      defineWorld({
        name: 'x',
        version: '1',
        schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
        tools: world.tools as never,
        untracked: ['nope'],
      }),
    ).toThrow(/untracked names "nope", which the schema does not create; its tables are t/);
  });
});
