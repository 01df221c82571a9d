import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../core/errors.ts';
import { autoStages, defineCurriculum, resolveCurriculum, type CurriculumSpec } from './define.ts';
import { openCurriculumRuns } from './runs.ts';
import { NOTES_STAGES, notesWorld } from './test-fixtures/notes-world.ts';

const base: CurriculumSpec = {
  name: 'basics',
  stages: NOTES_STAGES,
  promote: { successRate: 0.8, window: 20 },
};

describe('defineCurriculum', () => {
  it('fills defaults and freezes', () => {
    const c = defineCurriculum(base);
    expect(c.promote).toEqual({ successRate: 0.8, window: 20, minEpisodes: 20 });
    expect(c.review).toBe(0.2);
    expect(c.seed).toBe(0);
    expect(c.demote).toBeNull();
    expect(Object.isFrozen(c)).toBe(true);
  });

  it.each([
    [{ name: 'Bad Name' }, /name must match/],
    [{ stages: [] }, /stages is empty; list at least one stage/],
    [{ stages: [{ name: 'easy' }] }, /stage "easy" is empty; give it tasks/],
    [
      {
        stages: [
          { name: 'a', tasks: ['x'] },
          { name: 'a', tasks: ['y'] },
        ],
      },
      /two stages are named "a"/,
    ],
    [{ stages: [{ name: '', tasks: ['x'] }] }, /stages\[0\] needs a name/],
    [
      { promote: { successRate: 1.2, window: 20 } },
      /promote.successRate must be a number in \[0, 1\]/,
    ],
    [
      { promote: { successRate: -0.1, window: 20 } },
      /promote.successRate must be a number in \[0, 1\]/,
    ],
    [{ promote: { successRate: 0.8, window: 0 } }, /promote.window must be a whole number >= 1/],
    [
      { promote: { successRate: 0.8, window: 5, minEpisodes: 2.5 } },
      /promote.minEpisodes must be a whole number/,
    ],
    [{ promote: undefined }, /give promote, like promote: \{ successRate: 0.8, window: 20 \}/],
    [{ review: 1 }, /review must be a number in \[0, 1\)/],
    [{ review: Number.NaN }, /review must be a number/],
    [{ seed: -1 }, /seed must be a whole number >= 0/],
    [
      { demote: { successRate: 0.9 } },
      /demote.successRate \(0.9\) must be below promote.successRate \(0.8\)/,
    ],
    [
      { stages: [{ name: 'easy', tasks: ['a'], promote: { successRate: 2, window: 3 } }] },
      /stage "easy" promote.successRate must be/,
    ],
  ] as [Partial<CurriculumSpec>, RegExp][])('refuses %j', (patch, message) => {
    expect(() => defineCurriculum({ ...base, ...patch } as CurriculumSpec)).toThrow(
      DefinitionError,
    );
    expect(() => defineCurriculum({ ...base, ...patch } as CurriculumSpec)).toThrow(message);
  });

  it('checks task and fixture ids when the world is defined', () => {
    const unknownTask = defineCurriculum({
      ...base,
      stages: [{ name: 'easy', tasks: ['add_note', 'add_nothing'] }],
    });
    expect(() => notesWorld([unknownTask])).toThrow(
      /stage "easy" lists task "add_nothing", which the world does not have; its tasks are add_note, add_tag/,
    );
    const unknownFixture = defineCurriculum({
      ...base,
      stages: [{ name: 'easy', fixtures: ['attic'] }],
    });
    expect(() => notesWorld([unknownFixture])).toThrow(
      /lists fixture "attic", which the world does not have; its fixtures are empty, shelf/,
    );
    const twice = defineCurriculum({
      ...base,
      stages: [
        { name: 'a', tasks: ['add_note'] },
        { name: 'b', fixtures: ['empty'] },
      ],
    });
    expect(() => notesWorld([twice])).toThrow(
      /task "add_note" is in stages "a" and "b"; put each task in one stage/,
    );
    expect(() => notesWorld([defineCurriculum(base), defineCurriculum(base)])).toThrow(
      /two curricula are named "basics"/,
    );
    expect(() => notesWorld([{ name: 'x' } as never])).toThrow(/must come from defineCurriculum/);
    expect(notesWorld([defineCurriculum(base)]).curricula.map((c) => c.name)).toEqual(['basics']);
  });

  it('expands fixtures to their tasks and fingerprints the definition', () => {
    const world = notesWorld();
    const byFixture = defineCurriculum({
      ...base,
      stages: [
        { name: 'blank', fixtures: ['empty'] },
        { name: 'full', fixtures: ['shelf'] },
      ],
    });
    const r = resolveCurriculum(world, byFixture);
    expect(r.stages.map((s) => s.tasks)).toEqual([
      ['add_note', 'add_tag', 'tagged_note'],
      ['archive_one', 'finalize_drafts', 'archive_old'],
    ]);
    expect(r.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveCurriculum(world, byFixture).fingerprint).toBe(r.fingerprint);
    expect(resolveCurriculum(world, defineCurriculum({ ...base, seed: 1 })).fingerprint).not.toBe(
      resolveCurriculum(world, defineCurriculum(base)).fingerprint,
    );
  });
});

describe('autoStages', () => {
  it('buckets measured difficulty into stages, easiest first', () => {
    const world = notesWorld();
    expect(autoStages(world, 3, { names: ['easy', 'medium', 'hard'] })).toEqual([
      { name: 'easy', tasks: ['add_note', 'add_tag'] },
      { name: 'medium', tasks: ['archive_one', 'tagged_note'] },
      { name: 'hard', tasks: ['finalize_drafts', 'archive_old'] },
    ]);
    expect(autoStages(world, 4).map((s) => s.tasks?.length)).toEqual([1, 1, 2, 2]);
    expect(() => autoStages(world, 7)).toThrow(/7 stages need at least 7 tasks/);
    expect(() => autoStages(world, 2, { names: ['one'] })).toThrow(/give 2 names/);
  });

  it('defers measuring until the curriculum meets its world', () => {
    const auto = defineCurriculum({ ...base, stages: autoStages(3) });
    const runs = openCurriculumRuns({ world: notesWorld([auto]), path: ':memory:' });
    expect(runs.curriculum('basics').stages.map((s) => [s.name, s.tasks])).toEqual([
      ['stage_1', ['add_note', 'add_tag']],
      ['stage_2', ['archive_one', 'tagged_note']],
      ['stage_3', ['finalize_drafts', 'archive_old']],
    ]);
    runs.close();
    expect(() => notesWorld([defineCurriculum({ ...base, stages: autoStages(9) })])).toThrow(
      /autoStages\(9\) needs at least 9 tasks/,
    );
  });
});
