import { describe, expect, it } from 'vitest';
import rule, { isUnorderedQuery } from './require-order-by.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  unordered: [
    "Rows from `ctx.db.all()` without `ORDER BY` come in whatever order SQLite's query plan gives, which can change with an index or a version, and the agent sees that order. Add an `ORDER BY` that makes the order total, e.g. `ORDER BY created_at, id`.",
    { method: 'all' },
  ],
});

testRule('require-order-by', rule, {
  valid: [
    'ctx.db.all("SELECT id, name FROM contacts ORDER BY name, id");',
    'ctx.db.all(`SELECT stage, count(*) AS n FROM deals GROUP BY stage ORDER BY stage`);',
    'ctx.db.all("select * from t where a = ? order by a", a);',
    'ctx.db.all("SELECT * FROM t WHERE id = ? LIMIT 1", id);',
    'ctx.db.all("SELECT count(*) AS n FROM deals");',
    'ctx.db.all("SELECT 1 AS one");',
    'ctx.db.all("INSERT INTO t (a) VALUES (?) RETURNING id", a);',
    'ctx.db.all("WITH recent AS (SELECT * FROM a ORDER BY at DESC LIMIT 5) SELECT * FROM recent ORDER BY at");',
    'const SQL = "SELECT * FROM t ORDER BY id"; ctx.db.all(SQL);',
    // one() returns a single row; run() writes.
    'ctx.db.one("SELECT * FROM contacts WHERE email = ?", email);',
    'ctx.db.run("DELETE FROM t");',
    // Dynamic SQL cannot be read here.
    'ctx.db.all(sql);',
    // Not ctx.db.
    'Promise.all([a, b]); router.all("SELECT * FROM t");',
  ],
  invalid: [
    {
      code: 'ctx.db.all("SELECT * FROM contacts");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all(`SELECT id FROM deals WHERE stage = ?`, stage);',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    // An ORDER BY inside a subquery or a string does not order the outer rows.
    {
      code: 'ctx.db.all("SELECT * FROM (SELECT * FROM t ORDER BY id) WHERE a = 1");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all("SELECT * FROM t WHERE note = \'ORDER BY\'");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all("SELECT * FROM t -- ORDER BY id\\n");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all("SELECT stage, count(*) FROM deals GROUP BY stage");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all("SELECT a FROM x UNION SELECT a FROM y");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'ctx.db.all("SELECT count(*) OVER () AS n, id FROM t");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 12 }],
    },
    {
      code: 'const LIST = "SELECT * FROM t"; ctx.db.all(LIST);',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 44 }],
    },
    {
      code: 'const cols = "id"; ctx.db.all("SELECT " + cols + " FROM t");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 31 }],
    },
    {
      code: 'const { db } = ctx; db.all("SELECT * FROM t LIMIT 10");',
      errors: [{ messageId: 'unordered', data: { method: 'all' }, column: 28 }],
    },
  ],
});

describe('isUnorderedQuery', () => {
  it('reads only the outermost statement', () => {
    expect(isUnorderedQuery('SELECT * FROM t ORDER BY id')).toBe(false);
    expect(isUnorderedQuery('SELECT * FROM t WHERE id IN (SELECT id FROM u ORDER BY id)')).toBe(
      true,
    );
    expect(isUnorderedQuery('PRAGMA table_info(t)')).toBe(false);
    expect(isUnorderedQuery('SELECT * FROM t LIMIT 1, 5')).toBe(true);
  });
});
