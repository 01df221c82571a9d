/**
 * The schema check: STRICT tables with explicit primary keys, no time or randomness where stock SQLite refuses it
 * (generated columns, expression and partial indexes, CHECK constraints), and no `'localtime'`. The kit's SQL
 * overrides make `'now'` replay in defaults and triggers, so those are fine; in the places above, a fixture image
 * would not open with stock SQLite, and a row's validity would depend on when it is checked.
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { installSqlOverrides } from '../../core/sql-overrides.ts';
import { Stream } from '../../core/random.ts';
import { KIT_DDL, KIT_PREFIX } from '../../core/schema.ts';
import type { World } from '../../core/world.ts';
import { finding, type Finding, type Location } from './codes.ts';
import { escapeRegExp, positionOf, worldFiles } from './locate.ts';
import type { Check } from './check.ts';
import { clockOrRandom, closing, dateCalls, tokenize, type Token } from '../../core/sql-tokens.ts';

interface SchemaObject {
  type: 'table' | 'index' | 'view' | 'trigger';
  name: string;
  sql: string;
}

/** The objects a schema creates, as SQLite stores them. */
function schemaObjects(world: World): SchemaObject[] {
  const db = new Database(':memory:');
  try {
    const stream = new Stream('seahaven-check');
    installSqlOverrides(
      db,
      () => world.epoch,
      () => stream,
    );
    db.exec(KIT_DDL);
    db.exec(world.schema);
    return db
      .prepare(
        `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE '${KIT_PREFIX}%' ORDER BY rowid`,
      )
      .all() as SchemaObject[];
  } finally {
    db.close();
  }
}

/** Where the schema text lives: a .sql file of the world's folder holding it, and the line it starts on. */
function schemaSource(schema: string, folder: string | null): { file?: string; firstLine: number } {
  if (folder !== null) {
    for (const file of worldFiles(folder, ['.sql'])) {
      const text = readFileSync(file, 'utf8');
      const at = text.indexOf(schema.trim());
      if (at !== -1) return { file, firstLine: positionOf(text, at).line };
    }
  }
  return { firstLine: 1 };
}

