import { defineWorld } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

export default defineWorld({ name: 'tool_duplicate', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [addItem, addItem] });
