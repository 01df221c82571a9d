// The type-check of docs/examples.test.ts, in a worker thread so that it runs while the blocks run: one TypeScript
// program for every block, with the settings of the tsconfig the test wrote beside them, asking for the blocks' own
// diagnostics only. Replies `{ status, output }`, the output in tsc's `--pretty false` format.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import ts from 'typescript';

/** @type {{ configPath: string, root: string, scratch: string, names: string[] }} */
const { configPath, root, scratch, names } = workerData;
/** @type {ts.FormatDiagnosticsHost} */
const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.formatDiagnostics([d], format));
  },
});
if (!parsed) throw new Error(`${configPath} could not be read`);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const diagnostics = [
  ...parsed.errors,
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
];
for (const name of names) {
  const file = program.getSourceFile(join(scratch, name));
  if (!file) throw new Error(`the type-check program has no ${name}`);
  diagnostics.push(
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  );
}
parentPort?.postMessage({
  status: diagnostics.length === 0 ? 0 : 1,
  output: ts.formatDiagnostics(diagnostics, format),
});
