/**
 * `eval.json`: per task its trials, successes, pass^1…pass^K (as numbers, and as exact fractions beside them), mean
 * reward and the mean score and failure count of each criterion; the same over all tasks; and the run's settings
 * (model, world version, fixture hashes, seeds, budget), so the run can be repeated.
 */
import type { EpisodeRecord } from './agent.ts';
import { overallCurve, passCurve } from './stats.ts';
import type { RunSettings } from './store.ts';

export interface TaskSummary {
  task: string;
  trials: number;
  successes: number;
  pass_k: Record<string, number>;
  pass_k_exact: Record<string, string>;
  mean_reward: number;
  /** Criterion name → mean score over the task's episodes. */
  criteria: Record<string, number>;
  /** Criterion name → episodes where it scored below 1. */
  criterion_failures: Record<string, number>;
  /** Episode ids, in order of seed and trial. */
  episodes: string[];
}

export interface EvalSummary {
  format: 'seahaven.eval/1';
  settings: RunSettings;
  overall: {
    tasks: number;
    episodes: number;
    successes: number;
    pass_rate: number;
    mean_reward: number;
    pass_k: Record<string, number>;
    pass_k_exact: Record<string, string>;
  };
  tasks: TaskSummary[];
}

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;

/** The summary of `records` (only the episodes the settings plan count). */
export function summarize(settings: RunSettings, records: readonly EpisodeRecord[]): EvalSummary {
  const byTask = new Map<string, EpisodeRecord[]>();
  for (const t of settings.tasks) byTask.set(t, []);
  for (const r of records) byTask.get(r.task)?.push(r);
  const tasks: TaskSummary[] = [];
  for (const [task, eps] of byTask) {
    if (eps.length === 0) continue;
    const successes = eps.filter((e) => e.passed).length;
    const names = [...new Set(eps.flatMap((e) => e.criteria.map((c) => c.name)))];
    const criteria: Record<string, number> = {};
    const criterion_failures: Record<string, number> = {};
    for (const n of names) {
      const scores = eps.map((e) => e.criteria.find((c) => c.name === n)?.score ?? 0);
      criteria[n] = mean(scores);
      criterion_failures[n] = scores.filter((s) => s < 1).length;
    }
    tasks.push({
      task,
      trials: eps.length,
      successes,
      ...passCurve(successes, eps.length),
      mean_reward: mean(eps.map((e) => e.reward)),
      criteria,
      criterion_failures,
      episodes: eps.map((e) => e.episode_id),
    });
  }
  const episodes = tasks.reduce((s, t) => s + t.trials, 0);
  const successes = tasks.reduce((s, t) => s + t.successes, 0);
  return {
    format: 'seahaven.eval/1',
    settings,
    overall: {
      tasks: tasks.length,
      episodes,
      successes,
      pass_rate: episodes === 0 ? 0 : successes / episodes,
      mean_reward: mean(records.filter((r) => byTask.has(r.task)).map((r) => r.reward)),
      ...overallCurve(tasks),
    },
    tasks,
  };
}
