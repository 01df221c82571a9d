import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMPILED_ENV, compiledBin, compiledCopyOf } from './compiled-copy.ts';
import { runScript } from './node-script.ts';

// The child processes of `npm test` run the compiled copy vitest.global-setup.ts builds; it must behave as the
// sources do through tsx.

const script = fileURLToPath(new URL('./episode-script.ts', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the compiled copy of the sources', () => {
  it('is what the tests start under npm test', () => {
    expect(process.env[COMPILED_ENV]).toBeTruthy();
    expect(compiledBin()[0].startsWith(process.env[COMPILED_ENV]!)).toBe(true);
    expect(compiledCopyOf(script)).toMatch(/episode-script\.ts\.mjs$/);
    expect(
      execFileSync(process.execPath, [...compiledBin(), '--version'], { encoding: 'utf8' }),
    ).toBe(`${pkg.version}\n`);
  });

  it('plays the same episode, byte for byte, as the sources through tsx', async () => {
    const [copy, sources] = await Promise.all([
      runScript(script, ['11']),
      promisify(execFile)(
        process.execPath,
        ['--conditions=@seahaven/source', '--import', 'tsx', script, '11'],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, TZ: 'UTC' } },
      ),
    ]);
    expect(copy.stdout.length).toBeGreaterThan(1000);
    expect(copy.stdout).toBe(sources.stdout);
  });
});
