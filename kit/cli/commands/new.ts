/** `seahaven new <name> [--dir D]`: scaffold a world project that passes `seahaven check`, `seahaven lint` and its tests. */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { scaffoldWorld, ScaffoldError } from '../../scaffold/index.ts';

export function registerNew(program: Command): void {
  program
    .command('new')
    .description('scaffold a world project: schema, two tools, a frozen fixture, a graded task, tests, AGENTS.md, lint config')
    .argument('<name>', 'the project and world name: lower case letters, digits, - and _, like my-world')
    .option('-d, --dir <dir>', 'the folder to write it to; it must not exist or be empty (default: ./<name>)')
    .action(async (name: string, opts: { dir?: string }) => {
      let scaffolded: Awaited<ReturnType<typeof scaffoldWorld>>;
      try {
        scaffolded = await scaffoldWorld({ name, dir: opts.dir });
      } catch (e) {
        if (e instanceof ScaffoldError) throw new CliError(e.message, 2);
        throw e;
      }
      const where = relative(process.cwd(), scaffolded.dir) || '.';
      process.stdout.write(
        `Created world "${name}" in ${where}: ${scaffolded.files.join(', ')}\n\n` +
          'Next:\n' +
          (where === '.' ? '' : `  cd ${where}\n`) +
          '  npm install\n' +
          '  npm test && npm run check && npm run lint    # all pass as scaffolded\n\n' +
          'Then make the world yours: read AGENTS.md, change schema.sql, tools.ts and the fixture builder in world.ts,\n' +
          'run `npm run fixtures` to refreeze fixtures/, and give every task in tasks.ts a gold solution.\n',
      );
    });
}
