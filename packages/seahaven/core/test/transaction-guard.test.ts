import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';
import type { Instance } from '../instance.ts';
import { refusalOf } from '../sql-guard.ts';

// World code runs inside the call's transaction and cannot end, begin or step outside it, nor change how the
// connection works for later calls. A refused statement fails the call as a world bug, even when the tool catches the
// error, and nothing the call wrote remains.

const schema = `
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;
CREATE TABLE tags (id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id)) STRICT;
`;

const tools = [
  defineTool({
    name: 'write_then',
    description:
      'Write a note, then run one statement (optionally swallowing its error), then write another note.',
    input: z.object({
      sql: z.string(),
      swallow: z.boolean().default(false),
      how: z.enum(['run', 'one', 'all']).default('run'),
    }),
    run(ctx, { sql, swallow, how }) {
      ctx.db.run("INSERT INTO notes (body) VALUES ('before')");
      try {
        if (how === 'run') ctx.db.run(sql);
        else if (how === 'one') ctx.db.one(sql);
        else ctx.db.all(sql);
      } catch (e) {
        if (!swallow) throw e;
      }
      ctx.db.run("INSERT INTO notes (body) VALUES ('after')");
      return ctx.db.all('SELECT body FROM notes ORDER BY id');
    },
  }),
  defineTool({
    name: 'read',
    description: 'Run one statement that returns rows, before any write.',
    input: z.object({ sql: z.string() }),
    run: (ctx, { sql }) => ctx.db.all(sql),
  }),
  defineTool({
    name: 'add',
    description: 'Add a note.',
    input: z.object({ body: z.string() }),
    run: (ctx, { body }) => ctx.db.run('INSERT INTO notes (body) VALUES (?)', body),
  }),
  defineTool({
    name: 'orphan_tag',
    description: 'Add a tag for a note that does not exist.',
    input: z.object({}),
    run: (ctx) => ctx.db.run('INSERT INTO tags (note_id) VALUES (999)'),
  }),
  defineTool({
    name: 'nested',
    description:
      'Savepoints two deep: the innermost fails and is caught; optionally fail the whole call afterwards.',
    input: z.object({ fail: z.boolean() }),
    run(ctx, { fail }) {
      ctx.db.run("INSERT INTO notes (body) VALUES ('outer')");
      ctx.db.transaction(() => {
        ctx.db.run("INSERT INTO notes (body) VALUES ('middle')");
        try {
          ctx.db.transaction(() => {
            ctx.db.run("INSERT INTO notes (body) VALUES ('inner')");
            throw new Error('inner fails');
          });
        } catch {
          // only the inner savepoint is rolled back
        }
      });
      if (fail) throw new Error('the call fails after its savepoints');
      return ctx.db.all('SELECT body FROM notes ORDER BY id');
    },
  }),
];

const world = defineWorld({
  name: 'guard',
  version: '1',
  schema,
  tools,
  fixtures: {
    one_note: {
      description: 'One note.',
      now: '2026-01-01T00:00:00.000Z',
      build: (ctx) => void ctx.db.run("INSERT INTO notes (body) VALUES ('fixture')"),
    },
  },
});

/** A fixture instance runs its episode as one transaction (each call a savepoint); a blank one gives each call its own. */
const kinds: [string, () => { inst: Instance; lines: string[] }][] = [
  ['a fixture instance (episode transaction)', () => start({ fixture: 'one_note' })],
  ['a blank instance (one transaction per call)', () => start({})],
];

function start(options: { fixture?: string }): { inst: Instance; lines: string[] } {
  const lines: string[] = [];
  const inst = world.instance({ ...options, logger: (l) => lines.push(l) });
  // An earlier call whose write must survive whatever the refused statement would have done.
  expect(inst.call('add', { body: 'kept' })).toMatchObject({ ok: true });
  return { inst, lines };
}

function connectionSettings(inst: Instance): unknown {
  return inst.query(
    'SELECT (SELECT foreign_keys FROM pragma_foreign_keys) AS fk, (SELECT journal_mode FROM pragma_journal_mode) AS jm, (SELECT query_only FROM pragma_query_only) AS qo, (SELECT writable_schema FROM pragma_writable_schema) AS ws, (SELECT defer_foreign_keys FROM pragma_defer_foreign_keys) AS dfk, (SELECT user_version FROM pragma_user_version) AS uv, (SELECT count(*) FROM pragma_database_list) AS dbs',
  );
}

