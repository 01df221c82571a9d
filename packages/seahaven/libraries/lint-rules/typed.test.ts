import noLocaleFormat from './no-locale-format.ts';
import noSqlInterpolation from './no-sql-interpolation.ts';
import { testRule } from './test-helpers.ts';

// With type information, rules refine what they can only guess syntactically.
testRule(
  'no-sql-interpolation (typed)',
  noSqlInterpolation,
  {
    valid: [
      // The type of `table` is a union of literals even though no annotation says so here.
      `const TABLES = { contacts: 1, deals: 2 } as const;
     declare const ctx: { db: { one(sql: string, ...p: unknown[]): unknown } };
     export function find(table: keyof typeof TABLES, id: string) { return ctx.db.one(\`SELECT * FROM \${table} WHERE id = ?\`, id); }`,
    ],
    invalid: [
      {
        code: `declare const ctx: { db: { one(sql: string, ...p: unknown[]): unknown } };
       export function find(table: string, id: string) { return ctx.db.one(\`SELECT * FROM \${table} WHERE id = ?\`, id); }`,
        errors: [
          {
            messageId: 'interpolated',
            data: { method: 'one', expr: 'table' },
            line: 2,
            column: 76,
            suggestions: [],
          },
        ],
      },
    ],
  },
  { types: true },
);

testRule(
  'no-locale-format (typed)',
  noLocaleFormat,
  {
    valid: ['export function f(n: number) { return n.toLocaleString("en-US"); }'],
    invalid: [
      {
        code: 'export function f(d: Date) { return d.toLocaleString("en-US"); }',
        errors: [
          {
            messageId: 'missingTimeZone',
            data: { name: 'toLocaleString()' },
            column: 37,
            suggestions: [
              {
                messageId: 'addLocale',
                data: { args: `"en-US", { timeZone: 'UTC' }` },
                output: `export function f(d: Date) { return d.toLocaleString("en-US", { timeZone: 'UTC' }); }`,
              },
            ],
          },
        ],
      },
    ],
  },
  { types: true },
);
