/** `seahaven demo`: play a short scripted crm episode and print what changed. */
import type { Command } from 'commander';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('play a short scripted episode in the crm world and print the changes')
    .option('--seed <n>', 'seed', '0')
    .action(async (opts: { seed: string }) => {
      const { runDemo } = await import('../../../../../worlds/crm/demo.ts');
      runDemo({ seed: Number(opts.seed), out: (line) => process.stdout.write(line + '\n') });
    });
}
