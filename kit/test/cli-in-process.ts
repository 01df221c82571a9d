/**
 * Run the `seahaven` command line in this process, as `main` in kit/cli/program.ts, capturing what it writes to stdout
 * and stderr. It answers what `spawnSync(node, ['bin/seahaven.mjs', …])` does (exit status and output) without the
 * second or so a child spends starting node and tsx; tests of what only a real process shows (signals, sockets, the
 * shebang) still spawn bin/seahaven.mjs.
 */
import { main } from '../cli/program.ts';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** A `write` that appends to `sink(text)` and reports success, as a stream's `write` does. */
function capture(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as Write;
}

/**
 * `seahaven <args…>` run in process, in `cwd` when given (the process's own directory otherwise, restored after).
 * Never throws for a failing command: the exit status says it, as a child's would.
 */
export async function seahaven(args: readonly string[], cwd?: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const [out, err, before] = [process.stdout.write, process.stderr.write, process.cwd()];
  process.stdout.write = capture((t) => (stdout += t));
  process.stderr.write = capture((t) => (stderr += t));
  if (cwd !== undefined) process.chdir(cwd);
  try {
    const status = await main(args);
    return { status, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    if (cwd !== undefined) process.chdir(before);
  }
}
