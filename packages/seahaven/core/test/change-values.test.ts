import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';

// The change tracker keeps row values encoded outside the JavaScript heap and reads a row's starting value from the
// fixture only when the history is asked for. These tests pin what that must not change: every SQLite value comes back
// exactly, writes that change nothing leave no record, and a fork's history is its own.

const big = 'x'.repeat(20_000) + ' ünïcödé 🌊';
const blob = Buffer.alloc(40_000, 7);

const kinds = defineWorld({
  name: 'kinds',
  version: '1',
  schema: 'CREATE TABLE things (id TEXT PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB) STRICT;',
  fixtures: {
    base: {
      description: 'Two things.',
      now: '2026-06-01T09:00:00.000Z',
      build: (ctx) => {
        ctx.db.run("INSERT INTO things VALUES ('a', 1, 1.5, 'alpha', x'00ff')");
        ctx.db.run("INSERT INTO things VALUES ('b', 2, NULL, '', x'')");
      },
    },
  },
  tools: [
    defineTool({
      name: 'sql',
      description: 'Run one statement with parameters (hex strings prefixed "hex:" are BLOBs).',
      input: z.object({
        sql: z.string(),
        params: z.array(z.union([z.string(), z.number(), z.null()])).default([]),
      }),
      run(ctx, { sql, params }) {
        const values = params.map((p) =>
          typeof p === 'string' && p.startsWith('hex:') ? Buffer.from(p.slice(4), 'hex') : p,
        );
        return ctx.db.run(sql, ...values).changes;
      },
    }),
    defineTool({
      name: 'put_big',
      description: 'Insert a row with a large text and a large BLOB.',
      input: z.object({ id: z.string() }),
      run(ctx, { id }) {
        return ctx.db.run(
          "INSERT INTO things VALUES (?, '9007199254740993', -0.25, ?, ?)",
          id,
          big,
          blob,
        ).changes;
      },
    }),
  ],
});

const ok = (r: { ok: boolean }) => expect(r).toMatchObject({ ok: true });

describe('row values in the change history', () => {
  it('come back exactly: large and multi-byte text, BLOBs over a chunk, integers past 2^53, reals, empty and null', () => {
    const inst = kinds.instance({ fixture: 'base' });
    ok(inst.call('put_big', { id: 'c' }));
    ok(inst.call('sql', { sql: "UPDATE things SET t = NULL, r = 2.0 WHERE id = 'b'" }));
    const changes = inst.changes();
    expect(changes).toEqual([
      {
        table: 'things',
        op: 'update',
        key: { id: 'b' },
        before: { id: 'b', r: null, t: '' },
        after: { id: 'b', r: 2, t: null },
      },
      {
        table: 'things',
        op: 'insert',
        key: { id: 'c' },
        after: { id: 'c', i: '9007199254740993', r: -0.25, t: big, b: blob.toString('base64') },
      },
    ]);
    expect(inst.changeLog().map((e) => [e.call, e.op, e.key])).toEqual([
      [1, 'insert', { id: 'c' }],
      [2, 'update', { id: 'b' }],
    ]);
  });

  it('leave no record for writes that change nothing, on first touch of a fixture row and later', () => {
    const inst = kinds.instance({ fixture: 'base' });
    ok(inst.call('sql', { sql: "UPDATE things SET i = 1 WHERE id = 'a'" }));
    ok(inst.call('sql', { sql: "UPDATE things SET i = 5 WHERE id = 'a'" }));
    ok(inst.call('sql', { sql: "UPDATE things SET i = 5 WHERE id = 'a'" }));
    ok(inst.call('sql', { sql: "UPDATE things SET b = ? WHERE id = 'b'", params: ['hex:'] }));
    expect(inst.changeLog().map((e) => [e.call, e.before, e.after])).toEqual([
      [2, { id: 'a', i: 1 }, { id: 'a', i: 5 }],
    ]);
    ok(inst.call('sql', { sql: "UPDATE things SET i = 1 WHERE id = 'a'" }));
    expect(inst.changes()).toEqual([]);
  });

  it('give a fixture row deleted by the first call that touched it its fixture values', () => {
    const inst = kinds.instance({ fixture: 'base' });
    ok(inst.call('sql', { sql: "DELETE FROM things WHERE id = 'a'" }));
    const deleted = {
      table: 'things',
      op: 'delete',
      key: { id: 'a' },
      before: { id: 'a', i: 1, r: 1.5, t: 'alpha', b: Buffer.from([0, 255]).toString('base64') },
    };
    expect(inst.changes()).toEqual([deleted]);
    expect(inst.changeLog()).toEqual([{ call: 1, tool: 'sql', ...deleted }]);
  });

  it('belong to each fork alone, before and after either is destroyed', () => {
    const inst = kinds.instance({ fixture: 'base' });
    ok(inst.call('sql', { sql: "UPDATE things SET i = 10 WHERE id = 'a'" }));
    const fork = inst.fork();
    ok(inst.call('sql', { sql: "UPDATE things SET i = 11 WHERE id = 'a'" }));
    ok(fork.call('sql', { sql: "UPDATE things SET i = 12 WHERE id = 'a'" }));
    ok(fork.call('put_big', { id: 'd' }));
    const forkLog = fork.changeLog();
    inst.destroy();
    // A new instance reuses the pooled chunks the destroyed one gave back; the fork's history is untouched.
    const other = kinds.instance({ fixture: 'base' });
    for (let i = 0; i < 50; i++) ok(other.call('put_big', { id: `o${i}` }));
    expect(fork.changeLog()).toEqual(forkLog);
    expect(forkLog.map((e) => [e.call, e.key, e.after?.i])).toEqual([
      [1, { id: 'a' }, 10],
      [2, { id: 'a' }, 12],
      [3, { id: 'd' }, '9007199254740993'],
    ]);
    expect(fork.changes().map((c) => [c.op, c.key])).toEqual([
      ['update', { id: 'a' }],
      ['insert', { id: 'd' }],
    ]);
  });
});
