import { defineWorld } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({ name: 'schema_bad_sql', version: '1.0.0', schema: 'CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL STRICT;', tools: [addItem] });