const REFUSED = [
  'COMMIT',
  'commit transaction',
  'END',
  'END TRANSACTION',
  'ROLLBACK',
  'ROLLBACK TO __seahaven_call',
  'ROLLBACK TRANSACTION TO SAVEPOINT __seahaven_call',
  'BEGIN',
  'BEGIN IMMEDIATE',
  'SAVEPOINT mine',
  'RELEASE __seahaven_call',
  'RELEASE SAVEPOINT __seahaven_call',
  "ATTACH ':memory:' AS other",
  'DETACH other',
  'VACUUM',
  "VACUUM INTO '/tmp/seahaven-guard-never.sqlite'",
  'PRAGMA journal_mode = OFF',
  'PRAGMA synchronous = OFF',
  'PRAGMA foreign_keys = OFF',
  'PRAGMA main.foreign_keys(0)',
  "PRAGMA 'foreign_keys' = 0",
  'PRAGMA writable_schema = ON',
  'PRAGMA defer_foreign_keys = ON',
  'PRAGMA query_only = 1',
  'PRAGMA user_version = 7',
  'PRAGMA recursive_triggers = ON',
  'PRAGMA optimize',
  'EXPLAIN PRAGMA foreign_keys = OFF',
  'EXPLAIN QUERY PLAN COMMIT',
  '/* a comment */ ; -- and another\n  commit',
];

