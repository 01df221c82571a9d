/**
 * A machine without chromium: the README's `npm test` still passes there, skipping the console's browser tests with one
 * printed line that names the install command; under CI the same missing browser fails the run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserTests, INSTALL_CHROMIUM } from './screenshot.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MISSING = '/nonexistent/chromium';

/** Run the console's browser test file in a child vitest, as `npm test` would, with a browser that is not there. */
function runConsoleTests(ci: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, SEAHAVEN_CHROMIUM: MISSING, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CI;
  if (ci !== undefined) env.CI = ci;
  const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'kit/console/console.test.ts'], { cwd: root, env, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('console browser tests without chromium', () => {
  it('are skipped outside CI with one line naming the install command', () => {
    expect(browserTests({}, MISSING)).toEqual({
      run: false,
      reason: `skipped: the console's browser tests need chromium at ${MISSING}, which is not installed; enable them with: ${INSTALL_CHROMIUM}`,
    });
    expect(browserTests({ CI: 'false' }, MISSING).run).toBe(false);
    const r = runConsoleTests(undefined);
    expect(r.status, r.out).toBe(0);
    expect(r.out.split(INSTALL_CHROMIUM).length - 1, r.out).toBe(1);
    expect(r.out).toMatch(/5 skipped/);
  });

  it('fail under CI, naming the install command', () => {
    expect(() => browserTests({ CI: 'true' }, MISSING)).toThrow(`CI must install it: ${INSTALL_CHROMIUM}`);
    const r = runConsoleTests('true');
    expect(r.status, r.out).toBe(1);
    expect(r.out).toContain(`CI must install it: ${INSTALL_CHROMIUM}`);
  });

  it('run wherever the browser exists', () => {
    expect(browserTests({ CI: 'true' }, process.execPath)).toEqual({ run: true });
  });
});
