/**
 * The eval runner's own overhead: episodes per second of `seahaven eval`'s runner (kit/eval/run.ts) against a model
 * server that answers at once (the scripted model: the gold tool calls, one per turn), beside the same loop written by
 * hand with the TypeScript client and the `openai` SDK (connect, reset, the chat turns with the world's tools, each
 * tool call, submit). Both play the same crm episodes on one served world, one episode at a time; the runner also
 * writes each episode's file and rebuilds its change log. A third row: the runner with episodes in process.
 *
 * Run: `node --import tsx bench/eval.ts [--quick] [--write]` (or `seahaven bench eval`). `--write` replaces the
 * "Eval runner" section of bench/results.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import crm from '../worlds/crm/index.ts';
import { SeahavenClient } from '../kit/client/index.ts';
import { startServer } from '../kit/serve/server.ts';
import { modelSeed, openaiTools, systemPrompt } from '../kit/eval/agent.ts';
import { localEnvs, remoteEnvs, type EnvFactory } from '../kit/eval/env.ts';
import { openaiModel } from '../kit/eval/model.ts';
import { plan, runEval } from '../kit/eval/run.ts';
import { startScriptedModel } from '../kit/eval/scripted-model.ts';
import type { RunSettings } from '../kit/eval/store.ts';
import { fixtureHashes } from '../kit/eval/options.ts';
import { machine, writeSection } from './harness.ts';

export const HEADING = '## Eval runner';

const TASKS = ['add_lead', 'add_company', 'log_call'];

export interface EvalBenchOptions {
  quick?: boolean;
  /** One tiny round that only proves the benchmark works (tests). */
  smoke?: boolean;
  log?: (line: string) => void;
}

export interface EvalBenchResult {
  machine: string;
  load: number;
  episodes: number;
  rounds: number;
  /** Episodes per second, per round. */
  runner: number[];
  hand: number[];
  inProcess: number[];
  /** Episodes that passed, per loop, over all rounds (every one should). */
  passed: { runner: number; hand: number; inProcess: number };
}

function settingsFor(seeds: number[], url: string | null, baseUrl: string): RunSettings {
  return {
    format: 'seahaven.eval-run/1',
    world: { name: crm.name, version: crm.version, schema_hash: crm.schemaHash },
    fixtures: fixtureHashes(crm, TASKS),
    model: 'scripted',
    base_url: baseUrl,
    url,
    tasks: TASKS,
    seeds,
    trials: 1,
    max_turns: 20,
    max_tokens: null,
    temperature: null,
  };
}

/** The loop by hand: what a user writes without the runner. Returns the episodes that passed. */
async function handLoop(url: string, baseUrl: string, seeds: number[]): Promise<number> {
  const openai = new OpenAI({ baseURL: baseUrl, apiKey: 'none', maxRetries: 0 });
  let passed = 0;
  for (const key of plan({ tasks: TASKS, seeds, trials: 1 })) {
    const env = await SeahavenClient.connect(url);
    try {
      const reset = await env.reset({ task: key.task, seed: key.seed });
      const tools = openaiTools(reset.observation.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema })));
      const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(crm.name) }, { role: 'user', content: reset.observation.task!.prompt }];
      for (let turn = 0; turn < 20; turn++) {
        const reply = await openai.chat.completions.create({ model: 'scripted', messages, tools, seed: modelSeed(key) });
        const said = reply.choices[0].message;
        const calls = (said.tool_calls ?? []).filter((c) => c.type === 'function');
        messages.push(calls.length ? { role: 'assistant', content: said.content, tool_calls: calls } : { role: 'assistant', content: said.content ?? '' });
        if (calls.length === 0) break;
        for (const c of calls) {
          const r = await env.call(c.function.name, JSON.parse(c.function.arguments) as Record<string, unknown>);
          messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(r.ok ? r.result : { error: r.error }) });
        }
      }
      if ((await env.submit()).grade.passed) passed++;
    } finally {
      await env.close();
    }
  }
  return passed;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - t0) / 1000, value };
}