describe('statements that end, begin or escape the call transaction', () => {
  for (const [kind, open] of kinds) {
    describe(kind, () => {
      for (const sql of REFUSED) {
        it(`refuses ${JSON.stringify(sql)} as a world bug; nothing the call wrote remains`, () => {
          const { inst, lines } = open();
          const settings = connectionSettings(inst);
          const before = inst.query('SELECT id, body FROM notes ORDER BY id');
          const changes = inst.changes();
          for (const swallow of [false, true]) {
            const r = inst.call('write_then', { sql, swallow });
            expect(r, `swallow: ${swallow}`).toMatchObject({
              ok: false,
              error: { code: 'internal', message: 'internal error' },
            });
            const line = lines.pop()!;
            expect(line).toMatch(/^\[seahaven\] world bug err_\w+ in guard\/write_then/);
            expect(line).toContain(`ctx.db refused ${JSON.stringify(sql)}`);
            expect(line).toMatch(/transaction|database|PRAGMA/);
          }
          expect(inst.query('SELECT id, body FROM notes ORDER BY id')).toEqual(before);
          expect(inst.changes()).toEqual(changes);
          expect(connectionSettings(inst)).toEqual(settings);
          // The instance goes on: later calls commit, and foreign keys are still enforced.
          expect(inst.call('add', { body: 'later' })).toMatchObject({ ok: true });
          expect(inst.call('orphan_tag', {})).toMatchObject({
            ok: false,
            error: { code: 'constraint_violation' },
          });
          expect(inst.changes().map((c) => c.after?.body)).toEqual([
            ...changes.map((c) => c.after?.body),
            'later',
          ]);
          inst.destroy();
        });
      }

      it('refuses them before any write and through one() and all() too', () => {
        const { inst, lines } = open();
        const settings = connectionSettings(inst);
        expect(inst.call('read', { sql: 'PRAGMA foreign_keys = OFF' })).toMatchObject({
          ok: false,
          error: { code: 'internal' },
        });
        expect(inst.call('write_then', { sql: 'PRAGMA query_only = 1', how: 'one' })).toMatchObject(
          { ok: false, error: { code: 'internal' } },
        );
        expect(inst.call('write_then', { sql: 'COMMIT', how: 'all' })).toMatchObject({
          ok: false,
          error: { code: 'internal' },
        });
        expect(lines).toHaveLength(3);
        expect(connectionSettings(inst)).toEqual(settings);
        expect(inst.call('orphan_tag', {})).toMatchObject({
          ok: false,
          error: { code: 'constraint_violation' },
        });
        inst.destroy();
      });

      it('allows reading PRAGMAs and the reporting ones', () => {
        const { inst, lines } = open();
        expect(inst.call('read', { sql: 'PRAGMA table_info(notes)' })).toMatchObject({
          ok: true,
          result: [{ name: 'id' }, { name: 'body' }],
        });
        expect(inst.call('read', { sql: 'PRAGMA main.foreign_key_list(tags)' })).toMatchObject({
          ok: true,
          result: [{ table: 'notes', from: 'note_id' }],
        });
        expect(inst.call('read', { sql: 'PRAGMA foreign_keys' })).toEqual({
          ok: true,
          result: [{ foreign_keys: 1 }],
        });
        expect(inst.call('read', { sql: 'PRAGMA integrity_check' })).toEqual({
          ok: true,
          result: [{ integrity_check: 'ok' }],
        });
        expect(
          inst.call('read', { sql: "SELECT name FROM pragma_table_info('notes') ORDER BY cid" }),
        ).toEqual({ ok: true, result: [{ name: 'id' }, { name: 'body' }] });
        // Keywords inside a statement are no reason to refuse it.
        expect(
          inst.call('read', {
            sql: "SELECT CASE WHEN 1 THEN 'begin' END AS commit_ FROM notes WHERE body <> 'ROLLBACK' LIMIT 1",
          }),
        ).toEqual({ ok: true, result: [{ commit_: 'begin' }] });
        expect(
          inst.call('write_then', { sql: "UPDATE notes SET body = 'end' WHERE body = 'kept'" }),
        ).toMatchObject({ ok: true });
        expect(lines).toEqual([]);
        inst.destroy();
      });

      it('ctx.db.transaction still nests savepoints', () => {
        const { inst, lines } = open();
        const before = inst
          .query<{ body: string }>('SELECT body FROM notes ORDER BY id')
          .map((r) => r.body);
        expect(inst.call('nested', { fail: true })).toMatchObject({
          ok: false,
          error: { code: 'internal' },
        });
        expect(
          inst.query<{ body: string }>('SELECT body FROM notes ORDER BY id').map((r) => r.body),
        ).toEqual(before);
        expect(inst.call('nested', { fail: false })).toEqual({
          ok: true,
          result: [...before, 'outer', 'middle'].map((body) => ({ body })),
        });
        expect(
          inst
            .changeLog()
            .filter((c) => c.tool === 'nested')
            .map((c) => c.after?.body),
        ).toEqual(['outer', 'middle']);
        expect(lines).toHaveLength(1);
        inst.destroy();
      });
    });
  }

  it('a harness query cannot change the connection either', () => {
    const { inst } = start({ fixture: 'one_note' });
    expect(() => inst.query('PRAGMA foreign_keys = OFF')).toThrow(
      /ctx.db refused "PRAGMA foreign_keys = OFF": PRAGMA foreign_keys with a value changes/,
    );
    expect(inst.call('orphan_tag', {})).toMatchObject({
      ok: false,
      error: { code: 'constraint_violation' },
    });
    inst.destroy();
  });

  it('names the statement, the reason and what to do instead', () => {
    expect(refusalOf('COMMIT')).toMatch(
      /world code cannot begin, end or step outside it\. Throw ToolError to fail the call .* or use ctx\.db\.transaction\(fn\)/,
    );
    expect(refusalOf("ATTACH 'x.db' AS x")).toMatch(/compose it with defineWorld\(\{ worlds/);
    expect(refusalOf('PRAGMA synchronous = OFF')).toMatch(
      /^PRAGMA synchronous with a value changes how the database or connection works for every later call/,
    );
    for (const sql of [
      'SELECT 1',
      'PRAGMA table_info(x)',
      'PRAGMA journal_mode',
      'UPDATE t SET end_at = 1',
      'CREATE TRIGGER t AFTER INSERT ON a BEGIN DELETE FROM b; END',
    ])
      expect(refusalOf(sql), sql).toBeNull();
  });
});

describe('a trigger that raises ROLLBACK', () => {
  const raising = defineWorld({
    name: 'raising',
    version: '1',
    schema: `${schema} CREATE TRIGGER no_forbidden BEFORE INSERT ON notes WHEN NEW.body = 'forbidden' BEGIN SELECT RAISE(ROLLBACK, 'forbidden notes are not allowed'); END;`,
    tools,
    fixtures: {
      one_note: {
        description: 'One note.',
        now: '2026-01-01T00:00:00.000Z',
        build: (ctx) => void ctx.db.run("INSERT INTO notes (body) VALUES ('fixture')"),
      },
    },
  });

  it('rolls back only the call it fires in, never earlier calls of the episode', () => {
    const inst = raising.instance({ fixture: 'one_note', logger: () => undefined });
    expect(inst.call('add', { body: 'kept' })).toMatchObject({ ok: true });
    expect(
      inst.call('write_then', { sql: "INSERT INTO notes (body) VALUES ('forbidden')" }),
    ).toEqual({
      ok: false,
      error: {
        code: 'constraint_violation',
        message: 'forbidden notes are not allowed. Nothing was written.',
        details: { constraint: 'trigger' },
      },
    });
    expect(inst.query('SELECT body FROM notes ORDER BY id')).toEqual([
      { body: 'fixture' },
      { body: 'kept' },
    ]);
    expect(inst.changes()).toMatchObject([{ op: 'insert', after: { body: 'kept' } }]);
    expect(inst.call('add', { body: 'later' })).toMatchObject({ ok: true });
    expect(inst.query('SELECT body FROM notes ORDER BY id')).toEqual([
      { body: 'fixture' },
      { body: 'kept' },
      { body: 'later' },
    ]);
    inst.destroy();
  });
});
