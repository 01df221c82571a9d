import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineTool,
  defineWorld,
  z,
  type ChangeLogEntry,
  type Instance,
  type Row,
} from '../index.ts';

// A row's value after a call is read only when something needs it (capture.ts): a later call's first write to such a
// "live" row is undone, the row read, and the statement run again. These tests hold the history to what the tables
// show: after every call, its records must be exactly the rows that changed, with the values seen before and after it,
// whatever mix of inserts, updates, upserts, REPLACEs, deletes and key changes touched them, in calls that fail or not.

const schema = `
CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, n INTEGER NOT NULL DEFAULT 0) STRICT;
CREATE TABLE u (k TEXT PRIMARY KEY, v TEXT) STRICT;
`;

const batch = defineTool({
  name: 'batch',
  description: 'Run statements in order; a failing one fails the call.',
  input: z.object({
    steps: z.array(
      z.object({ sql: z.string(), params: z.array(z.union([z.string(), z.number(), z.null()])) }),
    ),
  }),
  run(ctx, { steps }) {
    for (const s of steps) ctx.db.run(s.sql, ...s.params);
    return steps.length;
  },
});
const randoms = defineTool({
  name: 'randoms',
  description: 'Two values of SQL random().',
  input: z.object({}),
  run: (ctx) => ctx.db.one<{ a: number; b: number }>('SELECT random() AS a, random() AS b'),
});

const plain = defineWorld({
  name: 'livehist',
  version: '1',
  schema,
  fixtures: {
    base: {
      description: 'A few rows to start from.',
      now: '2026-06-01T09:00:00.000Z',
      build: (ctx) => {
        ctx.db.run("INSERT INTO t (id, v) VALUES (1, 'one'), (2, 'two')");
        ctx.db.run("INSERT INTO u (k, v) VALUES ('a', 'A')");
      },
    },
  },
  tools: [batch, randoms],
});

// The same tables, but u replaces on a key conflict by itself: no statement says REPLACE.
const replacing = defineWorld({
  name: 'livehist_replacing',
  version: '1',
  schema: schema.replace('k TEXT PRIMARY KEY', 'k TEXT PRIMARY KEY ON CONFLICT REPLACE'),
  tools: [batch, randoms],
});

type Step = { sql: string; params: (string | number | null)[] };

const ids = fc.integer({ min: 1, max: 6 });
const keys = fc.constantFrom('a', 'b', 'c', 'd');
const text: fc.Arbitrary<string> = fc.constantFrom('x', 'y', 'zz', '');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc
    .tuple(ids, text)
    .map(([id, v]) => ({ sql: 'INSERT INTO t (id, v) VALUES (?, ?)', params: [id, v] })),
  fc
    .tuple(ids, text)
    .map(([id, v]) => ({ sql: 'INSERT OR IGNORE INTO t (id, v) VALUES (?, ?)', params: [id, v] })),
  fc
    .tuple(ids, text)
    .map(([id, v]) => ({ sql: 'INSERT OR REPLACE INTO t (id, v) VALUES (?, ?)', params: [id, v] })),
  fc.tuple(ids, text).map(([id, v]) => ({
    sql: 'INSERT INTO t (id, v) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET v = excluded.v, n = n + 1',
    params: [id, v],
  })),
  fc
    .tuple(ids, text)
    .map(([id, v]) => ({ sql: 'UPDATE t SET v = ? WHERE id = ?', params: [v, id] })),
  fc.constant<Step>({ sql: 'UPDATE t SET n = n + 1 WHERE id % 2 = 0', params: [] }),
  fc
    .tuple(ids, ids)
    .map(([to, from]) => ({ sql: 'UPDATE t SET id = ? WHERE id = ?', params: [to, from] })),
  ids.map((id) => ({ sql: 'UPDATE t SET v = hex(randomblob(3)) WHERE id = ?', params: [id] })),
  ids.map((id) => ({ sql: 'DELETE FROM t WHERE id = ?', params: [id] })),
  text.map((v) => ({ sql: 'INSERT INTO t (v) VALUES (?)', params: [v] })),
  fc
    .tuple(keys, text)
    .map(([k, v]) => ({ sql: 'INSERT INTO u (k, v) VALUES (?, ?)', params: [k, v] })),
  fc
    .tuple(keys, text)
    .map(([k, v]) => ({ sql: 'REPLACE INTO u (k, v) VALUES (?, ?)', params: [k, v] })),
  fc.tuple(keys, text).map(([k, v]) => ({ sql: 'UPDATE u SET v = ? WHERE k = ?', params: [v, k] })),
  keys.map((k) => ({ sql: 'DELETE FROM u WHERE k = ?', params: [k] })),
);
/** A call of the episode: statements to run, or a read of the history in between. */
const action = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(step, { minLength: 1, maxLength: 3 }).map((steps) => ({ steps })),
  },
  { weight: 1, arbitrary: fc.constant('read' as const) },
);

const PK: Record<string, string> = { t: 'id', u: 'k' };

/** Every row of both tables, by table and key. */
function snapshot(inst: Instance): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const table of ['t', 'u'])
    for (const row of inst.query(`SELECT * FROM ${table}`))
      out.set(`${table}:${String(row[PK[table]])}`, row);
  return out;
}

