// random() in a generated column: SQLite refuses it even with the kit's overrides, so defineWorld throws.
import { defineWorld } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({
  name: 'schema_random_column',
  version: '1.0.0',
  schema: 'CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL, luck INTEGER GENERATED ALWAYS AS (random()) VIRTUAL) STRICT;',
  tools: [addItem],
});
