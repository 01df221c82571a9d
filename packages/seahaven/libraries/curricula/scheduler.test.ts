import { describe, expect, it } from 'vitest';
import { defineCurriculum, resolveCurriculum, type CurriculumSpec } from './define.ts';
import { openCurriculumRuns, type CurriculumRuns, type IssuedEpisode } from './runs.ts';
import { INITIAL_STATE, afterPick, decide, pickNext } from './scheduler.ts';
import { NOTES_STAGES, notesWorld } from './test-fixtures/notes-world.ts';
import { practisingLearner, trainStep, type Learner } from './test-fixtures/learner.ts';

const spec: CurriculumSpec = {
  name: 'basics',
  stages: NOTES_STAGES,
  promote: { successRate: 0.8, window: 20 },
  review: 0.2,
  seed: 7,
};
const stageOf = new Map(
  NOTES_STAGES.flatMap((s, i) => s.tasks.map((t): [string, number] => [t, i])),
);

function open(overrides: Partial<CurriculumSpec> = {}): CurriculumRuns {
  return openCurriculumRuns({
    world: notesWorld([defineCurriculum({ ...spec, ...overrides })]),
    path: ':memory:',
  });
}

/** Train until mastered (or `limit` episodes); returns every episode with its outcome. */
function train(runs: CurriculumRuns, learner: Learner, limit: number, parallel = 1) {
  const played: { ep: IssuedEpisode; passed: boolean; atStage: number }[] = [];
  while (
    played.length < limit &&
    !(played.length > 0 && runs.progress('basics', 'r', { history: 0 }).mastered)
  ) {
    const stage = runs.runs()[0]?.stage.index ?? 0;
    const batch = Array.from({ length: parallel }, () => runs.next('basics', 'r'));
    for (const ep of batch) {
      const outcome = learner.attempt(ep.task);
      runs.record(ep.ticket, outcome);
      played.push({ ep, passed: outcome.passed, atStage: stage });
    }
  }
  return played;
}

