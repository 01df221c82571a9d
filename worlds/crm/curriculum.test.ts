import { describe, expect, it } from 'vitest';
import { curriculumHooks, measureDifficulty } from 'seahaven/curricula';
import { crm } from './index.ts';
import { crmBasics } from './curriculum.ts';

function play(hooks: ReturnType<typeof curriculumHooks>, runId: string, solve: boolean) {
  const ep = hooks.reset({ curriculum: 'crm-basics', run_id: runId })!;
  const inst = crm.instance({ fixture: ep.fixture, task: ep.task });
  if (solve) crm.task(ep.task)!.gold!(inst);
  hooks.submit(ep.ticket, inst.submit());
  inst.destroy();
  return ep;
}

describe('crm curriculum', () => {
  it('a gold-playing agent masters easy → medium → hard in order', () => {
    const hooks = curriculumHooks({ world: crm, path: ':memory:' });
    const stages: string[] = [];
    for (let i = 0; i < 200; i++) {
      const ep = play(hooks, 'gold', true);
      if (stages[stages.length - 1] !== ep.stage.name) stages.push(ep.stage.name);
    }
    const progress = hooks.progress('crm-basics', 'gold').body as unknown as { mastered: boolean };
    expect(stages.filter((s, i) => stages.indexOf(s) === i)).toEqual(['easy', 'medium', 'hard']);
    expect(progress.mastered).toBe(true);
    hooks.close();
  });

  it('an agent that does nothing stays in easy', () => {
    const hooks = curriculumHooks({ world: crm, path: ':memory:' });
    for (let i = 0; i < 60; i++) expect(play(hooks, 'idle', false).stage.name).toBe('easy');
    hooks.close();
  });

  it('stages get harder by measured difficulty', () => {
    const scores = new Map(measureDifficulty(crm).map((m) => [m.task, m.score]));
    const mean = (ids: string[]) => ids.reduce((a, id) => a + scores.get(id)!, 0) / ids.length;
    const stages = crmBasics.stages as readonly { tasks?: readonly string[] }[];
    const [easy, medium, hard] = stages.map((s) => mean([...(s.tasks ?? [])]));
    expect(easy).toBeLessThan(medium);
    expect(medium).toBeLessThan(hard);
  });
});
