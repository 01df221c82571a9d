/** `seahaven bench`: run the benchmarks of the repository's bench/ package and print their tables (bench/results.md). */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';

/** What the command uses of `@seahaven/bench`, which sits above it and is loaded only when the command runs. */
interface BenchPackage {
  /** The benchmarks' names, in the order a bare `seahaven bench` runs them. */
  SUITES: readonly string[];
  runBenchmarks(
    chosen: readonly string[],
    opts: { quick?: boolean; write?: boolean },
  ): Promise<void>;
}

/** The package name, in a variable so that the command does not import the benchmarks that import it. */
const BENCH_PACKAGE: string = '@seahaven/bench';

async function loadBench(): Promise<BenchPackage> {
  try {
    return (await import(BENCH_PACKAGE)) as BenchPackage;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
    if (!missing || !(e as Error).message.includes('@seahaven/')) throw e;
    throw new CliError(
      `seahaven bench runs the benchmarks of the package ${BENCH_PACKAGE}, which is not installed here: it lives in the repository's bench/ folder; clone the repository and run \`npm ci && npm run bench\` there`,
      2,
    );
  }
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(
      "run the repository's benchmarks (default all; an unknown name lists them) and print markdown tables with ratios to a floor (raw SQLite, or a bare server answering canned replies)",
    )
    .argument('[suites...]', 'which benchmarks to run')
    .option('--quick', 'fewer iterations (a smoke run; figures are noisier)')
    .option(
      '--write',
      "also record each table in bench/results.md (replacing that benchmark's section)",
    )
    .action(async (suites: string[], opts: { quick?: boolean; write?: boolean }) => {
      const bench = await loadBench();
      const chosen = suites.length ? suites : [...bench.SUITES];
      for (const s of chosen)
        if (!bench.SUITES.includes(s))
          throw new CliError(`unknown benchmark "${s}"; choose from ${bench.SUITES.join(', ')}`, 2);
      await bench.runBenchmarks(chosen, opts);
    });
}
