import { describe, expect, it } from 'vitest';
import { checkGrader, explain } from 'seahaven/rewards';
import { crm } from './index.ts';

describe('crm tasks', () => {
  it('has 8+ tasks over three difficulty levels, most from small_startup', () => {
    expect(crm.tasks.length).toBeGreaterThanOrEqual(8);
    expect(new Set(crm.tasks.map((t) => t.difficulty))).toEqual(new Set([1, 2, 3]));
    expect(crm.tasks.filter((t) => t.fixture === 'small_startup').length).toBeGreaterThan(
      crm.tasks.length / 2,
    );
    expect(crm.tasks.every((t) => typeof t.gold === 'function')).toBe(true);
  });

  for (const task of crm.tasks) {
    it(`${task.id} passes checkGrader`, () => {
      const report = checkGrader(crm, task);
      expect(report.problems, report.gold ? explain(report.gold) : 'no gold grade').toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.gold!.reward).toBe(1);
      expect(report.idle!.passed).toBe(false);
      expect(report.chaos.every((c) => c.reward < 1)).toBe(true);
    });
  }

  it('submit() on an instance started with a task returns the task grade', () => {
    const inst = crm.instance({ fixture: 'small_startup', task: 'add_company' });
    expect(inst.submit()).toMatchObject({ reward: 0, passed: false });
    inst.call('create_company', {
      name: 'Initech',
      domain: 'initech.example',
      industry: 'software',
      employees: 85,
    });
    expect(inst.submit()).toMatchObject({ reward: 1, passed: true });
    inst.destroy();
  });
});

describe('the Whitaker trap', () => {
  it("doing Dana's workflow on Dan loses credit, and the reasons name his rows", () => {
    const inst = crm.instance({ fixture: 'small_startup', task: 'dana_signed' });
    inst.call('update_deal', { id: 'deal_globex_old', stage: 'won' });
    inst.call('update_contact', { id: 'con_dan', stage: 'customer' });
    inst.call('log_activity', {
      contact_id: 'con_dan',
      deal_id: 'deal_globex_old',
      kind: 'meeting',
      subject: 'Contract signed',
    });
    const g = inst.submit();
    expect(g.passed).toBe(false);
    expect(g.reward).toBeLessThan(0.2);
    const reasons = g.criteria.map((c) => c.reason).join('\n');
    expect(reasons).toContain(
      'contacts con_dan was updated (stage), which no expected change or allow rule covers.',
    );
    expect(reasons).toContain('deals deal_globex_old was updated');
    inst.destroy();
  });

  it("touching Dana in Dan's task closes the gate entirely", () => {
    const task = crm.task('dan_deal_slipped')!;
    const inst = crm.instance({ fixture: 'small_startup' });
    task.gold!(inst);
    expect(task.grade(inst).reward).toBe(1);
    inst.call('log_activity', {
      contact_id: 'con_dana',
      kind: 'email',
      subject: 'Revised timeline',
    });
    const g = task.grade(inst);
    expect(g).toMatchObject({ reward: 0, passed: false });
    expect(g.criteria.find((c) => c.weight > 0 && c.score === 0)!.reason).toMatch(
      /^activities \d+ \(inserted\) changed, but rows of activities where contact_id = "con_dana" had to stay as they were\.$/,
    );
    inst.destroy();
  });

  it('marking only some stale negotiations lost earns partial credit; a fresh one is collateral', () => {
    const task = crm.task('lose_stale_negotiations')!;
    const inst = crm.instance({ fixture: 'small_startup' });
    const listed = inst.call('list_deals', { stage: 'negotiation', limit: 100 });
    if (!listed.ok) throw new Error(listed.error.message);
    const stale = (listed.result as { deals: { id: string; close_date: string }[] }).deals.filter(
      (d) => d.close_date < '2026-06-01',
    );
    expect(stale).toHaveLength(9);
    for (const d of stale.slice(0, 3)) inst.call('update_deal', { id: d.id, stage: 'lost' });
    // Half the reward is the nine expected updates (3 done), half the final-state count (still 6 left).
    expect(task.grade(inst).reward).toBeCloseTo(3 / 9 / 2, 10);
    inst.call('update_deal', { id: 'deal_globex_routes', stage: 'lost' });
    const g = task.grade(inst);
    expect(g.reward).toBeCloseTo(3 / 10 / 2, 10);
    expect(
      g.criteria.some((c) => c.reason.startsWith('deals deal_globex_routes was updated (stage')),
    ).toBe(true);
    inst.destroy();
  });
});
