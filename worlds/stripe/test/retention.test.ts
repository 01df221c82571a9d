import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Ctx } from 'seahaven';
import { EVENT_RETENTION, PRUNE_BATCH, PRUNE_CHUNK, pruneEvents } from '../lib/retention.ts';

// Event retention deletes expired events a hundred per statement, pausing between statements, and leaves the same
// database bytes as deleting each batch of the oldest events in one statement (what fixture images were built with).

const NOW = 1_800_000_000;

/** A database with Stripe World's events table and `n` events in a mixed order: ids, rowids and times all disagree. */
function withEvents(n: number): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE events (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, created INTEGER NOT NULL, data TEXT NOT NULL, type TEXT, object_id TEXT) STRICT;
    CREATE INDEX events_order ON events (created DESC, seq DESC);
    CREATE UNIQUE INDEX events_seq ON events (seq);
    CREATE INDEX events_type ON events (type);
    CREATE INDEX events_object_id ON events (object_id);`);
  const insert = db.prepare(
    'INSERT INTO events (id, seq, created, data, type, object_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      // Some events span overflow pages, as an invoice's snapshot does.
      const data = JSON.stringify({
        id: i,
        pad: 'x'.repeat(next() % 3 === 0 ? 6000 : 200 + (next() % 800)),
      });
      insert.run(
        `evt_${next().toString(36)}_${i}`,
        i,
        NOW - EVENT_RETENTION - 40 * 86_400 + (next() % (50 * 86_400)),
        data,
        `t${next() % 7}`,
        `obj_${next() % 500}`,
      );
    }
  })();
  return db;
}

function ctxOf(db: Database.Database): Ctx {
  return {
    db: {
      all: (sql: string, ...args: unknown[]) => db.prepare(sql).all(...args),
      run: (sql: string, ...args: unknown[]) => db.prepare(sql).run(...args),
    },
  } as unknown as Ctx;
}

describe('event retention', () => {
  it('deletes the expired events in statements of a hundred, leaving the bytes one statement per batch leaves', () => {
    const n = 3 * PRUNE_BATCH + 700;
    const reference = withEvents(n);
    const expired = (
      reference
        .prepare('SELECT count(*) AS c FROM events WHERE created < ?')
        .get(NOW - EVENT_RETENTION) as { c: number }
    ).c;
    expect(expired).toBeGreaterThan(PRUNE_BATCH * 2);
    reference.exec('BEGIN');
    const whole = reference.prepare(
      'DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created < ? ORDER BY created, seq LIMIT ?)',
    );
    while (whole.run(NOW - EVENT_RETENTION, PRUNE_BATCH).changes === PRUNE_BATCH);
    reference.exec('COMMIT');

    const chunked = withEvents(n);
    chunked.exec('BEGIN');
    const steps = pruneEvents(ctxOf(chunked), NOW);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    chunked.exec('COMMIT');
    expect(r.value).toBe(expired);
    expect(pauses).toBe(Math.ceil(expired / PRUNE_CHUNK) - 1);
    expect(
      (
        chunked
          .prepare('SELECT count(*) AS c FROM events WHERE created < ?')
          .get(NOW - EVENT_RETENTION) as { c: number }
      ).c,
    ).toBe(0);
    expect(Buffer.compare(chunked.serialize(), reference.serialize())).toBe(0);
  });
});
