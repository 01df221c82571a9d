import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineCurriculum } from './define.ts';
import { openCurriculumRuns } from './runs.ts';
import { curriculumHooks } from './serve-hooks.ts';
import { NOTES_STAGES, notesWorld } from './test-fixtures/notes-world.ts';

const world = notesWorld([
  defineCurriculum({
    name: 'basics',
    stages: NOTES_STAGES,
    promote: { successRate: 0.75, window: 4 },
    review: 0,
    seed: 1,
  }),
]);

describe('curriculumHooks', () => {
  it('serves episodes through reset and submit, graded on real instances', () => {
    const hooks = curriculumHooks({ world, path: ':memory:' });
    const served: string[] = [];
    for (let i = 0; i < 12; i++) {
      const ep = hooks.reset({ curriculum: 'basics', run_id: 'trl-1' })!;
      served.push(`${ep.stage.name}:${ep.task}`);
      const inst = world.instance({ fixture: ep.fixture, task: ep.task, seed: i });
      world.task(ep.task)!.gold!(inst); // an agent that knows every answer
      const recorded = hooks.submit(ep.ticket, inst.submit());
      inst.destroy();
      expect(recorded.outcome).toBe(i + 1);
    }
    // Four perfect outcomes per stage: easy, then medium, then hard, then mastered.
    expect(served.map((s) => s.split(':')[0])).toEqual([
      ...Array(4).fill('easy'),
      ...Array(4).fill('medium'),
      ...Array(4).fill('hard'),
    ]);
    const answer = hooks.progress('basics', 'trl-1');
    expect(answer.status).toBe(200);
    if (answer.status !== 200) return;
    expect(answer.body.mastered).toBe(true);
    expect(answer.body.stages.map((s) => s.success_rate)).toEqual([1, 1, 1]);
    hooks.close();
  });

  it('counts a do-nothing agent as a failure and keeps it in the first stage', () => {
    const hooks = curriculumHooks({ world, path: ':memory:' });
    for (let i = 0; i < 8; i++) {
      const ep = hooks.reset({ curriculum: 'basics' })!;
      expect(ep.runId).toBe('default');
      const inst = world.instance({ fixture: ep.fixture, task: ep.task });
      hooks.submit(ep.ticket, inst.submit());
      inst.destroy();
    }
    const answer = hooks.progress('basics', 'default');
    expect(answer.status === 200 && answer.body.stage.name).toBe('easy');
    expect(answer.status === 200 && answer.body.stages[0].success_rate).toBe(0);
    hooks.close();
  });

  it('passes plain resets through and refuses mixed ones', () => {
    const hooks = curriculumHooks({ world, path: ':memory:' });
    expect(hooks.reset(undefined)).toBeNull();
    expect(hooks.reset({ task: 'add_note' })).toBeNull();
    expect(() => hooks.reset({ run_id: 'x' })).toThrow(/give curriculum too/);
    expect(() => hooks.reset({ curriculum: 'basics', task: 'add_note' })).toThrow(
      /drop task from the reset/,
    );
    expect(() => hooks.reset({ curriculum: 'basics', fixture: 'empty' })).toThrow(
      /drop fixture from the reset/,
    );
    expect(() => hooks.reset({ curriculum: 7 })).toThrow(/curriculum must be a curriculum name/);
    expect(() => hooks.reset({ curriculum: 'nope' })).toThrow(/no curriculum "nope"/);
    hooks.close();
  });

  it('answers progress requests with 404 for unknown runs and honours ?history', () => {
    const hooks = curriculumHooks({ world, path: ':memory:', historyLimit: 2 });
    for (let i = 0; i < 3; i++)
      hooks.abandon(hooks.reset({ curriculum: 'basics', run_id: 'r' })!.ticket);
    const answer = hooks.progress('basics', 'r');
    expect(answer.status === 200 && answer.body.history.map((h) => h.status)).toEqual([
      'abandoned',
      'abandoned',
    ]);
    const all = hooks.progress('basics', 'r', { history: '10' });
    expect(all.status === 200 && all.body.history.length).toBe(3);
    expect(hooks.progress('basics', 'missing')).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_run' } },
    });
    expect(hooks.progress('nope', 'r')).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_curriculum' } },
    });
    expect(hooks.progress('basics', 'r', { history: 'lots' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_history' } },
    });
    hooks.close();
  });

  it('gives up the episodes an earlier process left pending when it opens the runs file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seahaven-hooks-'));
    try {
      const path = join(dir, 'runs.sqlite');
      // A server that dies without closing: two episodes graded, three still in flight.
      const crashed = curriculumHooks({ world, path });
      expect(crashed.recovered).toBe(0);
      const issued = Array.from({ length: 5 }, () =>
        crashed.reset({ curriculum: 'basics', run_id: 'r' })!,
      );
      for (const ep of issued.slice(0, 2)) crashed.submit(ep.ticket, { reward: 1, passed: true });

      const restarted = curriculumHooks({ world, path });
      expect(restarted.recovered).toBe(3);
      const answer = restarted.progress('basics', 'r');
      expect(answer.status === 200 && answer.body.episodes).toEqual({
        issued: 5,
        recorded: 2,
        pending: 0,
        abandoned: 3,
      });
      // Given up episodes never count: a late grade for one is refused, and the run goes on from where it was.
      expect(() => restarted.submit(issued[2].ticket, { reward: 1, passed: true })).toThrow(
        /already abandoned/,
      );
      expect(restarted.reset({ curriculum: 'basics', run_id: 'r' })!.episode).toBe(5);
      restarted.close();
      crashed.close();

      // Runs handed in are used as they are: their pending episodes stay pending.
      const runs = openCurriculumRuns({ world, path });
      const hooks = curriculumHooks({ world, runs });
      expect(hooks.recovered).toBe(0);
      expect(runs.progress('basics', 'r').episodes.pending).toBe(1);
      expect(runs.abandonPending()).toBe(1);
      expect(runs.abandonPending()).toBe(0);
      runs.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
