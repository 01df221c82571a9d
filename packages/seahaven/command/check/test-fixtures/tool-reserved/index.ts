import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { ITEMS_SCHEMA } from '../shared.ts';

const submit = defineTool({ name: 'submit', description: 'Submit the order for shipping.', input: z.object({}), run: () => null });
export default defineWorld({ name: 'tool_reserved', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [submit] });