/** What `changeLog()` must hold for a call that took the tables from `before` to `after`, as its records are shaped. */
function expected(before: Map<string, Row>, after: Map<string, Row>): object[] {
  const out: object[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])]) {
    const [table] = name.split(':');
    const b = before.get(name);
    const a = after.get(name);
    const row = (b ?? a)!;
    const key = { [PK[table]]: row[PK[table]] };
    if (b === undefined) out.push({ table, op: 'insert', key, after: a });
    else if (a === undefined) out.push({ table, op: 'delete', key, before: b });
    else {
      const cols = Object.keys(b).filter((c) => c === PK[table] || b[c] !== a[c]);
      if (cols.length === 1) continue;
      out.push({
        table,
        op: 'update',
        key,
        before: Object.fromEntries(cols.map((c) => [c, b[c]])),
        after: Object.fromEntries(cols.map((c) => [c, a[c]])),
      });
    }
  }
  return out;
}

const sortRecords = (records: object[]) =>
  [...records].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
const callRecords = (log: ChangeLogEntry[], call: number) =>
  log.filter((e) => e.call === call).map(({ call: _c, tool: _t, ...r }) => r);

describe('the change history of rows read only when needed', () => {
  for (const world of [plain, replacing]) {
    it(`matches the tables after every call, whatever wrote them (${world.name})`, () => {
      fc.assert(
        fc.property(
          fc.array(action, { minLength: 1, maxLength: 25 }),
          fc.boolean(),
          (actions, fork) => {
            let inst =
              world === plain
                ? world.instance({ fixture: 'base', seed: 3 })
                : world.instance({ seed: 3 });
            const start = snapshot(inst);
            const perCall: object[][] = [];
            actions.forEach((a, i) => {
              if (a === 'read') {
                inst.changes();
                inst.changeLog();
                return;
              }
              if (fork && i === Math.floor(actions.length / 2)) inst = inst.fork();
              const before = snapshot(inst);
              const r = inst.call('batch', a);
              const after = snapshot(inst);
              if (!r.ok) expect(after).toEqual(before);
              perCall.push(r.ok ? expected(before, after) : []);
            });
            const log = inst.changeLog();
            perCall.forEach((records, i) =>
              expect(sortRecords(callRecords(log, i + 1))).toEqual(sortRecords(records)),
            );
            expect(sortRecords(inst.changes())).toEqual(
              sortRecords(expected(start, snapshot(inst))),
            );
          },
        ),
        { numRuns: 150, seed: 20261201 },
      );
    });
  }

  it('runs a statement that had to read a live row first from the same position of the SQL random stream', () => {
    // b settles table t first (an update of a live row), so its later update of a live row has nothing to read.
    const a = plain.instance({ fixture: 'base', seed: 5 });
    const b = plain.instance({ fixture: 'base', seed: 5 });
    const step = (sql: string, ...params: (string | number)[]) => ({ steps: [{ sql, params }] });
    expect(b.call('batch', step("INSERT INTO t (id, v) VALUES (8, 'q')")).ok).toBe(true);
    expect(b.call('batch', step("UPDATE t SET v = 'r' WHERE id = 8")).ok).toBe(true);
    for (const inst of [a, b]) {
      expect(inst.call('batch', step("INSERT INTO t (id, v) VALUES (9, 'p')")).ok).toBe(true);
      expect(inst.call('batch', step('UPDATE t SET v = hex(randomblob(8)) WHERE id = 9')).ok).toBe(
        true,
      );
    }
    expect(a.query('SELECT v FROM t WHERE id = 9')).toEqual(
      b.query('SELECT v FROM t WHERE id = 9'),
    );
    expect(a.call('randoms', {})).toEqual(b.call('randoms', {}));
    const updates = (inst: Instance) => inst.changeLog().filter((e) => e.key.id === 9);
    expect(updates(a).map((e) => [e.op, e.before?.v, e.after?.v])).toEqual(
      updates(b).map((e) => [e.op, e.before?.v, e.after?.v]),
    );
  });

  it('reads live rows of a sleeping store, and a replay in a fresh instance gives the same history', () => {
    const inst = plain.instance({ fixture: 'base', seed: 7 });
    const steps = [
      [{ sql: "INSERT INTO t (id, v) VALUES (5, 'five')", params: [] }],
      [
        { sql: "UPDATE t SET v = 'FIVE' WHERE id = 5", params: [] },
        { sql: "INSERT INTO u (k, v) VALUES ('z', 'Z')", params: [] },
      ],
      [{ sql: "DELETE FROM u WHERE k = 'z'", params: [] }],
    ];
    for (const s of steps) expect(inst.call('batch', { steps: s }).ok).toBe(true);
    const log = inst.changeLog();
    inst.hibernate();
    expect(inst.changeLog()).toEqual(log);
    const again = plain.instance({ fixture: 'base', seed: 7 });
    for (const c of inst.callLog()) again.call(c.tool, c.args);
    expect(again.changeLog()).toEqual(log);
    expect(again.changes()).toEqual(inst.changes());
  });
});
