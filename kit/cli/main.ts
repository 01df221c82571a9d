/** The `seahaven` command line. Each command lives in its own file under `commands/`. */
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

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof CliError) {
    process.stderr.write(`seahaven: ${e.message}\n`);
    process.exitCode = e.exitCode;
  } else {
    process.stderr.write(`seahaven: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 1;
  }
}
