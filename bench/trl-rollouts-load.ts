/**
 * The TypeScript side of the TRL rollout benchmark (bench/trl-rollouts.ts): `rollouts` crm `add_lead` episodes one
 * after another on one `SeahavenClient` session, the way TRL drives an environment (reset with the dataset row, the
 * model's tool call, the reward), so the figure is the environment's time per rollout with nothing else in the loop.
 * Prints one JSON line: each rollout's time in microseconds, and the rewards.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/trl-rollouts-load.ts <base_url> <rollouts> <warmup>`.
 */
import { SeahavenClient } from 'seahaven/client';
import { ADD_LEAD } from './python-client-load.ts';

export interface RolloutResult {
  client: string;
  rollouts: number;
  /** Each measured rollout's time (reset, one tool call, submit), in µs. */
  timesUs: number[];
  rewards: number[];
}

async function main(): Promise<void> {
  const [url, rolloutsArg, warmupArg] = process.argv.slice(2);
  const rollouts = Number(rolloutsArg);
  const env = await SeahavenClient.connect(url);
  const timesUs: number[] = [];
  const rewards: number[] = [];
  for (let i = -Number(warmupArg); i < rollouts; i++) {
    const t0 = performance.now();
    await env.reset({ task: 'add_lead', seed: Math.max(0, i) });
    await env.call('create_contact', ADD_LEAD);
    const { reward } = await env.submit();
    const t1 = performance.now();
    if (i >= 0) {
      timesUs.push((t1 - t0) * 1000);
      rewards.push(reward ?? Number.NaN);
    }
  }
  await env.close();
  const result: RolloutResult = { client: 'typescript', rollouts, timesUs, rewards };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
