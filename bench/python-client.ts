/**
 * The Python client's throughput beside the TypeScript client's: 64 sessions on one asyncio event loop
 * (`AsyncSeahavenClient`, bench/python-client.py) and 64 `SeahavenClient`s on one Node event loop
 * (bench/python-client-load.ts), each session a closed loop of crm `add_lead` episodes (reset, three calls, state,
 * submit), against one Seahaven server (the WebSocket benchmark's, bench/ws-servers.ts). The server and each load
 * generator run in processes of their own; where `taskset` exists, the generators are pinned to the last CPU and the
 * server's event-loop thread to the first. Each round runs both clients back to back (alternating which goes first).
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/python-client.ts [--quick] [--write]` (or `seahaven bench python-client`). `--write`
 * replaces the "Python client" section of bench/results.md. The Python interpreter is `$PYTHON`, else the first of
 * `python3` and `/usr/bin/python3` that can import `websockets`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compiledScript } from 'seahaven/internal/core/test/compiled-copy';
import { machine, spawnChild, writeSection } from './harness.ts';
import type { LoadResult } from './python-client-load.ts';

export const HEADING = '## Python client';

export interface PythonClientBenchOptions {
  /** Two shorter rounds (about 15 s). */
  quick?: boolean;
  /** One tiny round that only proves the benchmark works (tests). */
  smoke?: boolean;
  sessions?: number;
  log?: (line: string) => void;
}

export interface PythonClientBenchResult {
  machine: string;
  load: number;
  pinned: boolean;
  sessions: number;
  rounds: number;
  warmupMs: number;
  durationMs: number;
  interpreter: { executable: string; version: string; websockets: string };
  /** Each round's result, per client. */
  typescript: LoadResult[];
  python: LoadResult[];
  /** Python's steps/s over TypeScript's, per round. */
  pairedRatios: number[];
}

/** The interpreter to run: `$PYTHON`, else the first of python3 and /usr/bin/python3 that has `websockets`. */
export function findPython(): string | undefined {
  const candidates = process.env.PYTHON ? [process.env.PYTHON] : ['python3', '/usr/bin/python3'];
  return candidates.find(
    (py) =>
      spawnSync(py, ['-c', 'import websockets'], { stdio: 'ignore', timeout: 30_000 }).status === 0,
  );
}

export function hasTaskset(): boolean {
  return (
    availableParallelism() >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0
  );
}

