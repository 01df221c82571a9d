/**
 * The TRL integration against a real `seahaven serve crm`: the trl and openenv pytest files (with `transformers`
 * importable, so every crm, stripe and saas tool goes through `get_json_schema`), then e2e/trl_grpo.py, which trains
 * clients/python/examples/trl_grpo.py's GRPOTrainer for 2 optimizer steps on a tiny model built on the spot.
 *
 * The interpreter is `$SEAHAVEN_TRL_PYTHON`, else `.venv-trl/bin/python` in the repository (`.ci/run` creates it).
 * Without one that can import trl, transformers, datasets, torch, websockets and pytest the tests are skipped with
 * one line naming the install command; in CI (`$CI` set) they fail instead.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const INSTALL =
  "python3 -m venv .venv-trl && .venv-trl/bin/pip install 'trl==1.13.0' transformers datasets torch websockets pytest";

function findPython(): string | undefined {
  const candidate = process.env.SEAHAVEN_TRL_PYTHON ?? `${repo}.venv-trl/bin/python`;
  if (!process.env.SEAHAVEN_TRL_PYTHON && !existsSync(candidate)) return undefined;
  const probe = spawnSync(
    candidate,
    ['-c', 'import trl, transformers, datasets, torch, websockets, pytest'],
    { stdio: 'ignore', timeout: 120_000 },
  );
  return probe.status === 0 ? candidate : undefined;
}

const python = findPython();
const inCi = Boolean(process.env.CI);
if (python === undefined && !inCi) {
  process.stderr.write(
    `e2e/trl: skipped, no Python with trl, transformers, datasets, torch, websockets and pytest (${INSTALL}, or set SEAHAVEN_TRL_PYTHON)\n`,
  );
}
const env = {
  ...process.env,
  PYTHONDONTWRITEBYTECODE: '1',
  SEAHAVEN_NODE: process.execPath,
  TRL_EXPERIMENTAL_SILENCE: '1',
  HF_HUB_OFFLINE: '1',
};

function run(args: string[], timeout: number) {
  if (python === undefined)
    throw new Error(
      `no Python can import trl, transformers, datasets, torch, websockets and pytest; install them: ${INSTALL} (or set SEAHAVEN_TRL_PYTHON)`,
    );
  return spawnSync(python, args, { cwd: repo, encoding: 'utf8', timeout, env });
}

it.skipIf(python === undefined && !inCi)(
  'the trl and openenv modules pass their pytest files with transformers installed',
  () => {
    const done = run(
      [
        '-m',
        'pytest',
        'clients/python/tests/test_trl.py',
        'clients/python/tests/test_openenv.py',
        'clients/python/tests/test_trl_docs.py',
        '-q',
        '-p',
        'no:cacheprovider',
      ],
      170_000,
    );
    expect(done.error, String(done.error)).toBeUndefined();
    expect(done.status, `${done.stdout}\n${done.stderr}`).toBe(0);
  },
  180_000,
);

it.skipIf(python === undefined && !inCi)(
  'the example GRPOTrainer trains 2 steps against a real server, rewards 1 and 0 reaching its logs',
  () => {
    const done = run(['e2e/trl_grpo.py'], 170_000);
    expect(done.error, String(done.error)).toBeUndefined();
    expect(done.status, `${done.stdout}\n${done.stderr}`).toBe(0);
    const figures = JSON.parse(done.stdout.trim().split('\n').at(-1)!) as {
      steps: number;
      rewards: number[];
      logged_reward: number[];
      loss: number[];
    };
    expect(figures.steps).toBe(2);
    expect(figures.rewards).toContain(1);
    expect(figures.rewards).toContain(0);
    expect(figures.logged_reward).toEqual([0.5, 0.5]);
    expect(figures.loss.some((l) => l !== 0)).toBe(true);
  },
  180_000,
);
