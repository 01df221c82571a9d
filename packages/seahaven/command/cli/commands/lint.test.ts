import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seahaven as run } from '../../../core/test/cli-in-process.ts';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const seahaven = (...args: string[]) => run(args, { cwd: root });

describe('seahaven lint', () => {
  // The repository's own worlds are linted with the same rules by `npm run lint`; here, a folder laid out the same way.
  it('lints worlds/ by default in a repository of worlds and finds nothing in clean code', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'seahaven-lint-'));
    try {
      mkdirSync(join(repo, 'worlds', 'tiny'), { recursive: true });
      writeFileSync(
        join(repo, 'worlds', 'tiny', 'tools.ts'),
        'export const now = (ctx: { clock: { now(): string } }) => ctx.clock.now();\n',
      );
      writeFileSync(join(repo, 'worlds', 'tiny', 'index.ts'), "export * from './tools.ts';\n");
      const r = await run(['lint'], { cwd: repo });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('seahaven lint: 2 files in worlds, no findings.\n');
      expect(r.status).toBe(0);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('prints the findings of a broken world and exits 1', async () => {
    const r = await seahaven('lint', 'packages/seahaven/command/check/test-fixtures/lint-broken');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('seahaven/no-wall-clock');
    expect(r.stdout).toContain('seahaven/no-math-random');
    expect(r.stdout).toMatch(/helpers\.js\n\s+3:0\s+error\s+Parsing error/);
    expect(r.stderr).toMatch(/^seahaven: 3 lint errors; each message says what to use instead/);
  });

  it('lints a single file and speaks JSON', async () => {
    const r = await seahaven(
      'lint',
      'packages/seahaven/command/check/test-fixtures/lint-broken/index.ts',
      '--format',
      'json',
    );
    expect(r.status).toBe(1);
    const [result] = JSON.parse(r.stdout);
    expect(result.messages.map((m: { ruleId: string }) => m.ruleId)).toEqual([
      'seahaven/no-wall-clock',
      'seahaven/no-math-random',
    ]);
  });

  it('refuses a missing path with exit 2', async () => {
    const r = await seahaven('lint', 'worlds/nowhere');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no such file or folder: worlds\/nowhere/);
  });
});
