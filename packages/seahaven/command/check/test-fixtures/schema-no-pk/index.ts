import { defineWorld } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({ name: 'schema_no_pk', version: '1.0.0', schema: 'CREATE TABLE items (id TEXT, name TEXT NOT NULL) STRICT;', tools: [addItem] });
