import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pagesAvailable } from '../cow-pages.ts';
import { runScript } from './node-script.ts';

// The same episode on copy-on-write fixtures and, where no C compiler builds the extension, on the deserializing
// fallback: both replay byte for byte, and the fallback says once what is off and how to turn it on.

const script = fileURLToPath(new URL('./episode-script.ts', import.meta.url));
const cache = mkdtempSync(join(tmpdir(), 'seahaven-cow-cache-'));

afterAll(() => rmSync(cache, { recursive: true, force: true }));

const play = (env: Record<string, string>) =>
  runScript(script, ['11'], { SEAHAVEN_COPY_ON_WRITE: 'all', ...env });

const hasCompiler = (() => {
  try {
    execFileSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('copy-on-write fixtures and their fallback', () => {
  it('builds the extension where there is a C compiler (CI has one)', () => {
    if (!hasCompiler && !process.env.CI) return;
    expect(pagesAvailable()).toBe(true);
  });

  it('replay the same episode, the fallback saying once how to turn copy-on-write on', async () => {
    // The three processes run at once: each has a cache folder of its own.
    const [fallback, forced, cow] = await Promise.all([
      play({ CC: join(cache, 'no-such-cc'), SEAHAVEN_CACHE_DIR: join(cache, 'none') }),
      play({ SEAHAVEN_COPY_ON_WRITE: 'off' }),
      hasCompiler ? play({ SEAHAVEN_CACHE_DIR: join(cache, 'built') }) : undefined,
    ]);
    const lines = fallback.stderr.split('\n').filter((l) => l.includes('copy-on-write'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('apt-get install -y gcc');
    expect(lines[0]).toContain('set CC');
    expect(forced.stderr).not.toContain('copy-on-write');
    expect(fallback.stdout).toBe(forced.stdout);
    if (!cow) return;
    expect(cow.stderr).not.toContain('copy-on-write');
    // The extension and the fixture's base were built into the cache folder, each under its content's hash.
    expect(readdirSync(join(cache, 'built')).some((f) => /^cowvfs-[0-9a-f]{16}\.so$/.test(f))).toBe(
      true,
    );
    expect(readdirSync(join(cache, 'built', 'images')).length).toBeGreaterThan(0);
    expect(cow.stdout).toBe(forced.stdout);
  });
});
