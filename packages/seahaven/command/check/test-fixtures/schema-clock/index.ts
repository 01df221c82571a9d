// The kit's overrides accept 'now' in these places; stock SQLite would not.
import { defineWorld, readSql } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({ name: 'schema_clock', version: '1.0.0', schema: readSql(import.meta.url, 'schema.sql'), tools: [addItem] });
