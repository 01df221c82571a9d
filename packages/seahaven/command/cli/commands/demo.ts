/** `seahaven demo`: play a short scripted crm episode and print what changed. */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

/** What the command uses of the crm world's demo (`@seahaven/crm/demo`), loaded only when the command runs. */
interface CrmDemo {
  runDemo(options: { seed: number; out: (line: string) => void }): void;
}

/** The module, in a variable so that the command does not import the world that imports it. */
const DEMO_MODULE: string = '@seahaven/crm/demo';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('play a short scripted episode in the crm world and print the changes')
    .option('--seed <n>', 'seed', '0')
    .action(async (opts: { seed: string }) => {
      let demo: CrmDemo;
      try {
        demo = (await import(DEMO_MODULE)) as CrmDemo;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
        if (!missing || !(e as Error).message.includes('@seahaven/')) throw e;
        throw new CliError(
          "seahaven demo plays the crm world of the package @seahaven/crm, which is not installed here: it lives in the repository's worlds/crm/ folder; clone the repository and run `npm ci && npm run demo` there",
          2,
        );
      }
      demo.runDemo({ seed: Number(opts.seed), out: (line) => process.stdout.write(line + '\n') });
    });
}
