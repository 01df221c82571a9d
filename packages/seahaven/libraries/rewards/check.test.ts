import { describe, expect, it } from 'vitest';
import {
  defineTask,
  defineTool,
  defineWorld,
  z,
  type Grade,
  type GradeTarget,
  type TaskSpec,
} from '../../core/index.ts';
import { inserted, updated } from './changes.ts';
import { weighted } from './combine.ts';
import { expectChanges } from './expect.ts';
import { rowWhere } from './state.ts';
import { GRADER_CHECKS, checkGrader, graderFindings } from './check.ts';
import { shop, shopSpec } from './test-world.ts';

const fast = { chaosSeeds: [1, 2], chaosCalls: 20 };
const restock = expectChanges([updated('items', { id: 'pear' }, { qty: 20 })]);
const goodSpec: TaskSpec = {
  id: 'restock_pear',
  fixture: 'stocked',
  prompt: 'Set the pear stock to 20.',
  grade: restock,
  gold: (inst) => {
    inst.call('set_item', { id: 'pear', qty: 20 });
  },
};
const task = (over: Partial<TaskSpec>) => defineTask({ ...goodSpec, ...over });
const codes = (over: Partial<TaskSpec>, world = shop) =>
  checkGrader(world, task(over), fast).problems.map((p) => p.code);

describe('checkGrader', () => {
  it('accepts a sound task and reports what each agent scored', () => {
    const report = checkGrader(shop, task({}), fast);
    expect(report).toMatchObject({ ok: true, task: 'restock_pear', problems: [] });
    expect(report.idle).toMatchObject({ reward: 0, passed: false });
    expect(report.gold).toMatchObject({ reward: 1, passed: true });
    expect(report.chaos.map((c) => c.seed)).toEqual([1, 2]);
    expect(report.chaos.every((c) => c.reward < 1 && c.calls === 20)).toBe(true);
  });

  it('SH501: a grader the do-nothing agent passes', () => {
    const report = checkGrader(
      shop,
      task({ grade: rowWhere('items', { id: 'pear' }, { name: 'Pear' }) }),
      fast,
    );
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({
      code: 'SH501',
      severity: 'error',
      fix: GRADER_CHECKS.SH501.fix,
    });
    expect(report.problems[0].message).toBe(
      'restock_pear: an agent that makes no call passes (reward 1).',
    );
  });

  it('SH502: a grader that pays well for doing nothing', () => {
    expect(
      codes({
        grade: weighted([
          [rowWhere('items', { id: 'pear' }, { name: 'Pear' }), 3],
          [restock, 1],
        ]),
      }),
    ).toEqual(['SH502']);
  });

  it('SH503: no gold solution (a warning: the report stays ok)', () => {
    const report = checkGrader(shop, task({ gold: undefined }), fast);
    expect(report.problems.map((p) => [p.code, p.severity])).toEqual([['SH503', 'warning']]);
    expect(report.ok).toBe(true);
  });

  it('SH504: a gold solution the grader does not give full marks, with what it missed', () => {
    const report = checkGrader(
      shop,
      task({
        gold: (inst) => {
          inst.call('set_item', { id: 'pear', qty: 19 });
        },
      }),
      fast,
    );
    expect(report.problems.map((p) => p.code)).toEqual(['SH504']);
    expect(report.problems[0].message).toContain(
      'items pear was updated, but qty is 19 (expected = 20)',
    );
  });

  it('SH505 and SH506: a gold solution that throws, or makes a failing call', () => {
    expect(
      codes({
        gold: () => {
          throw new Error('no luck');
        },
      }),
    ).toEqual(['SH505']);
    expect(
      codes({
        gold: (inst) => {
          inst.call('set_item', { id: 'nope', qty: 1 });
          inst.call('set_item', { id: 'pear', qty: 20 });
        },
      }),
    ).toEqual(['SH506']);
  });

  it('SH507: a grader a chaos agent satisfies', () => {
    const anyChange = (t: GradeTarget): Grade => {
      const done = t.changes().length > 0;
      return {
        reward: done ? 1 : 0,
        passed: done,
        criteria: [
          {
            id: 'changed',
            name: 'something changed',
            score: done ? 1 : 0,
            weight: 1,
            reason: done ? 'Something changed.' : 'Nothing changed.',
          },
        ],
      };
    };
    expect(codes({ grade: anyChange })).toContain('SH507');
  });

  it('SH508: a grader that throws', () => {
    const report = checkGrader(
      shop,
      task({ grade: rowWhere('items', { nmae: 'Pear' }, {}) }),
      fast,
    );
    expect(report.problems[0]).toMatchObject({ code: 'SH508' });
    expect(report.problems[0].message).toContain('items has no column "nmae"');
  });

  it('SH509: a grader that is not deterministic', () => {
    let calls = 0;
    const drifting = (t: GradeTarget): Grade => {
      const g = restock.grade(t);
      calls++;
      return {
        ...g,
        criteria: [
          ...g.criteria,
          { id: 'drift', name: 'drift', score: 1, weight: 0, reason: `Graded ${calls} times.` },
        ],
      };
    };
    expect(codes({ grade: drifting })).toEqual(['SH509']);
  });

  it('SH510: a malformed grade', () => {
    expect(codes({ grade: () => ({ reward: 2, passed: false, criteria: [] }) })).toContain('SH510');
    expect(
      codes({
        grade: () => ({
          reward: 0,
          passed: false,
          criteria: [{ name: 'x', score: 0, weight: -1, reason: '' }],
        }),
      }),
    ).toContain('SH510');
    // An id is what a trainer logs a criterion under: one that is not like insert.contacts is refused, a missing one filled in.
    const report = checkGrader(
      shop,
      task({
        grade: () => ({
          reward: 0,
          passed: false,
          criteria: [{ id: 'Ada Lovelace', name: 'x', score: 0, weight: 1, reason: '' }],
        }),
      }),
      fast,
    );
    expect(report.problems.find((p) => p.code === 'SH510')?.message).toContain(
      'criteria[0].id is "Ada Lovelace"',
    );
    expect(
      codes({
        grade: () => ({
          reward: 0,
          passed: false,
          criteria: [{ name: 'x', score: 0, weight: 1, reason: '' }],
        }),
      }),
    ).not.toContain('SH510');
  });

  it('SH511: a chaos agent that hits a world bug', () => {
    const crash = defineTool({
      name: 'crash',
      description: 'Throws a plain error.',
      input: z.object({}),
      run() {
        throw new Error('bug');
      },
    });
    const buggy = defineWorld({ ...shopSpec, name: 'buggy', tools: [...shopSpec.tools, crash] });
    expect(codes({}, buggy)).toContain('SH511');
  });

  it('refuses an unknown task id', () => {
    expect(() => checkGrader(shop, 'nope')).toThrow(/has no task "nope"/);
  });
});

describe('graderFindings', () => {
  it('lists findings for every task of a world in the checker shape', () => {
    const world = defineWorld({
      ...shopSpec,
      tasks: [
        task({}),
        task({
          id: 'lazy',
          gold: undefined,
          grade: expectChanges([inserted('items', { id: 'kiwi' })]),
        }),
      ],
    });
    const findings = graderFindings(world, fast);
    expect(findings).toEqual([
      {
        code: 'SH503',
        severity: 'warning',
        message: expect.stringMatching(/^lazy: /),
        fix: GRADER_CHECKS.SH503.fix,
        task: 'lazy',
      },
    ]);
  });
});
