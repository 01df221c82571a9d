/**
 * Run a TypeScript script in a node process of its own (its compiled copy, core/test/compiled-copy.ts, else the
 * sources through tsx, the published names resolved to them),
 * for tests of what must hold across processes: replays byte for byte, fixtures built by another process. Promises
 * resolve with what the script printed, so a test starts all the processes it compares at once.
 */
import { execFile } from 'node:child_process';
import { compiledScript } from './compiled-copy.ts';

export interface ScriptRun {
  stdout: string;
  stderr: string;
}

/**
 * `node <script> <args…>` with TZ=UTC and `env` added; rejects with the script's stderr when it exits non-zero.
 * @example
 * const [a, b] = await Promise.all([runScript(script, ['11']), runScript(script, ['11'])]);
 */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...compiledScript(script), ...args],
      {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, TZ: 'UTC', ...env },
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${script} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}
