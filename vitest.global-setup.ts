// Once per `npm test`: the compiled copy of the sources that the tests' child processes run
// (packages/seahaven/core/test/compiled-copy.ts), named to them by $SEAHAVEN_COMPILED.
import { buildCompiledCopy, COMPILED_ENV } from './packages/seahaven/core/test/compiled-copy.ts';

export default async function setup(): Promise<void> {
  const { dir } = await buildCompiledCopy();
  process.env[COMPILED_ENV] = dir;
}
