/**
 * The benchmarks `seahaven bench` runs, by name: each prints a markdown table with ratios to a floor (raw SQLite, or a
 * bare server answering canned replies), and `write` records it in bench/results.md.
 */
import { writeSection } from './harness.ts';

/** The benchmarks, in the order `seahaven bench` runs them by default. */
export const SUITES = [
  'calls',
  'reset',
  'ws',
  'http-face',
  'billing',
  'search',
  'stripe-episode',
  'python-client',
  'trl-rollouts',
  'workers',
  'heavy',
  'eval',
  'cow',
] as const;

export interface BenchOptions {
  /** Fewer iterations (a smoke run; figures are noisier). */
  quick?: boolean;
  /** Also record each table in bench/results.md, replacing that benchmark's section. */
  write?: boolean;
}

/** Run the benchmarks `chosen` (names from SUITES, checked by the caller) and print their tables on stdout. */
export async function runBenchmarks(chosen: readonly string[], opts: BenchOptions): Promise<void> {
  const emit = (heading: string, body: string) => {
    process.stdout.write(`${heading}\n\n${body}\n\n`);
    if (opts.write) writeSection(heading, body);
  };
  for (const s of chosen) {
    process.stderr.write(`running ${s}…\n`);
    if (s === 'calls') {
      const { runCallsBench, formatCalls } = await import('./calls.ts');
      emit(
        '## In-process tool calls',
        formatCalls(runCallsBench(opts.quick ? { n: 5000, rounds: 2 } : {})),
      );
    } else if (s === 'reset') {
      const { runResetBench, formatReset } = await import('./reset.ts');
      emit('## Reset latency', formatReset(runResetBench({ quick: opts.quick })));
    } else if (s === 'ws') {
      const { runWsBench, formatWs } = await import('./ws.ts');
      emit(
        '## WebSocket serving',
        formatWs(
          await runWsBench({ quick: opts.quick, log: (l) => process.stderr.write(`  ${l}\n`) }),
        ),
      );
    } else if (s === 'billing') {
      const { runBillingBench, runFixtureBilling, formatBilling } = await import('./billing.ts');
      const made = runBillingBench({ quick: opts.quick });
      // big_co's month is a few seconds a round and needs its built image (`fixtures build --world stripe`).
      emit(
        '## Subscription billing (Stripe World)',
        opts.quick ? formatBilling(made) : formatBilling(made, runFixtureBilling('big_co')),
      );
    } else if (s === 'search') {
      const { runSearchBench, formatSearch, HEADING } = await import('./search.ts');
      emit(HEADING, formatSearch(runSearchBench({ quick: opts.quick })));
    } else if (s === 'stripe-episode') {
      const { runStripeEpisodeBench, formatStripeEpisodes, HEADING } =
        await import('./stripe-episode.ts');
      emit(
        HEADING,
        formatStripeEpisodes(
          await runStripeEpisodeBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else if (s === 'workers') {
      const { runWorkersBench, formatWorkers, HEADING } = await import('./workers.ts');
      emit(
        HEADING,
        formatWorkers(
          await runWorkersBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else if (s === 'trl-rollouts') {
      const { runTrlRolloutsBench, formatTrlRollouts, HEADING } = await import('./trl-rollouts.ts');
      emit(
        HEADING,
        formatTrlRollouts(
          await runTrlRolloutsBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else if (s === 'heavy') {
      const { runHeavyBench, formatHeavy, HEADING } = await import('./heavy.ts');
      emit(
        HEADING,
        formatHeavy(
          await runHeavyBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else if (s === 'cow') {
      const { runCowBench, HEADING } = await import('./cow/bench.ts');
      emit(HEADING, await runCowBench(opts.quick ? { today: [1], cow: [1, 8] } : {}));
    } else if (s === 'eval') {
      const { runEvalBench, formatEval, HEADING } = await import('./eval.ts');
      emit(
        HEADING,
        formatEval(
          await runEvalBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else if (s === 'python-client') {
      const { runPythonClientBench, formatPythonClient, HEADING } =
        await import('./python-client.ts');
      emit(
        HEADING,
        formatPythonClient(
          await runPythonClientBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    } else {
      const { runHttpFaceBench, formatHttpFace } = await import('./http-face.ts');
      emit(
        '## HTTP face (Stripe World)',
        formatHttpFace(
          await runHttpFaceBench({
            quick: opts.quick,
            log: (l) => process.stderr.write(`  ${l}\n`),
          }),
        ),
      );
    }
  }
}
