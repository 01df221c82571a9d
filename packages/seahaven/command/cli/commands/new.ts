/** `seahaven new <name> [--dir D] [--mount stripe]`: scaffold a world project that passes `seahaven check`, `seahaven lint` and its tests. */
import { basename, relative } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { scaffoldWorld, ScaffoldError } from '../../scaffold/index.ts';

export function registerNew(program: Command): void {
  program
    .command('new')
    .description(
      'scaffold a world project: schema, two tools, a frozen fixture, a graded task, tests, AGENTS.md, lint config',
    )
    .argument(
      '<name>',
      'the project and world name (lower case letters, digits, - and _, like my-world), or a path whose last part is the name, like ~/my-world',
    )
    .option(
      '-d, --dir <dir>',
      'the folder to write it to; it must not exist or be empty (default: ./<name>)',
    )
    .option(
      '--mount <world>',
      'mount a world of the kit in the new world, by name (stripe: Stripe World at stripe, its tools as stripe_*); repeat for more',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--kit <spec>',
      "the project's seahaven dependency as npm takes it: a version, a path or a tarball (default: this kit's version when it came from the npm registry, otherwise a tarball of this kit packed into the project)",
    )
    .action(async (nameOrPath: string, opts: { dir?: string; kit?: string; mount?: string[] }) => {
      // `seahaven new ../worlds/my-world` names the world after the last part of the path, as `cargo new` does.
      const isPath = /[\\/]/.test(nameOrPath);
      const name = isPath ? basename(nameOrPath) : nameOrPath;
      if (isPath && opts.dir !== undefined)
        throw new CliError(
          `give the folder once: either a path as <name> (${nameOrPath}) or --dir ${opts.dir}`,
          2,
        );
      let scaffolded: Awaited<ReturnType<typeof scaffoldWorld>>;
      try {
        scaffolded = await scaffoldWorld({
          name,
          dir: isPath ? nameOrPath : opts.dir,
          kit: opts.kit,
          mount: opts.mount ?? [],
          onProgress: (line) => process.stdout.write(`${line}\n`),
        });
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
