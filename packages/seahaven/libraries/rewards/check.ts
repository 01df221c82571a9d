/**
 * Grader self-tests. A grader is checked against three agents: one that does nothing (must not pass), the task's gold
 * solution (must score 1), and seeded chaos agents (must not score 1). Findings carry stable codes SH501–SH513.
 */
import {
  InstanceError,
  type Grade,
  type GradeTarget,
  type Instance,
  type Task,
  type World,
} from '../../core/index.ts';
import { runChaos, type ChaosRun } from './chaos.ts';
import { CRITERION_ID } from '../../core/task.ts';
import { visibleInMount } from '../../core/mount.ts';
import { full } from './grade.ts';

export type GraderCheckCode =
  | 'SH501'
  | 'SH502'
  | 'SH503'
  | 'SH504'
  | 'SH505'
  | 'SH506'
  | 'SH507'
  | 'SH508'
  | 'SH509'
  | 'SH510'
  | 'SH511'
  | 'SH512'
  | 'SH513';
export type Severity = 'error' | 'warning';

/** The fix for a mounted world's call that comes back internal (SH512 here, SH605 in `seahaven check`'s smoke test). */
export const MOUNTED_INTERNAL_FIX =
  'A mounted world threw something other than a ToolError, so the agent sees "internal error" instead of its error codes: a bug in it (the logged stack says where), or it runs on a copy of the kit that predates this one\'s; import it by its package name (`@seahaven/stripe`), not from its sources, and install one version of seahaven.';

/** Every grader check: its severity, what it means, and the one-line fix. Codes are never reused. */
export const GRADER_CHECKS: Readonly<
  Record<GraderCheckCode, { severity: Severity; title: string; fix: string }>
> = Object.freeze({
  SH501: {
    severity: 'error',
    title: 'the do-nothing agent passes',
    fix: 'Grade what the task asks to change (expectChanges, rowWhere on rows the agent must write), not what the fixture already holds.',
  },
  SH502: {
    severity: 'warning',
    title: 'the do-nothing agent earns a high reward',
    fix: 'Give no credit for state the fixture already has; check changes, or gate final-state checks behind them.',
  },
  SH503: {
    severity: 'warning',
    title: 'the task has no gold solution',
    fix: 'Add gold(inst) that solves the task through inst.call(), so the grader can be checked against a known answer.',
  },
  SH504: {
    severity: 'error',
    title: 'the gold solution does not score 1',
    fix: 'Fix the grader or the gold solution until the reference answer gets full marks; the criteria below say what was missed.',
  },
  SH505: {
    severity: 'error',
    title: 'the gold solution throws',
    fix: 'Make gold(inst) run to the end; read call results and handle { ok: false } instead of assuming success.',
  },
  SH506: {
    severity: 'warning',
    title: 'a gold call fails',
    fix: 'Use only calls that succeed in the gold solution, or remove the failing call.',
  },
  SH507: {
    severity: 'error',
    title: 'a chaos agent scores 1',
    fix: 'Penalise unexpected changes (expectChanges does by default) and check every field the task asks for.',
  },
  SH508: {
    severity: 'error',
    title: 'grading throws',
    fix: 'Fix the grader: the error below names the column, table or query at fault.',
  },
  SH509: {
    severity: 'error',
    title: 'grading is not deterministic',
    fix: 'Grade only from target.changes() and target.query(); no clocks, randomness or outside state in graders.',
  },
  SH510: {
    severity: 'error',
    title: 'the grade is malformed',
    fix: 'Return { reward in [0, 1], passed: boolean, criteria: [{ id?, name, score, weight, reason }] } with ids like "insert.contacts"; rubrics from seahaven/rewards do.',
  },
  SH511: {
    severity: 'warning',
    title: 'a chaos agent hit a world bug',
    fix: 'A tool threw something other than ToolError; reproduce with runChaos(inst, { seed }) and fix the tool.',
  },
  SH512: {
    severity: 'error',
    title: 'a gold call of a mounted world comes back internal',
    fix: MOUNTED_INTERNAL_FIX,
  },
  SH513: {
    severity: 'error',
    title: "the task's instance cannot start",
    fix: 'Follow the message: a fixture that cannot load names the `seahaven fixtures build` command that rebuilds it; an unknown fixture is a typo in the task.',
  },
});

/** One problem `checkGrader` found. */
export interface GraderProblem {
  code: GraderCheckCode;
  severity: Severity;
  message: string;
  fix: string;
}

export interface ChaosOutcome extends ChaosRun {
  reward: number;
  passed: boolean;
}

