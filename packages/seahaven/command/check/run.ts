/** Run checks over a world: load it (definition errors become findings), then run each check module in order. */
import type { World } from '../../core/world.ts';
import { CHECK_CODES, type Finding } from './codes.ts';
import { determinismCheck } from './determinism.ts';
import { fixturesCheck } from './fixtures.ts';
import { lintCheck } from './lint.ts';
import { loadTarget, type CheckTarget } from './load.ts';
import type { Check, CheckOptions } from './check.ts';
import { schemaCheck } from './schema.ts';
import { toolsCheck } from './tools.ts';
import { gradersCheck } from './graders.ts';
import { GRADER_CHECKS } from '../../libraries/rewards/check.ts';

export interface CheckReport {
  /** What was checked: the reference given, or the world's name. */
  target: string;
  world: { name: string; version: string } | null;
  file: string | null;
  /** Names of the checks that ran, in order (`load` first). */
  checks: string[];
  findings: Finding[];
  errors: number;
  warnings: number;
  /** No errors (warnings allowed). */
  ok: boolean;
}

/** The built-in checks, in the order they run. */
export const defaultChecks: readonly Check[] = [
  schemaCheck,
  toolsCheck,
  fixturesCheck,
  lintCheck,
  determinismCheck,
  gradersCheck,
];

const CODE = /^SH\d{3}$/;

/**
 * Run the built-in checks (and `options.extraChecks`) on a world: an example name (`crm`), a module path, or a world
 * object. Resolves to every finding; never throws for problems of the world itself.
 * @example
 * const report = await runChecks('crm', { smokeCalls: 20 });
 * if (!report.ok) console.log(report.findings);
 */
export async function runChecks(
  world: string | World | undefined,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const list = [...defaultChecks, ...(options.extraChecks ?? [])];
  const names = new Set<string>();
  for (const c of list) {
    if (names.has(c.name))
      throw new Error(`two checks are named "${c.name}"; give each check its own name`);
    names.add(c.name);
  }
  const builtIn = new Set(defaultChecks);

  let target: CheckTarget;
  const findings: Finding[] = [];
  if (typeof world === 'object' && world !== null) {
    target = { ref: world.name, world, file: null, folder: options.folder ?? null };
  } else {
    const loaded = await loadTarget(world);
    target = loaded.target;
    for (const f of loaded.findings) findings.push({ ...f, check: 'load' });
  }

  const ran = ['load'];
  for (const check of list) {
    if (options.skip?.includes(check.name)) continue;
    ran.push(check.name);
    let found: Finding[];
    try {
      found = await check.run(target, options);
    } catch (e) {
      throw new Error(
        `check "${check.name}" failed on ${target.ref}: ${(e as Error)?.message ?? e}`,
        { cause: e },
      );
    }
    for (const f of found) {
      if (!CODE.test(f.code) || (f.severity !== 'error' && f.severity !== 'warning')) {
        throw new Error(
          `check "${check.name}" reported ${JSON.stringify(f.code)} with severity ${JSON.stringify(f.severity)}; codes look like SH501 and severities are 'error' or 'warning'`,
        );
      }
      if (!builtIn.has(check) && (f.code in CHECK_CODES || f.code in GRADER_CHECKS)) {
        throw new Error(
          `check "${check.name}" reported ${f.code}, a code of a built-in check; codes are never reused, so give the finding its own code (SH590–SH599 are free for your own task checks)`,
        );
      }
      findings.push({ ...f, check: check.name });
    }
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    target: target.ref,
    world: target.world ? { name: target.world.name, version: target.world.version } : null,
    file: target.file,
    checks: ran,
    findings,
    errors,
    warnings: findings.length - errors,
    ok: errors === 0,
  };
}
