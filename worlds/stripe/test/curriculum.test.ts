import { describe, expect, it } from 'vitest';
import { curriculumHooks, measureDifficulty } from 'seahaven/curricula';
import { stripe } from '../index.ts';
import { stripeBasics } from '../curriculum.ts';

// stripe-basics: its stages follow the measured difficulty, and an agent playing the gold solutions masters it stage by
// stage under mastery gating, while one that does nothing never leaves the first stage.

const stages = stripeBasics.stages as readonly { name: string; tasks?: readonly string[] }[];

function play(hooks: ReturnType<typeof curriculumHooks>, runId: string, solve: boolean) {
  const ep = hooks.reset({ curriculum: 'stripe-basics', run_id: runId })!;
  const inst = stripe.instance({ fixture: ep.fixture, task: ep.task });
  if (solve) stripe.task(ep.task)!.gold!(inst);
  const grade = inst.submit();
  hooks.submit(ep.ticket, grade);
  inst.destroy();
  return { ...ep, grade };
}

describe('stripe-basics', () => {
  it('is declared by the world, and its stages cover every task once', () => {
    expect(stripe.curricula.map((c) => c.name)).toEqual(['stripe-basics']);
    expect(stages.flatMap((s) => s.tasks ?? []).sort()).toEqual(
      stripe.tasks.map((t) => t.id).sort(),
    );
  });

  it("orders its stages by measured difficulty, and each task's declared level is its stage", () => {
    const measured = measureDifficulty(stripe);
    expect(
      measured.every((m) => m.goldPassed && m.failedCalls === 0 && typeof m.score === 'number'),
    ).toBe(true);
    const score = new Map(measured.map((m) => [m.task, m.score!]));
    // The variant that also charges finding each generic operation (stripe_api_search, then stripe_api_details).
    const discovery = new Map(
      stripe.tasks.map((t) => {
        const inst = stripe.instance({ fixture: t.fixture });
        t.gold!(inst);
        const ops = new Set(
          inst
            .callLog()
            .filter((c) => c.tool === 'stripe_api_read' || c.tool === 'stripe_api_write')
            .map((c) =>
              String((c.args as { stripe_api_operation_id?: unknown }).stripe_api_operation_id),
            ),
        );
        inst.destroy();
        return [t.id, score.get(t.id)! + 2 * ops.size];
      }),
    );
    for (const measure of [score, discovery]) {
      for (let i = 0; i + 1 < stages.length; i++) {
        const hardestHere = Math.max(...stages[i].tasks!.map((id) => measure.get(id)!));
        const easiestNext = Math.min(...stages[i + 1].tasks!.map((id) => measure.get(id)!));
        expect(hardestHere, `${stages[i].name} vs ${stages[i + 1].name}`).toBeLessThan(easiestNext);
      }
    }
    stages.forEach((s, i) => {
      for (const id of s.tasks!) expect(stripe.task(id)!.difficulty, id).toBe(i + 1);
      // Within a stage, listed easiest first.
      const scores = s.tasks!.map((id) => score.get(id)!);
      expect(scores).toEqual([...scores].sort((a, b) => a - b));
    });
  }, 60_000);

  it('a gold-playing agent masters easy → medium → hard in order', () => {
    const hooks = curriculumHooks({ world: stripe, path: ':memory:' });
    const seen: string[] = [];
    let mastered = false;
    for (let i = 0; i < 200 && !mastered; i++) {
      const ep = play(hooks, 'gold', true);
      expect(ep.grade).toMatchObject({ reward: 1, passed: true });
      if (seen[seen.length - 1] !== ep.stage.name) seen.push(ep.stage.name);
      mastered = (hooks.progress('stripe-basics', 'gold').body as unknown as { mastered: boolean })
        .mastered;
    }
    const progress = hooks.progress('stripe-basics', 'gold').body as unknown as {
      mastered: boolean;
      stage: { name: string };
      transitions: { kind: string; to: { name: string } }[];
      episodes: { recorded: number };
    };
    expect(mastered).toBe(true);
    // Review episodes replay earlier stages, so a stage may come back; the first visits are in order.
    expect(seen.filter((s, i) => seen.indexOf(s) === i)).toEqual(['easy', 'medium', 'hard']);
    expect(progress.transitions.map((t) => `${t.kind} ${t.to.name}`)).toEqual([
      'promote medium',
      'promote hard',
      'master hard',
    ]);
    expect(progress.stage.name).toBe('hard');
    // Promotion needs 20 outcomes of the current stage; review episodes come on top.
    expect(progress.episodes.recorded).toBeGreaterThanOrEqual(60);
    hooks.close();
  }, 120_000);

  it('an agent that does nothing stays in easy', () => {
    const hooks = curriculumHooks({ world: stripe, path: ':memory:' });
    for (let i = 0; i < 30; i++) expect(play(hooks, 'idle', false).stage.name).toBe('easy');
    hooks.close();
  });
});
