import { defineWorld } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

export default defineWorld({ name: 'tool_not_a_tool', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [addItem, { name: 'list_items' } as never] });
