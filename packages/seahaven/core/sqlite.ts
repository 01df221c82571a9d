/** The better-sqlite3 connection type, named once for every module of the kit that passes connections around. */
import type Database from 'better-sqlite3';

/** An open better-sqlite3 connection. */
export type Db = Database.Database;
