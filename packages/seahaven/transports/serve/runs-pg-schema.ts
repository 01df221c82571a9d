/**
 * The tables and shared statements of the PostgreSQL runs database (`runs-store-pg.ts`): the same tables as the SQLite
 * runs file, and the lock on a run's row that serializes its steps across every server.
 */
import type { PoolClient } from 'pg';
import type { RunRow } from '../../libraries/curricula/store.ts';

export const FORMAT = '1';
// Any constant: serializes the schema set-up of servers starting together.
export const SCHEMA_LOCK = 0x5ea4a7e;

export const DDL = `
CREATE TABLE IF NOT EXISTS curriculum_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS curriculum_runs (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, definition TEXT NOT NULL, fingerprint TEXT NOT NULL,
  stage INTEGER NOT NULL, entries INTEGER NOT NULL, stage_picks INTEGER NOT NULL, gate_outcomes INTEGER NOT NULL,
  episodes INTEGER NOT NULL, outcomes INTEGER NOT NULL, mastered INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id)
);
CREATE TABLE IF NOT EXISTS curriculum_episodes (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, episode INTEGER NOT NULL, task TEXT NOT NULL,
  stage INTEGER NOT NULL, at_stage INTEGER NOT NULL, entry INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
  reward DOUBLE PRECISION, passed INTEGER, outcome INTEGER, owner TEXT,
  PRIMARY KEY (world, curriculum, run_id, episode)
);
CREATE INDEX IF NOT EXISTS curriculum_episodes_gate ON curriculum_episodes (world, curriculum, run_id, entry, kind, outcome);
CREATE INDEX IF NOT EXISTS curriculum_episodes_pending ON curriculum_episodes (owner) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS curriculum_transitions (
  world TEXT NOT NULL, curriculum TEXT NOT NULL, run_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  from_stage INTEGER NOT NULL, to_stage INTEGER NOT NULL, episode INTEGER NOT NULL, outcome INTEGER NOT NULL,
  PRIMARY KEY (world, curriculum, run_id, seq)
);
CREATE TABLE IF NOT EXISTS curriculum_servers (
  server TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(), seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
`;

export const KEY = 'world = $1 AND curriculum = $2 AND run_id = $3';

/** A pending episode, issued by server `$11`. */
export const INSERT_EPISODE =
  'INSERT INTO curriculum_episodes (world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)';

/** The run's row, locked until the transaction ends (`SELECT … FOR UPDATE`); `undefined` when there is no such run. */
export async function lockRun(
  c: PoolClient,
  world: string,
  curriculum: string,
  runId: string,
): Promise<RunRow | undefined> {
  return (
    await c.query(`SELECT * FROM curriculum_runs WHERE ${KEY} FOR UPDATE`, [
      world,
      curriculum,
      runId,
    ])
  ).rows[0] as RunRow | undefined;
}

/**
 * Every row of a run (and its curriculum's runs), read in one snapshot: the transaction is made repeatable-read and
 * read-only first, so call it first thing in one.
 */
export async function readRunSnapshot(
  c: PoolClient,
  w: string,
  curriculum: string,
  runId: string,
): Promise<{
  runs: Record<string, unknown>[];
  episodes: Record<string, unknown>[];
  transitions: Record<string, unknown>[];
}> {
  await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const runs = (
    await c.query(
      'SELECT world, curriculum, run_id, definition, fingerprint, stage, entries, stage_picks, gate_outcomes, episodes, outcomes, mastered FROM curriculum_runs WHERE world = $1 AND curriculum = $2',
      [w, curriculum],
    )
  ).rows;
  const episodes = (
    await c.query(
      `SELECT world, curriculum, run_id, episode, task, stage, at_stage, entry, kind, status, reward, passed, outcome FROM curriculum_episodes WHERE ${KEY}`,
      [w, curriculum, runId],
    )
  ).rows;
  const transitions = (
    await c.query(
      `SELECT world, curriculum, run_id, seq, kind, from_stage, to_stage, episode, outcome FROM curriculum_transitions WHERE ${KEY}`,
      [w, curriculum, runId],
    )
  ).rows;
  return { runs, episodes, transitions };
}
