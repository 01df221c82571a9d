/**
 * What `seahaven eval` and `seahaven collect` share: from flags to a finished run folder. Load the world, check the
 * options, play every episode not yet recorded (in this process, or on the served world of `--url`), and write
 * `eval.json` and `report.html` from every recorded episode.
 */
import { join } from 'node:path';
import type { World } from '../../core/world-types.ts';
import { localEnvs, remoteEnvs, remoteTraceSource } from './env.ts';
import { openaiModel } from './model.ts';
import { apiKeyOf, graderTokenOf, numbers, runSettings, type RunFlags } from './options.ts';
import { progressLine, runEval, type RunSummary } from './run.ts';
import { readEpisodes, writeAtomic, type RunSettings } from './store.ts';
import { summarize, type EvalSummary } from './summary.ts';
import { renderReport } from './report.ts';

export interface Played {
  settings: RunSettings;
  /** On a served world: where each episode's whole grade and change log came from (the server, or a replay here). */
  source: string | null;
  run: RunSummary;
  summary: EvalSummary;
}

export interface PlayIo {
  env: Record<string, string | undefined>;
  /** Where progress goes (stderr). */
  progress: (line: string, final: boolean) => void;
}

/** Write `eval.json` and `report.html` of the run folder `dir` from its episodes. */
export function writeReports(dir: string, settings: RunSettings): EvalSummary {
  const records = readEpisodes(dir);
  const summary = summarize(settings, records);
  writeAtomic(join(dir, 'eval.json'), JSON.stringify(summary, null, 2) + '\n');
  writeAtomic(join(dir, 'report.html'), renderReport(summary, records));
  return summary;
}

export async function play(world: World, flags: RunFlags, io: PlayIo): Promise<Played> {
  const settings = runSettings(world, flags);
  const { concurrency, retries, retryBackoffMs } = numbers(flags);
  const apiKey = apiKeyOf(flags, io.env);
  const remote = {
    token: flags.token ?? (io.env.SEAHAVEN_TOKEN || undefined),
    graderToken: graderTokenOf(flags, io.env),
  };
  const out = flags.out ?? 'eval-out';
  const model = openaiModel({
    baseUrl: settings.base_url,
    model: settings.model,
    apiKey,
    retries,
    backoffMs: retryBackoffMs,
  });
  const envs = settings.url === null ? localEnvs(world) : remoteEnvs(settings.url, world, remote);
  const source =
    settings.url === null ? null : `episodes on ${settings.url}: ${remoteTraceSource(remote)}`;
  if (source !== null) io.progress(source, true);
  const run = await runEval({
    world,
    model,
    envs,
    out,
    settings,
    concurrency,
    onProgress: (p) => io.progress(progressLine(p), p.done + p.skipped === p.total),
  });
  return { settings, source, run, summary: writeReports(out, settings) };
}

/** The closing lines of a run: the overall figures, each task's, and where the reports are. */
export function summaryLines(played: Played, out: string): string[] {
  const o = played.summary.overall;
  const pk = Object.entries(o.pass_k)
    .map(([k, v]) => `pass^${k} ${v.toFixed(3)}`)
    .join(', ');
  const lines = [
    `${played.settings.model} on ${played.settings.world.name} ${played.settings.world.version}: ${o.successes}/${o.episodes} episodes passed, mean reward ${o.mean_reward.toFixed(3)}; ${pk}`,
  ];
  for (const t of played.summary.tasks)
    lines.push(
      `  ${t.task}: ${t.successes}/${t.trials} passed, mean reward ${t.mean_reward.toFixed(3)}`,
    );
  if (played.source !== null) lines.push(played.source);
  lines.push(
    `wrote ${join(out, 'eval.json')} and ${join(out, 'report.html')} (${played.run.played} episodes played, ${played.run.skipped} kept from before, ${played.run.seconds.toFixed(1)}s)`,
  );
  return lines;
}
