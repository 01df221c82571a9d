/**
 * Run the real `seahaven serve` command line in a child process, for tests over its sockets: the compiled copy of
 * packages/seahaven/bin/seahaven.mjs that `npm test` builds (core/test/compiled-copy.ts), else the bin itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { compiledBin } from '../../../core/test/compiled-copy.ts';

export interface ServeProcess {
  /** The base URL from the banner, e.g. `http://127.0.0.1:40123`. */
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  stdout(): string;
  stderr(): string;
  /** Send a signal and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Start `seahaven serve <args…> --port 0` and wait for its banner.
 * @example
 * const s = await spawnServe(['crm', '--curricula-db', file]);
 * await fetch(`${s.url}/health`);
 * await s.stop('SIGTERM'); // 0
 */
export function spawnServe(args: string[], options: { cwd?: string; timeoutMs?: number; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...compiledBin(), 'serve', ...args, '--port', '0'], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', SEAHAVEN_TOKEN: '', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`seahaven serve printed no banner within ${options.timeoutMs ?? 20_000} ms; stderr: ${err}`));
    }, options.timeoutMs ?? 20_000);
    const check = () => {
      const m = /^seahaven serve: .* at (http:\/\/\S+)$/m.exec(out);
      if (!m || !out.includes('Ctrl+C')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({
        url: m[1],
        child,
        stdout: () => out,
        stderr: () => err,
        stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`seahaven serve exited with ${code} before its banner; stderr: ${err}`));
    });
  });
}
