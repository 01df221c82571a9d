/** A tiny shop world the reward tests grade against: items with typed columns, and notes that cascade with them. */
import { defineTool, defineWorld, ToolError, z, type WorldSpec } from '../../core/index.ts';

const schema = `
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  qty INTEGER NOT NULL DEFAULT 0,
  price REAL NOT NULL DEFAULT 0,
  tag TEXT,
  seen_at TEXT
) STRICT;
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  body TEXT NOT NULL
) STRICT;
INSERT INTO items (id, name, qty, price, tag, seen_at) VALUES
  ('apple', 'Apple', 10, 0.5, 'fruit', '2026-01-01T00:00:00.000Z'),
  ('pear', 'Pear', 4, 0.75, 'fruit', NULL),
  ('bolt', 'Bolt', 100, 0.05, 'hardware', NULL);
INSERT INTO notes (item_id, body) VALUES ('apple', 'crisp'), ('apple', 'red');
`;

const addItem = defineTool({
  name: 'add_item',
  description: 'Add an item.',
  input: z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    qty: z.number().int().min(0).default(0),
    price: z.number().min(0).default(0),
    tag: z.string().optional(),
  }),
  run(ctx, a) {
    if (ctx.db.one('SELECT 1 FROM items WHERE id = ?', a.id))
      throw new ToolError('conflict', `item ${a.id} exists`);
    ctx.db.run(
      'INSERT INTO items (id, name, qty, price, tag, seen_at) VALUES (?, ?, ?, ?, ?, ?)',
      a.id,
      a.name,
      a.qty,
      a.price,
      a.tag ?? null,
      ctx.clock.iso(),
    );
    return ctx.db.one('SELECT * FROM items WHERE id = ?', a.id);
  },
});

const setItem = defineTool({
  name: 'set_item',
  description: 'Change fields of an item.',
  input: z.object({
    id: z.string(),
    name: z.string().min(1).optional(),
    qty: z.number().int().min(0).optional(),
    price: z.number().min(0).optional(),
    tag: z.string().nullable().optional(),
  }),
  run(ctx, { id, ...f }) {
    if (!ctx.db.one('SELECT 1 FROM items WHERE id = ?', id))
      throw new ToolError('not_found', `no item ${id}`);
    for (const [k, v] of Object.entries(f)) {
      if (v !== undefined)
        ctx.db.run(
          `UPDATE items SET ${['name', 'qty', 'price', 'tag'].find((c) => c === k)} = ? WHERE id = ?`,
          v,
          id,
        );
    }
    return ctx.db.one('SELECT * FROM items WHERE id = ?', id);
  },
});

const removeItem = defineTool({
  name: 'remove_item',
  description: 'Delete an item and its notes.',
  input: z.object({ id: z.string() }),
  run(ctx, { id }) {
    if (ctx.db.run('DELETE FROM items WHERE id = ?', id).changes === 0)
      throw new ToolError('not_found', `no item ${id}`);
    return { deleted: id };
  },
});

const addNote = defineTool({
  name: 'add_note',
  description: 'Add a note to an item.',
  input: z.object({ item_id: z.string(), body: z.string().min(1) }),
  run(ctx, { item_id, body }) {
    if (!ctx.db.one('SELECT 1 FROM items WHERE id = ?', item_id))
      throw new ToolError('not_found', `no item ${item_id}`);
    const r = ctx.db.run('INSERT INTO notes (item_id, body) VALUES (?, ?)', item_id, body);
    return ctx.db.one('SELECT * FROM notes WHERE id = ?', r.lastInsertRowid);
  },
});

const listItems = defineTool({
  name: 'list_items',
  description: 'List every item.',
  input: z.object({}),
  run: (ctx) => ({ items: ctx.db.all('SELECT * FROM items ORDER BY id') }),
});

/** The shop world's definition, for tests that add tasks or tools. */
export const shopSpec: WorldSpec = {
  name: 'shop',
  version: '1.0.0',
  schema,
  tools: [addItem, setItem, removeItem, addNote, listItems],
  epoch: '2026-06-01T09:00:00.000Z',
  fixtures: {
    stocked: { description: 'The three seed items.', now: '2026-06-01T09:00:00.000Z', build() {} },
  },
};

export const shop = defineWorld(shopSpec);

/** A blank shop instance (the schema's seed rows), optionally after some calls that must succeed. */
export function shopAfter(...calls: [string, Record<string, unknown>][]) {
  const inst = shop.instance();
  for (const [tool, args] of calls) {
    const r = inst.call(tool, args);
    if (!r.ok) throw new Error(`${tool} failed: ${r.error.message}`);
  }
  return inst;
}
