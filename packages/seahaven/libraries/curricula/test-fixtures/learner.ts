/** A synthetic learner for curriculum tests: its chance of passing a task rises with practice on that task. */
import { Rng, Stream } from '../../../core/random.ts';
import type { CurriculumRuns, IssuedEpisode } from '../runs.ts';

export interface Learner {
  attempt(task: string): { reward: number; passed: boolean };
}

/** Success probability `min(ceiling, start + gain · attempts so far)` per task; `gain: 0, start: 0` never succeeds. */
export function practisingLearner(seed: string, options: { start?: number; gain?: number; ceiling?: number } = {}): Learner {
  const rng = new Rng(new Stream(`learner\u0000${seed}`));
  const practice = new Map<string, number>();
  const start = options.start ?? 0.05, gain = options.gain ?? 0.04, ceiling = options.ceiling ?? 0.97;
  return {
    attempt(task) {
      const n = practice.get(task) ?? 0;
      practice.set(task, n + 1);
      const passed = rng.chance(Math.min(ceiling, start + gain * n));
      return { reward: passed ? 1 : 0, passed };
    },
  };
}

/** One step of a trainer with `parallel` rollouts: issue that many episodes, then record them in issue order. */
export function trainStep(runs: CurriculumRuns, curriculum: string, runId: string, learner: Learner, parallel = 1): IssuedEpisode[] {
  const batch = Array.from({ length: parallel }, () => runs.next(curriculum, runId));
  for (const ep of batch) runs.record(ep.ticket, learner.attempt(ep.task));
  return batch;
}
