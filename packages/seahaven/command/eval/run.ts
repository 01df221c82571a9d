/**
 * A run: every task × seed × trial not yet recorded in the output folder, played `concurrency` at a time (one
 * environment each), each episode written as soon as it is graded. A failure no retry can fix (the model server
 * refuses the key, is not there) stops the run: the episodes in flight are abandoned, the finished ones stay, and
 * running the same command again resumes.
 */
import { setMaxListeners } from 'node:events';
import type { World } from '../../core/world-types.ts';
import {
  episodeId,
  runEpisode,
  type Budget,
  type EpisodeKey,
  type EpisodeRecord,
} from './agent.ts';
import type { EnvFactory } from './env.ts';
import type { Model } from './model.ts';
import {
  finishedEpisodes,
  openRunFolder,
  readEpisodes,
  writeEpisode,
  type RunSettings,
} from './store.ts';

export interface RunOptions {
  world: World;
  model: Model;
  envs: EnvFactory;
  out: string;
  settings: RunSettings;
  concurrency: number;
  /** Called after each episode (and once at the start) with the progress so far. */
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  total: number;
  done: number;
  skipped: number;
  passed: number;
  /** Seconds left at the pace of this run's episodes so far; null before the first. */
  eta_s: number | null;
  last?: EpisodeRecord;
}

export interface RunSummary {
  total: number;
  played: number;
  skipped: number;
  resumed: boolean;
  seconds: number;
}

/** Every episode of a run, in order: tasks, then seeds, then trials. */
export function plan(settings: Pick<RunSettings, 'tasks' | 'seeds' | 'trials'>): EpisodeKey[] {
  const out: EpisodeKey[] = [];
  for (const task of settings.tasks)
    for (const seed of settings.seeds)
      for (let trial = 0; trial < settings.trials; trial++) out.push({ task, seed, trial });
  return out;
}

/** One line of progress: episodes done, pass rate so far, ETA. */
export function progressLine(p: Progress): string {
  const finished = p.done + p.skipped;
  const rate = finished === 0 ? '–' : `${((100 * p.passed) / finished).toFixed(1)}%`;
  const eta =
    p.eta_s === null
      ? ''
      : `, ETA ${p.eta_s < 90 ? `${Math.ceil(p.eta_s)}s` : `${Math.ceil(p.eta_s / 60)}min`}`;
  return `${finished}/${p.total} episodes (${p.skipped} from before), passed ${p.passed} (${rate})${eta}`;
}

export async function runEval(options: RunOptions): Promise<RunSummary> {
  const { resumed } = openRunFolder(options.out, options.settings);
  const all = plan(options.settings);
  const have = finishedEpisodes(options.out);
  const todo = all.filter((k) => !have.has(episodeId(k)));
  const skipped = all.length - todo.length;
  const budget: Budget = {
    maxTurns: options.settings.max_turns,
    maxTokens: options.settings.max_tokens ?? undefined,
    temperature: options.settings.temperature ?? undefined,
  };
  let passedBefore = 0;
  if (skipped > 0) {
    const planned = new Set(all.map(episodeId));
    passedBefore = readEpisodes(options.out).filter(
      (r) => r.passed && planned.has(r.episode_id),
    ).length;
  }
  const progress: Progress = {
    total: all.length,
    done: 0,
    skipped,
    passed: passedBefore,
    eta_s: null,
  };
  options.onProgress?.({ ...progress });
  const began = performance.now();
  const abort = new AbortController();
  // Every worker's episode listens to it.
  setMaxListeners(0, abort.signal);
  let fatal: unknown;
  let next = 0;

  async function worker(): Promise<void> {
    while (!abort.signal.aborted && next < todo.length) {
      const key = todo[next++];
      const env = await options.envs();
      // Each episode's requests listen to a signal of their own, which the run's abort passes on: listeners the SDK
      // leaves on a signal go with the episode instead of piling up on the run's.
      const episode = new AbortController();
      setMaxListeners(0, episode.signal);
      const stop = () => episode.abort();
      abort.signal.addEventListener('abort', stop, { once: true });
      try {
        const record = await runEpisode(
          env,
          options.model,
          options.world.name,
          key,
          budget,
          episode.signal,
        );
        if (abort.signal.aborted) return;
        try {
          writeEpisode(options.out, record);
        } catch (e) {
          throw new Error(
            `could not write ${record.episode_id} into ${options.out}: ${(e as Error).message}`,
          );
        }
        progress.done++;
        if (record.passed) progress.passed++;
        const perEpisode = (performance.now() - began) / 1000 / progress.done;
        progress.eta_s = perEpisode * (todo.length - progress.done);
        options.onProgress?.({ ...progress, last: record });
      } catch (e) {
        if (fatal === undefined) fatal = e;
        abort.abort();
      } finally {
        abort.signal.removeEventListener('abort', stop);
        await env.close().catch(() => {});
      }
    }
  }

  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.concurrency, todo.length)) }, worker),
  );
  if (fatal !== undefined) throw fatal;
  return {
    total: all.length,
    played: progress.done,
    skipped,
    resumed,
    seconds: (performance.now() - began) / 1000,
  };
}
