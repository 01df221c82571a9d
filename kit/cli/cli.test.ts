import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seahaven = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/seahaven.mjs', ...args], { cwd: root, encoding: 'utf8' });

describe('seahaven command', () => {
  it('--help lists the commands', () => {
    const r = seahaven('--help');
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

  it('--version prints the package version', () => {
    const r = seahaven('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('usage errors exit 2 with one line on stderr', () => {
    const r = seahaven('docs', 'no-such-topic');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^seahaven: no docs topic "no-such-topic"; topics: /);
    expect(seahaven('no-such-command').status).toBe(2);
  });

  it('docs prints the index and a topic', () => {
    expect(seahaven('docs').stdout).toContain('# Seahaven docs');
    expect(seahaven('docs', 'fixtures').stdout).toContain('# Fixtures');
  });

  it('demo plays an episode and prints the net changes', () => {
    const r = seahaven('demo');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('net changes:');
    expect(r.stdout).toMatch(/insert\s+contacts/);
  });
});
