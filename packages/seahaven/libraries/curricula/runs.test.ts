import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../core/errors.ts';
import { defineCurriculum, type CurriculumSpec } from './define.ts';
import { CurriculumError } from './errors.ts';
import { openCurriculumRuns, type CurriculumRuns } from './runs.ts';
import { openRunsDbReadonly } from './store.ts';
import { listRuns } from './progress.ts';
import { NOTES_STAGES, notesWorld } from './test-fixtures/notes-world.ts';
import { practisingLearner, type Learner } from './test-fixtures/learner.ts';

const spec: CurriculumSpec = {
  name: 'basics',
  stages: NOTES_STAGES,
  promote: { successRate: 0.8, window: 20 },
  review: 0.2,
  seed: 3,
};
const world = notesWorld([defineCurriculum(spec)]);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seahaven-curricula-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Trace {
  tasks: string[];
  /** The run's stage after each batch. */
  stages: number[];
}

/** Batches of 4 parallel rollouts; `between` runs after each batch is issued and before its outcomes arrive. */
function drive(
  runs: () => CurriculumRuns,
  learner: Learner,
  batches: number,
  trace: Trace,
  between?: (batch: number) => void,
): void {
  for (let b = 0; b < batches; b++) {
    const issued = Array.from({ length: 4 }, () => runs().next('basics', 'run-1'));
    between?.(b);
    for (const ep of issued) {
      trace.tasks.push(ep.task);
      runs().record(ep.ticket, learner.attempt(ep.task));
    }
    trace.stages.push(runs().progress('basics', 'run-1', { history: 0 }).stage.index);
  }
}

