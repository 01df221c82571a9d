import { defineWorld } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({ name: 'schema_no_tables', version: '1.0.0', schema: 'CREATE VIEW answer AS SELECT 42 AS n;', tools: [addItem] });
