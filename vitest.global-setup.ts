// Once per `npm test` (and again before each rerun in watch mode, so a child process never runs an edited source's
// old copy): the compiled copy of the sources that the tests' child processes run
// (packages/seahaven/core/test/compiled-copy.ts), named to them by $SEAHAVEN_COMPILED.
import type { TestProject } from 'vitest/node';
import { buildCompiledCopy, COMPILED_ENV } from './packages/seahaven/core/test/compiled-copy.ts';

export default async function setup(project: TestProject): Promise<void> {
  process.env[COMPILED_ENV] = await buildCompiledCopy();
  project.onTestsRerun(async () => {
    await buildCompiledCopy();
  });
}
