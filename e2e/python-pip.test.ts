/**
 * The Python client's pytest tests marked `install`: `pip install` of clients/python into a folder of its own, then the
 * installed package imported from there (the rest of the suite runs in `npm test`, clients/python/python.test.ts). The
 * interpreter is `$PYTHON`, else the first of `python3` and `/usr/bin/python3` that can import `websockets`, `pytest`
 * and `pip`; without one the test is skipped with one line naming the install command, and in CI it fails instead.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const INSTALL = 'apt-get install -y python3-websockets python3-pytest python3-pip';

const python = (process.env.PYTHON ? [process.env.PYTHON] : ['python3', '/usr/bin/python3']).find(
  (py) =>
    spawnSync(py, ['-c', 'import websockets, pytest, pip'], { stdio: 'ignore', timeout: 30_000 })
      .status === 0,
);
const inCi = Boolean(process.env.CI);
if (python === undefined && !inCi)
  process.stderr.write(
    `e2e/python-pip: skipped, no python3 with websockets, pytest and pip (${INSTALL})\n`,
  );

it.skipIf(python === undefined && !inCi)(
  'pip installs the Python client, and the installed package imports',
  () => {
    if (python === undefined)
      throw new Error(`no python3 can import websockets, pytest and pip; install them: ${INSTALL}`);
    const run = spawnSync(
      python,
      ['-m', 'pytest', 'clients/python/tests', '-q', '-p', 'no:cacheprovider', '-m', 'install'],
      {
        cwd: repo,
        encoding: 'utf8',
        timeout: 170_000,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', SEAHAVEN_NODE: process.execPath },
      },
    );
    expect(run.error, String(run.error)).toBeUndefined();
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    // The marker selected the pip test and it ran (pytest exits 5 when nothing was selected, so 0 means it did).
    expect(run.stdout).toMatch(/\b1 passed\b/);
  },
  180_000,
);