describe('curriculum runs', () => {
  it('resumes after a restart at the same stage and position, with the same next tasks', () => {
    const uninterrupted: Trace = { tasks: [], stages: [] };
    const straight = openCurriculumRuns({ world, path: join(dir, 'a.sqlite') });
    drive(() => straight, practisingLearner('L'), 120, uninterrupted);
    const expected = straight.progress('basics', 'run-1');
    straight.close();
    expect(expected.transitions.length).toBeGreaterThanOrEqual(2);

    // The same training, but the server stops mid-run twice, each time with a batch of episodes still pending.
    const path = join(dir, 'b.sqlite');
    let runs = openCurriculumRuns({ world, path });
    const restarted: Trace = { tasks: [], stages: [] };
    drive(
      () => runs,
      practisingLearner('L'),
      120,
      restarted,
      (b) => {
        if (b !== 37 && b !== 80) return;
        const before = runs.progress('basics', 'run-1');
        runs.close();
        expect(() => runs.next('basics', 'run-1')).toThrow();
        runs = openCurriculumRuns({ world, path });
        expect(runs.progress('basics', 'run-1')).toEqual(before);
        expect(before.episodes.pending).toBe(4);
        expect(before.stage.index).toBe(uninterrupted.stages[b - 1]);
      },
    );
    expect(restarted.tasks).toEqual(uninterrupted.tasks);
    expect(restarted.stages).toEqual(uninterrupted.stages);
    expect(runs.progress('basics', 'run-1')).toEqual(expected);
    // …and after the run, the next task is the one the uninterrupted run would hand out next.
    const resumedNext = runs.next('basics', 'run-1');
    runs.close();
    const straightAgain = openCurriculumRuns({ world, path: join(dir, 'a.sqlite') });
    expect(straightAgain.next('basics', 'run-1')).toEqual(resumedNext);
    straightAgain.close();
  });

  it('issues a new episode on every next, and settles by ticket or oldest-first by run', () => {
    const runs = openCurriculumRuns({ world, path: ':memory:' });
    const a = runs.next('basics', 'run-1');
    const b = runs.next('basics', 'run-1');
    expect([a.episode, b.episode]).toEqual([0, 1]);
    expect(a.ticket).toBe('basics/run-1/0');
    expect(a.fixture).toBe(world.task(a.task)!.fixture);
    expect(runs.progress('basics', 'run-1').episodes).toEqual({
      issued: 2,
      recorded: 0,
      pending: 2,
      abandoned: 0,
    });
    const settled = runs.record(
      { curriculum: 'basics', runId: 'run-1' },
      { reward: 0.5, passed: false },
    );
    expect(settled.episode).toBe(0);
    expect(settled.outcome).toBe(1);
    runs.abandon(b.ticket);
    expect(runs.progress('basics', 'run-1').episodes).toEqual({
      issued: 2,
      recorded: 1,
      pending: 0,
      abandoned: 1,
    });
    expect(() => runs.record(b.ticket, { reward: 1, passed: true })).toThrow(/already abandoned/);
    expect(() => runs.record(a.ticket, { reward: 1, passed: true })).toThrow(/already recorded/);
    expect(() =>
      runs.record({ curriculum: 'basics', runId: 'run-1' }, { reward: 1, passed: true }),
    ).toThrow(/no pending episode; call next\(\)/);
    runs.close();
  });

  it('keeps runs apart by run_id and curriculum', () => {
    const two = notesWorld([
      defineCurriculum(spec),
      defineCurriculum({ ...spec, name: 'other', seed: 9 }),
    ]);
    const runs = openCurriculumRuns({ world: two, path: ':memory:' });
    for (let i = 0; i < 30; i++)
      runs.record(runs.next('basics', 'x').ticket, { reward: 1, passed: true });
    runs.next('basics', 'y');
    runs.next('other', 'x');
    expect(runs.progress('basics', 'x').stage.index).toBe(1);
    expect(runs.progress('basics', 'y').stage.index).toBe(0);
    expect(runs.progress('other', 'x').episodes.issued).toBe(1);
    expect(runs.runs().map((r) => `${r.curriculum}/${r.run_id}`)).toEqual([
      'basics/x',
      'basics/y',
      'other/x',
    ]);
    runs.close();
  });

  it('reports progress as JSON: stages, rolling window, transitions, history', () => {
    const runs = openCurriculumRuns({ world, path: ':memory:' });
    const learner = practisingLearner('P');
    for (let i = 0; i < 60; i++) {
      const ep = runs.next('basics', 'run-1');
      runs.record(ep.ticket, learner.attempt(ep.task));
    }
    const p = runs.progress('basics', 'run-1');
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
    expect(p).toMatchObject({
      format: 'seahaven.curriculum-run/1',
      world: 'notes',
      curriculum: 'basics',
      run_id: 'run-1',
      seed: 3,
      review: 0.2,
      stage_count: 3,
    });
    expect(p.stages.map((s) => s.name)).toEqual(['easy', 'medium', 'hard']);
    expect(p.stages.reduce((n, s) => n + s.episodes, 0)).toBe(60);
    expect(p.history).toHaveLength(60);
    expect(p.history[0]).toMatchObject({
      episode: 0,
      status: 'recorded',
      outcome: 1,
      kind: 'current',
      at_stage: 0,
    });
    const current = p.stages[p.stage.index];
    expect(current.status).toBe('current');
    expect(current.rolling?.window).toBe(20);
    const limited = runs.progress('basics', 'run-1', { history: 5 });
    expect(limited.history.map((h) => h.episode)).toEqual([55, 56, 57, 58, 59]);
    expect(limited.history_omitted).toBe(55);
    runs.close();
  });

  it('refuses bad input with errors that name the fix', () => {
    const path = join(dir, 'c.sqlite');
    const runs = openCurriculumRuns({ world, path });
    expect(() => runs.next('nope', 'r')).toThrow(
      /has no curriculum "nope"; its curricula are basics/,
    );
    expect(() => runs.next('basics', 'bad id')).toThrow(/run_id must match/);
    expect(() => runs.record('basics/run-1/99', { reward: 1, passed: true })).toThrow(
      /no episode has ticket/,
    );
    expect(() => runs.record('garbage', { reward: 1, passed: true })).toThrow(/is not a ticket/);
    const ep = runs.next('basics', 'run-1');
    expect(() => runs.record(ep.ticket, { reward: 2, passed: true })).toThrow(
      /reward: number in \[0, 1\]/,
    );
    expect(() => runs.record(ep.ticket, { reward: 1 } as never)).toThrow(CurriculumError);
    expect(() => runs.progress('basics', 'missing')).toThrow(
      /has no run "missing".*its runs are run-1/,
    );
    runs.close();

    // Restarting with a changed definition must not silently continue the old run.
    const changed = notesWorld([defineCurriculum({ ...spec, seed: 4 })]);
    const reopened = openCurriculumRuns({ world: changed, path });
    expect(() => reopened.next('basics', 'run-1')).toThrow(
      /different definition.*use a new run_id/,
    );
    expect(reopened.deleteRun('basics', 'run-1')).toBe(true);
    expect(reopened.next('basics', 'run-1').episode).toBe(0);
    reopened.close();

    expect(() =>
      openCurriculumRuns({ world, curricula: [defineCurriculum(spec)], path: ':memory:' }),
    ).toThrow(/two curricula are named "basics"/);
    expect(() => openCurriculumRuns({ world: {} as never })).toThrow(DefinitionError);
  });

  it('shares one file between worlds and reads it without a world', () => {
    const path = join(dir, 'shared.sqlite');
    const other = notesWorld([defineCurriculum(spec)], 'jotter');
    const a = openCurriculumRuns({ world, path });
    const b = openCurriculumRuns({ world: other, path });
    a.next('basics', 'run-1');
    b.next('basics', 'run-1');
    b.next('basics', 'run-1');
    expect(a.progress('basics', 'run-1').episodes.issued).toBe(1);
    expect(b.progress('basics', 'run-1').episodes.issued).toBe(2);
    a.close();
    b.close();
    const db = openRunsDbReadonly(path);
    expect(listRuns(db).map((r) => `${r.world}:${r.run_id}:${r.episodes}`)).toEqual([
      'jotter:run-1:2',
      'notes:run-1:1',
    ]);
    db.close();
  });
});