export async function runEvalBench(opts: EvalBenchOptions = {}): Promise<EvalBenchResult> {
  const log = opts.log ?? (() => undefined);
  const seedCount = opts.smoke ? 1 : opts.quick ? 10 : 30;
  const rounds = opts.smoke ? 1 : opts.quick ? 2 : 5;
  const seeds = Array.from({ length: seedCount }, (_, i) => i);
  const episodes = seedCount * TASKS.length;
  const load = loadavg()[0];
  const server = await startServer({ worlds: [crm], port: 0 });
  const model = await startScriptedModel({ world: crm, good: () => true });
  const out = mkdtempSync(join(tmpdir(), 'seahaven-bench-eval-'));
  const result: EvalBenchResult = { machine: machine(), load, episodes, rounds, runner: [], hand: [], inProcess: [], passed: { runner: 0, hand: 0, inProcess: 0 } };
  try {
    // The scripted model plays each task's gold once per seed to learn its calls: warm it (and both loops) up first.
    await handLoop(server.url, model.url, seeds);
    const runner = async (envs: EnvFactory, url: string | null, dir: string) => {
      const summary = await runEval({ world: crm, model: openaiModel({ baseUrl: model.url, model: 'scripted', apiKey: 'none' }), envs, out: dir, settings: settingsFor(seeds, url, model.url), concurrency: 1 });
      return summary.played;
    };
    for (let r = 0; r < rounds; r++) {
      log(`round ${r + 1} of ${rounds}: ${episodes} episodes each, the runner and the loop by hand`);
      const dir = join(out, `r${r}`);
      const order: (() => Promise<void>)[] = [
        async () => {
          const t = await timed(() => runner(remoteEnvs(server.url, crm), server.url, join(dir, 'served')));
          result.runner.push(episodes / t.seconds);
        },
        async () => {
          const t = await timed(() => handLoop(server.url, model.url, seeds));
          result.hand.push(episodes / t.seconds);
          result.passed.hand += t.value;
        },
      ];
      if (r % 2 === 1) order.reverse();
      for (const step of order) await step();
      const t = await timed(() => runner(localEnvs(crm), null, join(dir, 'local')));
      result.inProcess.push(episodes / t.seconds);
      const { readEpisodes } = await import('../kit/eval/store.ts');
      result.passed.runner += readEpisodes(join(dir, 'served')).filter((e) => e.passed).length;
      result.passed.inProcess += readEpisodes(join(dir, 'local')).filter((e) => e.passed).length;
    }
    return result;
  } finally {
    rmSync(out, { recursive: true, force: true });
    await model.close();
    await server.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export function formatEval(r: EvalBenchResult): string {
  const best = (xs: number[]) => Math.max(...xs);
  const overhead = best(r.hand) / best(r.runner) - 1;
  const paired = median(r.hand.map((h, i) => h / r.runner[i] - 1));
  const out = [
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started.`,
    '',
    `Loop: ${r.episodes} crm episodes (\`add_lead\`, \`add_company\`, \`log_call\` × ${r.episodes / TASKS.length} seeds), one at a time, against a model server that answers at once with the gold tool calls, one per turn (kit/eval/scripted-model.ts), and a served crm world, all in one process. "Runner": \`runEval\` with \`--url\` (what \`seahaven eval --url\` runs: a session per episode, the episode file written, the change log rebuilt by replaying the calls in process). "By hand": the same turns with \`SeahavenClient\` and the \`openai\` SDK, nothing recorded. ${r.rounds} round${r.rounds === 1 ? '' : 's'}, alternating which goes first; the table shows each loop's best round.`,
    '',
    '| loop | episodes/s | passed |',
    '|---|---:|---:|',
    `| by hand (\`SeahavenClient\` + \`openai\`) | ${best(r.hand).toFixed(1)} | ${r.passed.hand} of ${r.episodes * r.rounds} |`,
    `| runner, served world (\`--url\`) | ${best(r.runner).toFixed(1)} | ${r.passed.runner} of ${r.episodes * r.rounds} |`,
    `| runner, in process (the default) | ${best(r.inProcess).toFixed(1)} | ${r.passed.inProcess} of ${r.episodes * r.rounds} |`,
    '',
    `The runner's own overhead over the loop by hand, best round against best round: ${(100 * overhead).toFixed(1)}% (the time per episode the runner adds, as a share of the runner's). Round by round, the loops side by side: ${r.hand.map((h, i) => `${(100 * (h / r.runner[i] - 1)).toFixed(1)}%`).join(', ')} (median ${(100 * paired).toFixed(1)}%); on a loaded machine these spread wide, and the best rounds are the ones least disturbed.`,
  ];
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runEvalBench({ quick: process.argv.includes('--quick'), smoke: process.argv.includes('--smoke'), log: (l) => process.stderr.write(`  ${l}\n`) });
  const section = formatEval(result);
  process.stdout.write(`${HEADING}\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection(HEADING, section);
}
