/**
 * `seahaven eval --compare a/ b/`: two runs side by side, per task its passes and pass^1 in each, and the tasks whose
 * outcome changed, with the episodes (same task, seed and trial) that passed in one run and failed in the other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEpisodes, RunFolderError } from './store.ts';
import type { EvalSummary } from './summary.ts';

export interface TaskComparison {
  task: string;
  a: { trials: number; successes: number; pass_1: number; mean_reward: number } | null;
  b: { trials: number; successes: number; pass_1: number; mean_reward: number } | null;
  changed: boolean;
  /** Episode ids that passed in a and failed in b. */
  regressed: string[];
  /** Episode ids that failed in a and passed in b. */
  fixed: string[];
}

export interface Comparison {
  a: { dir: string; model: string; world: string; pass_1: number; episodes: number };
  b: { dir: string; model: string; world: string; pass_1: number; episodes: number };
  tasks: TaskComparison[];
}

function summaryOf(dir: string): EvalSummary {
  const file = join(dir, 'eval.json');
  if (!existsSync(file))
    throw new RunFolderError(
      `${dir} has no eval.json; give the --out folder of a finished seahaven eval or collect run`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as EvalSummary;
}

export function compareRuns(dirA: string, dirB: string): Comparison {
  const [sa, sb] = [summaryOf(dirA), summaryOf(dirB)];
  const outcome = (dir: string) => new Map(readEpisodes(dir).map((r) => [r.episode_id, r.passed]));
  const [oa, ob] = [outcome(dirA), outcome(dirB)];
  const names = [...new Set([...sa.tasks.map((t) => t.task), ...sb.tasks.map((t) => t.task)])];
  const side = (s: EvalSummary, task: string) => {
    const t = s.tasks.find((x) => x.task === task);
    return t === undefined
      ? null
      : {
          trials: t.trials,
          successes: t.successes,
          pass_1: t.pass_k['1'] ?? 0,
          mean_reward: t.mean_reward,
        };
  };
  const tasks = names.map((task): TaskComparison => {
    const a = side(sa, task);
    const b = side(sb, task);
    const ids = [...new Set([...oa.keys(), ...ob.keys()])]
      .filter((id) => id.startsWith(`${task}.s`))
      .sort();
    const regressed = ids.filter((id) => oa.get(id) === true && ob.get(id) === false);
    const fixed = ids.filter((id) => oa.get(id) === false && ob.get(id) === true);
    const changed =
      a === null || b === null || a.pass_1 !== b.pass_1 || regressed.length > 0 || fixed.length > 0;
    return { task, a, b, changed, regressed, fixed };
  });
  const head = (dir: string, s: EvalSummary) => ({
    dir,
    model: s.settings.model,
    world: `${s.settings.world.name} ${s.settings.world.version}`,
    pass_1: s.overall.pass_k['1'] ?? 0,
    episodes: s.overall.episodes,
  });
  return { a: head(dirA, sa), b: head(dirB, sb), tasks };
}

const cell = (x: TaskComparison['a']) =>
  x === null ? 'not run' : `${x.successes}/${x.trials} (${x.pass_1.toFixed(3)})`;

/** The comparison as a markdown table, then the changed tasks. */
export function formatComparison(c: Comparison): string {
  const lines = [
    `a: ${c.a.dir} (${c.a.model} on ${c.a.world}): pass^1 ${c.a.pass_1.toFixed(3)} over ${c.a.episodes} episodes`,
    `b: ${c.b.dir} (${c.b.model} on ${c.b.world}): pass^1 ${c.b.pass_1.toFixed(3)} over ${c.b.episodes} episodes`,
    '',
    '| task | a passed (pass^1) | b passed (pass^1) | change |',
    '|---|---|---|---|',
  ];
  for (const t of c.tasks) {
    const delta = t.a && t.b ? t.b.pass_1 - t.a.pass_1 : null;
    lines.push(
      `| ${t.task} | ${cell(t.a)} | ${cell(t.b)} | ${delta === null ? 'only in one' : delta === 0 ? (t.changed ? 'same rate, other episodes' : '') : (delta > 0 ? '+' : '') + delta.toFixed(3)} |`,
    );
  }
  const changed = c.tasks.filter((t) => t.changed);
  lines.push(
    '',
    changed.length === 0
      ? 'No task changed outcome.'
      : `${changed.length} task(s) changed outcome:`,
  );
  for (const t of changed) {
    const parts = [];
    if (t.regressed.length) parts.push(`passed in a, failed in b: ${t.regressed.join(', ')}`);
    if (t.fixed.length) parts.push(`failed in a, passed in b: ${t.fixed.join(', ')}`);
    lines.push(`  ${t.task}: ${parts.join('; ') || 'run in one only'}`);
  }
  return lines.join('\n') + '\n';
}
