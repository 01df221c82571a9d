/**
 * A machine without chromium: `npm run test:e2e` still passes there, skipping the console's browser tests with one
 * printed line that names the install command; under CI the same missing browser fails the run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTALL_CHROMIUM } from './console-screenshot.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const MISSING = '/nonexistent/chromium';

/** Run the console's browser test file in a child vitest, as `npm run test:e2e` would, with a browser that is not there. */
function runConsoleTests(ci: string | undefined) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SEAHAVEN_CHROMIUM: MISSING,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  delete env.CI;
  if (ci !== undefined) env.CI = ci;
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'vitest.e2e.config.ts',
      'e2e/console.test.ts',
    ],
    { cwd: root, env, encoding: 'utf8' },
  );
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('console browser tests without chromium', () => {
  it('are skipped outside CI with one line naming the install command', () => {
    const r = runConsoleTests(undefined);
    expect(r.status, r.out).toBe(0);
    expect(r.out.split(INSTALL_CHROMIUM).length - 1, r.out).toBe(1);
    expect(r.out).toMatch(/5 skipped/);
  }, 60_000);

  it('fail under CI, naming the install command', () => {
    const r = runConsoleTests('true');
    expect(r.status, r.out).toBe(1);
    expect(r.out).toContain(`CI must install it: ${INSTALL_CHROMIUM}`);
  }, 60_000);
});
