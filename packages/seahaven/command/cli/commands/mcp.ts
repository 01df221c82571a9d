/** `seahaven mcp`: serve one instance of a world to an MCP client (Claude Desktop, an IDE, MCP Inspector) over stdio. */
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld, namedWorld, resolveWorldModule } from '../load-world.ts';

const BIN = fileURLToPath(new URL('../../../bin/seahaven.mjs', import.meta.url));

interface McpOptions {
  fixture?: string;
  seed?: string;
  clock?: 'fixed' | 'tick';
  task?: string;
  submitTool?: boolean;
  printConfig?: boolean;
}

/**
 * The `mcpServers` entry that starts this same server from anywhere: absolute paths to node, to this kit's command and
 * to the world's module (an example world keeps its name), so an MCP client can launch it from whatever folder it runs in.
 */
export function mcpServerEntry(
  ref: string | undefined,
  opts: McpOptions,
): { command: string; args: string[] } {
  const module = resolveWorldModule(ref);
  // A world package found by name is found from anywhere; a worlds/<name>/ folder only from the current folder.
  const example = ref !== undefined && namedWorld(ref)?.via === 'package';
  const args = [BIN, 'mcp', example ? ref : module];
  if (opts.fixture) args.push('--fixture', opts.fixture);
  if (opts.task) args.push('--task', opts.task);
  if (opts.submitTool) args.push('--submit-tool');
  if (opts.seed !== undefined) args.push('--seed', opts.seed);
  if (opts.clock && opts.clock !== 'fixed') args.push('--clock', opts.clock);
  return { command: process.execPath, args };
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve one instance of a world over MCP on stdio (tools only)')
    .argument(
      '[world]',
      'example world name (crm) or path to a module exporting a world; default ./world.ts, else crm',
    )
    .option(
      '--fixture <id>',
      "fixture to start from (default: the task's fixture, else a blank instance); with --task, only the task's",
    )
    .option('--seed <n>', 'seed, a whole number >= 0 (default: a random one, printed on stderr)')
    .addOption(
      new Option('--clock <mode>', 'clock mode').choices(['fixed', 'tick']).default('fixed'),
    )
    .option(
      '--task <id>',
      'play this task: start from its fixture, and add its prompt to the server instructions',
    )
    .option(
      '--submit-tool',
      "with --task: list a submit tool the agent calls when done; its result is the grade's {reward, passed}",
    )
    .option(
      '--print-config',
      'print the claude_desktop_config.json entry that starts this server from any folder (absolute paths), and exit',
    )
    .action(async (ref: string | undefined, opts: McpOptions) => {
      if (opts.submitTool && !opts.task)
        throw new CliError('--submit-tool grades a task; give --task <id> too', 2);
      if (opts.printConfig) {
        const world = await loadWorld(ref);
        const config = { mcpServers: { [world.name]: mcpServerEntry(ref, opts) } };
        process.stdout.write(JSON.stringify(config, null, 2) + '\n');
        return;
      }
      // Protocol only on stdout from here on: anything printed while loading the world must not corrupt the stream.
      const { guardStdout, serveMcpStdio } = await import('../../../transports/mcp/stdio.ts');
      const stdout = guardStdout();
      let seed: number;
      if (opts.seed === undefined) {
        seed = randomInt(0, 2 ** 31);
      } else if (/^\d{1,16}$/.test(opts.seed) && Number.isSafeInteger(Number(opts.seed))) {
        seed = Number(opts.seed);
      } else {
        throw new CliError(
          `--seed must be a whole number >= 0, like --seed 7; got ${JSON.stringify(opts.seed)}`,
          2,
        );
      }
      const world = await loadWorld(ref);
      const what = [
        opts.fixture ? `fixture ${opts.fixture}` : null,
        opts.task ? `task ${opts.task}` : null,
      ]
        .filter(Boolean)
        .join(', ');
      process.stderr.write(
        `seahaven mcp: serving ${world.name}${what ? ` (${what})` : ''} with seed ${seed} on stdio${opts.seed === undefined ? `; pass --seed ${seed} to replay` : ''}\n`,
      );
      await serveMcpStdio({
        world,
        reset: {
          seed,
          clock: opts.clock,
          ...(opts.fixture ? { fixture: opts.fixture } : {}),
          ...(opts.task ? { task: opts.task } : {}),
          ...(opts.submitTool ? { submit_tool: true } : {}),
        },
        stdout,
      });
    });
}
