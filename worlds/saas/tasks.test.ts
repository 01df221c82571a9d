import { describe, expect, it } from 'vitest';
import { checkGrader, explain } from 'seahaven/rewards';
import { saas } from './index.ts';

describe('saas tasks', () => {
  it('has 3+ tasks, each of whose gold solutions changes rows in both the CRM and the Stripe store', () => {
    expect(saas.tasks.length).toBeGreaterThanOrEqual(3);
    for (const task of saas.tasks) {
      const inst = saas.instance({ fixture: task.fixture });
      task.gold!(inst);
      const tables = new Set(inst.changes().map((c) => c.table));
      expect(
        [...tables].some((t) => !t.startsWith('stripe.')),
        task.id,
      ).toBe(true);
      expect(
        [...tables].some((t) => t.startsWith('stripe.')),
        task.id,
      ).toBe(true);
      inst.destroy();
    }
  });

  for (const task of saas.tasks) {
    it(`${task.id} passes checkGrader`, () => {
      const report = checkGrader(saas, task);
      expect(report.problems, report.gold ? explain(report.gold) : 'no gold grade').toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.gold!.reward).toBe(1);
      expect(report.idle!.reward).toBe(0);
      expect(report.chaos.map((c) => c.reward)).toEqual(report.chaos.map(() => 0));
    });
  }
});
