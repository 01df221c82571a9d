/**
 * Difficulty: what a task declares, and what its gold solution measures when replayed on a fresh instance of its
 * fixture (calls, rows changed, tables written, distinct tools, fixture size), folded into one score that orders tasks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixture, type FixtureMeta } from '../../core/fixtures.ts';
import type { DifficultyWeights } from '../../core/curriculum.ts';
import type { Task } from '../../core/task.ts';
import type { World } from '../../core/world.ts';

export type { DifficultyWeights } from '../../core/curriculum.ts';

/** What one task's gold replay measured. Measured fields are `null` when the task has no gold solution or it threw. */
export interface TaskDifficulty {
  task: string;
  fixture: string;
  /** The task's declared difficulty, else its fixture's, else `null`. */
  declared: number | null;
  /** Tool calls the gold solution made (failed calls included). */
  calls: number | null;
  /** Gold calls that returned an error; a sound gold solution makes none. */
  failedCalls: number | null;
  /** Net rows changed: `inst.changes().length`. */
  rowsChanged: number | null;
  /** Distinct tables the gold solution wrote to (from the change log, so rows written and reverted count). */
  tablesTouched: number | null;
  /** Distinct tools the gold solution called. */
  distinctTools: number | null;
  /** Size of the fixture image in bytes (the frozen image's sidecar, else the image as loaded). */
  fixtureBytes: number;
  /** Whether the task's grader passes the gold outcome; `null` without a gold solution. */
  goldPassed: boolean | null;
  /** Why measuring failed (no gold solution, or the message the gold solution threw). */
  problem: string | null;
  /** The difficulty score (see `difficultyScore`); `null` when nothing was measured. */
  score: number | null;
}

/** The measured quantities that feed the score. */
export interface DifficultyMeasures {
  calls: number;
  rowsChanged: number;
  tablesTouched: number;
  distinctTools: number;
  fixtureBytes: number;
}

/**
 * The default weights: each call needed costs 1, each row changed 0.5, each table written and each distinct tool 1,
 * and the fixture `log2(1 + bytes / 256 KiB)`, so a 100 KB image adds about 0.5 and a 5 MB image about 4.4.
 */
export const DEFAULT_DIFFICULTY_WEIGHTS: Readonly<DifficultyWeights> = Object.freeze({
  calls: 1,
  rowsChanged: 0.5,
  tablesTouched: 1,
  distinctTools: 1,
  fixture: 1,
  fixtureUnit: 262_144,
});

/**
 * The difficulty score: `calls + 0.5·rowsChanged + tablesTouched + distinctTools + log2(1 + fixtureBytes / 256 KiB)`
 * with the default weights. Longer solutions, wider changes, more of the API and a bigger haystack all make a task harder.
 * @example
 * difficultyScore({ calls: 2, rowsChanged: 2, tablesTouched: 2, distinctTools: 2, fixtureBytes: 0 }); // 7
 */
export function difficultyScore(
  m: DifficultyMeasures,
  weights: Partial<DifficultyWeights> = {},
): number {
  const w = { ...DEFAULT_DIFFICULTY_WEIGHTS, ...weights };
  return (
    w.calls * m.calls +
    w.rowsChanged * m.rowsChanged +
    w.tablesTouched * m.tablesTouched +
    w.distinctTools * m.distinctTools +
    w.fixture * Math.log2(1 + m.fixtureBytes / w.fixtureUnit)
  );
}

export interface MeasureOptions {
  /** Only these tasks (default: all of the world's tasks). */
  tasks?: string[];
  /** Instance seed for the gold replays. Default 0. */
  seed?: number;
  /** Override some score weights. */
  weights?: Partial<DifficultyWeights>;
}

/**
 * Replay each task's gold solution on a fresh instance of its fixture and measure it. The result is sorted easiest
 * first: by score, then declared difficulty, then task id; tasks that could not be measured come last.
 * @example
 * const table = measureDifficulty(world);
 * table.map((d) => `${d.task} ${d.score}`);
 */
export function measureDifficulty(world: World, options: MeasureOptions = {}): TaskDifficulty[] {
  const wanted = options.tasks ?? world.tasks.map((t) => t.id);
  const out: TaskDifficulty[] = [];
  for (const id of wanted) {
    const task = world.task(id);
    if (!task)
      throw new RangeError(
        `measureDifficulty: world "${world.name}" has no task "${id}"; its tasks are ${world.tasks.map((t) => t.id).join(', ') || '(none)'}`,
      );
    out.push(measureTask(world, task, options));
  }
  return out.sort(compareDifficulty);
}

/**
 * Easiest first: score, then declared difficulty, then id; unmeasured tasks last.
 * @example
 * rows.sort(compareDifficulty);
 */
export function compareDifficulty(a: TaskDifficulty, b: TaskDifficulty): number {
  if (a.score === null || b.score === null) {
    if (a.score !== b.score) return a.score === null ? 1 : -1;
  } else if (a.score !== b.score) {
    return a.score - b.score;
  }
  const da = a.declared ?? Infinity,
    db = b.declared ?? Infinity;
  if (da !== db) return da < db ? -1 : 1;
  return a.task < b.task ? -1 : a.task > b.task ? 1 : 0;
}

function measureTask(world: World, task: Task, options: MeasureOptions): TaskDifficulty {
  const declared = task.difficulty ?? world.fixtures[task.fixture]?.difficulty ?? null;
  const base: TaskDifficulty = {
    task: task.id,
    fixture: task.fixture,
    declared,
    calls: null,
    failedCalls: null,
    rowsChanged: null,
    tablesTouched: null,
    distinctTools: null,
    fixtureBytes: fixtureBytes(world, task.fixture),
    goldPassed: null,
    problem: null,
    score: null,
  };
  if (!task.gold) return { ...base, problem: 'no gold solution' };
  const inst = world.instance({ fixture: task.fixture, seed: options.seed ?? 0, clock: 'fixed' });
  try {
    try {
      task.gold(inst);
    } catch (e) {
      return { ...base, problem: `gold solution threw: ${(e as Error)?.message ?? String(e)}` };
    }
    const calls = inst.callLog();
    const measures: DifficultyMeasures = {
      calls: calls.length,
      rowsChanged: inst.changes().length,
      tablesTouched: new Set(inst.changeLog().map((c) => c.table)).size,
      distinctTools: new Set(calls.map((c) => c.tool)).size,
      fixtureBytes: base.fixtureBytes,
    };
    return {
      ...base,
      calls: measures.calls,
      failedCalls: calls.filter((c) => !c.ok).length,
      rowsChanged: measures.rowsChanged,
      tablesTouched: measures.tablesTouched,
      distinctTools: measures.distinctTools,
      goldPassed: task.grade(inst).passed,
      score: difficultyScore(measures, options.weights),
    };
  } finally {
    inst.destroy();
  }
}

/** The frozen image's size from its sidecar when there is one (what `fixtures list` shows), else the loaded image's. */
function fixtureBytes(world: World, id: string): number {
  if (world.fixturesDir !== null) {
    const sidecar = join(world.fixturesDir, `${id}.json`);
    if (existsSync(sidecar)) {
      const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as FixtureMeta;
      if (typeof meta.bytes === 'number') return meta.bytes;
    }
  }
  return loadFixture(world, id).resetImages.get(null)!.length;
}
