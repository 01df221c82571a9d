import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import noLocaleFormat from './no-locale-format.ts';
import noSqlInterpolation from './no-sql-interpolation.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });

// With type information, rules refine what they can only guess syntactically.
const typed = new RuleTester({
  languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: fileURLToPath(new URL('./test-fixtures/typed/', import.meta.url)) } },
});

typed.run('no-sql-interpolation (typed)', noSqlInterpolation, {
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
      errors: [{ messageId: 'interpolated', suggestions: [] }],
    },
  ],
});

typed.run('no-locale-format (typed)', noLocaleFormat, {
  valid: ['export function f(n: number) { return n.toLocaleString("en-US"); }'],
  invalid: [
    {
      code: 'export function f(d: Date) { return d.toLocaleString("en-US"); }',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `export function f(d: Date) { return d.toLocaleString("en-US", { timeZone: 'UTC' }); }` }] }],
    },
  ],
});
