/**
 * Run the `seahaven` command line in this process, as `main` in packages/seahaven/command/cli/program.ts, capturing what it writes to stdout
 * and stderr. It answers what `spawnSync(node, ['packages/seahaven/bin/seahaven.mjs', …])` does (exit status and output) without the
 * second or so a child spends starting node and tsx; tests of what only a real process shows (signals, sockets, the
 * shebang) still spawn packages/seahaven/bin/seahaven.mjs.
 */
import { main } from '../../command/cli/program.ts';

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

export interface CliOptions {
  /** The working directory for the command; default: the process's own. Restored after. */
  cwd?: string;
  /** Environment variables set for the command (undefined unsets one); the previous values are restored after. */
  env?: Record<string, string | undefined>;
}

/**
 * `seahaven <args…>` run in process. Never throws for a failing command: the exit status says it, as a child's would.
 * Calls must not overlap: the output capture, directory and environment are the process's own.
 */
export async function seahaven(
  args: readonly string[],
  { cwd, env = {} }: CliOptions = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const [out, err, before] = [process.stdout.write, process.stderr.write, process.cwd()];
  const saved = Object.keys(env).map((k) => [k, process.env[k]] as const);
  const setEnv = (k: string, v: string | undefined) => {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
  process.stdout.write = capture((t) => (stdout += t));
  process.stderr.write = capture((t) => (stderr += t));
  for (const [k, v] of Object.entries(env)) setEnv(k, v);
  if (cwd !== undefined) process.chdir(cwd);
  try {
    const status = await main(args);
    return { status, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    for (const [k, v] of saved) setEnv(k, v);
    process.chdir(before);
  }
}
