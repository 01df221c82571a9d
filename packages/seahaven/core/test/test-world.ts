/** A small world for the kit's own tests: every feature the runtime has to handle, in a few tables. */
import { defineTool, defineWorld, ToolError, z } from '../index.ts';

export const schema = `
CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  owner_id INTEGER REFERENCES owners(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  qty INTEGER NOT NULL DEFAULT 0,
  big INTEGER,
  ratio REAL,
  blob BLOB,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  noise INTEGER NOT NULL DEFAULT (random())
) STRICT;
CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b)) STRICT, WITHOUT ROWID;
CREATE TABLE audit (id INTEGER PRIMARY KEY, item_id TEXT NOT NULL, at TEXT NOT NULL) STRICT;
CREATE TRIGGER items_audit AFTER UPDATE OF qty ON items BEGIN
  INSERT INTO audit (item_id, at) VALUES (NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
INSERT INTO owners (id, name) VALUES (1, 'reference owner');
`;

export const tools = [
  defineTool({
    name: 'add_item',
    description: 'Add an item.',
    input: z.object({
      label: z.string().min(1),
      qty: z.number().int().min(0).default(0),
      owner_id: z.number().int().optional(),
      big: z
        .string()
        .regex(/^-?\d+$/)
        .optional(),
    }),
    run(ctx, { label, qty, owner_id, big }) {
      const id = ctx.ids.token('itm_', 10);
      ctx.db.run(
        'INSERT INTO items (id, owner_id, label, qty, big) VALUES (?, ?, ?, ?, ?)',
        id,
        owner_id ?? null,
        label,
        qty,
        big ?? null,
      );
      return ctx.db.one('SELECT * FROM items WHERE id = ?', id);
    },
  }),
  defineTool({
    name: 'set_qty',
    description: 'Set the quantity of an item.',
    input: z.object({ id: z.string(), qty: z.number().int() }),
    run(ctx, { id, qty }) {
      const r = ctx.db.run('UPDATE items SET qty = ? WHERE id = ?', qty, id);
      if (r.changes === 0) throw new ToolError('not_found', `no item ${id}`);
      return ctx.db.one('SELECT id, qty FROM items WHERE id = ?', id);
    },
  }),
  defineTool({
    name: 'delete_item',
    description: 'Delete an item.',
    input: z.object({ id: z.string() }),
    run(ctx, { id }) {
      return ctx.db.run('DELETE FROM items WHERE id = ?', id);
    },
  }),
  defineTool({
    name: 'put_item',
    description: 'Insert an item with a given id (tests delete + insert folding).',
    input: z.object({ id: z.string(), label: z.string(), qty: z.number().int().default(0) }),
    run(ctx, { id, label, qty }) {
      ctx.db.run(
        'INSERT INTO items (id, label, qty, created_at, noise) VALUES (?, ?, ?, ?, 0)',
        id,
        label,
        qty,
        '2026-01-01 00:00:00',
      );
      return { id };
    },
  }),
  defineTool({
    name: 'add_owner',
    description: 'Add an owner.',
    input: z.object({ name: z.string() }),
    run(ctx, { name }) {
      const r = ctx.db.run('INSERT INTO owners (name) VALUES (?)', name);
      return { id: r.lastInsertRowid };
    },
  }),
  defineTool({
    name: 'delete_owner',
    description: 'Delete an owner and (by cascade) their items.',
    input: z.object({ id: z.number().int() }),
    run(ctx, { id }) {
      return ctx.db.run('DELETE FROM owners WHERE id = ?', id);
    },
  }),
  defineTool({
    name: 'two_then_throw',
    description: 'Write two rows, then fail.',
    input: z.object({ agentFacing: z.boolean().default(true) }),
    run(ctx, { agentFacing }) {
      ctx.db.run("INSERT INTO owners (name) VALUES ('x')");
      ctx.db.run("INSERT INTO owners (name) VALUES ('y')");
      ctx.rng.next();
      ctx.ids.token('t_');
      if (agentFacing) throw new ToolError('refused', 'changed my mind', { why: 'test' });
      throw new Error('a bug in world code');
    },
  }),
  defineTool({
    name: 'savepoint_demo',
    description: 'Write, then write more inside a savepoint that fails; keep the first write.',
    input: z.object({}),
    run(ctx) {
      ctx.db.run("INSERT INTO owners (name) VALUES ('kept')");
      try {
        ctx.db.transaction(() => {
          ctx.db.run("INSERT INTO owners (name) VALUES ('dropped')");
          throw new ToolError('inner', 'inner failure');
        });
      } catch {
        // The savepoint rolled back; the call goes on.
      }
      return ctx.db.all('SELECT name FROM owners ORDER BY id');
    },
  }),
  defineTool({
    name: 'pair',
    description: 'Upsert a composite-key row.',
    input: z.object({ a: z.string(), b: z.number().int(), v: z.string().nullable() }),
    run(ctx, { a, b, v }) {
      ctx.db.run(
        'INSERT INTO pairs (a, b, v) VALUES (?, ?, ?) ON CONFLICT (a, b) DO UPDATE SET v = excluded.v',
        a,
        b,
        v,
      );
      return { a, b, v };
    },
  }),
  defineTool({
    name: 'stamp',
    description: 'Read the clock, randomness and ids from TypeScript and SQL.',
    input: z.object({}),
    run(ctx) {
      return {
        ts: ctx.clock.iso(),
        ms: ctx.clock.now(),
        rng: ctx.rng.int(1, 1_000_000),
        uuid: ctx.ids.uuid(),
        seq: ctx.ids.seq('order'),
        sql: ctx.db.one(
          `SELECT CURRENT_TIMESTAMP AS ts, datetime('now', '-30 days') AS month_ago, random() AS r, hex(randomblob(4)) AS rb, unixepoch() AS u, typeof(unixepoch()) AS ut`,
        ),
      };
    },
  }),
  defineTool({
    name: 'nested',
    description: 'A tool with nested input, for validation tests.',
    input: z.object({
      name: z.string(),
      lines: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })).min(1),
    }),
    run: (_ctx, input) => ({ count: input.lines.length }),
  }),
];

export const kitWorld = defineWorld({
  name: 'kitworld',
  version: '0.0.1',
  schema,
  tools,
  epoch: '2026-03-01T12:00:00.000Z',
});
