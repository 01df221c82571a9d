/** A world whose module and tool print to stdout, as careless code does: `seahaven mcp` must keep stdout for the protocol. */
import { defineTool, defineWorld, z } from '../../../core/index.ts';

console.log('loading the noisy world');
process.stdout.write('raw write while loading\n');

const shout = defineTool({
  name: 'shout',
  description: 'Print to the console, then answer.',
  input: z.object({}),
  run: () => {
    console.log('shouting from a tool');
    console.info('info from a tool');
    console.warn('warning from a tool');
    return { heard: true };
  },
});

export default defineWorld({ name: 'noisy', version: '0.0.1', schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;', tools: [shout] });
