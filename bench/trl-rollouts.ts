/**
 * Environment time per rollout as TRL drives it: one environment, rollouts one after another (reset with the dataset
 * row, the model's tool call, the reward), 64 crm `add_lead` rollouts through `seahaven_client.trl`
 * (bench/trl-rollouts.py) against the same loop with the TypeScript client (bench/trl-rollouts-load.ts), both
 * against one Seahaven server (the WebSocket benchmark's, bench/ws-servers.ts) in a process of its own. Each round
 * runs both loops back to back, alternating which goes first; where `taskset` exists the loops are pinned to the last
 * CPU and the server's event-loop thread to the first.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/trl-rollouts.ts [--quick] [--write]` (or `seahaven bench trl-rollouts`). `--write`
 * replaces the "TRL rollouts" section of bench/results.md. The interpreter is `$PYTHON`, else the first of `python3`
 * and `/usr/bin/python3` that can import `websockets`.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compiledScript } from 'seahaven/internal/core/test/compiled-copy';
import { machine, spawnChild, writeSection } from './harness.ts';
import { findPython, generate, hasTaskset } from './python-client.ts';
import type { RolloutResult } from './trl-rollouts-load.ts';

export const HEADING = '## TRL rollouts';

export interface TrlRolloutsOptions {
  quick?: boolean;
  /** One tiny round that only proves the benchmark works (tests). */
  smoke?: boolean;
  log?: (line: string) => void;
}

export interface TrlRolloutsResult {
  machine: string;
  load: number;
  pinned: boolean;
  rollouts: number;
  rounds: number;
  python: string;
  typescript: RolloutResult[];
  trl: RolloutResult[];
}

export async function runTrlRolloutsBench(
  opts: TrlRolloutsOptions = {},
): Promise<TrlRolloutsResult> {
  const log = opts.log ?? (() => undefined);
  const python = findPython();
  if (python === undefined)
    throw new Error(
      'no python3 can import websockets; install it: apt-get install -y python3-websockets',
    );
  const rollouts = opts.smoke ? 4 : 64;
  const warmup = opts.smoke ? 1 : 8;
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 5;
  const load = loadavg()[0];
  const server = await spawnChild('./ws-servers.ts', ['seahaven']);
  try {
    const pinned = hasTaskset();
    if (pinned) execFileSync('taskset', ['-cp', '0', String(server.proc.pid)], { stdio: 'ignore' });
    const cpu = pinned ? availableParallelism() - 1 : undefined;
    const url = `http://127.0.0.1:${server.first.port}/crm`;
    const args = [url, String(rollouts), String(warmup)];
    const tsLoop = [
      process.execPath,
      [
        ...compiledScript(fileURLToPath(new URL('./trl-rollouts-load.ts', import.meta.url))),
        ...args,
      ],
    ] as const;
    const pyLoop = [
      python,
      [fileURLToPath(new URL('./trl-rollouts.py', import.meta.url)), ...args],
    ] as const;
    const typescript: RolloutResult[] = [];
    const trl: RolloutResult[] = [];
    for (let r = 0; r < rounds; r++) {
      log(
        `round ${r + 1} of ${rounds}: ${rollouts} rollouts each, TypeScript and seahaven_client.trl`,
      );
      const order = r % 2 === 0 ? [tsLoop, pyLoop] : [pyLoop, tsLoop];
      for (const [cmd, argv] of order) {
        const result = await generate<RolloutResult>(cmd, [...argv], cpu);
        (cmd === python ? trl : typescript).push(result);
      }
    }
    return { machine: machine(), load, pinned, rollouts, rounds, python, typescript, trl };
  } finally {
    server.proc.send({ cmd: 'exit' });
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => pct(xs, 50);
const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;

/** The round whose mean rollout time is the lowest: the one least disturbed by other work on the machine. */
const bestRound = (rs: RolloutResult[]) =>
  rs.reduce((a, b) => (mean(b.timesUs) < mean(a.timesUs) ? b : a));

export function formatTrlRollouts(r: TrlRolloutsResult): string {
  const out: string[] = [];
  out.push(
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started.`,
  );
  out.push('');
  out.push(
    `Loop: ${r.rollouts} crm \`add_lead\` rollouts one after another on one environment, as TRL's \`environment_factory\` drives it: \`reset\` with the dataset row (task, seed), the model's one tool call (\`create_contact\`, the task's solution), then the reward (a \`submit\`: reward 1). Python: the class \`seahaven_client.trl.environment_class\` makes, rows from \`task_dataset\`, the reward from \`reward_func\` (bench/trl-rollouts.py); TypeScript: the same three requests with \`SeahavenClient\` (bench/trl-rollouts-load.ts). One Seahaven server in a process of its own serves both; each loop runs in a process of its own${r.pinned ? ", pinned to one CPU and the server's event-loop thread to another (`taskset`)" : ''}. ${r.rounds} round${r.rounds === 1 ? '' : 's'} per loop, back to back, alternating which goes first; the table shows each loop's best round (lowest mean), "paired" the median over rounds of the TRL loop's mean over the TypeScript loop's in the same round.`,
  );
  out.push('');
  out.push('| loop | mean per rollout | p50 | p99 | rollouts/s | rewards of 1 |');
  out.push('|---|---:|---:|---:|---:|---:|');
  for (const [name, results] of [
    ['TypeScript (`SeahavenClient`)', r.typescript],
    ['TRL (`seahaven_client.trl`)', r.trl],
  ] as const) {
    const b = bestRound(results);
    const ones = results.reduce((a, x) => a + x.rewards.filter((v) => v === 1).length, 0);
    const all = results.reduce((a, x) => a + x.rewards.length, 0);
    out.push(
      `| ${name} | ${ms(mean(b.timesUs))} | ${ms(pct(b.timesUs, 50))} | ${ms(pct(b.timesUs, 99))} | ${(1e6 / mean(b.timesUs)).toFixed(0)} | ${ones} of ${all} |`,
    );
  }
  const paired = median(r.trl.map((t, i) => mean(t.timesUs) / mean(r.typescript[i].timesUs)));
  out.push('');
  out.push(
    `The TRL loop's environment time per rollout is ${paired.toFixed(2)}× the TypeScript client's (paired median over rounds: ${r.trl.map((t, i) => (mean(t.timesUs) / mean(r.typescript[i].timesUs)).toFixed(2)).join(', ')}).`,
  );
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runTrlRolloutsBench({
    quick: process.argv.includes('--quick'),
    smoke: process.argv.includes('--smoke'),
    log: (l) => process.stderr.write(`  ${l}\n`),
  });
  const section = formatTrlRollouts(result);
  process.stdout.write(`${HEADING}\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection(HEADING, section);
}
