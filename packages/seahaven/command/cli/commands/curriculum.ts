/** `seahaven curriculum measure|status`: measure task difficulty from gold replays; report (and plot) a curriculum run. */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';
import { measureDifficulty, type TaskDifficulty } from '../../../libraries/curricula/difficulty.ts';
import { autoStages, resolveCurriculum } from '../../../libraries/curricula/define.ts';
import { CurriculumError } from '../../../libraries/curricula/errors.ts';
import { listRuns, readProgress, type RunProgress } from '../../../libraries/curricula/progress.ts';
import { plotProgress } from '../../../libraries/curricula/plot.ts';
import { DEFAULT_RUNS_PATH, openRunsDbReadonly } from '../../../libraries/curricula/store.ts';

function size(bytes: number): string {
  return bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : `${(bytes / 1024).toFixed(1)} KB`;
}

function pct(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 100)}%`;
}

function table(rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, c) =>
            rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]),
          )
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function measureTable(measured: TaskDifficulty[]): string {
  const rows = [
    [
      '#',
      'task',
      'fixture',
      'declared',
      'calls',
      'rows',
      'tables',
      'tools',
      'fixture size',
      'score',
      'gold',
    ],
  ];
  measured.forEach((d, i) => {
    const n = (v: number | null) => (v === null ? '-' : String(v));
    const gold =
      d.problem ??
      (d.goldPassed
        ? 'passes'
        : `FAILS its grader${d.failedCalls ? ` (${d.failedCalls} failed calls)` : ''}`);
    rows.push([
      String(i + 1),
      d.task,
      d.fixture,
      n(d.declared),
      n(d.calls),
      n(d.rowsChanged),
      n(d.tablesTouched),
      n(d.distinctTools),
      size(d.fixtureBytes),
      d.score === null ? '-' : d.score.toFixed(2),
      gold,
    ]);
  });
  return table(rows, new Set([0, 3, 4, 5, 6, 7, 8, 9]));
}

function statusText(p: RunProgress): string {
  let out = `run ${p.run_id} · curriculum ${p.curriculum} · world ${p.world} · seed ${p.seed} · review ${p.review}\n`;
  out += `stage ${p.stage.index + 1}/${p.stage_count} (${p.stage.name})${p.mastered ? ' · mastered' : ''} · ${p.episodes.recorded} outcomes, ${p.episodes.pending} pending, ${p.episodes.abandoned} abandoned · success ${pct(p.success_rate)}\n\n`;
  const rows = [['stage', 'tasks', 'episodes', 'passed', 'success', 'mean reward', 'status']];
  for (const s of p.stages) {
    let status: string = s.status;
    if (s.rolling)
      status += ` · rolling ${pct(s.rolling.success_rate)} over ${Math.min(s.rolling.outcomes, s.rolling.window)} of ${s.rolling.window}, needs ${pct(s.promote.successRate)} after ${s.promote.minEpisodes}`;
    rows.push([
      `${s.index + 1} ${s.name}`,
      String(s.tasks.length),
      String(s.episodes),
      String(s.passed),
      pct(s.success_rate),
      s.mean_reward === null ? '-' : s.mean_reward.toFixed(2),
      status,
    ]);
  }
  out += table(rows, new Set([1, 2, 3, 4, 5]));
  if (p.transitions.length > 0) {
    out += '\n';
    for (const t of p.transitions)
      out += `outcome ${t.outcome} (episode ${t.episode}): ${t.kind === 'master' ? `mastered ${t.from.name}` : `${t.kind} ${t.from.name} → ${t.to.name}`}\n`;
  }
  return out;
}

/** A world name for filtering runs: a plain name as is, a module path by loading it. */
async function worldName(ref: string | undefined): Promise<string | undefined> {
  if (ref === undefined || /^[a-z][a-z0-9_-]*$/.test(ref)) return ref;
  return (await loadWorld(ref)).name;
}

export function registerCurriculum(program: Command): void {
  const curriculum = program
    .command('curriculum')
    .description('measure task difficulty; report curriculum runs');

  curriculum
    .command('measure')
    .argument('[world]', 'example world name or module path (default: ./world.ts, else crm)')
    .description(
      "replay each task's gold solution and print its measured difficulty, easiest first",
    )
    .option('--stages <n>', 'also split the tasks into n stages by measured difficulty')
    .option('--json', 'print JSON instead of a table')
    .action(async (ref: string | undefined, opts: { stages?: string; json?: boolean }) => {
      const world = await loadWorld(ref);
      if (world.tasks.length === 0)
        throw new CliError(
          `world "${world.name}" has no tasks to measure; add tasks: [defineTask({ …, gold })] to defineWorld`,
        );
      const stageCount = opts.stages === undefined ? undefined : Number(opts.stages);
      if (stageCount !== undefined && (!Number.isSafeInteger(stageCount) || stageCount < 1))
        throw new CliError(
          `--stages must be a whole number >= 1, like --stages 3; got ${opts.stages}`,
          2,
        );
      const measured = measureDifficulty(world);
      const stages = stageCount === undefined ? undefined : autoStages(world, stageCount);
      const curricula = world.curricula.map((c) => resolveCurriculum(world, c));
      if (opts.json) {
        process.stdout.write(
          JSON.stringify(
            {
              world: world.name,
              tasks: measured,
              ...(stages ? { stages } : {}),
              curricula: curricula.map((c) => ({
                name: c.name,
                stages: c.stages.map((s) => ({ name: s.name, tasks: s.tasks })),
              })),
            },
            null,
            2,
          ) + '\n',
        );
        return;
      }
      process.stdout.write(
        `world ${world.name}: ${measured.length} tasks, easiest first (score = calls + 0.5·rows + tables + tools + log2(1 + fixture bytes / 256 KiB))\n\n`,
      );
      process.stdout.write(measureTable(measured));
      if (stages) {
        process.stdout.write(`\n${stageCount} stages by measured difficulty:\n`);
        for (const s of stages) process.stdout.write(`  ${s.name}: ${s.tasks!.join(', ')}\n`);
      }
      const scoreOf = new Map(measured.map((d) => [d.task, d.score]));
      for (const c of curricula) {
        process.stdout.write(`\ncurriculum ${c.name}:\n`);
        let previous: number | null = null;
        for (const s of c.stages) {
          const scores = s.tasks
            .map((t) => scoreOf.get(t))
            .filter((x): x is number => typeof x === 'number');
          const mean = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
          const note =
            mean !== null && previous !== null && mean < previous
              ? '  (easier on average than the stage before: reorder?)'
              : '';
          process.stdout.write(
            `  ${s.index + 1} ${s.name}: ${s.tasks.join(', ')}${mean === null ? '' : `  · mean score ${mean.toFixed(2)}`}${note}\n`,
          );
          if (mean !== null) previous = mean;
        }
      }
    });

  curriculum
    .command('status')
    .argument('<run>', 'the run_id')
    .description('print a run: stage, success rate and episodes per stage, stage changes')
    .option('-c, --curriculum <name>', 'the curriculum (needed when several have a run of this id)')
    .option(
      '-w, --world <world>',
      'world name (or module path) when several worlds share the database',
    )
    .option('--db <path>', `the runs database (default ${DEFAULT_RUNS_PATH})`)
    .option(
      '--plot <out.svg>',
      'also write an SVG chart of the rolling success rate and stage over outcomes',
    )
    .option('--json', 'print the progress JSON instead of text')
    .action(
      async (
        runId: string,
        opts: { curriculum?: string; world?: string; db?: string; plot?: string; json?: boolean },
      ) => {
        const path = resolve(opts.db ?? DEFAULT_RUNS_PATH);
        if (!existsSync(path))
          throw new CliError(
            `no curriculum runs database at ${path}; pass --db <path> (a server writes ${DEFAULT_RUNS_PATH} in its working directory)`,
          );
        const world = await worldName(opts.world);
        let db;
        try {
          db = openRunsDbReadonly(path);
        } catch (e) {
          throw new CliError((e as Error).message);
        }
        try {
          const matches = listRuns(db, { world, curriculum: opts.curriculum, runId });
          if (matches.length === 0) {
            const known = listRuns(db, { world, curriculum: opts.curriculum }).map(
              (r) => `${r.world}/${r.curriculum}/${r.run_id}`,
            );
            throw new CliError(
              `no run "${runId}"${opts.curriculum ? ` of curriculum "${opts.curriculum}"` : ''}${world ? ` in world "${world}"` : ''} in ${path}; ${known.length ? `runs there: ${known.join(', ')}` : 'it holds no runs yet'}`,
            );
          }
          if (matches.length > 1)
            throw new CliError(
              `run "${runId}" exists in ${matches.map((r) => `${r.world}/${r.curriculum}`).join(', ')}; pick one with --curriculum <name> and/or --world <name>`,
              2,
            );
          const { world: w, curriculum: c } = matches[0];
          const progress = readProgress(db, w, c, runId);
          if (opts.plot) {
            writeFileSync(opts.plot, plotProgress(progress));
          }
          if (opts.json) process.stdout.write(JSON.stringify(progress, null, 2) + '\n');
          else
            process.stdout.write(
              statusText(progress) + (opts.plot ? `\nwrote ${opts.plot}\n` : ''),
            );
        } catch (e) {
          if (e instanceof CurriculumError) throw new CliError(e.message);
          throw e;
        } finally {
          db.close();
        }
      },
    );
}
