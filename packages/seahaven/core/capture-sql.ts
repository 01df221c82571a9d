/**
 * The SQL side of change capture: the triggers that report every written row of a tracked table, and reading whole
 * rows back by primary key. The triggers' short bodies hand only the row's key to a JS function (`CAPTURE_FN`); short
 * bodies keep the schema cheap to parse, which is most of a reset. What the JS side does with the keys: capture.ts.
 */
import type { Statement } from 'better-sqlite3';
import { quoteIdent, type TableInfo } from './schema.ts';
import type { Db } from './sqlite.ts';

export const CAPTURE_FN = '__seahaven_capture';
export const TRIGGER_PREFIX = '__seahaven_t';

/**
 * The DDL that arms capture on `tables`; table numbers are positions in that array. A delete passes `-1 - table` so
 * the capture function can tell it from an insert (both pass one key).
 */
export function captureTriggersSql(tables: readonly TableInfo[]): string {
  let sql = '';
  tables.forEach((t, i) => {
    const q = quoteIdent(t.name);
    const key = (row: string) => t.pk.map((c) => `${row}.${quoteIdent(c)}`).join(', ');
    const name = (op: string) => quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`);
    sql += `CREATE TRIGGER ${name('i')} AFTER INSERT ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${key('NEW')}); END;\n`;
    sql += `CREATE TRIGGER ${name('u')} AFTER UPDATE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${i}, ${key('OLD')}, ${key('NEW')}); END;\n`;
    sql += `CREATE TRIGGER ${name('d')} AFTER DELETE ON ${q} BEGIN SELECT ${CAPTURE_FN}(${-1 - i}, ${key('OLD')}); END;\n`;
  });
  return sql;
}

/** DDL that removes the capture triggers (used before a fixture image is frozen). */
export function dropCaptureTriggersSql(tables: readonly TableInfo[]): string {
  return tables
    .flatMap((t) =>
      ['i', 'u', 'd'].map(
        (op) => `DROP TRIGGER IF EXISTS ${quoteIdent(`${TRIGGER_PREFIX}${op}_${t.name}`)};`,
      ),
    )
    .join('\n');
}

/** Reads whole rows by primary key from one connection, with statements prepared on first use. */
export class RowReader {
  private readonly db: Db;
  private readonly statements: (Statement | undefined)[] = [];
  private readonly tables: readonly TableInfo[];
  constructor(db: Db, tables: readonly TableInfo[]) {
    this.db = db;
    this.tables = tables;
  }
  /** The row's values in column order, or null when no row has that key. */
  read(tableNo: number, key: readonly unknown[]): unknown[] | null {
    let stmt = this.statements[tableNo];
    if (stmt === undefined) {
      const t = this.tables[tableNo];
      const where = t.pk.map((c) => `${quoteIdent(c)} IS ?`).join(' AND ');
      stmt = this.db
        .prepare(
          `SELECT ${t.columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(t.name)} WHERE ${where}`,
        )
        .raw(true)
        .safeIntegers(true);
      this.statements[tableNo] = stmt;
    }
    return (stmt.get(...(key as never[])) as unknown[] | undefined) ?? null;
  }
}
