import { describe, expect, it } from 'vitest';
import { defineCurriculum } from './define.ts';
import { plotProgress, progressCurve } from './plot.ts';
import { openCurriculumRuns } from './runs.ts';
import { NOTES_STAGES, notesWorld } from './test-fixtures/notes-world.ts';
import { practisingLearner, trainStep } from './test-fixtures/learner.ts';

const stages = [{ ...NOTES_STAGES[0], name: 'easy <&> light' }, NOTES_STAGES[1], NOTES_STAGES[2]];
const world = notesWorld([
  defineCurriculum({ name: 'basics', stages, promote: { successRate: 0.8, window: 10 }, seed: 2 }),
]);

describe('plotProgress', () => {
  it('draws the rolling success rate and the stage, marking each stage change', () => {
    const runs = openCurriculumRuns({ world, path: ':memory:' });
    const learner = practisingLearner('plot', { gain: 0.08 });
    for (let i = 0; i < 200; i++) trainStep(runs, 'basics', 'r-1', learner);
    const progress = runs.progress('basics', 'r-1');
    runs.close();

    const curve = progressCurve(progress, 10);
    expect(curve).toHaveLength(200);
    expect(curve.map((p) => p.x)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // The stage steps up exactly at the outcomes that promoted.
    for (const t of progress.transitions.filter((x) => x.kind === 'promote')) {
      expect(curve[t.outcome - 2].stage).toBe(t.from.index);
      expect(curve[t.outcome - 1].stage).toBe(t.to.index);
    }
    // The rolling rate is the share of passes among the last 10 outcomes.
    const passes = progress.history.map((h) => (h.passed ? 1 : 0) as number);
    expect(curve[99].rate).toBe(passes.slice(90, 100).reduce((a, b) => a + b, 0) / 10);

    const svg = plotProgress(progress);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('basics · run r-1');
    expect(svg).toContain('easy &lt;&amp;&gt; light');
    expect(svg).not.toContain('<&>');
    for (const s of stages.slice(1)) expect(svg).toContain(s.name);
    expect(svg.match(/▲ /g)?.length).toBe(
      progress.transitions.filter((t) => t.kind === 'promote').length,
    );
    expect(svg).not.toContain('NaN');
    expect(plotProgress(progress)).toBe(svg);
  });

  it('draws an empty chart for a run without outcomes', () => {
    const runs = openCurriculumRuns({ world, path: ':memory:' });
    runs.next('basics', 'fresh');
    const svg = plotProgress(runs.progress('basics', 'fresh'));
    runs.close();
    expect(svg).toContain('no outcomes yet');
    expect(svg).not.toContain('NaN');
  });
});
