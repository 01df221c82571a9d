import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundHeapGrowth } from './serve.ts';

// V8 raises its heap growing factor when collections look slow next to the program, as on a loaded machine, and a
// soak's resident set then climbed 8 MiB a minute with the live heap flat; `seahaven serve` bounds it
// (docs/reliability.md, "Soak").
describe('seahaven serve --heap-growth', () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets V8's heap growing factor, unless node was started with one", () => {
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    boundHeapGrowth(50);
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=50');
    set.mockClear();
    const argv = vi
      .spyOn(process, 'execArgv', 'get')
      .mockReturnValue(['--heap-growing-percent=20']);
    boundHeapGrowth(50);
    expect(set).not.toHaveBeenCalled();
    argv.mockRestore();
  });
});
