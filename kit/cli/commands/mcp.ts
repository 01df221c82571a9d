/** `seahaven mcp`: serve one instance of a world to an MCP client (Claude Desktop, an IDE, MCP Inspector) over stdio. */
import { randomInt } from 'node:crypto';
import { Option, type Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';

interface McpOptions {
  fixture?: string;
  seed?: string;
  clock?: 'fixed' | 'tick';
  task?: string;
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve one instance of a world over MCP on stdio (tools only)')
    .argument('[world]', 'example world name (crm) or path to a module exporting a world; default ./world.ts, else crm')
    .option('--fixture <id>', 'fixture to start from (default: the task\'s fixture, else a blank instance)')
    .option('--seed <n>', 'seed, a whole number >= 0 (default: a random one, printed on stderr)')
    .addOption(new Option('--clock <mode>', 'clock mode').choices(['fixed', 'tick']).default('fixed'))
    .option('--task <id>', 'play this task: its prompt is added to the server instructions')
    .action(async (ref: string | undefined, opts: McpOptions) => {
      // Protocol only on stdout from here on: anything printed while loading the world must not corrupt the stream.
      const { guardStdout, serveMcpStdio } = await import('../../mcp/stdio.ts');
      const stdout = guardStdout();
      let seed: number;
      if (opts.seed === undefined) {
        seed = randomInt(0, 2 ** 31);
      } else if (/^\d{1,16}$/.test(opts.seed) && Number.isSafeInteger(Number(opts.seed))) {
        seed = Number(opts.seed);
      } else {
        throw new CliError(`--seed must be a whole number >= 0, like --seed 7; got ${JSON.stringify(opts.seed)}`, 2);
      }
      const world = await loadWorld(ref);
      const what = [opts.fixture ? `fixture ${opts.fixture}` : null, opts.task ? `task ${opts.task}` : null].filter(Boolean).join(', ');
      process.stderr.write(`seahaven mcp: serving ${world.name}${what ? ` (${what})` : ''} with seed ${seed} on stdio${opts.seed === undefined ? `; pass --seed ${seed} to replay` : ''}\n`);
      await serveMcpStdio({
        world,
        reset: { seed, clock: opts.clock, ...(opts.fixture ? { fixture: opts.fixture } : {}), ...(opts.task ? { task: opts.task } : {}) },
        stdout,
      });
    });
}
