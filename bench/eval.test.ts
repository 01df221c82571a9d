import { expect, it } from 'vitest';
import { formatEval, runEvalBench } from './eval.ts';

// A smoke run: every loop plays its episodes to a pass and the table is written. Figures are judged in bench/results.md.
it('the eval runner benchmark runs the runner and the loop by hand', async () => {
  const r = await runEvalBench({ smoke: true });
  expect(r.passed).toEqual({
    runner: r.episodes,
    traced: r.episodes,
    hand: r.episodes,
    inProcess: r.episodes,
    handInProcess: r.episodes,
  });
  expect(r.runner).toHaveLength(1);
  expect(formatEval(r)).toContain('| runner, served world (`--url --grader-token`) |');
}, 60_000);
