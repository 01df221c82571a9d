import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seahaven as run } from '../../../core/test/cli-in-process.ts';
import { defineCurriculum } from '../../../libraries/curricula/define.ts';
import { openCurriculumRuns } from '../../../libraries/curricula/runs.ts';
import notes, {
  NOTES_STAGES,
  notesWorld,
} from '../../../libraries/curricula/test-fixtures/notes-world.ts';
import {
  practisingLearner,
  trainStep,
} from '../../../libraries/curricula/test-fixtures/learner.ts';

const notesModule = fileURLToPath(
  new URL('../../../libraries/curricula/test-fixtures/notes-world.ts', import.meta.url),
);

/** The command line, in process (packages/seahaven/core/test/cli-in-process.ts). */
async function seahaven(...args: string[]) {
  const r = await run(args, { env: { NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'seahaven-curriculum-cli-'));
  db = join(dir, 'runs.sqlite');
  const runs = openCurriculumRuns({ world: notes, path: db });
  const learner = practisingLearner('cli');
  for (let i = 0; i < 150; i++) trainStep(runs, 'basics', 'run-1', learner);
  runs.next('basics', 'run-1');
  runs.close();
  // A second world in the same file with a run of the same id, to make the id ambiguous.
  const other = openCurriculumRuns({
    world: notesWorld(
      [
        defineCurriculum({
          name: 'basics',
          stages: NOTES_STAGES,
          promote: { successRate: 0.8, window: 20 },
        }),
      ],
      'jotter',
    ),
    path: db,
  });
  other.next('basics', 'shared');
  other.close();
  const again = openCurriculumRuns({ world: notes, path: db });
  again.next('basics', 'shared');
  again.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seahaven curriculum', () => {
  it('measure prints tasks easiest first with the stages of each curriculum', async () => {
    const r = await seahaven('curriculum', 'measure', notesModule, '--stages', '3');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const taskOrder = r.stdout
      .split('\n')
      .filter((l) => /^\d+ {2}/.test(l))
      .map((l) => l.split(/\s+/)[1]);
    expect(taskOrder).toEqual([
      'add_note',
      'add_tag',
      'archive_one',
      'tagged_note',
      'finalize_drafts',
      'archive_old',
    ]);
    expect(r.stdout).toMatch(/finalize_drafts\s+shelf\s+3\s+8\s+7\s+2\s+3\s/);
    expect(r.stdout).toContain('stage_3: finalize_drafts, archive_old');
    expect(r.stdout).toContain(
      'curriculum basics:\n  1 easy: add_note, add_tag  · mean score 3.65\n',
    );
    expect(r.stdout).not.toContain('reorder?');
    // A curriculum whose stages run hard to easy gets flagged.
    const backwards = join(dir, 'backwards.ts');
    writeFileSync(
      backwards,
      `import { NOTES_STAGES, notesWorld } from ${JSON.stringify(notesModule)};\n` +
        `import { defineCurriculum } from ${JSON.stringify(fileURLToPath(new URL('../../../libraries/curricula/define.ts', import.meta.url)))};\n` +
        `export default notesWorld([defineCurriculum({ name: 'backwards', stages: [...NOTES_STAGES].reverse(), promote: { successRate: 0.8, window: 20 } })]);\n`,
    );
    expect((await seahaven('curriculum', 'measure', backwards)).stdout).toMatch(
      /3 easy: add_note, add_tag {2}· mean score 3\.65 {2}\(easier on average than the stage before: reorder\?\)/,
    );
    const json = JSON.parse(
      (await seahaven('curriculum', 'measure', notesModule, '--json')).stdout,
    ) as { tasks: { task: string; calls: number }[] };
    expect(json.tasks.map((t) => t.calls)).toEqual([1, 1, 2, 2, 8, 13]);
  });

  it('status prints the run and writes the chart', async () => {
    const svg = join(dir, 'run.svg');
    const r = await seahaven('curriculum', 'status', 'run-1', '--db', db, '--plot', svg);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const runs = openCurriculumRuns({ world: notes, path: db });
    const p = runs.progress('basics', 'run-1');
    runs.close();
    expect(r.stdout).toContain(`run run-1 · curriculum basics · world notes · seed 7`);
    expect(r.stdout).toContain(`stage ${p.stage.index + 1}/3 (${p.stage.name})`);
    expect(r.stdout).toContain('150 outcomes, 1 pending');
    for (const s of p.stages)
      expect(r.stdout).toMatch(
        new RegExp(`${s.index + 1} ${s.name}\\s+2\\s+${s.episodes}\\s+${s.passed}\\s`),
      );
    for (const t of p.transitions.filter((x) => x.kind === 'promote'))
      expect(r.stdout).toContain(`promote ${t.from.name} → ${t.to.name}`);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg [^]*<\/svg>\n$/);
    const json = JSON.parse(
      (await seahaven('curriculum', 'status', 'run-1', '--db', db, '--json')).stdout,
    );
    expect(json).toEqual(p);
  });

  it('status names the fix when it cannot answer', async () => {
    const missing = await seahaven(
      'curriculum',
      'status',
      'run-1',
      '--db',
      join(dir, 'nope.sqlite'),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /no curriculum runs database at .*nope\.sqlite; pass --db <path>/,
    );
    const unknown = await seahaven('curriculum', 'status', 'run-9', '--db', db);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no run "run-9"');
    expect(unknown.stderr).toContain('notes/basics/run-1');
    const ambiguous = await seahaven('curriculum', 'status', 'shared', '--db', db);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(
      /exists in jotter\/basics, notes\/basics; pick one with --curriculum/,
    );
    expect(
      (await seahaven('curriculum', 'status', 'shared', '--db', db, '--world', 'jotter')).code,
    ).toBe(0);
    expect(
      (await seahaven('curriculum', 'status', 'shared', '--db', db, '--world', notesModule)).code,
    ).toBe(0);
    expect(
      (await seahaven('curriculum', 'status', 'shared', '--db', db, '--curriculum', 'nope')).stderr,
    ).toContain('no run "shared" of curriculum "nope"');
  });
});
