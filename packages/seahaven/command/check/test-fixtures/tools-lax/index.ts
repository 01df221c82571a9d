// Tools built around defineTool, so only the check can catch what is wrong with them.
import { defineTool, defineWorld, z, type Tool } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

const base = defineTool({ name: 'placeholder', description: 'A placeholder tool that does nothing.', input: z.object({}), run: () => null });
const handMade = (fields: Partial<Tool>): Tool => ({ ...base, ...fields }) as Tool;

export default defineWorld({
  name: 'tools_lax',
  version: '1.0.0',
  schema: ITEMS_SCHEMA,
  tools: [
    addItem,
    handMade({ name: 'Find-Item', description: 'Find an item by its name, case-insensitively.' }),
    defineTool({ name: 'ping', description: 'Ping.', input: z.object({}), run: () => 'pong' }),
    handMade({ name: 'blank', description: '   ' }),
    handMade({ name: 'by_name', description: 'Look up items whose name matches the text.', inputSchema: { type: 'string' } }),
    handMade({ name: 'loose', description: 'Accept any keys at all, which hides typos.', inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'The item name.' } } } }),
    defineTool({ name: 'schedule', description: 'Schedule an item for a date and a tag list.', input: z.object({ at: z.date().describe('When to schedule it.'), tags: z.array(z.custom<string>()).describe('Tags to give it.') }), run: () => null }),
    defineTool({ name: 'essay', description: 'Explain items. '.repeat(80), input: z.object({}), run: () => null }),
  ],
});
