/**
 * The Python client's pytest suite (clients/python/tests), run as part of `npm test`. It starts a `seahaven serve` of
 * its own from this repository. The tests marked `install` (a `pip install` of the package) run in the end-to-end suite
 * instead (e2e/python-pip.test.ts). The interpreter is `$PYTHON`, else the first of `python3` and `/usr/bin/python3` that
 * can import `websockets` and `pytest`. Without one the suite is skipped with one line naming the install command, and
 * in CI (`$CI` set) it fails instead.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { compiledBin } from 'seahaven/internal/core/test/compiled-copy';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL = 'apt-get install -y python3-websockets python3-pytest';

function findPython(): string | undefined {
  const candidates = process.env.PYTHON ? [process.env.PYTHON] : ['python3', '/usr/bin/python3'];
  return candidates.find(
    (py) =>
      spawnSync(py, ['-c', 'import websockets, pytest'], { stdio: 'ignore', timeout: 30_000 })
        .status === 0,
  );
}

const python = findPython();
const inCi = Boolean(process.env.CI);
if (python === undefined && !inCi) {
  process.stderr.write(
    `clients/python: skipped, no python3 with websockets and pytest (${INSTALL})\n`,
  );
}

it.skipIf(python === undefined && !inCi)(
  'the Python client passes its pytest suite against a real server',
  () => {
    if (python === undefined)
      throw new Error(`no python3 can import websockets and pytest; install them: ${INSTALL}`);
    const run = spawnSync(
      python,
      ['-m', 'pytest', 'clients/python/tests', '-q', '-p', 'no:cacheprovider', '-m', 'not install'],
      {
        cwd: repo,
        encoding: 'utf8',
        timeout: 170_000,
        env: {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          SEAHAVEN_NODE: process.execPath,
          // The servers run the command's compiled copy (packages/seahaven/core/test/compiled-copy.ts).
          SEAHAVEN_BIN: compiledBin().join(' '),
        },
      },
    );
    expect(run.error, String(run.error)).toBeUndefined();
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  },
  180_000,
);
