import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pagesAvailable } from '../cow-pages.ts';

// The same episode on copy-on-write fixtures and, where no C compiler builds the extension, on the deserializing
// fallback: both replay byte for byte, and the fallback says once what is off and how to turn it on.

const script = fileURLToPath(new URL('./episode-script.ts', import.meta.url));
const cache = mkdtempSync(join(tmpdir(), 'seahaven-cow-cache-'));

afterAll(() => rmSync(cache, { recursive: true, force: true }));

function play(env: Record<string, string>): { stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    ['--conditions=@seahaven/source', '--import', 'tsx', script, '11'],
    { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', SEAHAVEN_COPY_ON_WRITE: 'all', ...env } },
  );
  if (r.status !== 0) throw new Error(`episode script failed: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

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

  it('replay the same episode, the fallback saying once how to turn copy-on-write on', () => {
    const fallback = play({
      CC: join(cache, 'no-such-cc'),
      SEAHAVEN_CACHE_DIR: join(cache, 'none'),
    });
    const lines = fallback.stderr.split('\n').filter((l) => l.includes('copy-on-write'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('apt-get install -y gcc');
    expect(lines[0]).toContain('set CC');
    const forced = play({ SEAHAVEN_COPY_ON_WRITE: 'off' });
    expect(forced.stderr).not.toContain('copy-on-write');
    expect(fallback.stdout).toBe(forced.stdout);
    if (!hasCompiler) return;
    const cow = play({ SEAHAVEN_CACHE_DIR: join(cache, 'built') });
    expect(cow.stderr).not.toContain('copy-on-write');
    // The extension and the fixture's base were built into the cache folder, each under its content's hash.
    expect(readdirSync(join(cache, 'built')).some((f) => /^cowvfs-[0-9a-f]{16}\.so$/.test(f))).toBe(
      true,
    );
    expect(readdirSync(join(cache, 'built', 'images')).length).toBeGreaterThan(0);
    expect(cow.stdout).toBe(forced.stdout);
  });
});
