import { defineWorld, readSql } from '../../../../core/index.ts';
import { addItem } from '../shared.ts';

export default defineWorld({ name: 'schema_not_strict', version: '1.0.0', schema: readSql(import.meta.url, 'schema.sql'), tools: [addItem] });
