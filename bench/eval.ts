/**
 * The eval runner's own overhead: episodes per second of `seahaven eval`'s runner (packages/seahaven/command/eval/run.ts) against a model
 * server that answers at once (the scripted model: the gold tool calls, one per turn), beside the same loop written by
 * hand with the TypeScript client and the `openai` SDK (connect, reset, the chat turns with the world's tools, each
 * tool call, submit). Both play the same crm episodes on one served world, one episode at a time; the runner also
 * writes each episode's file and records its change log and whole grade: with the server's grader token from the
 * submit's trace (`--grader-token`), without it by replaying the episode here. The same pair in process: the
 * runner's default, and the turns by hand on `world.instance`.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/eval.ts [--quick] [--write]` (or `seahaven bench eval`). `--write` replaces the
 * "Eval runner" section of bench/results.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import crm from '@seahaven/crm';
import type { Instance } from 'seahaven/internal/core/instance';
import { SeahavenClient } from 'seahaven/client';
import { startServer } from 'seahaven/internal/transports/serve/server';
import { modelSeed, openaiTools, systemPrompt } from 'seahaven/internal/command/eval/agent';
import { localEnvs, remoteEnvs, type EnvFactory } from 'seahaven/internal/command/eval/env';
import { openaiModel } from 'seahaven/internal/command/eval/model';
import { plan, runEval } from 'seahaven/internal/command/eval/run';
import { startScriptedModel } from 'seahaven/internal/command/eval/scripted-model';
import type { RunSettings } from 'seahaven/internal/command/eval/store';
import { fixtureHashes } from 'seahaven/internal/command/eval/options';
import { machine, writeSection } from './harness.ts';

export const HEADING = '## Eval runner';

const GRADER_TOKEN = 'bench-grader-token';

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
  /** Seconds per round. */
  runner: number[];
  /** The runner on the served world with its grader token: the change log and whole grade from the server's trace. */
  traced: number[];
  hand: number[];
  inProcess: number[];
  handInProcess: number[];
  /** CPU seconds per round of the process, which holds all the servers: what the machine's other load disturbs least. */
  cpu: {
    runner: number[];
    traced: number[];
    hand: number[];
    inProcess: number[];
    handInProcess: number[];
  };
  /** Episodes that passed, per loop, over all rounds (every one should). */
  passed: {
    runner: number;
    traced: number;
    hand: number;
    inProcess: number;
    handInProcess: number;
  };
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
      const tools = openaiTools(
        reset.observation.tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.input_schema,
        })),
      );
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: systemPrompt(crm.name) },
        { role: 'user', content: reset.observation.task!.prompt },
      ];
      for (let turn = 0; turn < 20; turn++) {
        const reply = await openai.chat.completions.create({
          model: 'scripted',
          messages,
          tools,
          seed: modelSeed(key),
        });
        const said = reply.choices[0].message;
        const calls = (said.tool_calls ?? []).filter((c) => c.type === 'function');
        messages.push(
          calls.length
            ? { role: 'assistant', content: said.content, tool_calls: calls }
            : { role: 'assistant', content: said.content ?? '' },
        );
        if (calls.length === 0) break;
        for (const c of calls) {
          const r = await env.call(
            c.function.name,
            JSON.parse(c.function.arguments) as Record<string, unknown>,
          );
          messages.push({
            role: 'tool',
            tool_call_id: c.id,
            content: JSON.stringify(r.ok ? r.result : { error: r.error }),
          });
        }
      }
      if ((await env.submit()).grade.passed) passed++;
    } finally {
      await env.close();
    }
  }
  return passed;
}

/** The loop by hand in process: `world.instance` and `inst.call`, each episode's instance restarted for the next. */
async function handLoopLocal(baseUrl: string, seeds: number[]): Promise<number> {
  const openai = new OpenAI({ baseURL: baseUrl, apiKey: 'none', maxRetries: 0 });
  let passed = 0;
  let inst: Instance | undefined;
  for (const key of plan({ tasks: TASKS, seeds, trials: 1 })) {
    inst =
      inst?.restart({ task: key.task, seed: key.seed }) ??
      crm.instance({ task: key.task, seed: key.seed });
    const tools = openaiTools(inst.tools());
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(crm.name) },
      { role: 'user', content: inst.task()!.prompt },
    ];
    for (let turn = 0; turn < 20; turn++) {
      const reply = await openai.chat.completions.create({
        model: 'scripted',
        messages,
        tools,
        seed: modelSeed(key),
      });
      const said = reply.choices[0].message;
      const calls = (said.tool_calls ?? []).filter((c) => c.type === 'function');
      messages.push(
        calls.length
          ? { role: 'assistant', content: said.content, tool_calls: calls }
          : { role: 'assistant', content: said.content ?? '' },
      );
      if (calls.length === 0) break;
      for (const c of calls) {
        const r = inst.call(
          c.function.name,
          JSON.parse(c.function.arguments) as Record<string, unknown>,
        );
        messages.push({
          role: 'tool',
          tool_call_id: c.id,
          content: JSON.stringify(r.ok ? r.result : { error: r.error }),
        });
      }
    }
    if (inst.submit().passed) passed++;
  }
  inst?.destroy();
  return passed;
}

