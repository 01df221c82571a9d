/** Pieces the deliberately broken worlds share: a valid schema and a valid tool. */
import { defineTool, z } from '../../../core/index.ts';

export const ITEMS_SCHEMA = 'CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;';

export const addItem = defineTool({
  name: 'add_item',
  description: 'Add an item with the given name and return it.',
  input: z.object({ name: z.string().min(1).describe('The item name, like "Blue mug".') }),
  run(ctx, { name }) {
    const id = ctx.ids.token('itm_', 10);
    ctx.db.run('INSERT INTO items (id, name) VALUES (?, ?)', id, name);
    return ctx.db.one('SELECT * FROM items WHERE id = ?', id);
  },
});

export const listItems = defineTool({
  name: 'list_items',
  description: 'List every item, ordered by name then id.',
  input: z.object({}),
  run: (ctx) => ctx.db.all('SELECT * FROM items ORDER BY name, id'),
});
