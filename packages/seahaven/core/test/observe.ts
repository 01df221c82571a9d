/** Everything observable about an episode, for tests that hold two episodes to each other (restart, recycled connections). */
import type { Instance } from '../instance.ts';

/** The history, the state document, every row of every table, SQL's counters and its next random number. */
export function observe(inst: Instance): unknown {
  const tables = inst.query<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  );
  return {
    changes: inst.changes(),
    changeLog: inst.changeLog(),
    callLog: inst.callLog(),
    state: inst.state(),
    rows: tables.map((t) => inst.query(`SELECT * FROM "${t.name}" ORDER BY rowid`)),
    counters: inst.query('SELECT last_insert_rowid() AS last, changes() AS n'),
    random: inst.query('SELECT random() AS r'),
  };
}
