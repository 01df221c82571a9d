// Answers from module state, which a second play does not reset; one fixture's builder throws.
import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

let served = 0;
const ticket = defineTool({
  name: 'take_ticket',
  description: 'Take the next ticket number from the queue.',
  input: z.object({}),
  run: () => ({ ticket: ++served }),
});

export default defineWorld({
  name: 'nondeterministic_results',
  version: '1.0.0',
  schema: ITEMS_SCHEMA,
  tools: [ticket, addItem],
  fixtures: {
    starter: { description: 'No items yet.', now: '2026-06-01T09:00:00.000Z', build() {} },
    broken: { description: 'A builder with a bug.', now: '2026-06-01T09:00:00.000Z', build(ctx) { ctx.db.run('INSERT INTO missing_table VALUES (1)'); } },
  },
});
