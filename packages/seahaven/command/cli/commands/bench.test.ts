/** `seahaven bench` lists and checks the benchmarks of `@seahaven/bench` (bench/), which it loads only when it runs. */
import { describe, expect, it } from 'vitest';
import { SUITES as BENCH_SUITES } from '../../../../../bench/index.ts';
import { SUITES } from './bench.ts';

describe('seahaven bench', () => {
  it('names the benchmarks the bench package runs, in its order', () => {
    expect([...SUITES]).toEqual([...BENCH_SUITES]);
  });
});
