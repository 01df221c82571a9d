/**
 * The runs database: one SQLite file holding every curriculum run of a server (all its worlds), so a training run
 * survives a restart. Tables are prefixed `curriculum_`; each run keeps the resolved definition it started with.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../../core/sqlite.ts';
import { CurriculumError } from './errors.ts';

export type { Db };

/** Where runs are kept unless told otherwise, relative to the working directory. */
export const DEFAULT_RUNS_PATH = '.data/curricula.sqlite';

const FORMAT = '1';

const DDL = `
CREATE TABLE IF NOT EXISTS curriculum_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS curriculum_runs (
  world TEXT NOT NULL,
  curriculum TEXT NOT NULL,
  run_id TEXT NOT NULL,
  definition TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  stage INTEGER NOT NULL,
  entries INTEGER NOT NULL,
  stage_picks INTEGER NOT NULL,
  gate_outcomes INTEGER NOT NULL,
  episodes INTEGER NOT NULL,
  outcomes INTEGER NOT NULL,
  mastered INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id)
) STRICT;
CREATE TABLE IF NOT EXISTS curriculum_episodes (
  world TEXT NOT NULL,
  curriculum TEXT NOT NULL,
  run_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  task TEXT NOT NULL,
  stage INTEGER NOT NULL,
  at_stage INTEGER NOT NULL,
  entry INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  reward REAL,
  passed INTEGER,
  outcome INTEGER,
  PRIMARY KEY (world, curriculum, run_id, episode)
) STRICT;
CREATE INDEX IF NOT EXISTS curriculum_episodes_gate ON curriculum_episodes (world, curriculum, run_id, entry, kind, outcome);
CREATE TABLE IF NOT EXISTS curriculum_transitions (
  world TEXT NOT NULL,
  curriculum TEXT NOT NULL,
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  from_stage INTEGER NOT NULL,
  to_stage INTEGER NOT NULL,
  episode INTEGER NOT NULL,
  outcome INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id, seq)
) STRICT;
`;

/** A row of `curriculum_runs`. */
export interface RunRow {
  world: string;
  curriculum: string;
  run_id: string;
  definition: string;
  fingerprint: string;
  stage: number;
  entries: number;
  stage_picks: number;
  /** Outcomes of current-stage episodes recorded since the run entered its stage: what promotion counts. */
  gate_outcomes: number;
  episodes: number;
  outcomes: number;
  mastered: number;
}

/** A row of `curriculum_episodes`. */
export interface EpisodeRow {
  world: string;
  curriculum: string;
  run_id: string;
  episode: number;
  task: string;
  stage: number;
  at_stage: number;
  entry: number;
  kind: 'current' | 'review';
  status: 'pending' | 'recorded' | 'abandoned';
  reward: number | null;
  passed: number | null;
  outcome: number | null;
}

/** A row of `curriculum_transitions`. */
export interface TransitionRow {
  seq: number;
  kind: 'promote' | 'demote' | 'master';
  from_stage: number;
  to_stage: number;
  episode: number;
  outcome: number;
}

/**
 * Open (creating if needed) the runs database at `path`; `:memory:` keeps it in memory.
 * @example
 * const db = openRunsDb('.data/curricula.sqlite');
 */
export function openRunsDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(DDL);
    const format = db
      .prepare('SELECT value FROM curriculum_meta WHERE key = ?')
      .pluck()
      .get('format') as string | undefined;
    if (format === undefined)
      db.prepare('INSERT INTO curriculum_meta (key, value) VALUES (?, ?)').run('format', FORMAT);
    else if (format !== FORMAT)
      throw new CurriculumError(
        'unsupported_format',
        `${path} holds curriculum runs in format ${format}, which this version (format ${FORMAT}) cannot read; point the server at another file`,
      );
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Open an existing runs database read-only (for reports); refuses a file without curriculum tables.
 * @example
 * const report = readProgress(openRunsDbReadonly('.data/curricula.sqlite'), 'crm', 'crm-basics', 'run-1');
 */
export function openRunsDbReadonly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const has = db
    .prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'curriculum_runs'")
    .pluck()
    .get() as number;
  if (has === 0) {
    db.close();
    throw new CurriculumError(
      'not_a_runs_db',
      `${path} holds no curriculum runs; pass the file the server writes (default ${DEFAULT_RUNS_PATH})`,
    );
  }
  return db;
}
