/** `seahaven bench`: run the benchmarks in bench/ and print their tables (the figures bench/results.md records). */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

const SUITES = [
  'calls',
  'reset',
  'ws',
  'http-face',
  'billing',
  'stripe-episode',
  'python-client',
  'trl-rollouts',
  'workers',
  'heavy',
  'eval',
] as const;

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(
      `run benchmarks (${SUITES.join(', ')}; default all) and print markdown tables with ratios to a floor (raw SQLite, or a bare server answering canned replies)`,
    )
    .argument('[suites...]', 'which benchmarks to run')
    .option('--quick', 'fewer iterations (a smoke run; figures are noisier)')
    .option(
      '--write',
      "also record each table in bench/results.md (replacing that benchmark's section)",
    )
    .action(async (suites: string[], opts: { quick?: boolean; write?: boolean }) => {
      const { writeSection } = await import('../../../../../bench/harness.ts');
      const emit = (heading: string, body: string) => {
        process.stdout.write(`${heading}\n\n${body}\n\n`);
        if (opts.write) writeSection(heading, body);
      };
      const chosen = suites.length ? suites : [...SUITES];
      for (const s of chosen)
        if (!(SUITES as readonly string[]).includes(s))
          throw new CliError(`unknown benchmark "${s}"; choose from ${SUITES.join(', ')}`, 2);
      for (const s of chosen) {
        process.stderr.write(`running ${s}…\n`);
        if (s === 'calls') {
          const { runCallsBench, formatCalls } = await import('../../../../../bench/calls.ts');
          emit(
            '## In-process tool calls',
            formatCalls(runCallsBench(opts.quick ? { n: 5000, rounds: 2 } : {})),
          );
        } else if (s === 'reset') {
          const { runResetBench, formatReset } = await import('../../../../../bench/reset.ts');
          emit('## Reset latency', formatReset(runResetBench({ quick: opts.quick })));
        } else if (s === 'ws') {
          const { runWsBench, formatWs } = await import('../../../../../bench/ws.ts');
          emit(
            '## WebSocket serving',
            formatWs(
              await runWsBench({ quick: opts.quick, log: (l) => process.stderr.write(`  ${l}\n`) }),
            ),
          );
        } else if (s === 'billing') {
          const { runBillingBench, formatBilling } = await import('../../../../../bench/billing.ts');
          emit(
            '## Subscription billing (Stripe World)',
            formatBilling(runBillingBench({ quick: opts.quick })),
          );
        } else if (s === 'stripe-episode') {
          const { runStripeEpisodeBench, formatStripeEpisodes, HEADING } =
            await import('../../../../../bench/stripe-episode.ts');
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
          const { runWorkersBench, formatWorkers, HEADING } =
            await import('../../../../../bench/workers.ts');
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
          const { runTrlRolloutsBench, formatTrlRollouts, HEADING } =
            await import('../../../../../bench/trl-rollouts.ts');
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
          const { runHeavyBench, formatHeavy, HEADING } = await import('../../../../../bench/heavy.ts');
          emit(
            HEADING,
            formatHeavy(
              await runHeavyBench({
                quick: opts.quick,
                log: (l) => process.stderr.write(`  ${l}\n`),
              }),
            ),
          );
        } else if (s === 'eval') {
          const { runEvalBench, formatEval, HEADING } = await import('../../../../../bench/eval.ts');
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
            await import('../../../../../bench/python-client.ts');
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
          const { runHttpFaceBench, formatHttpFace } = await import('../../../../../bench/http-face.ts');
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
    });
}
