/**
 * Run ESLint with the seahaven plugin's recommended config over world code, whatever the project's own ESLint
 * config says, and turn what it reports into findings. ESLint is an optional peer dependency: it is loaded only here.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ESLint } from 'eslint';
import { finding, type Finding } from './codes.ts';
import type { Check } from './check.ts';

type EslintModule = typeof import('eslint');

/** ESLint, from the project or from seahaven's own dependencies. */
export const loadEslint = (): Promise<EslintModule> => import('eslint');

/**
 * Lint files or folders with `seahaven.configs.recommended`. A folder is linted as its own base path, so its
 * `**` patterns match wherever it lives.
 * @example
 * const { results, errorCount } = await lintPaths(['worlds/crm']);
 */
export async function lintPaths(
  paths: readonly string[],
  load: () => Promise<EslintModule> = loadEslint,
): Promise<{
  results: ESLint.LintResult[];
  errorCount: number;
  warningCount: number;
  format(): Promise<string>;
}> {
  const { ESLint } = await load();
  // Loaded here, not at import: the plugin pulls in the TypeScript parser, which other commands do not need.
  const { default: plugin } = await import('../../libraries/lint-rules/index.ts');
  const results: ESLint.LintResult[] = [];
  let formatterHost: ESLint | undefined;
  for (const path of paths) {
    const abs = resolve(path);
    const folder = statSync(abs).isDirectory();
    const eslint = new ESLint({
      cwd: folder ? abs : dirname(abs),
      overrideConfigFile: true,
      // A world package's build (Stripe World's dist/) is its compiled sources, linted as those.
      overrideConfig: [{ ignores: ['**/dist/**'] }, plugin.configs.recommended as never],
      errorOnUnmatchedPattern: false,
    });
    formatterHost ??= eslint;
    results.push(...(await eslint.lintFiles([folder ? '.' : basename(abs)])));
  }
  const errorCount = results.reduce((n, r) => n + r.errorCount, 0);
  const warningCount = results.reduce((n, r) => n + r.warningCount, 0);
  return {
    results,
    errorCount,
    warningCount,
    format: async () =>
      formatterHost
        ? ((await formatterHost.loadFormatter('stylish')).format(results) as string)
        : '',
  };
}

/** Lint findings for a world folder: SH401 per rule violation, SH402 per file that does not parse, SH403 when ESLint is missing. */
export async function checkLint(
  folder: string,
  load: () => Promise<EslintModule> = loadEslint,
): Promise<Finding[]> {
  let linted: Awaited<ReturnType<typeof lintPaths>>;
  try {
    linted = await lintPaths([folder], load);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      return [
        finding(
          'SH403',
          `ESLint is not installed, so the determinism rules did not run on ${folder}.`,
        ),
      ];
    }
    throw e;
  }
  const out: Finding[] = [];
  for (const result of linted.results) {
    for (const m of result.messages) {
      const location = {
        file: result.filePath,
        line: m.line,
        column: m.column,
        ...(m.ruleId ? { object: m.ruleId } : {}),
      };
      if (m.fatal || m.ruleId === null) {
        out.push(
          finding('SH402', `${basename(result.filePath)} does not parse: ${m.message}`, {
            location,
          }),
        );
        continue;
      }
      const rule = m.ruleId.replace(/^seahaven\//, '');
      const fix = m.suggestions?.[0]?.desc ?? `Follow the message; see docs/lint-rules/${rule}.md.`;
      out.push(
        finding('SH401', m.message, {
          fix,
          location,
          severity: m.severity === 2 ? 'error' : 'warning',
        }),
      );
    }
  }
  return out;
}

export const lintCheck: Check = {
  name: 'lint',
  description: "the determinism lint rules over the world's folder",
  run(target) {
    return target.folder === null ? [] : checkLint(target.folder);
  },
};