/** Run a load generator (optionally pinned to `cpu`) and parse the JSON line it prints. */
export function generate<T = LoadResult>(
  command: string,
  args: string[],
  cpu: number | undefined,
): Promise<T> {
  const [file, argv] =
    cpu === undefined ? [command, args] : ['taskset', ['-c', String(cpu), command, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TZ: 'UTC' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{'))
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${out}\n${err}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

const stepsPerSec = (r: LoadResult) => r.steps / r.windowS;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const best = (rs: LoadResult[]) => rs.reduce((a, b) => (stepsPerSec(b) > stepsPerSec(a) ? b : a));

export async function runPythonClientBench(
  opts: PythonClientBenchOptions = {},
): Promise<PythonClientBenchResult> {
  const log = opts.log ?? (() => undefined);
  const python = findPython();
  if (python === undefined)
    throw new Error(
      'no python3 can import websockets; install it: apt-get install -y python3-websockets',
    );
  const sessions = opts.sessions ?? (opts.smoke ? 4 : 64);
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 5;
  const warmupMs = opts.smoke ? 200 : 1000;
  const durationMs = opts.smoke ? 500 : opts.quick ? 2000 : 3000;
  const load = loadavg()[0];
  const versions = JSON.parse(
    execFileSync(
      python,
      [
        '-c',
        'import json, sys, websockets; print(json.dumps({"version": sys.version.split()[0], "websockets": websockets.__version__}))',
      ],
      { encoding: 'utf8' },
    ),
  ) as { version: string; websockets: string };

  const server = await spawnChild('./ws-servers.ts', ['seahaven']);
  try {
    const pinned = hasTaskset();
    const last = availableParallelism() - 1;
    if (pinned) execFileSync('taskset', ['-cp', '0', String(server.proc.pid)], { stdio: 'ignore' });
    const url = `http://127.0.0.1:${server.first.port}`;
    const cpu = pinned ? last : undefined;
    const tsArgs = compiledScript(
      fileURLToPath(new URL('./python-client-load.ts', import.meta.url)),
    );
    const pyScript = fileURLToPath(new URL('./python-client.py', import.meta.url));
    const common = [url, String(sessions), String(warmupMs), String(durationMs)];
    const runTs = () => generate(process.execPath, [...tsArgs, ...common], cpu);
    const runPy = () => generate(python, [pyScript, ...common], cpu);

    const typescript: LoadResult[] = [];
    const pyResults: LoadResult[] = [];
    const pairedRatios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      log(
        `round ${r + 1} of ${rounds}: ${sessions} sessions, TypeScript and Python (${r % 2 === 0 ? 'TypeScript' : 'Python'} first)`,
      );
      let ts: LoadResult;
      let py: LoadResult;
      if (r % 2 === 0) {
        ts = await runTs();
        py = await runPy();
      } else {
        py = await runPy();
        ts = await runTs();
      }
      typescript.push(ts);
      pyResults.push(py);
      pairedRatios.push(stepsPerSec(py) / stepsPerSec(ts));
    }
    return {
      machine: machine(),
      load,
      pinned,
      sessions,
      rounds,
      warmupMs,
      durationMs,
      interpreter: { executable: python, ...versions },
      typescript,
      python: pyResults,
      pairedRatios,
    };
  } finally {
    server.proc.send({ cmd: 'exit' });
  }
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`);

export function formatPythonClient(r: PythonClientBenchResult): string {
  const out: string[] = [];
  const busy =
    r.load >= availableParallelism()
      ? " The machine was busy with other work (a load average at or above its CPU count), so the server got a fraction of a CPU: absolute figures are far below the WebSocket section's and rounds vary widely; the paired median and the CPU per step are the steadier comparisons."
      : '';
  out.push(
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started. Python ${r.interpreter.version}, websockets ${r.interpreter.websockets}.${busy}`,
  );
  out.push('');
  out.push(
    `Load: ${r.sessions} sessions on one event loop, each a closed loop of crm \`add_lead\` episodes: reset (\`task\`), \`search_contacts\`, \`get_company\`, \`create_contact\` (the task's solution), state, submit (reward 1). A step is one request answered (6 an episode). Python: \`AsyncSeahavenClient\` on asyncio (\`bench/python-client.py\`); TypeScript: \`SeahavenClient\` on Node (\`bench/python-client-load.ts\`). One Seahaven server (\`startServer\`, crm, no idle timeout) in a process of its own serves both; each client runs in a process of its own. ${r.pinned ? "The clients are pinned to one CPU and the server's event-loop thread to another (`taskset`)." : 'Nothing is pinned (`taskset` was not available).'} ${r.rounds} round${r.rounds === 1 ? '' : 's'} of ${r.durationMs / 1000} s (after ${r.warmupMs / 1000} s of warm-up) per client, back to back, alternating which goes first; the figures are each client's best round, "client CPU per step" the median over rounds of the CPU time the client's process used in the measured window per step answered, and "paired" the median over rounds of Python's steps/s over TypeScript's in the same round.`,
  );
  out.push('');
  out.push(
    '| client | steps/s | episodes/s | step p50 | step p99 | client CPU per step | failed episodes |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, results] of [
    ['TypeScript (`seahaven/client`)', r.typescript],
    ['Python (`seahaven_client`, asyncio)', r.python],
  ] as const) {
    const b = best(results);
    const errors = results.reduce((a, x) => a + x.errors, 0);
    const cpuUs = median(results.map((x) => (x.cpuS * 1e6) / Math.max(1, x.steps)));
    out.push(
      `| ${name} | ${n(stepsPerSec(b))} | ${n(b.episodes / b.windowS)} | ${ms(b.p50Us)} | ${ms(b.p99Us)} | ${ms(cpuUs)} | ${errors} |`,
    );
  }
  const paired = median(r.pairedRatios);
  const ratio = stepsPerSec(best(r.python)) / stepsPerSec(best(r.typescript));
  out.push('');
  out.push(
    `Python's steps/s: ${(paired * 100).toFixed(0)}% of the TypeScript client's, the paired median (rounds: ${r.pairedRatios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')}; best round over best round: ${(ratio * 100).toFixed(0)}%). Target ≥ 50%: ${paired >= 0.5 ? 'met' : 'not met'}.`,
  );
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runPythonClientBench({
    quick: process.argv.includes('--quick'),
    smoke: process.argv.includes('--smoke'),
    log: (l) => process.stderr.write(`  ${l}\n`),
  });
  const section = formatPythonClient(result);
  process.stdout.write(`${HEADING}\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection(HEADING, section);
}
