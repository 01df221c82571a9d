import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installPacked, packedTarball } from 'seahaven/internal/core/test/packed-install';

// What the packed plugin needs at run time, plus the consumer's own eslint and typescript.
const DEPS = ['eslint', '@typescript-eslint/parser', '@typescript-eslint/utils', 'typescript'];

describe('seahaven/lint from the packed package', () => {
  it("runs under a consumer's `npx eslint` with `[seahaven.configs.recommended]`", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'seahaven-consumer-'));
    try {
      // `npm pack` runs the `prepare` build into dist/ and packs what `files` lists, as a publish would.
      const consumer = join(tmp, 'consumer');
      mkdirSync(consumer);
      installPacked(await packedTarball(), consumer, DEPS);
      writeFileSync(
        join(consumer, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      writeFileSync(
        join(consumer, 'eslint.config.mjs'),
        "import seahaven from 'seahaven/lint';\nexport default [seahaven.configs.recommended];\n",
      );
      writeFileSync(
        join(consumer, 'world.ts'),
        'export function stamp(ctx: unknown): number {\n  return Date.now();\n}\n',
      );
      writeFileSync(join(consumer, 'world.test.ts'), 'export const t = Date.now();\n');

      const eslint = spawnSync(
        process.execPath,
        [join(consumer, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', '.'],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(eslint.stderr).toBe('');
      expect(eslint.status).toBe(1);
      const results = JSON.parse(eslint.stdout) as {
        filePath: string;
        messages: { ruleId: string; line: number }[];
      }[];
      expect(results.map((r) => r.filePath.slice(consumer.length + 1)).sort()).toEqual([
        'eslint.config.mjs',
        'world.ts',
      ]);
      const world = results.find((r) => r.filePath.endsWith('world.ts'))!;
      expect(world.messages).toMatchObject([{ ruleId: 'seahaven/no-wall-clock', line: 2 }]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
