// Fails at import with an ordinary error.
import { defineWorld } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

const prices = JSON.parse('{ not json') as Record<string, number>;
export default defineWorld({ name: 'load_throws', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [addItem], description: String(prices) });
