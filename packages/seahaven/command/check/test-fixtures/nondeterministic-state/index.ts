// Writes host randomness into the database, and crashes on a bug. Its fixture is built in memory (no fixturesDir).
import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA, listItems } from '../shared.ts';

const addLucky = defineTool({
  name: 'add_lucky_item',
  description: 'Add an item with a lucky name and return it.',
  input: z.object({}),
  run(ctx) {
    const id = ctx.ids.token('itm_', 10);
    ctx.db.run('INSERT INTO items (id, name) VALUES (?, ?)', id, `lucky ${Math.random()}`);
    return { id };
  },
});

const rename = defineTool({
  name: 'rename_item',
  description: 'Rename an item; the new name must be given.',
  input: z.object({ id: z.string().describe('The item id, like itm_….'), name: z.string().optional().describe('The new name.') }),
  run(ctx, { id, name }) {
    ctx.db.run('UPDATE items SET name = ? WHERE id = ?', name!.trim(), id);
    return { id, name };
  },
});

export default defineWorld({
  name: 'nondeterministic_state',
  version: '1.0.0',
  schema: ITEMS_SCHEMA,
  tools: [addLucky, rename, listItems],
  fixtures: { starter: { description: 'No items yet.', now: '2026-06-01T09:00:00.000Z', build() {} } },
});
