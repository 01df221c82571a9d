import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultChecks } from '../../check/index.ts';
import { seahaven as run } from '../../../core/test/cli-in-process.ts';
import { CHECK_NAMES } from './check.ts';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const seahaven = (...args: string[]) => run(args, { cwd: root });

describe('seahaven check', () => {
  // packages/seahaven/command/check/check.test.ts runs every check on crm, lint included; here ESLint is not loaded a second time.
  it('prints an OK summary naming the checks that ran and exits 0 for the crm world', async () => {
    const r = await seahaven('check', 'crm', '--skip', 'lint');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'OK crm 1.0.0: no findings (load, schema, tools, fixtures, determinism, graders).\n',
    );
    expect(r.status).toBe(0);
  });

  it('prints each finding with code, severity, location and fix, and exits 1 on errors', async () => {
    const r = await seahaven(
      'check',
      'packages/seahaven/command/check/test-fixtures/schema-clock',
      '--skip',
      'lint,determinism',
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      'SH104 error   packages/seahaven/command/check/test-fixtures/schema-clock/schema.sql:17 (index items_recent)\n  Index "items_recent" uses \'now\' in its WHERE clause',
    );
    expect(r.stdout).toContain(
      '\n  fix: Index plain columns; filter by time in the query, with the time as a `?` parameter.\n',
    );
    expect(r.stdout).toMatch(
      /FAILED schema_clock 1\.0\.0: 6 errors, 0 warnings \(load, schema, tools, fixtures, graders\)\.\n$/,
    );
    expect(r.stderr).toMatch(/^seahaven: 6 errors in schema_clock; apply each "fix:" line/);
  });

  it('reports a world that throws at definition as a finding, not a crash', async () => {
    const r = await seahaven(
      'check',
      'packages/seahaven/command/check/test-fixtures/tool-reserved/index.ts',
      '--json',
      '--skip',
      'lint',
    );
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      ok: false,
      world: null,
      errors: 1,
      findings: [{ code: 'SH202', severity: 'error', check: 'load' }],
    });
  });

  it('names the built-in checks in its help, in the order they run', async () => {
    expect(CHECK_NAMES).toEqual(defaultChecks.map((c) => c.name));
    // commander wraps the help at 80 columns.
    expect((await seahaven('check', '--help')).stdout.replace(/\s+/g, ' ')).toContain(
      `(${defaultChecks.map((c) => c.name).join(', ')})`,
    );
  });

  it('refuses bad options with exit 2', async () => {
    expect((await seahaven('check', 'crm', '--skip', 'spelling')).status).toBe(2);
    expect((await seahaven('check', 'crm', '--calls', '0')).stderr).toMatch(
      /--calls must be a whole number >= 1/,
    );
    expect((await seahaven('check', 'no-such-world')).status).toBe(2);
  });
});
