import rule from './no-sql-interpolation.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  interpolated: [
    "SQL passed to `ctx.db.one()` interpolates `id`. Spliced values are injection holes and defeat the statement cache; bind them as `?` parameters, e.g. `ctx.db.one('… WHERE id = ?', id)`. To pick a table or column, choose among fixed SQL strings.",
    { method: 'one', expr: 'id' },
  ],
  concatenated: [
    "SQL passed to `ctx.db.run()` is concatenated with `input.id`. Spliced values are injection holes and defeat the statement cache; bind them as `?` parameters, e.g. `ctx.db.run('… WHERE id = ?', id)`. To pick a table or column, choose among fixed SQL strings.",
    { method: 'run', expr: 'input.id' },
  ],
  builtElsewhere: [
    '`sql` holds SQL built from `id` and is passed to `ctx.db.one()`. Bind values as `?` parameters instead of writing them into the text.',
    { name: 'sql', expr: 'id', method: 'one' },
  ],
  useParameters: ['Bind the spliced values as `?` parameters.'],
});

testRule('no-sql-interpolation', rule, {
  valid: [
    'ctx.db.one("SELECT * FROM contacts WHERE id = ?", id);',
    'ctx.db.all(`SELECT id FROM deals WHERE stage = @stage ORDER BY id`, { stage });',
    // Literal-only concatenation and constants are not interpolation.
    'ctx.db.run("UPDATE deals SET stage = ? " + "WHERE id = ?", stage, id);',
    'const TABLE = "contacts"; ctx.db.all(`SELECT * FROM ${TABLE} ORDER BY id`);',
    'const COLS = "id, name"; ctx.db.all("SELECT " + COLS + " FROM t ORDER BY id");',
    // Placeholder lists are not data.
    'ctx.db.all(`SELECT * FROM t WHERE id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`, ...ids);',
    'ctx.db.all("SELECT * FROM t WHERE id IN (" + Array(ids.length).fill("?").join(",") + ") ORDER BY id", ...ids);',
    // A variable typed as a union of literals can only name what the author wrote.
    'function find(ctx: Ctx, table: "contacts" | "deals", id: string) { return ctx.db.one(`SELECT * FROM ${table} WHERE id = ?`, id); }',
    'type Table = "a" | "b"; function f(ctx: Ctx, t: Table) { return ctx.db.one(`SELECT * FROM ${t} LIMIT 1`); }',
    'ctx.db.all(`SELECT * FROM t ORDER BY ${desc ? "id DESC" : "id"}`);',
    // Not ctx.db: other objects with the same method names are left alone.
    'const q = `SELECT ${x}`; list.all(q); inst.query(`SELECT ${x}`);',
    'stmt.run(`${x}`);',
    'const sql = "SELECT 1"; ctx.db.one(sql);',
  ],
  invalid: [
    {
      code: 'ctx.db.one(`SELECT * FROM contacts WHERE id = ${id}`);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'one', expr: 'id' },
          column: 12,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "ctx.db.one('SELECT * FROM contacts WHERE id = ?', id);",
            },
          ],
        },
      ],
    },
    {
      code: "ctx.db.all(`SELECT * FROM contacts WHERE name = '${name}' AND stage = ? ORDER BY id`, stage);",
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'all', expr: 'name' },
          column: 12,
          suggestions: [
            {
              messageId: 'useParameters',
              output:
                "ctx.db.all('SELECT * FROM contacts WHERE name = ? AND stage = ? ORDER BY id', name, stage);",
            },
          ],
        },
      ],
    },
    {
      code: 'ctx.db.run("DELETE FROM deals WHERE id = " + input.id);',
      errors: [
        {
          messageId: 'concatenated',
          data: { method: 'run', expr: 'input.id' },
          column: 12,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "ctx.db.run('DELETE FROM deals WHERE id = ?', input.id);",
            },
          ],
        },
      ],
    },
    {
      code: 'ctx.db.run(`INSERT INTO t (a, b) VALUES (?, ${b})`, a);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'run', expr: 'b' },
          column: 12,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "ctx.db.run('INSERT INTO t (a, b) VALUES (?, ?)', a, b);",
            },
          ],
        },
      ],
    },
    {
      code: 'ctx.db.all(`SELECT * FROM t WHERE a = ? LIMIT ${n}`, a);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'all', expr: 'n' },
          column: 12,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "ctx.db.all('SELECT * FROM t WHERE a = ? LIMIT ?', a, n);",
            },
          ],
        },
      ],
    },
    // A table or column name cannot become a parameter: no suggestion.
    {
      code: 'ctx.db.all(`SELECT * FROM ${table} ORDER BY id`);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'all', expr: 'table' },
          column: 12,
          suggestions: [],
        },
      ],
    },
    {
      code: 'ctx.db.run(`UPDATE contacts SET ${assignments} WHERE id = ?`, id);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'run', expr: 'assignments' },
          column: 12,
          suggestions: [],
        },
      ],
    },
    // Named parameters cannot be mixed with positional ones.
    {
      code: 'ctx.db.one(`SELECT * FROM t WHERE a = @a AND b = ${b}`, { a });',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'one', expr: 'b' },
          column: 12,
          suggestions: [],
        },
      ],
    },
    // Through a variable, including later appends.
    {
      code: 'const sql = `SELECT * FROM t WHERE id = ${id}`; ctx.db.one(sql);',
      errors: [
        {
          messageId: 'builtElsewhere',
          data: { name: 'sql', method: 'one', expr: 'id' },
          column: 60,
        },
      ],
    },
    {
      code: 'let sql = "SELECT * FROM t WHERE 1"; if (x) sql += " AND x = " + x; ctx.db.all(sql);',
      errors: [
        {
          messageId: 'builtElsewhere',
          data: { name: 'sql', method: 'all', expr: 'x' },
          column: 80,
        },
      ],
    },
    {
      code: 'let sql = "SELECT * FROM t"; sql += where; ctx.db.all(sql);',
      errors: [
        {
          messageId: 'builtElsewhere',
          data: { name: 'sql', method: 'all', expr: 'where' },
          column: 55,
        },
      ],
    },
    // Other ways of reaching ctx.db.
    {
      code: 'const { db } = ctx; db.one(`SELECT ${x}`);',
      errors: [{ messageId: 'interpolated', data: { method: 'one', expr: 'x' }, column: 28 }],
    },
    {
      code: 'const store = ctx.db; store.all(`SELECT * FROM t WHERE a = ${a}`);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'all', expr: 'a' },
          column: 33,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "const store = ctx.db; store.all('SELECT * FROM t WHERE a = ?', a);",
            },
          ],
        },
      ],
    },
    {
      code: 'ctx.worlds.payments.db.one(`SELECT * FROM charges WHERE id = ${id}`);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'one', expr: 'id' },
          column: 28,
          suggestions: [
            {
              messageId: 'useParameters',
              output: "ctx.worlds.payments.db.one('SELECT * FROM charges WHERE id = ?', id);",
            },
          ],
        },
      ],
    },
    {
      code: 'ctx.db["all"](`SELECT * FROM t WHERE a = ${a} ORDER BY a`);',
      errors: [
        {
          messageId: 'interpolated',
          data: { method: 'all', expr: 'a' },
          column: 15,
          suggestions: [
            {
              messageId: 'useParameters',
              output: 'ctx.db["all"](\'SELECT * FROM t WHERE a = ? ORDER BY a\', a);',
            },
          ],
        },
      ],
    },
    // A local named like a literal-typed parameter but untyped is not bounded.
    {
      code: 'function find(ctx, table) { return ctx.db.one(`SELECT * FROM ${table}`); }',
      errors: [{ messageId: 'interpolated', data: { method: 'one', expr: 'table' }, column: 47 }],
    },
    // Without type information, `keyof typeof` cannot be read as a literal union (typed.test.ts shows the typed case).
    {
      code: 'const T = { a: 1 } as const; function f(ctx: Ctx, t: keyof typeof T) { return ctx.db.one(`SELECT * FROM ${t}`); }',
      errors: [{ messageId: 'interpolated', data: { method: 'one', expr: 't' }, column: 90 }],
    },
  ],
});