/** Wall seconds, and CPU seconds of this process (the loop, the model server and the world server together). */
async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; cpu: number; value: T }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6, value };
}

export async function runEvalBench(opts: EvalBenchOptions = {}): Promise<EvalBenchResult> {
  const log = opts.log ?? (() => undefined);
  // Many short rounds, alternating which loop goes first, so drift in the machine's load falls on both alike.
  const seedCount = opts.smoke ? 1 : 10;
  const rounds = opts.smoke ? 1 : opts.quick ? 4 : 12;
  const seeds = Array.from({ length: seedCount }, (_, i) => i);
  const episodes = seedCount * TASKS.length;
  const load = loadavg()[0];
  const server = await startServer({ worlds: [crm], port: 0, graderToken: GRADER_TOKEN });
  const model = await startScriptedModel({ world: crm, good: () => true });
  const out = mkdtempSync(join(tmpdir(), 'seahaven-bench-eval-'));
  const result: EvalBenchResult = {
    machine: machine(),
    load,
    episodes,
    rounds,
    runner: [],
    traced: [],
    hand: [],
    inProcess: [],
    handInProcess: [],
    cpu: { runner: [], traced: [], hand: [], inProcess: [], handInProcess: [] },
    passed: { runner: 0, traced: 0, hand: 0, inProcess: 0, handInProcess: 0 },
  };
  try {
    // The scripted model plays each task's gold once per seed to learn its calls: warm it (and both loops) up first.
    await handLoop(server.url, model.url, seeds);
    // The settings are worked out once, before any round, as the command line does before the run starts.
    const settings = {
      served: settingsFor(seeds, server.url, model.url),
      local: settingsFor(seeds, null, model.url),
    };
    const runner = async (envs: EnvFactory, url: string | null, dir: string) => {
      const summary = await runEval({
        world: crm,
        model: openaiModel({ baseUrl: model.url, model: 'scripted', apiKey: 'none' }),
        envs,
        out: dir,
        settings: url === null ? settings.local : settings.served,
        concurrency: 1,
      });
      return summary.played;
    };
    // What a run sets up once (the first instance opened from its fixture, the served world's version check) is set
    // up before the rounds, as in a run of many episodes: the rounds measure what each episode costs.
    const served = remoteEnvs(server.url, crm);
    const traced = remoteEnvs(server.url, crm, { graderToken: GRADER_TOKEN });
    const local = localEnvs(crm);
    await runner(served, server.url, join(out, 'warm-served'));
    await runner(traced, server.url, join(out, 'warm-traced'));
    await runner(local, null, join(out, 'warm-local'));
    for (let r = 0; r < rounds; r++) {
      log(
        `round ${r + 1} of ${rounds}: ${episodes} episodes each, the runner and the loop by hand`,
      );
      const dir = join(out, `r${r}`);
      const order: (() => Promise<void>)[] = [
        async () => {
          const t = await timed(() => runner(served, server.url, join(dir, 'served')));
          result.runner.push(t.seconds);
          result.cpu.runner.push(t.cpu);
        },
        async () => {
          const t = await timed(() => runner(traced, server.url, join(dir, 'traced')));
          result.traced.push(t.seconds);
          result.cpu.traced.push(t.cpu);
        },
        async () => {
          const t = await timed(() => handLoop(server.url, model.url, seeds));
          result.hand.push(t.seconds);
          result.cpu.hand.push(t.cpu);
          result.passed.hand += t.value;
        },
      ];
      // Each loop goes first, second and third in turn.
      for (let i = 0; i < order.length; i++) await order[(i + r) % order.length]();
      const inProcess: (() => Promise<void>)[] = [
        async () => {
          const t = await timed(() => runner(local, null, join(dir, 'local')));
          result.inProcess.push(t.seconds);
          result.cpu.inProcess.push(t.cpu);
        },
        async () => {
          const t = await timed(() => handLoopLocal(model.url, seeds));
          result.handInProcess.push(t.seconds);
          result.cpu.handInProcess.push(t.cpu);
          result.passed.handInProcess += t.value;
        },
      ];
      if (r % 2 === 1) inProcess.reverse();
      for (const step of inProcess) await step();
      const { readEpisodes } = await import('seahaven/internal/command/eval/store');
      result.passed.runner += readEpisodes(join(dir, 'served')).filter((e) => e.passed).length;
      result.passed.traced += readEpisodes(join(dir, 'traced')).filter((e) => e.passed).length;
      result.passed.inProcess += readEpisodes(join(dir, 'local')).filter((e) => e.passed).length;
    }
    return result;
  } finally {
    rmSync(out, { recursive: true, force: true });
    await model.close();
    await server.close();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function formatEval(r: EvalBenchResult): string {
  const rate = (xs: number[]) => (r.episodes * xs.length) / sum(xs);
  const overhead = sum(r.runner) / sum(r.hand) - 1;
  const cpuOverhead = sum(r.cpu.runner) / sum(r.cpu.hand) - 1;
  const tracedWall = sum(r.traced) / sum(r.hand) - 1;
  const tracedCpu = sum(r.cpu.traced) / sum(r.cpu.hand) - 1;
  const localCpu = sum(r.cpu.inProcess) / sum(r.cpu.handInProcess) - 1;
  const localWall = sum(r.inProcess) / sum(r.handInProcess) - 1;
  /** A relative difference as words: `12.1% more`, `3.0% less`. */
  const more = (x: number) => `${Math.abs(100 * x).toFixed(1)}% ${x < 0 ? 'less' : 'more'}`;
  const cpuMs = (xs: number[]) => ((1000 * sum(xs)) / (r.episodes * xs.length)).toFixed(2);
  const all = r.episodes * r.rounds;
  const out = [
    `Machine: ${r.machine}; 1-minute load average ${r.load.toFixed(1)} when the run started.`,
    '',
    `Loop: crm episodes (\`add_lead\`, \`add_company\`, \`log_call\` × ${r.episodes / TASKS.length} seeds, ${r.episodes} a round), one at a time, against a model server that answers at once with the gold tool calls, one per turn (packages/seahaven/command/eval/scripted-model.ts), and a served crm world, all in one process. "Runner": \`runEval\` with \`--url\` (what \`seahaven eval --url\` runs: a session per episode, the episode file written), with the server's grader token (\`--grader-token\`: the whole grade and change log come with the submit, in its trace) and without it (both rebuilt by replaying the calls in process); the server holds the grader token either way. "By hand": the same turns with \`SeahavenClient\` and the \`openai\` SDK, nothing recorded. The same two in process: the runner's default (an instance per episode, restarted for the next) and the turns by hand on \`world.instance\`. ${r.rounds} round${r.rounds === 1 ? '' : 's'} of each, alternating which goes first (the three served loops in rotation); episodes/s over all rounds. A run's set-up (the first instance opened from its fixture, the served world's version check, with the grader token the first episode's replay as a check) is done once before the rounds.`,
    '',
    '| loop | episodes/s | CPU per episode (all servers) | passed |',
    '|---|---:|---:|---:|',
    `| by hand (\`SeahavenClient\` + \`openai\`) | ${rate(r.hand).toFixed(1)} | ${cpuMs(r.cpu.hand)} ms | ${r.passed.hand} of ${all} |`,
    `| runner, served world (\`--url --grader-token\`) | ${rate(r.traced).toFixed(1)} | ${cpuMs(r.cpu.traced)} ms | ${r.passed.traced} of ${all} |`,
    `| runner, served world (\`--url\`, no grader token: replayed here) | ${rate(r.runner).toFixed(1)} | ${cpuMs(r.cpu.runner)} ms | ${r.passed.runner} of ${all} |`,
    `| by hand, in process (\`world.instance\` + \`openai\`) | ${rate(r.handInProcess).toFixed(1)} | ${cpuMs(r.cpu.handInProcess)} ms | ${r.passed.handInProcess} of ${all} |`,
    `| runner, in process (the default) | ${rate(r.inProcess).toFixed(1)} | ${cpuMs(r.cpu.inProcess)} ms | ${r.passed.inProcess} of ${all} |`,
    '',
    `In process (the default), the runner's own overhead over the loop by hand: ${more(localCpu)} CPU per episode, ${more(localWall)} wall time.`,
    `On a served world with the grader token, the runner's own overhead over the loop by hand with \`SeahavenClient\`: ${more(tracedCpu)} CPU per episode, ${more(tracedWall)} wall time (wall time per round: ${r.hand.map((h, i) => `${(100 * (r.traced[i] / h - 1)).toFixed(0)}%`).join(', ')}; on a loaded machine wall time follows the other load, CPU time much less).`,
    `On a served world without it (each episode replayed here): ${more(cpuOverhead)} CPU per episode, ${more(overhead)} wall time (per round: ${r.hand.map((h, i) => `${(100 * (r.runner[i] / h - 1)).toFixed(0)}%`).join(', ')}).`,
  ];
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runEvalBench({
    quick: process.argv.includes('--quick'),
    smoke: process.argv.includes('--smoke'),
    log: (l) => process.stderr.write(`  ${l}\n`),
  });
  const section = formatEval(result);
  process.stdout.write(`${HEADING}\n\n${section}\n`);
  if (process.argv.includes('--write')) writeSection(HEADING, section);
}