/** What `checkGrader` returns. `ok` is false when any problem is an error. */
export interface GraderReport {
  ok: boolean;
  task: string;
  problems: GraderProblem[];
  /** The do-nothing agent's grade. */
  idle: Grade | null;
  /** The gold solution's grade; null without gold or when it threw. */
  gold: Grade | null;
  chaos: ChaosOutcome[];
}

export interface CheckGraderOptions {
  /** Seeds of the chaos agents. Default [1, 2, 3]. */
  chaosSeeds?: readonly number[];
  /** Calls each chaos agent makes. Default 30. */
  chaosCalls?: number;
  /** A do-nothing reward at or above this is a warning (SH502). Default 0.5. */
  idleMax?: number;
  /** Instance seed. Default 0. */
  seed?: number;
}

function gradeProblem(grade: unknown): string | null {
  const g = grade as Grade;
  if (typeof g !== 'object' || g === null) return `grade returned ${typeof g}, not an object`;
  if (typeof g.reward !== 'number' || !(g.reward >= 0 && g.reward <= 1))
    return `reward is ${JSON.stringify(g.reward)}, not a number in [0, 1]`;
  if (typeof g.passed !== 'boolean') return `passed is ${JSON.stringify(g.passed)}, not a boolean`;
  if (!Array.isArray(g.criteria)) return 'criteria is not an array';
  for (const [i, c] of g.criteria.entries()) {
    if (
      typeof c?.name !== 'string' ||
      typeof c.reason !== 'string' ||
      typeof c.score !== 'number' ||
      typeof c.weight !== 'number' ||
      !(c.score >= 0 && c.score <= 1) ||
      !(c.weight >= 0)
    ) {
      return `criteria[${i}] is not { name, score in [0, 1], weight >= 0, reason }`;
    }
    if (typeof c.id !== 'string' || !CRITERION_ID.test(c.id))
      return `criteria[${i}].id is ${JSON.stringify(c.id)}, not an id like "insert.contacts" (${CRITERION_ID})`;
  }
  return null;
}

/** The agent-visible names of a world's mounted tools, with the mount each belongs to. */
function mountedTools(world: World): Map<string, string> {
  const out = new Map<string, string>();
  for (const [mount, m] of Object.entries(world.mounts))
    for (const t of m.world.tools) if (visibleInMount(m, t.name)) out.set(m.prefix + t.name, mount);
  return out;
}

function missed(grade: Grade): string {
  const misses = grade.criteria.filter((c) => c.weight > 0 && !full(c.score)).map((c) => c.reason);
  return misses.length
    ? ` Missed: ${misses.slice(0, 3).join(' ')}${misses.length > 3 ? ` (and ${misses.length - 3} more)` : ''}`
    : '';
}

/**
 * Check a task's grader: the do-nothing agent must not pass, the gold solution must score 1, chaos agents must not
 * score 1, and grading must be deterministic and well formed.
 * @example
 * const report = checkGrader(crm, 'add_lead');
 * if (!report.ok) console.log(report.problems);
 */
