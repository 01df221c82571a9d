/** `seahaven lint [paths...]`: run the determinism lint rules (`seahaven/lint`'s recommended config) over world code. */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

/** The current world's folder (`./world.ts` or `./src/world.ts`), else `worlds/` in a repository of worlds, else `.`. */
function defaultPath(): string {
  if (existsSync('world.ts')) return '.';
  if (existsSync('src/world.ts')) return 'src';
  return existsSync('worlds') ? 'worlds' : '.';
}

export function registerLint(program: Command): void {
  program
    .command('lint')
    .description('run the determinism lint rules over world code (rules: docs/lint-rules/)')
    .argument('[paths...]', "files or folders (default: the current world's folder, else worlds/)")
    .option('--format <name>', 'an ESLint formatter: stylish or json', 'stylish')
    .action(async (paths: string[], opts: { format: string }) => {
      const targets = paths.length > 0 ? paths : [defaultPath()];
      const missing = targets.filter((p) => !existsSync(p));
      if (missing.length > 0)
        throw new CliError(
          `no such file or folder: ${missing.join(', ')}; give the world's folder, e.g. \`npx seahaven lint worlds/crm\``,
          2,
        );
      if (opts.format !== 'stylish' && opts.format !== 'json')
        throw new CliError(
          `--format must be stylish or json; got ${JSON.stringify(opts.format)}`,
          2,
        );
      // Imported here: ESLint and its TypeScript parser take a while to load, and only this command needs them.
      const { lintPaths } = await import('../../check/index.ts');
      const linted = await lintPaths(targets);
      if (opts.format === 'json') process.stdout.write(JSON.stringify(linted.results) + '\n');
      else {
        const text = await linted.format();
        const files = linted.results.length;
        process.stdout.write(
          text ||
            `seahaven lint: ${files} file${files === 1 ? '' : 's'} in ${targets.join(', ')}, no findings.\n`,
        );
      }
      if (linted.errorCount > 0) {
        throw new CliError(
          `${linted.errorCount} lint error${linted.errorCount === 1 ? '' : 's'}; each message says what to use instead (docs/lint-rules/<rule>.md has examples)`,
        );
      }
    });
}
