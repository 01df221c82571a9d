/** Schema introspection: the tracked tables of a database, their columns and primary keys, and the schema hash. */
import { createHash } from 'node:crypto';
import type { Db } from './sqlite.ts';

/** Tables the kit keeps for itself; never tracked, never part of the schema hash. */
export const KIT_PREFIX = '__seahaven';
export const SEQ_TABLE = '__seahaven_seq';
export const KIT_DDL = `CREATE TABLE IF NOT EXISTS ${SEQ_TABLE} (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT`;

export interface TableInfo {
  name: string;
  columns: string[];
  /** Primary-key column names, in key order. */
  pk: string[];
  /** Positions of the primary-key columns within `columns`. */
  pkIndex: number[];
  strict: boolean;
}

/** Read the user tables of `db` (main schema), sorted by name. */
export function readTables(db: Db): TableInfo[] {
  const list = db.prepare(`PRAGMA main.table_list`).all() as {
    schema: string;
    name: string;
    type: string;
    strict: number;
  }[];
  const out: TableInfo[] = [];
  for (const t of list) {
    if (
      t.schema !== 'main' ||
      t.type !== 'table' ||
      t.name.startsWith('sqlite_') ||
      t.name.startsWith(KIT_PREFIX)
    )
      continue;
    const cols = db.prepare(`PRAGMA main.table_info(${quoteIdent(t.name)})`).all() as {
      name: string;
      pk: number;
    }[];
    const columns = cols.map((c) => c.name);
    const pkCols = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    out.push({
      name: t.name,
      columns,
      pk: pkCols,
      pkIndex: pkCols.map((c) => columns.indexOf(c)),
      strict: t.strict === 1,
    });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Quote an identifier for SQL text. */
export function quoteIdent(name: string): string {
  return '"' + name.replaceAll('"', '""') + '"';
}

/** sha256 of the user schema as SQLite stores it (kit tables and triggers excluded), in a stable order. */
export function schemaHash(db: Db): string {
  const rows = db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM main.sqlite_schema WHERE name NOT LIKE '${KIT_PREFIX}%' AND name NOT LIKE 'sqlite_%' ORDER BY type, name`,
    )
    .all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  const h = createHash('sha256');
  for (const r of rows) h.update(`${r.type}\0${r.name}\0${r.tbl_name}\0${r.sql ?? ''}\n`);
  return h.digest('hex');
}
