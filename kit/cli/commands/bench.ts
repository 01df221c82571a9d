/** `seahaven bench`: run the benchmarks in bench/ and print their tables (the figures bench/results.md records). */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

const SUITES = ['calls', 'reset', 'ws'] as const;

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(`run benchmarks (${SUITES.join(', ')}; default all) and print markdown tables with ratios to a raw-SQLite floor`)
    .argument('[suites...]', 'which benchmarks to run')
    .option('--quick', 'fewer iterations (a smoke run; figures are noisier)')
    .action(async (suites: string[], opts: { quick?: boolean }) => {
      const chosen = suites.length ? suites : [...SUITES];
      for (const s of chosen) if (!(SUITES as readonly string[]).includes(s)) throw new CliError(`unknown benchmark "${s}"; choose from ${SUITES.join(', ')}`, 2);
      for (const s of chosen) {
        process.stderr.write(`running ${s}…\n`);
        if (s === 'calls') {
          const { runCallsBench, formatCalls } = await import('../../../bench/calls.ts');
          process.stdout.write(`## In-process tool calls\n\n${formatCalls(runCallsBench(opts.quick ? { n: 5000, rounds: 2 } : {}))}\n\n`);
        } else if (s === 'reset') {
          const { runResetBench, formatReset } = await import('../../../bench/reset.ts');
          process.stdout.write(`## Reset latency\n\n${formatReset(runResetBench({ quick: opts.quick }))}\n\n`);
        } else {
          const { runWsBench, formatWs } = await import('../../../bench/ws.ts');
          process.stdout.write(`## WebSocket serving\n\n${formatWs(await runWsBench({ quick: opts.quick, log: (l) => process.stderr.write(`  ${l}\n`) }))}\n\n`);
        }
      }
    });
}
