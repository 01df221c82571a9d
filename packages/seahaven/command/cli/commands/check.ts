/**
 * `seahaven check [world]`: run every check on a world and print its findings; exit 1 on any error. The checks (and
 * ESLint and TypeScript behind the lint check) are imported when the command runs, so other commands, `serve` above
 * all, start without loading them.
 */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

/** The built-in checks' names, for the help text; check.test.ts keeps them equal to `defaultChecks`. */
export const CHECK_NAMES = ['schema', 'tools', 'fixtures', 'lint', 'determinism', 'graders'];

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'check a world: schema, tools, fixtures, lint, a determinism smoke and task graders (codes: docs/check-codes.md)',
    )
    .argument(
      '[world]',
      'example world name (crm), module or folder path (default: ./world.ts, else crm)',
    )
    .option('--calls <n>', 'calls per play in the determinism smoke', '40')
    .option('--skip <checks>', `comma-separated checks to leave out (${CHECK_NAMES.join(', ')})`)
    .option('--json', 'print the report as JSON')
    .action(
      async (world: string | undefined, opts: { calls: string; skip?: string; json?: boolean }) => {
        const calls = Number(opts.calls);
        if (!Number.isInteger(calls) || calls < 1)
          throw new CliError(
            `--calls must be a whole number >= 1, like --calls 40; got ${JSON.stringify(opts.calls)}`,
            2,
          );
        const skip = opts.skip
          ? opts.skip
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [];
        const { defaultChecks, formatReport, runChecks } = await import('../../check/index.ts');
        const known = defaultChecks.map((c) => c.name);
        const unknown = skip.filter((s) => !known.includes(s));
        if (unknown.length > 0)
          throw new CliError(
            `--skip names unknown check(s) ${unknown.join(', ')}; the checks are ${known.join(', ')}`,
            2,
          );
        const report = await runChecks(world, { smokeCalls: calls, skip });
        process.stdout.write(
          opts.json ? JSON.stringify(report, null, 2) + '\n' : formatReport(report),
        );
        if (!report.ok) {
          throw new CliError(
            `${report.errors} error${report.errors === 1 ? '' : 's'} in ${report.world?.name ?? report.target}; apply each "fix:" line and run \`npx seahaven check${world ? ` ${world}` : ''}\` again`,
          );
        }
      },
    );
}
