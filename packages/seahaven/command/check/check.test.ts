import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFixture, type FixtureMeta } from '../../core/fixtures.ts';
import { GRADER_CHECKS } from '../../libraries/rewards/check.ts';
import {
  CHECK_CODES,
  checkLint,
  checkTools,
  formatReport,
  runChecks,
  type Check,
  type CheckOptions,
  type CheckReport,
  type Finding,
} from './index.ts';
import { fixtureWorld } from './test-fixtures/fixture-world.ts';
import { mountedInternalWorld, shopWorld } from './test-fixtures/mounted-internal.ts';

const brokenWorld = (name: string) =>
  fileURLToPath(new URL(`./test-fixtures/${name}/index.ts`, import.meta.url));
const triggered = new Set<string>();

async function check(
  ref: Parameters<typeof runChecks>[0],
  options: CheckOptions = {},
): Promise<CheckReport> {
  const report = await runChecks(ref, options);
  for (const f of report.findings) triggered.add(f.code);
  return report;
}

const codes = (findings: Finding[]) => findings.map((f) => f.code);

describe('seahaven check', () => {
  it('finds nothing in the crm world', async () => {
    const report = await check('crm');
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({
      ok: true,
      errors: 0,
      warnings: 0,
      world: { name: 'crm', version: '1.0.0' },
      checks: ['load', 'schema', 'tools', 'fixtures', 'lint', 'determinism', 'graders'],
    });
    expect(formatReport(report)).toBe(
      'OK crm 1.0.0: no findings (load, schema, tools, fixtures, lint, determinism, graders).\n',
    );
  });

  it.each([
    ['load-throws', 'SH001'],
    ['no-world', 'SH002'],
    ['bad-world-name', 'SH003'],
    ['schema-bad-sql', 'SH100'],
    ['schema-not-strict', 'SH101'],
    ['schema-no-pk', 'SH102'],
    ['schema-random-column', 'SH103'],
    ['schema-no-tables', 'SH107'],
    ['tool-bad-name', 'SH201'],
    ['tool-reserved', 'SH202'],
    ['tool-no-description', 'SH203'],
    ['tool-not-object', 'SH205'],
    ['tool-duplicate', 'SH208'],
    ['tool-not-a-tool', 'SH209'],
    ['fixture-bad-declaration', 'SH310'],
  ])('reports %s, which fails at import, as %s in its own files', async (name, code) => {
    const report = await check(brokenWorld(name), { skip: ['lint'] });
    expect(codes(report.findings)).toEqual([code]);
    expect(report.ok).toBe(false);
    const [f] = report.findings;
    expect(f).toMatchObject({ severity: 'error', check: 'load' });
    expect(f.location?.file).toContain(`/test-fixtures/${name}/`);
    if (code !== 'SH002') expect(f.location?.line).toBeGreaterThan(0);
    expect(f.fix).not.toBe('');
  });

  it('points a refused table at its line in schema.sql', async () => {
    const report = await check(brokenWorld('schema-not-strict'), { skip: ['lint'] });
    expect(report.findings[0].location).toMatchObject({
      file: expect.stringMatching(/schema-not-strict\/schema\.sql$/),
      line: 2,
    });
  });

  it('finds time in generated columns, indexes and CHECK constraints and local time, but not in defaults or triggers', async () => {
    const report = await check(brokenWorld('schema-clock'), { skip: ['lint', 'determinism'] });
    const found = report.findings.map((f) => [f.code, f.location?.line, f.location?.object]);
    expect(found).toEqual([
      ['SH103', 8, 'table items'],
      ['SH105', 9, 'table items'],
      ['SH105', 14, 'table reminders'],
      ['SH104', 17, 'index items_recent'],
      ['SH104', 18, 'index items_age'],
      ['SH106', 26, 'schema'],
    ]);
    expect(
      report.findings.every((f) => f.location?.file?.endsWith('schema-clock/schema.sql')),
    ).toBe(true);
  });

  it('checks tools that bypass defineTool: names, descriptions, object schemas, strictness, typed arguments', async () => {
    const report = await check(brokenWorld('tools-lax'), { skip: ['lint', 'determinism'] });
    expect(report.findings.map((f) => [f.code, f.severity, f.location?.object])).toEqual([
      ['SH201', 'error', 'tool Find-Item'],
      ['SH204', 'warning', 'tool ping'],
      ['SH203', 'error', 'tool blank'],
      ['SH205', 'error', 'tool by_name'],
      ['SH206', 'warning', 'tool loose'],
      ['SH207', 'warning', 'tool schedule'],
      ['SH207', 'warning', 'tool schedule'],
      ['SH210', 'warning', 'tool essay'],
    ]);
    expect(report.findings.filter((f) => f.code === 'SH207').map((f) => f.message)).toEqual([
      'Argument "at" of tool "schedule" has no JSON Schema type, so the agent cannot know what to send.',
      'Argument "tags[]" of tool "schedule" has no JSON Schema type, so the agent cannot know what to send.',
    ]);
  });

  it('names every argument without a description by its path, and tools named after a TRL environment method', async () => {
    const report = await check(brokenWorld('tool-undescribed'), { skip: ['lint', 'determinism'] });
    expect(
      report.findings.map((f) => [f.code, f.severity, f.location?.object, f.location?.line]),
    ).toEqual([
      ['SH211', 'warning', 'tool tag_item', 6],
      ['SH211', 'warning', 'tool tag_item', 6],
      ['SH211', 'warning', 'tool tag_item', 6],
      ['SH211', 'warning', 'tool tag_item', 6],
      ['SH212', 'warning', 'tool get_reward', 19],
    ]);
    expect(report.ok).toBe(true);
    const undescribed = report.findings.filter((f) => f.code === 'SH211');
    expect(
      undescribed.map(
        (f) => f.message.match(/^Argument "([^"]+)" of tool "tag_item" has no description/)?.[1],
      ),
    ).toEqual(['note', 'labels[].text', 'spots[][].bin', 'placement.row']);
    expect(
      undescribed.map(
        (f) =>
          f.fix.match(/^Describe it where the input is declared: (.*?\.describe\('…'\)),/)?.[1],
      ),
    ).toEqual([
      "note: z.string().nullable().describe('…')",
      "text: z.string().describe('…')",
      "bin: z.number().int().describe('…')",
      "row: z.number().int().describe('…')",
    ]);
    expect(report.findings[4].message).toBe(
      'Tool "get_reward" has the name of a method TRL\'s trainer keeps for itself (reset, get_reward), so seahaven_client.trl\'s environment class cannot offer it to the agent.',
    );
  });

  it('reports a reset tool built around defineTool as reserved by the protocol, once', () => {
    const listing = {
      name: 'reset',
      description: 'Put every item back on its shelf.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    };
    expect(codes(checkTools([listing], null))).toEqual(['SH202']);
  });

  describe('fixtures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seahaven-check-fixtures-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('gives each broken fixture its own code, and none to the good one', async () => {
      const world = fixtureWorld(dir);
      const write = (id: string, meta: FixtureMeta | string, image: Buffer) => {
        writeFileSync(
          join(dir, `${id}.json`),
          typeof meta === 'string' ? meta : JSON.stringify(meta, null, 2),
        );
        writeFileSync(join(dir, `${id}.sqlite`), image);
      };
      const frozen = (id: string) => buildFixture(world, id);
      const good = frozen('good');
      write('good', good.meta, good.images.get(null)!);
      const borrowGood = (id: string) =>
        write(
          id,
          { ...good.meta, id, description: world.fixtures[id].description },
          good.images.get(null)!,
        );
      for (const id of ['bad_json', 'bad_shape', 'tampered', 'old_schema', 'flaky', 'drifted']) {
        const built = frozen(id);
        write(id, built.meta, built.images.get(null)!);
      }
      writeFileSync(join(dir, 'bad_json.json'), '{ "id": "bad_json", ');
      const patch = (id: string, change: Partial<FixtureMeta>) =>
        writeFileSync(
          join(dir, `${id}.json`),
          JSON.stringify({
            ...JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')),
            ...change,
          }),
        );
      patch('bad_shape', { sha256: 'xyz' });
      copyFileSync(join(dir, 'good.sqlite'), join(dir, 'tampered.sqlite'));
      patch('old_schema', { schema_hash: 'f'.repeat(64) });
      patch('drifted', { description: 'An older description.' });
      borrowGood('stale');
      borrowGood('throws');
      // Left behind by a fixture that was removed from the world.
      writeFileSync(join(dir, 'retired.sqlite'), good.images.get(null)!);
      writeFileSync(join(dir, 'retired.json'), JSON.stringify({ ...good.meta, id: 'retired' }));

      const report = await check(world, { skip: ['lint', 'determinism'] });
      const byFixture: Record<string, string[]> = {};
      for (const f of report.findings) (byFixture[f.location?.object ?? '?'] ??= []).push(f.code);
      expect(byFixture).toEqual({
        'fixture missing': ['SH301'],
        'fixture bad_json': ['SH302'],
        'fixture bad_shape': ['SH302'],
        'fixture tampered': ['SH303'],
        'fixture old_schema': ['SH304'],
        'fixture stale': ['SH305'],
        'fixture flaky': ['SH306'],
        'fixture throws': ['SH307'],
        'fixture drifted': ['SH308'],
        'world fixture_world': ['SH311'],
      });
      const undeclared = report.findings.find((f) => f.code === 'SH311')!;
      expect(undeclared).toMatchObject({
        severity: 'warning',
        location: { file: join(dir, 'retired.json') },
      });
      expect(undeclared.message).toContain(
        'no fixture of "fixture_world" declares: retired.json, retired.sqlite',
      );
      expect(undeclared.fix).toMatch(
        /^Run `npx seahaven fixtures build --world \S+`, which removes them/,
      );
      expect(report.findings.find((f) => f.code === 'SH307')?.message).toContain(
        'seed data file is gone',
      );
      expect(report.findings.find((f) => f.code === 'SH308')?.severity).toBe('warning');
    });
  });

  it('reports lint findings in the world folder, and files that do not parse', async () => {
    const report = await check(brokenWorld('lint-broken'), { skip: ['determinism'] });
    expect(
      report.findings.map((f) => [
        f.code,
        f.location?.object ?? null,
        f.location?.file?.split('/').pop(),
      ]),
    ).toEqual([
      ['SH402', null, 'helpers.js'],
      ['SH401', 'seahaven/no-wall-clock', 'index.ts'],
      ['SH401', 'seahaven/no-math-random', 'index.ts'],
    ]);
    expect(report.findings[1]).toMatchObject({
      severity: 'error',
      location: { line: 9, column: 21 },
    });
    expect(report.findings[1].fix).toBe(
      'Follow the message; see docs/lint-rules/no-wall-clock.md.',
    );
  });

  it('says so when ESLint cannot be loaded', async () => {
    const missing = () =>
      Promise.reject(
        Object.assign(new Error("Cannot find package 'eslint'"), { code: 'ERR_MODULE_NOT_FOUND' }),
      );
    const findings = await checkLint(
      fileURLToPath(new URL('./test-fixtures/lint-broken/', import.meta.url)),
      missing,
    );
    expect(codes(findings)).toEqual(['SH403']);
    expect(findings[0].severity).toBe('warning');
    triggered.add('SH403');
  });

  it('plays each fixture twice and catches state written from the host, and tools that crash', async () => {
    const report = await check(brokenWorld('nondeterministic-state'), { skip: ['lint'] });
    expect(codes(report.findings)).toEqual(['SH309', 'SH601', 'SH603']);
    expect(report.findings[1].message).toMatch(
      /end in different states; they first differ at the change to items/,
    );
    expect(report.findings[2].message).toMatch(
      /Tool "rename_item" crashed with TypeError: Cannot read properties of undefined/,
    );
  });

  it('catches results that depend on module state, and fixtures the smoke cannot start', async () => {
    const report = await check(brokenWorld('nondeterministic-results'), {
      skip: ['lint'],
      smokeCalls: 10,
    });
    expect(codes(report.findings)).toEqual(['SH309', 'SH307', 'SH602', 'SH604']);
    expect(report.findings[2].message).toMatch(
      /return different results at call \d+ \(take_ticket\)/,
    );
  });

  describe('extra checks', () => {
    const gold: Check = {
      name: 'tasks',
      description: 'every task has a gold solution',
      run: ({ world }) =>
        world
          ? [
              {
                code: 'SH590',
                severity: 'warning',
                message: `World "${world.name}" has no tasks.`,
                fix: 'Add defineTask(...) entries.',
              },
            ]
          : [],
    };

    it('run after the built-in checks and report codes of their own', async () => {
      const report = await check('crm', {
        extraChecks: [gold],
        skip: ['lint', 'determinism', 'fixtures', 'graders'],
      });
      expect(report.checks).toEqual(['load', 'schema', 'tools', 'tasks']);
      expect(report.findings).toEqual([
        {
          code: 'SH590',
          severity: 'warning',
          message: 'World "crm" has no tasks.',
          fix: 'Add defineTask(...) entries.',
          check: 'tasks',
        },
      ]);
      expect(report.ok).toBe(true);
      expect(formatReport(report)).toContain('OK crm 1.0.0 with 0 errors, 1 warning');
    });

    it('may not reuse built-in codes, invent code shapes, or take a built-in name', async () => {
      const reuse: Check = {
        name: 'reuse',
        description: '',
        run: () => [{ code: 'SH101', severity: 'error', message: 'x', fix: 'y' }],
      };
      await expect(
        runChecks('crm', {
          extraChecks: [reuse],
          skip: ['lint', 'determinism', 'fixtures', 'graders'],
        }),
      ).rejects.toThrow(/SH101, a code of a built-in check/);
      const grader: Check = {
        name: 'grader',
        description: '',
        run: () => [{ code: 'SH501', severity: 'error', message: 'x', fix: 'y' }],
      };
      await expect(
        runChecks('crm', {
          extraChecks: [grader],
          skip: ['lint', 'determinism', 'fixtures', 'graders'],
        }),
      ).rejects.toThrow(/SH501, a code of a built-in check/);
      const shape: Check = {
        name: 'shape',
        description: '',
        run: () => [{ code: 'TASK-1', severity: 'error', message: 'x', fix: 'y' }],
      };
      await expect(
        runChecks('crm', { extraChecks: [shape], skip: ['lint', 'determinism', 'fixtures'] }),
      ).rejects.toThrow(/codes look like SH501/);
      const twin: Check = { name: 'schema', description: '', run: () => [] };
      await expect(runChecks('crm', { extraChecks: [twin] })).rejects.toThrow(
        /two checks are named "schema"/,
      );
    });
  });

  it("fails a world whose mounted world's calls come back internal, naming the mount, not the grader", async () => {
    const report = await check(mountedInternalWorld, { skip: ['lint', 'fixtures'] });
    expect(report.ok).toBe(false);
    expect(codes(report.findings)).toEqual(['SH605', 'SH512', 'SH511', 'SH511', 'SH511']);
    const [smoke, gold] = report.findings;
    expect(smoke).toMatchObject({
      severity: 'error',
      location: { object: 'tool billing_pay_invoice' },
    });
    expect(smoke.message).toMatch(
      /^Tool "billing_pay_invoice" of the world mounted at "billing" came back internal, with ToolError: No such invoice: /,
    );
    expect(smoke.fix).toContain('@seahaven/stripe');
    expect(gold).toMatchObject({ severity: 'error', location: { object: 'task order_lamp' } });
    expect(gold.message).toMatch(
      /^order_lamp: gold call billing_pay_invoice\(\{"id":"in_1"\}\) of the world mounted at "billing" came back internal \(world bug err_[0-9a-f]{16} in shop\/billing_pay_invoice .*No such invoice: in_1\)\.$/,
    );
  });

  it('reports a task whose fixture cannot load as an instance that cannot start, not as a grader that throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seahaven-check-unloadable-'));
    try {
      writeFileSync(join(dir, 'empty.json'), '{ not json');
      const world = shopWorld(dir);
      const report = await check(world, { skip: ['lint', 'determinism'] });
      expect(codes(report.findings)).toEqual(['SH301', 'SH513']);
      expect(report.findings[1].message).toMatch(
        /^order_lamp: the task could not be checked: fixture "empty" of world "shop" has an unreadable sidecar/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a test world for every built-in code', () => {
    expect(Object.keys(CHECK_CODES).filter((code) => !triggered.has(code))).toEqual([]);
  });

  it('documents every code in docs/check-codes.md with its severity and title', () => {
    const page = readFileSync(new URL('../../../../docs/check-codes.md', import.meta.url), 'utf8');
    for (const [code, info] of Object.entries(CHECK_CODES)) {
      expect(page, code).toContain(`### ${code} · ${info.severity} · ${info.title}`);
    }
    for (const [code, info] of Object.entries(GRADER_CHECKS)) {
      expect(page, code).toContain(`### ${code} · ${info.severity} · ${info.title}`);
    }
    const documented = [...page.matchAll(/^### (SH\d{3})/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual([...Object.keys(CHECK_CODES), ...Object.keys(GRADER_CHECKS)].sort());
  });
});
