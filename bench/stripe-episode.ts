/**
 * Graded Stripe episodes end to end over OpenEnv: for each of Stripe World's tasks, a `seahaven/client` session on
 * `/ws` resets to the task (a fresh copy of `small_startup`), plays the task's gold solution as `call_tool` steps, and
 * submits for its reward, against a Seahaven server (`startServer` with Stripe World) in a process of its own. The
 * floor is the same episode in process: `world.instance({ task })`, the same calls through `inst.call`, `submit()`.
 * The gold calls are recorded once in process and sent as they are, so both sides do the same work.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/stripe-episode.ts` or `npx seahaven bench stripe-episode [--quick] [--write]`.
 */
import { fileURLToPath } from 'node:url';
import { SeahavenClient } from 'seahaven/client';
import {
  recordGold,
  type RecordedCall,
} from 'seahaven/internal/transports/serve/test-fixtures/wire-gold';
import { stripe } from '@seahaven/stripe';
import { machine, spawnChild } from './harness.ts';

export const HEADING = '## Graded Stripe episodes over OpenEnv';

export interface EpisodeRow {
  task: string;
  calls: number;
  /** Reward at submit over the wire (every round; the gold solution must earn 1). */
  reward: number;
  wire: { p50: number; max: number };
  inProcess: { p50: number; max: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function inProcessEpisode(task: string, calls: RecordedCall[]): number {
  const t = performance.now();
  const inst = stripe.instance({ task });
  for (const c of calls) inst.call(c.tool, c.args);
  const reward = inst.submit().reward;
  inst.destroy();
  if (reward !== 1) throw new Error(`${task}: the gold calls earned ${reward} in process`);
  return performance.now() - t;
}

async function wireEpisode(
  env: SeahavenClient,
  task: string,
  calls: RecordedCall[],
): Promise<{ ms: number; reward: number }> {
  const t = performance.now();
  await env.reset({ task });
  for (const c of calls) await env.call(c.tool, c.args);
  const { reward } = await env.submit();
  return { ms: performance.now() - t, reward: reward ?? 0 };
}

export async function runStripeEpisodeBench(
  opts: { quick?: boolean; tasks?: string[]; log?: (line: string) => void } = {},
): Promise<EpisodeRow[]> {
  const rounds = opts.quick ? 2 : 7;
  const tasks = opts.tasks ?? stripe.tasks.map((t) => t.id);
  const server = await spawnChild('./http-face-servers.ts', ['seahaven']);
  const rows: EpisodeRow[] = [];
  try {
    const env = await SeahavenClient.connect(`http://127.0.0.1:${server.first.port}`);
    try {
      for (const task of tasks) {
        opts.log?.(task);
        const { calls } = recordGold(stripe, task);
        // One of each first, so the fixture is loaded on both sides before anything is timed.
        inProcessEpisode(task, calls);
        await wireEpisode(env, task, calls);
        const wire: number[] = [];
        const local: number[] = [];
        let reward = 1;
        for (let r = 0; r < rounds; r++) {
          local.push(inProcessEpisode(task, calls));
          const w = await wireEpisode(env, task, calls);
          wire.push(w.ms);
          reward = Math.min(reward, w.reward);
        }
        rows.push({
          task,
          calls: calls.length,
          reward,
          wire: { p50: median(wire), max: Math.max(...wire) },
          inProcess: { p50: median(local), max: Math.max(...local) },
        });
      }
    } finally {
      await env.close();
    }
  } finally {
    // The server exits on this message without answering it.
    server.proc.send({ cmd: 'exit' });
  }
  return rows;
}

export function formatStripeEpisodes(rows: EpisodeRow[]): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const out = [
    `Machine: ${machine()}.`,
    '',
    'Each of Stripe World\'s graded tasks played end to end by its gold solution: a `seahaven/client` session on `/ws` resets to the task (a fresh copy of `small_startup`, 11 MB), sends the gold solution\'s tool calls as `call_tool` steps and submits; the server (`startServer` with Stripe World) runs in a process of its own. "In process" is the same episode without sockets: `world.instance({ task })`, the same calls through `inst.call`, `submit()`, `destroy()`. Figures are the median and the slowest of the measured rounds, after one unmeasured round of each.',
    '',
    '| task | gold calls | reward at submit | over OpenEnv p50 | max | in process p50 | max | wire / in process |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| \`${r.task}\` | ${r.calls} | ${r.reward.toFixed(1)} | ${ms(r.wire.p50)} | ${ms(r.wire.max)} | ${ms(r.inProcess.p50)} | ${ms(r.inProcess.max)} | ${(r.wire.p50 / r.inProcess.p50).toFixed(2)} |`,
    ),
    '',
    `Every episode over the wire earned reward ${rows.every((r) => r.reward === 1) ? '1.0' : 'less than 1.0 in some round'}. What the wire adds, per request (reset, each call, submit), is ${ms(median(rows.map((r) => (r.wire.p50 - r.inProcess.p50) / (r.calls + 2))))} at the median over the tasks: the frames, the session's turn in the scheduler and the client's own work, on top of what the episode costs in process.`,
  ];
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await runStripeEpisodeBench({
    quick: process.argv.includes('--quick'),
    log: (l) => process.stderr.write(`  ${l}\n`),
  });
  process.stdout.write(`${HEADING}\n\n${formatStripeEpisodes(rows)}\n`);
}
