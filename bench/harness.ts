/** Small timing helpers shared by the benchmarks: interleaved rounds, percentiles, the machine line, child processes. */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compiledScript } from 'seahaven/internal/core/test/compiled-copy';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** Time `fn` per iteration (ns), `n` times; returns sorted samples. */
export function sample(n: number, fn: () => void): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    out[i] = Number(process.hrtime.bigint() - t0);
  }
  return out.sort((a, b) => a - b);
}

/** Run `fn` `n` times in a tight loop and return ns per iteration. */
export function loop(n: number, fn: (i: number) => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / n;
}

/** The best (lowest) of several interleaved rounds, which filters out noise from other work on the machine. */
export function bestOf(rounds: number, fns: Record<string, () => number>): Record<string, number> {
  const best: Record<string, number> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const v = fn();
      best[name] = Math.min(best[name] ?? Infinity, v);
    }
  }
  return best;
}

export function machine(): string {
  const c = cpus();
  // `npm run bench` runs with glibc's malloc asking for huge pages, as `npm start` does (docs/performance.md).
  const tunables = process.env.GLIBC_TUNABLES
    ? `, GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES}`
    : '';
  return `${c.length} × ${c[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}${tunables}`;
}

export const us = (ns: number) => (ns / 1000).toFixed(2) + ' µs';

/** Replace (or add) one `## …` section of bench/results.md, keeping the others. */
export function writeSection(heading: string, body: string): void {
  const file = new URL('./results.md', import.meta.url);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const start = text.indexOf(heading + '\n');
  const section = `${heading}\n\n${body.trim()}\n`;
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(file, text.slice(0, start) + section + (next === -1 ? '' : text.slice(next)));
}

/** A benchmark process of its own (fork with tsx): its first message, and `ask` for a request and its reply. */
export interface Child {
  proc: ChildProcess;
  first: any;
  ask(msg: unknown): Promise<any>;
}

/** Start `file` (relative to bench/) as a child process and wait for its first message. */
export function spawnChild(
  file: string,
  args: string[] = [],
  execArgv: string[] = [],
): Promise<Child> {
  // Under `npm test`, the compiled copy of the script (seahaven's core/test/compiled-copy.ts); else the sources through
  // tsx: the benchmarks import `seahaven` and `@seahaven/…` by name, and the condition resolves them to the sources.
  const run = compiledScript(fileURLToPath(new URL(file, import.meta.url)));
  const proc = fork(run[run.length - 1], args, {
    execArgv: [...execArgv, ...run.slice(0, -1)],
    env: { ...process.env, TZ: 'UTC' },
  });
  const queue: ((m: any) => void)[] = [];
  proc.on('message', (m) => queue.shift()?.(m));
  const next = () => new Promise<any>((resolve) => queue.push(resolve));
  return next().then((first) => ({
    proc,
    first,
    ask: (msg: unknown) => {
      const reply = next();
      proc.send(msg as never);
      return reply;
    },
  }));
}
