// Loaded with `node --import` into a `seahaven serve --workers N` under test (the primary passes it on to every
// worker): a worker that starts while the file named by $SEAHAVEN_TEST_SLOW_START exists waits the milliseconds the
// file holds before it loads anything, so a test can act while a replacement is starting, however fast a start is.
import { existsSync, readFileSync } from 'node:fs';

const flag = process.env.SEAHAVEN_TEST_SLOW_START;
if (flag && process.env.SEAHAVEN_CLUSTER_SLOT !== undefined && existsSync(flag)) {
  const ms = Number(readFileSync(flag, 'utf8')) || 1000;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
