/** `seahaven bench` takes its list of benchmarks from this package, which it loads only when it runs. */
import { describe, expect, it } from 'vitest';
import { seahaven } from 'seahaven/internal/core/test/cli-in-process';
import { SUITES } from './index.ts';

describe('seahaven bench', () => {
  it('refuses an unknown name, listing this package’s benchmarks in their order', async () => {
    const r = await seahaven(['bench', 'no-such-bench']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `unknown benchmark "no-such-bench"; choose from ${SUITES.join(', ')}`,
    );
  });
});
