import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA } from '../shared.ts';

const tool = defineTool({ name: 'AddItem', description: 'Add an item to the list of items.', input: z.object({}), run: () => null });
export default defineWorld({ name: 'tool_bad_name', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [tool] });
