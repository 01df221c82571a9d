import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seahaven as run } from '../../core/test/cli-in-process.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const seahaven = (...args: string[]) => run(args, { cwd: root });
/** The real command: packages/seahaven/bin/seahaven.mjs in a child process, through tsx and packages/seahaven/command/cli/main.ts. */
const spawnSeahaven = (...args: string[]) =>
  spawnSync(process.execPath, ['packages/seahaven/bin/seahaven.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
  });

describe('seahaven command', () => {
  it('--help lists the commands', async () => {
    const r = await seahaven('--help');
    expect(r.status).toBe(0);
    for (const cmd of [
      'demo',
      'fixtures',
      'bench',
      'mcp',
      'docs',
      'serve',
      'check',
      'lint',
      'new',
      'curriculum',
    ])
      expect(r.stdout).toContain(cmd);
  });

  it('--version prints the package version', async () => {
    const r = await seahaven('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('usage errors exit 2 with one line on stderr', async () => {
    const r = await seahaven('docs', 'no-such-topic');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^seahaven: no docs topic "no-such-topic"; topics: /);
    expect((await seahaven('no-such-command')).status).toBe(2);
  });

  it('packages/seahaven/bin/seahaven.mjs runs the command and exits with its status', () => {
    const ok = spawnSeahaven('--version');
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const usage = spawnSeahaven('docs', 'no-such-topic');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^seahaven: no docs topic "no-such-topic"; topics: [^\n]*\n$/);
  });

  it('docs prints the index and a topic', async () => {
    expect((await seahaven('docs')).stdout).toContain('# Seahaven docs');
    expect((await seahaven('docs', 'fixtures')).stdout).toContain('# Fixtures');
  });

  it('demo plays an episode and prints the net changes', async () => {
    const r = await seahaven('demo');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('net changes:');
    expect(r.stdout).toMatch(/insert\s+contacts/);
  });
});
