// World code that reads the host's clock and entropy.
import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA } from '../shared.ts';

const stamp = defineTool({
  name: 'stamp',
  description: 'Return the current time and a lucky number.',
  input: z.object({}),
  run: () => ({ at: Date.now(), lucky: Math.random() }),
});

export default defineWorld({ name: 'lint_broken', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [stamp] });
