import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA } from '../shared.ts';

const tool = defineTool({ name: 'add_item', description: 'Add an item with the given name.', input: z.string() as never, run: () => null });
export default defineWorld({ name: 'tool_not_object', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [tool] });
