import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin, { rules } from './index.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const docs = fileURLToPath(new URL('../../../../docs/lint-rules/', import.meta.url));
const HELPERS = [
  'index.ts',
  'create-rule.ts',
  'references.ts',
  'ctx-replacement.ts',
  'sql.ts',
  'test-helpers.ts',
];

describe('the seahaven plugin', () => {
  it('maps every rule file to its id, and every rule has a test file and a docs page with ❌/✅ examples', () => {
    const files = readdirSync(here).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !HELPERS.includes(f),
    );
    expect(Object.keys(rules).sort()).toEqual(files.map((f) => f.replace(/\.ts$/, '')).sort());
    for (const [id, rule] of Object.entries(rules)) {
      expect(rule.name).toBe(id);
      expect(existsSync(`${here}${id}.test.ts`), `${id}.test.ts`).toBe(true);
      const page = readFileSync(`${docs}${id}.md`, 'utf8');
      expect(page, id).toContain('❌');
      expect(page, id).toContain('✅');
      expect(rule.meta.docs?.url).toBe(new URL(`${id}.md`, `file://${docs}`).href);
    }
  });

  it('lists every rule in docs/lint-rules/README.md', () => {
    const readme = readFileSync(`${docs}README.md`, 'utf8');
    for (const id of Object.keys(rules)) expect(readme, id).toContain(`[\`${id}\`](./${id}.md)`);
  });

  it('writes descriptions as imperatives and messages as sentences with code in backticks', () => {
    for (const [id, rule] of Object.entries(rules)) {
      expect(rule.meta.docs?.description, id).toMatch(/^(Disallow|Require) .*`/);
      for (const [messageId, message] of Object.entries(
        rule.meta.messages as Record<string, string>,
      )) {
        expect(message, `${id}.${messageId}`).toMatch(/^[`A-Z].*\.$/s);
        expect(message, `${id}.${messageId}`).toContain('`');
      }
    }
  });

  it('derives configs.recommended from meta.docs.recommended, with the TypeScript parser and the plugin', () => {
    const recommended = plugin.configs.recommended;
    const expected = Object.entries(rules)
      .filter(([, r]) => r.meta.docs?.recommended)
      .map(([id]) => `seahaven/${id}`);
    expect(Object.keys(recommended.rules ?? {}).sort()).toEqual(expected.sort());
    expect(expected.length).toBe(Object.keys(rules).length);
    expect(recommended.plugins?.seahaven).toBe(plugin);
    expect(
      (recommended.languageOptions?.parser as { parseForESLint?: unknown }).parseForESLint,
    ).toBeTypeOf('function');
    expect(recommended.files).toEqual(['**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}']);
  });

  it('reports world code through ESLint and leaves tests alone', async () => {
    const eslint = new ESLint({
      cwd: here,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended as never],
      ignore: false,
    });
    const world =
      'export function run(ctx: unknown) { return [Date.now(), Math.random(), process.env.HOME]; }\n';
    const [result] = await eslint.lintText(world, { filePath: `${here}test-fixtures/world.ts` });
    expect(result.messages.map((m) => m.ruleId)).toEqual([
      'seahaven/no-wall-clock',
      'seahaven/no-math-random',
      'seahaven/no-process-env',
    ]);
    const ignored = await eslint.lintText(world, {
      filePath: `${here}test-fixtures/world.test.ts`,
      warnIgnored: true,
    });
    expect(ignored[0].messages.map((m) => m.message).join()).toMatch(/ignored/i);
  });

  it('reports the ❌ examples of each docs page and none of the ✅ examples', async () => {
    const eslint = new ESLint({
      cwd: here,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended as never],
      ignore: false,
    });
    for (const id of Object.keys(rules)) {
      const page = readFileSync(`${docs}${id}.md`, 'utf8');
      const sections = page.split(/^## /m);
      const blocks = (mark: string) =>
        sections
          .filter((s) => s.startsWith(mark))
          .flatMap((s) => [...s.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]));
      expect(blocks('❌').length, id).toBeGreaterThan(0);
      for (const code of blocks('❌')) {
        const [r] = await eslint.lintText(code, { filePath: `${here}test-fixtures/${id}.ts` });
        expect(
          r.messages.filter((m) => m.ruleId === `seahaven/${id}`).length,
          `${id} ❌:\n${code}`,
        ).toBeGreaterThan(0);
      }
      for (const code of blocks('✅')) {
        const [r] = await eslint.lintText(code, { filePath: `${here}test-fixtures/${id}.ts` });
        expect(r.messages, `${id} ✅:\n${code}`).toEqual([]);
      }
    }
  });

  it('works under the default JavaScript parser, without parser services', async () => {
    const { parser: _ts, ...javascript } = plugin.configs.recommended.languageOptions ?? {};
    const config = { ...plugin.configs.recommended, languageOptions: javascript };
    const eslint = new ESLint({
      cwd: here,
      overrideConfigFile: true,
      overrideConfig: [config as never],
      ignore: false,
    });
    const code = [
      'export function run(ctx, id) {',
      '  const rows = ctx.db.all(`SELECT * FROM t WHERE id = ${id}`);',
      '  return [rows, new Date().toLocaleString(), (1).toLocaleString(), Math.random()];',
      '}',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: `${here}test-fixtures/world.js` });
    expect(result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`)).toEqual([
      '2:27 seahaven/no-sql-interpolation',
      '3:17 seahaven/no-locale-format',
      '3:17 seahaven/no-wall-clock',
      '3:46 seahaven/no-locale-format',
      '3:68 seahaven/no-math-random',
    ]);
  });

  it('finds nothing in the crm world', async () => {
    const cwd = fileURLToPath(new URL('../../../../worlds/crm/', import.meta.url));
    const eslint = new ESLint({
      cwd,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended as never],
    });
    const results = await eslint.lintFiles(['.']);
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });
});
