/**
 * The `seahaven` command line as a function: `main(args)` builds a fresh program, runs one command and resolves with
 * its exit code. `main.ts` calls it with the process's arguments; tests call it in process, which spares them a node
 * and tsx start-up per command. Each command lives in its own file under `commands/`.
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { CliError } from './errors.ts';
import { registerDemo } from './commands/demo.ts';
import { registerFixtures } from './commands/fixtures.ts';
import { registerBench } from './commands/bench.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerDocs } from './commands/docs.ts';
import { registerCurriculum } from './commands/curriculum.ts';
import { registerLint } from './commands/lint.ts';
import { registerCheck } from './commands/check.ts';
import { registerServe } from './commands/serve.ts';
import { registerNew } from './commands/new.ts';
import { registerPublish } from './commands/publish.ts';
import { registerCollect, registerEval } from './commands/eval.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** A new program each call: commander keeps the options it parsed on the command objects. */
function createProgram(): Command {
  const program = new Command('seahaven')
    .description('Synthetic worlds for training and evaluating tool-calling agents.')
    .version(pkg.version, '-v, --version')
    .showSuggestionAfterError()
    .exitOverride();
  registerDemo(program);
  registerFixtures(program);
  registerBench(program);
  registerMcp(program);
  registerDocs(program);
  registerCurriculum(program);
  registerLint(program);
  registerCheck(program);
  registerServe(program);
  registerNew(program);
  registerPublish(program);
  registerEval(program);
  registerCollect(program);
  return program;
}

/**
 * Run `seahaven <args…>` and resolve with its exit code: 0, 1 for findings or failures, 2 for usage errors. Output
 * goes to `process.stdout` and `process.stderr`; an error is one `seahaven: …` line on stderr.
 *
 * @example
 * process.exitCode = await main(['check', 'crm']);
 */
export async function main(args: readonly string[]): Promise<number> {
  try {
    await createProgram().parseAsync(args, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof CliError) {
      process.stderr.write(`seahaven: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`seahaven: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}
