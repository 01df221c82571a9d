import { defineWorld } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

export default defineWorld({
  name: 'fixture_bad_declaration',
  version: '1.0.0',
  schema: ITEMS_SCHEMA,
  tools: [addItem],
  fixtures: { starter: { description: 'A few items.', now: '2026-06-01T09:00:00.000Z', parent: 'base', build() {} } },
});
