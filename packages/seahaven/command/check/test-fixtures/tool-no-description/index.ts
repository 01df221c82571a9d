import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA } from '../shared.ts';

const tool = defineTool({ name: 'add_item', description: '  ', input: z.object({}), run: () => null });
export default defineWorld({ name: 'tool_no_description', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [tool] });
