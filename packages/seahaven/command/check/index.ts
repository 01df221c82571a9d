/**
 * `seahaven check`: everything that can be verified about a world before it reaches training. Each check is a small
 * module with a stable set of codes (SH0xx loading, SH1xx schema, SH2xx tools, SH3xx fixtures, SH4xx lint, SH6xx
 * determinism, SH5xx task graders). `runChecks` loads the world (definition errors
 * become findings), runs `defaultChecks` and any `extraChecks`, and reports every finding with its code, severity,
 * location and a one-line fix. docs/check-codes.md lists the codes.
 *
 * @example
 * import { runChecks, formatReport, type Check } from './kit/check/index.ts';
 * const tasksHaveGold: Check = {
 *   name: 'tasks',
 *   description: 'every task has a gold solution',
 *   run: ({ world }) => (world?.tasks ?? []).filter((t) => !t.gold).map((t) => ({
 *     code: 'SH590', severity: 'warning', message: `Task "${t.id}" has no gold solution.`, fix: 'Add gold(inst).',
 *   })),
 * };
 * const report = await runChecks('crm', { extraChecks: [tasksHaveGold] });
 * process.stdout.write(formatReport(report));
 *
 * @module
 */
export { runChecks, defaultChecks, type CheckReport } from './run.ts';
export type { Check, CheckOptions } from './check.ts';
export { CHECK_CODES, type Finding } from './codes.ts';
export { formatReport } from './format.ts';
export { checkTools } from './tools.ts';
export { checkLint, lintPaths } from './lint.ts';