export function checkSchema(world: World, folder: string | null, mount?: string): Finding[] {
  const out: Finding[] = [];
  const prefix = mount ? `mount ${mount}: ` : '';
  const source = schemaSource(world.schema, mount ? null : folder);
  const schemaText = world.schema.trim();
  const where = (
    object: string,
    objectName: string | null,
    sql: string | null,
    offset: number,
  ): Location => {
    const loc: Location = { object: prefix + object };
    let at = -1;
    if (objectName !== null) {
      const m = new RegExp(
        `CREATE\\s+(?:UNIQUE\\s+)?(?:TEMP\\w*\\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?["\`[]?${escapeRegExp(objectName)}\\b`,
        'i',
      ).exec(schemaText);
      if (m) at = m.index;
    } else {
      at = offset;
    }
    if (at === -1) return { file: source.file, ...loc };
    const extra =
      objectName !== null && sql !== null ? sql.slice(0, offset).split('\n').length - 1 : 0;
    const line = source.firstLine + positionOf(schemaText, at).line - 1 + extra;
    return source.file ? { file: source.file, line, ...loc } : { ...loc, line };
  };

  for (const t of world.tables) {
    if (!t.strict)
      out.push(
        finding(
          'SH101',
          `Table "${t.name}" is not STRICT, so SQLite does not enforce its column types.`,
          { location: where(`table ${t.name}`, t.name, null, 0) },
        ),
      );
    if (t.pk.length === 0)
      out.push(
        finding(
          'SH102',
          `Table "${t.name}" has no explicit PRIMARY KEY, so its changes cannot name their rows.`,
          { location: where(`table ${t.name}`, t.name, null, 0) },
        ),
      );
  }

  for (const obj of schemaObjects(world)) {
    const tokens = tokenize(obj.sql);
    if (obj.type === 'table') {
      const open = tokens.findIndex((tk) => tk.value === '(' && tk.kind === 'punct');
      if (open === -1) continue;
      const close = closing(tokens, open);
      let column = '';
      let atColumnStart = true;
      let depth = 0;
      for (let i = open + 1; i < close; i++) {
        const tk = tokens[i];
        if (tk.kind === 'punct' && tk.value === '(') depth++;
        if (tk.kind === 'punct' && tk.value === ')') depth--;
        if (depth === 0 && tk.kind === 'punct' && tk.value === ',') {
          atColumnStart = true;
          continue;
        }
        if (atColumnStart) {
          column = tk.raw;
          atColumnStart = false;
        }
        const next = tokens[i + 1];
        if (
          depth !== 0 ||
          tk.kind !== 'word' ||
          next?.value !== '(' ||
          (tk.value !== 'CHECK' && tk.value !== 'AS')
        )
          continue;
        const found = clockOrRandom(tokens, i + 2, closing(tokens, i + 1));
        if (!found) continue;
        const location = where(`table ${obj.name}`, obj.name, obj.sql, found.at);
        if (tk.value === 'CHECK') {
          out.push(
            finding(
              'SH105',
              `A CHECK constraint of table "${obj.name}" uses ${found.what}, so whether a row is valid depends on when it is written (and stock SQLite refuses 'now' there).`,
              { location },
            ),
          );
        } else {
          out.push(
            finding(
              'SH103',
              `Generated column "${obj.name}.${column}" uses ${found.what}; stock SQLite refuses time and randomness in generated columns.`,
              { location },
            ),
          );
        }
      }
    } else if (obj.type === 'index') {
      const on = tokens.findIndex((tk) => tk.kind === 'word' && tk.value === 'ON');
      const open = tokens.findIndex((tk, i) => i > on && tk.kind === 'punct' && tk.value === '(');
      if (on === -1 || open === -1) continue;
      const close = closing(tokens, open);
      const inList = clockOrRandom(tokens, open + 1, close);
      const whereAt = tokens.findIndex(
        (tk, i) => i > close && tk.kind === 'word' && tk.value === 'WHERE',
      );
      const inWhere = whereAt === -1 ? null : clockOrRandom(tokens, whereAt + 1, tokens.length);
      const found = inList ?? inWhere;
      if (found) {
        const part = inList ? 'an indexed expression' : 'its WHERE clause';
        out.push(
          finding(
            'SH104',
            `Index "${obj.name}" uses ${found.what} in ${part}; stock SQLite refuses time and randomness in indexes, and the index would depend on when rows were written.`,
            { location: where(`index ${obj.name}`, obj.name, obj.sql, found.at) },
          ),
        );
      }
    }
  }

  // 'localtime' anywhere, and a 'utc' modifier of a date function, read the host's time zone.
  const all = tokenize(schemaText);
  const zoned = new Set<Token>(
    all.filter((tk) => tk.kind === 'string' && tk.value.toLowerCase() === 'localtime'),
  );
  for (const call of dateCalls(all)) {
    for (const [from, to] of call.args)
      for (let i = from; i < to; i++)
        if (all[i].kind === 'string' && all[i].value.toLowerCase() === 'utc') zoned.add(all[i]);
  }
  for (const tk of [...zoned].sort((a, b) => a.at - b.at)) {
    out.push(
      finding(
        'SH106',
        `The schema uses the '${tk.value}' modifier, which reads the host's time zone, so stored times differ between machines.`,
        { location: where('schema', null, null, tk.at) },
      ),
    );
  }
  return out;
}

export const schemaCheck: Check = {
  name: 'schema',
  description:
    'STRICT tables with primary keys; no time or randomness in generated columns, indexes or CHECK constraints; no local time',
  run(target) {
    if (!target.world) return [];
    const out = checkSchema(target.world, target.folder);
    for (const [mount, m] of Object.entries(target.world.mounts))
      out.push(...checkSchema(m.world, null, mount));
    return out;
  },
};
