/**
 * A machine without chromium: the console's browser tests (e2e/console.test.ts) are skipped there with one printed line
 * that names the install command, and under CI the same missing browser fails the run. e2e/browser-skip.test.ts runs
 * that file without a browser to show it.
 */
import { describe, expect, it } from 'vitest';
import { browserTests, INSTALL_CHROMIUM } from '../../../../e2e/console-screenshot.ts';

const MISSING = '/nonexistent/chromium';

describe('console browser tests without chromium', () => {
  it('are skipped outside CI with one line naming the install command', () => {
    expect(browserTests({}, MISSING)).toEqual({
      run: false,
      reason: `skipped: the console's browser tests need chromium at ${MISSING}, which is not installed; enable them with: ${INSTALL_CHROMIUM}`,
    });
    expect(browserTests({ CI: 'false' }, MISSING).run).toBe(false);
  });

  it('fail under CI, naming the install command', () => {
    expect(() => browserTests({ CI: 'true' }, MISSING)).toThrow(
      `CI must install it: ${INSTALL_CHROMIUM}`,
    );
  });

  it('run wherever the browser exists', () => {
    expect(browserTests({ CI: 'true' }, process.execPath)).toEqual({ run: true });
  });
});