describe('scheduler', () => {
  it('moves a learner that improves with practice through every stage, in order', () => {
    const runs = open();
    const played = train(runs, practisingLearner('steady'), 3000);
    const p = runs.progress('basics', 'r');
    expect(p.mastered).toBe(true);
    expect(p.transitions.map((t) => [t.kind, t.from.name, t.to.name])).toEqual([
      ['promote', 'easy', 'medium'],
      ['promote', 'medium', 'hard'],
      ['master', 'hard', 'hard'],
    ]);
    // Every episode comes from the current stage or, as review, from an earlier one; never from a later one.
    for (const { ep, atStage } of played) {
      expect(ep.stage.index).toBe(stageOf.get(ep.task));
      if (ep.kind === 'current') expect(ep.stage.index).toBe(atStage);
      else expect(ep.stage.index).toBeLessThan(atStage);
    }
    // Review only once past the first stage, at roughly the configured share.
    expect(played.filter((x) => x.atStage === 0).every((x) => x.ep.kind === 'current')).toBe(true);
    const later = played.filter((x) => x.atStage > 0);
    const share = later.filter((x) => x.ep.kind === 'review').length / later.length;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.3);
    // Each promotion was earned: the window before it met the rule.
    for (const t of p.transitions.filter((x) => x.kind === 'promote')) {
      const gate = played
        .filter((x, i) => i < t.outcome && x.atStage === t.from.index && x.ep.kind === 'current')
        .slice(-20);
      expect(gate.length).toBe(20);
      expect(gate.filter((x) => x.passed).length / 20).toBeGreaterThanOrEqual(0.8);
    }
    runs.close();
  });

  it('gives the identical task sequence for the same seed and outcomes', () => {
    const first = open();
    const played = train(first, practisingLearner('replay'), 3000, 4);
    const firstProgress = first.progress('basics', 'r');
    first.close();

    // Replay the recorded outcomes, in the same order, against a fresh store: the tasks must come out identical.
    const second = open();
    const outcomes = played.map((x) => x.passed);
    const tasks: string[] = [];
    for (let i = 0; i < outcomes.length; i += 4) {
      const batch = Array.from({ length: 4 }, () => second.next('basics', 'r'));
      batch.forEach((ep, j) => {
        tasks.push(ep.task);
        second.record(ep.ticket, { reward: outcomes[i + j] ? 1 : 0, passed: outcomes[i + j] });
      });
    }
    expect(tasks).toEqual(played.map((x) => x.ep.task));
    expect(second.progress('basics', 'r')).toEqual(firstProgress);
    second.close();

    // Another seed deals another sequence from the same outcomes.
    const reseeded = open({ seed: 8 });
    const other = outcomes.slice(0, 200).map((passed) => {
      const ep = reseeded.next('basics', 'r');
      reseeded.record(ep.ticket, { reward: passed ? 1 : 0, passed });
      return ep.task;
    });
    expect(other).not.toEqual(played.slice(0, 200).map((x) => x.ep.task));
    reseeded.close();
  });

  it('never promotes a learner that never succeeds, and deals the first stage evenly', () => {
    const runs = open();
    const never = practisingLearner('never', { start: 0, gain: 0 });
    const played: IssuedEpisode[] = [];
    for (let i = 0; i < 400; i++) played.push(...trainStep(runs, 'basics', 'r', never));
    const p = runs.progress('basics', 'r', { history: 0 });
    expect(p.stage).toEqual({ index: 0, name: 'easy' });
    expect(p.transitions).toEqual([]);
    expect(p.stages[0]).toMatchObject({
      episodes: 400,
      passed: 0,
      success_rate: 0,
      status: 'current',
    });
    expect(new Set(played.map((e) => e.task))).toEqual(new Set(['add_note', 'add_tag']));
    const noteCount = played.filter((e) => e.task === 'add_note').length;
    expect(noteCount).toBe(200); // shuffled bags: each task once per round
    runs.close();
  });

  it('waits for minEpisodes even when the window is already perfect', () => {
    const runs = open({ promote: { successRate: 1, window: 5, minEpisodes: 12 } });
    const always = practisingLearner('always', { start: 1, gain: 0, ceiling: 1 });
    for (let i = 0; i < 11; i++) trainStep(runs, 'basics', 'r', always);
    expect(runs.progress('basics', 'r').stage.index).toBe(0);
    trainStep(runs, 'basics', 'r', always);
    expect(runs.progress('basics', 'r').stage.index).toBe(1);
    runs.close();
  });

  it('demotes when the rolling rate falls below the demotion rate, and starts a fresh window', () => {
    const runs = open({
      promote: { successRate: 0.8, window: 10 },
      demote: { successRate: 0.3, window: 10 },
      review: 0,
    });
    const always = practisingLearner('a', { start: 1, gain: 0, ceiling: 1 });
    const never = practisingLearner('n', { start: 0, gain: 0 });
    for (let i = 0; i < 10; i++) trainStep(runs, 'basics', 'r', always);
    expect(runs.progress('basics', 'r').stage.name).toBe('medium');
    for (let i = 0; i < 9; i++) trainStep(runs, 'basics', 'r', never);
    expect(runs.progress('basics', 'r').stage.name).toBe('medium');
    const [last] = trainStep(runs, 'basics', 'r', never);
    expect(last.stage.name).toBe('medium');
    const p = runs.progress('basics', 'r');
    expect(p.stage.name).toBe('easy');
    expect(p.transitions.map((t) => t.kind)).toEqual(['promote', 'demote']);
    // Back in the first stage, the old perfect outcomes do not count: it needs a new full window.
    expect(p.stages[0].rolling).toEqual({ window: 10, outcomes: 0, success_rate: null });
    runs.close();
  });

  it('ignores outcomes of episodes issued before the stage changed', () => {
    const runs = open({ promote: { successRate: 1, window: 2 }, review: 0 });
    const stale = runs.next('basics', 'r');
    const a = runs.next('basics', 'r');
    const b = runs.next('basics', 'r');
    runs.record(a.ticket, { reward: 1, passed: true });
    expect(runs.record(b.ticket, { reward: 1, passed: true }).transition?.kind).toBe('promote');
    // `stale` was issued in stage 0; recording it now counts in the stats but not for the medium stage's window.
    const r = runs.record(stale.ticket, { reward: 1, passed: true });
    expect(r.transition).toBeNull();
    const p = runs.progress('basics', 'r');
    expect(p.stages[0].episodes).toBe(3);
    expect(p.stages[1].rolling?.outcomes).toBe(0);
    runs.close();
  });

  it('is a pure function of the state: pickNext and decide', () => {
    const cur = resolveCurriculum(notesWorld(), defineCurriculum(spec));
    const first = pickNext(cur, INITIAL_STATE);
    expect(first).toEqual(pickNext(cur, INITIAL_STATE));
    expect(first.kind).toBe('current');
    expect(NOTES_STAGES[0].tasks).toContain(first.task);
    const second = pickNext(cur, afterPick(INITIAL_STATE, first));
    expect(second.task).not.toBe(first.task);
    expect(decide(cur, 0, Array(20).fill(true), 19, false)).toBeNull();
    expect(decide(cur, 0, Array(20).fill(true), 20, false)).toEqual({
      kind: 'promote',
      from: 0,
      to: 1,
    });
    expect(decide(cur, 2, Array(20).fill(true), 20, false)).toEqual({
      kind: 'master',
      from: 2,
      to: 2,
    });
    expect(decide(cur, 2, Array(20).fill(true), 20, true)).toBeNull();
  });
});
