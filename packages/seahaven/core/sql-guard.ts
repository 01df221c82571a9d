/**
 * Statements world code may not run through `ctx.db`: those that end, begin or step outside the call's transaction
 * (which the kit opens, commits and rolls back), and PRAGMAs that change how the connection or the database behaves
 * for every later call. They are refused before SQLite compiles them: some PRAGMAs act as soon as they are prepared.
 * Statements are prepared once per connection and cached, so the check runs once per SQL text.
 */
import { tokenize, type Token } from './sql-tokens.ts';

/** A statement world code may not run; the message names the statement, why, and what to do instead. */
export class RefusedStatement extends Error {
  constructor(sql: string, why: string) {
    super(
      `ctx.db refused ${JSON.stringify(sql.length > 200 ? sql.slice(0, 200) + '…' : sql)}: ${why}`,
    );
    this.name = 'RefusedStatement';
  }
}

const TRANSACTION =
  'each tool call runs in one transaction that the kit begins, commits and rolls back, and its changes are recorded from it; world code cannot begin, end or step outside it. Throw ToolError to fail the call (everything it wrote is rolled back), or use ctx.db.transaction(fn) for a part that may roll back on its own.';

/** Why a statement starting with this keyword is refused. */
const REFUSED = new Map<string, string>([
  ['BEGIN', TRANSACTION],
  ['COMMIT', TRANSACTION],
  ['END', TRANSACTION],
  ['ROLLBACK', TRANSACTION],
  ['SAVEPOINT', TRANSACTION],
  ['RELEASE', TRANSACTION],
  [
    'ATTACH',
    'a tool works on its own instance database only; to use another world, compose it with defineWorld({ worlds: { … } }) and reach it through ctx.worlds.',
  ],
  [
    'DETACH',
    'a tool works on its own instance database only; a composed world is reached through ctx.worlds.',
  ],
  [
    'VACUUM',
    'VACUUM rebuilds the database outside any transaction (VACUUM INTO writes a file); world code cannot run it.',
  ],
]);

/** PRAGMAs that only report and may be run with an argument (`PRAGMA table_info(contacts)`). */
const INTROSPECTION = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_info',
  'index_xinfo',
  'index_list',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
  'collation_list',
  'function_list',
  'module_list',
  'pragma_list',
  'database_list',
  'compile_options',
]);

/** PRAGMAs that act even without an argument. */
const ACTING = new Set(['optimize', 'shrink_memory', 'wal_checkpoint', 'incremental_vacuum']);

/** Keywords a refused statement can start with; SQL that contains none of them needs no closer look. */
const SUSPECT = /\b(?:BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|ATTACH|DETACH|VACUUM|PRAGMA)\b/i;

/** The first statement's tokens, after leading semicolons and `EXPLAIN [QUERY PLAN]` (SQLite compiles what follows it). */
function firstStatement(tokens: Token[]): Token[] {
  let i = 0;
  while (tokens[i]?.kind === 'punct' && tokens[i].value === ';') i++;
  if (tokens[i]?.kind === 'word' && tokens[i].value === 'EXPLAIN') {
    i++;
    if (tokens[i]?.value === 'QUERY' && tokens[i + 1]?.value === 'PLAN') i += 2;
  }
  return tokens.slice(i);
}

function pragmaRefusal(tokens: Token[]): string | null {
  // PRAGMA [schema .] name [= value | (value)]
  let i = 1;
  if (tokens[i + 1]?.kind === 'punct' && tokens[i + 1].value === '.') i += 2;
  const name = (tokens[i]?.value ?? '').toLowerCase();
  if (INTROSPECTION.has(name)) return null;
  const next = tokens[i + 1];
  const sets = next?.kind === 'punct' && (next.value === '=' || next.value === '(');
  if (!sets && !ACTING.has(name)) return null;
  return `PRAGMA ${name} ${sets ? 'with a value changes' : 'changes'} how the database or connection works for every later call, outside the call's transaction and its change log. World code may read a PRAGMA (PRAGMA ${name}) and use the reporting ones (PRAGMA table_info(t), foreign_key_list, index_list, …); settings belong to the kit, and the schema's own rules (constraints, triggers) to schema.sql.`;
}

/** Why world code may not run `sql`, or null when it may. */
export function refusalOf(sql: string): string | null {
  if (!SUSPECT.test(sql)) return null;
  const tokens = firstStatement(tokenize(sql));
  const head = tokens[0];
  if (head === undefined || head.kind !== 'word') return null;
  if (head.value === 'PRAGMA') return pragmaRefusal(tokens);
  return REFUSED.get(head.value) ?? null;
}