export function checkGrader(
  world: World,
  taskOrId: Task | string,
  options: CheckGraderOptions = {},
): GraderReport {
  const task = typeof taskOrId === 'string' ? world.task(taskOrId) : taskOrId;
  if (!task)
    throw new TypeError(
      `checkGrader: world "${world.name}" has no task "${String(taskOrId)}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}.`,
    );
  const problems: GraderProblem[] = [];
  const report = (code: GraderCheckCode, message: string) =>
    problems.push({
      code,
      severity: GRADER_CHECKS[code].severity,
      message: `${task.id}: ${message}`,
      fix: GRADER_CHECKS[code].fix,
    });
  const worldBugs: string[] = [];
  const start = (): Instance =>
    world.instance({
      fixture: task.fixture,
      seed: options.seed ?? 0,
      logger: (line) => worldBugs.push(line),
    });

  /** Grade, reporting a throw or a malformed grade; null when grading failed. */
  const grade = (target: GradeTarget, who: string): Grade | null => {
    let g: Grade;
    try {
      g = task.grade(target);
    } catch (e) {
      report(
        'SH508',
        `grading the ${who} threw ${(e as Error)?.name ?? 'an error'}: ${(e as Error)?.message ?? String(e)}`,
      );
      return null;
    }
    const bad = gradeProblem(g);
    if (bad) {
      report('SH510', `grading the ${who}: ${bad}.`);
      return null;
    }
    return g;
  };

  const idleInst = start();
  const idle = grade(idleInst, 'do-nothing agent');
  idleInst.destroy();
  if (idle?.passed) report('SH501', `an agent that makes no call passes (reward ${idle.reward}).`);
  else if (idle && idle.reward >= (options.idleMax ?? 0.5))
    report('SH502', `an agent that makes no call earns reward ${idle.reward}.`);

  let gold: Grade | null = null;
  if (!task.gold) {
    report('SH503', 'there is no gold solution, so nothing shows the grader can be satisfied.');
  } else {
    const inst = start();
    let threw = false;
    try {
      task.gold(inst);
    } catch (e) {
      threw = true;
      report(
        'SH505',
        `gold threw ${(e as Error)?.name ?? 'an error'}: ${(e as Error)?.message ?? String(e)}`,
      );
    }
    if (!threw) {
      const mounted = mountedTools(world);
      for (const entry of inst.callLog()) {
        if (entry.ok) continue;
        const mount = mounted.get(entry.tool);
        if (mount !== undefined && entry.error?.code === 'internal') {
          const bug = worldBugs
            .find((line) => line.includes(String(entry.error?.details?.id ?? '\u0000')))
            ?.split('\n')[0];
          report(
            'SH512',
            `gold call ${entry.tool}(${JSON.stringify(entry.args)}) of the world mounted at "${mount}" came back internal${bug ? ` (${bug.replace(/^\[seahaven\] /, '')})` : ''}.`,
          );
        } else {
          report(
            'SH506',
            `gold call ${entry.tool}(${JSON.stringify(entry.args)}) failed with ${entry.error?.code}: ${entry.error?.message}`,
          );
        }
      }
      gold = grade(inst, 'gold solution');
      if (gold && !(full(gold.reward) && gold.passed))
        report(
          'SH504',
          `the gold solution scores ${gold.reward}${gold.passed ? '' : ' and does not pass'}.${missed(gold)}`,
        );
      if (gold) {
        const again = grade(inst, 'gold solution a second time');
        const fork = inst.fork();
        const forked = grade(fork, 'fork of the gold solution');
        fork.destroy();
        if (
          (again && JSON.stringify(again) !== JSON.stringify(gold)) ||
          (forked && JSON.stringify(forked) !== JSON.stringify(gold))
        ) {
          report('SH509', 'grading the same final state twice gave different grades.');
        }
      }
    }
    inst.destroy();
  }

  const chaos: ChaosOutcome[] = [];
  for (const seed of options.chaosSeeds ?? [1, 2, 3]) {
    const inst = start();
    const before = worldBugs.length;
    const run = runChaos(inst, { seed, calls: options.chaosCalls ?? 30 });
    if (worldBugs.length > before)
      report('SH511', `chaos seed ${seed} hit a world bug: ${worldBugs[before].split('\n')[0]}`);
    const g = grade(inst, `chaos agent (seed ${seed})`);
    inst.destroy();
    if (!g) continue;
    chaos.push({ ...run, reward: g.reward, passed: g.passed });
    if (full(g.reward))
      report(
        'SH507',
        `a chaos agent (seed ${seed}, ${run.succeeded} of ${run.calls} calls accepted) scores 1.`,
      );
  }

  return {
    ok: !problems.some((p) => p.severity === 'error'),
    task: task.id,
    problems,
    idle,
    gold,
    chaos,
  };
}

/** A grader finding in the shape `seahaven check` reports. */
export interface GraderFinding {
  code: GraderCheckCode;
  severity: Severity;
  message: string;
  fix: string;
  task: string;
}

/**
 * Run `checkGrader` on every task of a world and list what it found.
 * @example
 * for (const f of graderFindings(crm)) console.log(`${f.code} ${f.severity}: ${f.message}`);
 */
export function graderFindings(world: World, options: CheckGraderOptions = {}): GraderFinding[] {
  const out: GraderFinding[] = [];
  for (const task of world.tasks) {
    let report: GraderReport;
    try {
      report = checkGrader(world, task, options);
    } catch (e) {
      // An instance that cannot start (a fixture that cannot load, above all) is not the grader's fault.
      const code = e instanceof InstanceError ? 'SH513' : 'SH508';
      out.push({
        code,
        severity: 'error',
        message: `${task.id}: the task could not be checked: ${(e as Error)?.message ?? String(e)}`,
        fix: GRADER_CHECKS[code].fix,
        task: task.id,
      });
      continue;
    }
    for (const p of report.problems) out.push({ ...p, task: task.id });
  }
  return out;
}
