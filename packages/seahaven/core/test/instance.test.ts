import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, DefinitionError, InstanceError, z } from '../index.ts';
import { kitWorld, schema, tools } from './test-world.ts';

const fresh = (seed = 0) => kitWorld.instance({ seed });
/** A world whose schema seeds one item 'z', so updates and deletes start from a pre-existing row. */
const seeded = (name: string) =>
  defineWorld({
    name,
    version: '1',
    schema:
      schema +
      "INSERT INTO items (id, label, qty, created_at, noise) VALUES ('z', 'z', 1, '2026-01-01 00:00:00', 0);",
    tools,
  });

describe('validation', () => {
  it('reports every violation at once, with paths', () => {
    const inst = fresh();
    const r = inst.call('nested', { name: 5, lines: [{ sku: 'a', qty: 0 }, { qty: 'x' }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_arguments');
    const paths = (r.error.details!.violations as { path: string }[]).map((v) => v.path).sort();
    expect(paths).toEqual(['lines[0].qty', 'lines[1].qty', 'lines[1].sku', 'name']);
  });

  it('refuses unknown keys, naming each', () => {
    const inst = fresh();
    const r = inst.call('add_item', { label: 'a', colour: 'red', size: 2 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect((r.error.details!.violations as { path: string }[]).map((v) => v.path).sort()).toEqual([
      'colour',
      'size',
    ]);
    expect(inst.changes()).toEqual([]);
  });

  it('answers unknown tools with the list of tools and logs the call unnumbered', () => {
    const inst = fresh();
    const r = inst.call('nope', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(!r.ok && r.error.message).toContain('add_item');
    inst.call('add_item', { label: 'a' });
    expect(inst.callLog().map((c) => c.index)).toEqual([undefined, 1]);
  });

  it('records arguments and results in their JSON form, so later changes to those objects leave the log alone', () => {
    const inst = fresh();
    const args = { label: 'a', qty: 2 };
    const r = inst.call('add_item', args);
    args.label = 'changed';
    if (r.ok) (r.result as { label: string }).label = 'changed too';
    inst.call('add_item', { label: 'b', colour: 'red' });
    const [first, refused] = inst.callLog();
    expect(first).toMatchObject({
      index: 1,
      tool: 'add_item',
      args: { label: 'a', qty: 2 },
      ok: true,
      result: { label: 'a' },
    });
    expect(refused).toMatchObject({
      tool: 'add_item',
      args: { label: 'b', colour: 'red' },
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(refused.index).toBeUndefined();
  });

  it('a tool result that is not JSON is a world bug: the call fails and writes nothing', () => {
    const lines: string[] = [];
    const world = defineWorld({
      name: 'not_json',
      version: '1',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'big',
          description: 'Write a row, then return a BigInt.',
          input: z.object({}),
          run: (ctx) => (ctx.db.run('INSERT INTO t (id) VALUES (1)'), { n: 1n }),
        }),
      ],
    });
    const inst = world.instance({ logger: (l) => lines.push(l) });
    const r = inst.call('big', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(lines.join('\n')).toContain('not JSON');
    expect(inst.changes()).toEqual([]);
    expect(inst.query('SELECT count(*) AS n FROM t')[0].n).toBe(0);
  });

  it('lists tools with JSON Schemas that refuse extra keys', () => {
    const listing = fresh().tools();
    expect(listing.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    const add = listing.find((t) => t.name === 'add_item')!;
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['label'],
    });
    expect(add.description).toBe('Add an item.');
  });
});

describe('transactions', () => {
  it('a tool that writes two rows then throws leaves no row behind', () => {
    const inst = fresh();
    const before = inst.query('SELECT count(*) AS n FROM owners');
    const r = inst.call('two_then_throw', {});
    expect(r).toEqual({
      ok: false,
      error: { code: 'refused', message: 'changed my mind', details: { why: 'test' } },
    });
    expect(inst.query('SELECT count(*) AS n FROM owners')).toEqual(before);
    expect(inst.changes()).toEqual([]);
    expect(inst.changeLog()).toEqual([]);
  });

  it('a failed call leaves the random streams where they were', () => {
    const a = fresh(5);
    const b = fresh(5);
    a.call('two_then_throw', {});
    expect(a.call('stamp', {})).toEqual(b.call('stamp', {}));
  });

  it('savepoint rollback inside a successful call keeps the outer writes', () => {
    const inst = fresh();
    const r = inst.call('savepoint_demo', {});
    expect(r).toEqual({ ok: true, result: [{ name: 'reference owner' }, { name: 'kept' }] });
    expect(inst.changes()).toEqual([
      { table: 'owners', op: 'insert', key: { id: 2 }, after: { id: 2, name: 'kept' } },
    ]);
  });

  it('a call whose first write is inside a savepoint still rolls back whole', () => {
    const world = defineWorld({
      name: 'sp_first',
      version: '1',
      schema,
      tools: [
        defineTool({
          name: 'nested_then_fail',
          description: 'Write in a savepoint, then fail.',
          input: z.object({}),
          run(ctx) {
            ctx.db.one('SELECT count(*) AS n FROM owners');
            ctx.db.transaction(() => ctx.db.run("INSERT INTO owners (name) VALUES ('inside')"));
            ctx.db.run("INSERT INTO owners (name) VALUES ('after')");
            throw new Error('fail after the savepoint');
          },
        }),
      ],
    });
    const inst = world.instance({ logger: () => undefined });
    expect(inst.call('nested_then_fail', {})).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
    expect(inst.query('SELECT name FROM owners ORDER BY id')).toEqual([
      { name: 'reference owner' },
    ]);
    expect(inst.changes()).toEqual([]);
  });

  it('an unexpected exception is an internal error with a deterministic id, logged with the stack', () => {
    const lines: string[] = [];
    const run = () => {
      const inst = kitWorld.instance({ seed: 9, logger: (l) => lines.push(l) });
      inst.call('add_item', { label: 'a' });
      return inst.call('two_then_throw', { agentFacing: false });
    };
    const r1 = run();
    const r2 = run();
    expect(r1).toMatchObject({ ok: false, error: { code: 'internal', message: 'internal error' } });
    expect(r1).toEqual(r2);
    const id = !r1.ok && (r1.error.details!.id as string);
    expect(lines[0]).toContain(id as string);
    expect(lines[0]).toContain('a bug in world code');
  });
});

describe('change capture', () => {
  it('insert then update folds to one insert of the final row', () => {
    const inst = fresh();
    const id = (inst.call('add_item', { label: 'a', qty: 1 }) as { result: { id: string } }).result
      .id;
    inst.call('set_qty', { id, qty: 7 });
    const items = inst.changes().filter((c) => c.table === 'items');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      op: 'insert',
      key: { id },
      after: { id, qty: 7, label: 'a' },
    });
    expect(items[0]).not.toHaveProperty('before');
  });

  it('insert then delete folds to nothing', () => {
    const inst = fresh();
    const id = (inst.call('add_item', { label: 'a' }) as { result: { id: string } }).result.id;
    inst.call('delete_item', { id });
    expect(inst.changes()).toEqual([]);
    expect(inst.changeLog().map((c) => c.op)).toEqual(['insert', 'delete']);
  });

  it('update then update folds to one update with the first before and last after, and vanishes when equal', () => {
    const s = seeded('seeded1').instance();
    s.call('set_qty', { id: 'z', qty: 2 });
    s.call('set_qty', { id: 'z', qty: 3 });
    const items = s.changes().filter((c) => c.table === 'items');
    expect(items).toEqual([
      {
        table: 'items',
        op: 'update',
        key: { id: 'z' },
        before: { id: 'z', qty: 1 },
        after: { id: 'z', qty: 3 },
      },
    ]);
    s.call('set_qty', { id: 'z', qty: 1 });
    expect(s.changes().filter((c) => c.table === 'items')).toEqual([]);
    // The audit trigger's rows are captured too.
    expect(s.changes().filter((c) => c.table === 'audit')).toHaveLength(3);
  });

  it('update then delete folds to a delete of the original row', () => {
    const s = seeded('seeded2').instance();
    s.call('set_qty', { id: 'z', qty: 5 });
    s.call('delete_item', { id: 'z' });
    const items = s.changes().filter((c) => c.table === 'items');
    expect(items).toEqual([
      {
        table: 'items',
        op: 'delete',
        key: { id: 'z' },
        before: {
          id: 'z',
          owner_id: null,
          label: 'z',
          qty: 1,
          big: null,
          ratio: null,
          blob: null,
          created_at: '2026-01-01 00:00:00',
          noise: 0,
        },
      },
    ]);
  });

  it('delete then insert folds to an update, or to nothing when identical', () => {
    const s = seeded('seeded3').instance();
    s.call('delete_item', { id: 'z' });
    s.call('put_item', { id: 'z', label: 'z', qty: 1 });
    expect(s.changes()).toEqual([]);
    s.call('delete_item', { id: 'z' });
    s.call('put_item', { id: 'z', label: 'new', qty: 1 });
    expect(s.changes()).toEqual([
      {
        table: 'items',
        op: 'update',
        key: { id: 'z' },
        before: { id: 'z', label: 'z' },
        after: { id: 'z', label: 'new' },
      },
    ]);
  });

  it('changeLog has one record per row per call, numbered like callLog', () => {
    const inst = fresh();
    inst.call('nope', {});
    const id = (inst.call('add_item', { label: 'a' }) as { result: { id: string } }).result.id;
    inst.call('set_qty', { id, qty: 4 });
    inst.call('set_qty', { id: 'missing', qty: 4 });
    const log = inst.changeLog();
    expect(log.map((c) => [c.call, c.tool, c.table, c.op])).toEqual([
      [1, 'add_item', 'items', 'insert'],
      [2, 'set_qty', 'audit', 'insert'],
      [2, 'set_qty', 'items', 'update'],
    ]);
    expect(inst.callLog().map((c) => [c.index, c.tool, c.ok])).toEqual([
      [undefined, 'nope', false],
      [1, 'add_item', true],
      [2, 'set_qty', true],
      [3, 'set_qty', false],
    ]);
    expect(inst.callCount).toBe(3);
  });

  it('FK cascades appear in the log', () => {
    const inst = fresh();
    inst.call('add_item', { label: 'a', owner_id: 1 });
    inst.call('add_item', { label: 'b', owner_id: 1 });
    inst.call('delete_owner', { id: 1 });
    const last = inst.changeLog().filter((c) => c.call === 3);
    expect(last.map((c) => [c.table, c.op])).toEqual([
      ['items', 'delete'],
      ['items', 'delete'],
      ['owners', 'delete'],
    ]);
    expect(inst.changes().map((c) => [c.table, c.op])).toEqual([['owners', 'delete']]);
  });

  it('composite keys fold and sort by their columns', () => {
    const inst = fresh();
    inst.call('pair', { a: 'b', b: 2, v: '1' });
    inst.call('pair', { a: 'a', b: 10, v: '1' });
    inst.call('pair', { a: 'a', b: 9, v: '1' });
    inst.call('pair', { a: 'a', b: 9, v: '2' });
    expect(inst.changes().map((c) => c.key)).toEqual([
      { a: 'a', b: 9 },
      { a: 'a', b: 10 },
      { a: 'b', b: 2 },
    ]);
    expect(inst.changes()[0].after).toMatchObject({ v: '2' });
  });

  it('an integer above 2^53 round-trips exactly', () => {
    const inst = fresh();
    const big = '9007199254740993';
    const r = inst.call('add_item', { label: 'big', big });
    expect(r.ok && (r.result as { big: unknown }).big).toBe(big);
    expect(inst.changes()[0].after!.big).toBe(big);
    expect(inst.query('SELECT big FROM items')[0].big).toBe(big);
    expect(inst.query('SELECT big + 1 AS n FROM items')[0].n).toBe('9007199254740994');
    expect(inst.query('SELECT 9007199254740991 AS n')[0].n).toBe(9007199254740991);
  });

  it('rows come back as plain objects in their JSON forms, whatever the columns are named', () => {
    const inst = fresh();
    const [row] = inst.query<Record<string, unknown>>(
      "SELECT x'00ff' AS blob, 2 AS n, 1 AS dup, 'b' AS dup, NULL AS none",
    );
    expect(row).toEqual({ blob: 'AP8=', n: 2, dup: 'b', none: null });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    const [odd] = inst.query<Record<string, unknown>>(
      'SELECT 1 AS __proto__, 9007199254740993 AS big',
    );
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(Object.keys(odd)).toEqual(['__proto__', 'big']);
    expect(odd.big).toBe('9007199254740993');
    expect(inst.query('SELECT 1 AS n WHERE 0')).toEqual([]);
  });

  it('two identical episodes give byte-identical changes() JSON', () => {
    const play = () => {
      const inst = kitWorld.instance({ seed: 3, clock: 'tick' });
      const id = (inst.call('add_item', { label: 'a', owner_id: 1 }) as { result: { id: string } })
        .result.id;
      inst.call('set_qty', { id, qty: 2 });
      inst.call('pair', { a: 'k', b: 1, v: null });
      inst.call('stamp', {});
      inst.call('add_owner', { name: 'n' });
      return JSON.stringify(inst.changes()) + JSON.stringify(inst.state());
    };
    expect(play()).toBe(play());
  });
});

describe('instances', () => {
  it('query() is read-only', () => {
    const inst = fresh();
    expect(() => inst.query('DELETE FROM owners')).toThrow(/read-only/);
  });

  it('fork carries state, clock, streams and history, then diverges', () => {
    const a = kitWorld.instance({ seed: 2, clock: 'tick' });
    a.call('add_item', { label: 'a' });
    a.call('stamp', {});
    const b = a.fork();
    expect(b.changes()).toEqual(a.changes());
    expect(b.callLog()).toEqual(a.callLog());
    expect(b.clock.iso()).toBe(a.clock.iso());
    expect(b.call('stamp', {})).toEqual(a.call('stamp', {}));
    b.call('add_item', { label: 'only in b' });
    expect(a.query("SELECT count(*) AS n FROM items WHERE label = 'only in b'")[0].n).toBe(0);
    expect(b.query("SELECT count(*) AS n FROM items WHERE label = 'only in b'")[0].n).toBe(1);
  });

  it('destroy() closes the instance', () => {
    const inst = fresh();
    inst.call('add_item', { label: 'x' });
    inst.destroy();
    expect(() => inst.call('add_item', { label: 'x' })).toThrow(/destroyed/);
    // Its call log went back to the pool with it: reading it is refused, not answered with another episode's records.
    expect(() => inst.callLog()).toThrow(/destroyed/);
  });

  it('the state document has the contract shape', () => {
    const inst = kitWorld.instance({ seed: 4 });
    inst.call('add_owner', { name: 'o' });
    expect(inst.state()).toEqual({
      format: 'seahaven.state/1',
      world: { name: 'kitworld', version: '0.0.1' },
      fixture: null,
      seed: 4,
      clock: { mode: 'fixed', now: '2026-03-01T12:00:00.000Z' },
      call_count: 1,
      changes: [{ table: 'owners', op: 'insert', key: { id: 2 }, after: { id: 2, name: 'o' } }],
    });
  });
});

describe('a task implies its fixture', () => {
  it("starts from the task's fixture when none is named, so the gold solution scores 1", () => {
    const inst = crm.instance({ task: 'add_lead', seed: 1 });
    expect(inst.fixture).toBe('small_startup');
    expect(inst.state().fixture?.id).toBe('small_startup');
    expect(
      Number(inst.query<{ n: number }>('SELECT count(*) AS n FROM contacts')[0].n),
    ).toBeGreaterThan(0);
    crm.task('add_lead')!.gold!(inst);
    expect(inst.submit()).toMatchObject({ reward: 1, passed: true });
    // The same episode as naming the fixture outright.
    const named = crm.instance({ task: 'add_lead', fixture: 'small_startup', seed: 1 });
    crm.task('add_lead')!.gold!(named);
    expect(named.state()).toEqual(inst.state());
    inst.destroy();
    named.destroy();
  });

  it("refuses a fixture other than the task's, naming both and the fix", () => {
    const start = () => crm.instance({ task: 'add_lead', fixture: 'big_co', seed: 1 });
    expect(start).toThrow(InstanceError);
    expect(start).toThrow(
      'task "add_lead" starts from fixture "small_startup"; omit fixture or pass fixture: "small_startup" (got "big_co")',
    );
    expect(() => crm.instance({ task: 'add_lead', fixture: 'empty' })).toThrow(
      expect.objectContaining({ code: 'fixture_mismatch' }),
    );
  });

  it("restart() and fork() keep to the task's fixture", () => {
    const a = crm.instance({ fixture: 'small_startup', seed: 1 });
    const b = a.restart({ task: 'add_lead', seed: 1 });
    expect(b).not.toBeNull();
    expect(b!.fixture).toBe('small_startup');
    expect(() => b!.restart({ task: 'add_lead', fixture: 'big_co' })).toThrow(
      /omit fixture or pass fixture: "small_startup" \(got "big_co"\)/,
    );
    expect(b!.changes()).toEqual([]);
    expect(b!.fork().fixture).toBe('small_startup');
    b!.destroy();
  });
});

describe('definition errors name the fix', () => {
  const ok = tools[0];
  const cases: [string, () => unknown, RegExp][] = [
    [
      'reserved name',
      () => defineTool({ name: 'submit', description: 'x', input: z.object({}), run: () => 1 }),
      /reserved/,
    ],
    [
      'bad name',
      () => defineTool({ name: 'Bad-Name', description: 'x', input: z.object({}), run: () => 1 }),
      /must match/,
    ],
    [
      'empty description',
      () => defineTool({ name: 'a', description: '  ', input: z.object({}), run: () => 1 }),
      /description is empty/,
    ],
    [
      'non-object input',
      () => defineTool({ name: 'a', description: 'x', input: z.string() as never, run: () => 1 }),
      /zod object/,
    ],
    [
      'duplicate tools',
      () => defineWorld({ name: 'w', version: '1', schema, tools: [ok, ok] }),
      /two tools are named/,
    ],
    [
      'bad DDL',
      () => defineWorld({ name: 'w', version: '1', schema: 'CREATE TABLE (', tools: [ok] }),
      /does not execute/,
    ],
    [
      'not STRICT',
      () =>
        defineWorld({
          name: 'w',
          version: '1',
          schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY)',
          tools: [ok],
        }),
      /not STRICT/,
    ],
    [
      'no primary key',
      () =>
        defineWorld({
          name: 'w',
          version: '1',
          schema: 'CREATE TABLE t (id INTEGER) STRICT',
          tools: [ok],
        }),
      /no explicit PRIMARY KEY/,
    ],
  ];
  for (const [name, fn, msg] of cases) {
    it(name, () => {
      expect(fn).toThrow(DefinitionError);
      expect(fn).toThrow(msg);
    });
  }
});
