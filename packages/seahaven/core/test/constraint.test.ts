import { describe, expect, it } from 'vitest';
import { defineTool, defineWorld, z } from '../index.ts';

// A SQLite constraint failure during a call reaches the agent as `constraint_violation`, naming the constraint where
// SQLite names it, rather than as an internal error; the call writes nothing and nothing is logged as a world bug.

const schema = `
CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;
CREATE TABLE people (
  id TEXT PRIMARY KEY,
  team_id TEXT REFERENCES teams(id),
  email TEXT NOT NULL UNIQUE,
  age INTEGER CHECK (age >= 0),
  level INTEGER CONSTRAINT level_in_range CHECK (level BETWEEN 1 AND 5)
) STRICT;
CREATE TABLE later (id INTEGER PRIMARY KEY, team_id TEXT REFERENCES teams(id) DEFERRABLE INITIALLY DEFERRED) STRICT;
CREATE TRIGGER no_admins BEFORE INSERT ON people WHEN NEW.email LIKE 'admin@%' BEGIN SELECT RAISE(ABORT, 'admin addresses are reserved'); END;
INSERT INTO teams (id, name) VALUES ('t1', 'One');
INSERT INTO people (id, team_id, email) VALUES ('p1', 't1', 'taken@example.com');
`;

const world = defineWorld({
  name: 'constraints',
  version: '1',
  schema,
  tools: [
    defineTool({
      name: 'exec',
      description: 'Add a team row, then run a statement.',
      input: z.object({ sql: z.string() }),
      run(ctx, { sql }) {
        ctx.db.run("INSERT INTO teams (id, name) VALUES ('t_new', 'New')");
        return ctx.db.run(sql);
      },
    }),
    defineTool({
      name: 'recover',
      description: 'Try an insert that breaks a constraint, catch it, write something else.',
      input: z.object({}),
      run(ctx) {
        try {
          ctx.db.run("INSERT INTO people (id, email) VALUES ('p2', 'taken@example.com')");
        } catch {
          ctx.db.run("INSERT INTO people (id, email) VALUES ('p2', 'free@example.com')");
        }
        return ctx.db.one("SELECT email FROM people WHERE id = 'p2'");
      },
    }),
  ],
});

const CASES: [string, string, { message: string; details: Record<string, unknown> }][] = [
  [
    'unique',
    "INSERT INTO people (id, email) VALUES ('p2', 'taken@example.com')",
    {
      message:
        'UNIQUE constraint failed: people.email (another row already has this value; use a different value, or change the existing row instead). Nothing was written.',
      details: { constraint: 'unique', target: 'people.email' },
    },
  ],
  [
    'primary key',
    "INSERT INTO people (id, email) VALUES ('p1', 'other@example.com')",
    {
      message:
        'UNIQUE constraint failed: people.id (a row with this key already exists; use a different key, or change the existing row instead). Nothing was written.',
      details: { constraint: 'primary_key', target: 'people.id' },
    },
  ],
  [
    'not null',
    "INSERT INTO people (id, email) VALUES ('p2', NULL)",
    {
      message:
        'NOT NULL constraint failed: people.email (a required value is missing; give one). Nothing was written.',
      details: { constraint: 'not_null', target: 'people.email' },
    },
  ],
  [
    'check (expression)',
    "UPDATE people SET age = -1 WHERE id = 'p1'",
    {
      message:
        'CHECK constraint failed: age >= 0 (a value is outside what the schema allows; pass an allowed value). Nothing was written.',
      details: { constraint: 'check', target: 'age >= 0' },
    },
  ],
  [
    'check (named)',
    "UPDATE people SET level = 9 WHERE id = 'p1'",
    {
      message:
        'CHECK constraint failed: level_in_range (a value is outside what the schema allows; pass an allowed value). Nothing was written.',
      details: { constraint: 'check', target: 'level_in_range' },
    },
  ],
  [
    'datatype',
    "UPDATE people SET age = 'old' WHERE id = 'p1'",
    {
      message:
        "cannot store TEXT value in INTEGER column people.age (a value has the wrong type for its column; pass a value of the column's type). Nothing was written.",
      details: { constraint: 'datatype', target: 'people.age' },
    },
  ],
  [
    'trigger',
    "INSERT INTO people (id, email) VALUES ('p2', 'admin@example.com')",
    {
      message: 'admin addresses are reserved. Nothing was written.',
      details: { constraint: 'trigger' },
    },
  ],
];

describe('constraint failures', () => {
  for (const [kind, sql, expected] of CASES) {
    it(`${kind}: constraint_violation naming the constraint; nothing written, nothing logged`, () => {
      const lines: string[] = [];
      const inst = world.instance({ logger: (l) => lines.push(l) });
      expect(inst.call('exec', { sql })).toEqual({
        ok: false,
        error: { code: 'constraint_violation', ...expected },
      });
      expect(inst.changes()).toEqual([]);
      expect(inst.query("SELECT count(*) AS n FROM teams WHERE id = 't_new'")).toEqual([{ n: 0 }]);
      expect(lines).toEqual([]);
      expect(inst.callLog()).toMatchObject([
        { index: 1, tool: 'exec', ok: false, error: { code: 'constraint_violation' } },
      ]);
    });
  }

  it('foreign keys: SQLite names no column, so the message says what to check', () => {
    for (const sql of [
      "INSERT INTO people (id, team_id, email) VALUES ('p2', '', 'x@example.com')",
      "DELETE FROM teams WHERE id = 't1'",
      "INSERT INTO later (team_id) VALUES ('nope')",
    ]) {
      const inst = world.instance({ logger: () => undefined });
      const r = inst.call('exec', { sql });
      expect(r, sql).toEqual({
        ok: false,
        error: {
          code: 'constraint_violation',
          message: expect.stringMatching(
            /^A foreign key constraint failed: a value refers to a row that does not exist, .*\(SQLite does not say which column\)\. Check the ids you passed .* Nothing was written\.$/,
          ),
          details: { constraint: 'foreign_key' },
        },
      });
      expect(inst.changes()).toEqual([]);
      expect(inst.query('SELECT count(*) AS n FROM teams')).toEqual([{ n: 1 }]);
    }
  });

  it('a tool that catches the failure and goes on succeeds with what it wrote afterwards', () => {
    const inst = world.instance();
    expect(inst.call('recover', {})).toEqual({ ok: true, result: { email: 'free@example.com' } });
    expect(inst.changes()).toMatchObject([{ table: 'people', op: 'insert', key: { id: 'p2' } }]);
  });

  it('other SQLite errors stay internal errors', () => {
    const lines: string[] = [];
    const inst = world.instance({ logger: (l) => lines.push(l) });
    expect(inst.call('exec', { sql: 'INSERT INTO nowhere VALUES (1)' })).toMatchObject({
      ok: false,
      error: { code: 'internal', message: 'internal error' },
    });
    expect(lines[0]).toContain('no such table: nowhere');
  });
});
