import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTask } from '../../core/index.ts';
import { atLeast, deleted, inserted, unchanged, updated } from './changes.ts';
import { all, gate, weighted } from './combine.ts';
import { expectChanges, noOtherChanges } from './expect.ts';
import { regex } from './fields.ts';
import { gradeState, NeedsDatabaseError } from './offline.ts';
import { count, rowWhere } from './state.ts';
import { shopAfter } from './test-world.ts';

/** The JSON round trip a saved or transmitted state document goes through. */
const saved = <T>(x: T): T => JSON.parse(JSON.stringify(x));

function needsDatabase(fn: () => unknown): NeedsDatabaseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof NeedsDatabaseError) return e;
    throw e;
  }
  throw new Error('expected a NeedsDatabaseError');
}

describe('gradeState: graders of the changes alone', () => {
  it('grades a saved state document exactly as the live instance is graded, for every change matcher and combinator', () => {
    const inst = shopAfter(
      ['add_item', { id: 'kiwi', name: 'Kiwi', qty: 3, tag: 'fruit' }],
      ['set_item', { id: 'pear', qty: 20 }],
      ['remove_item', { id: 'apple' }],
      ['add_note', { item_id: 'pear', body: 'ripe' }],
    );
    const graders = [
      expectChanges([
        inserted('items', { id: 'kiwi', qty: 3 }),
        updated('items', { id: 'pear' }, { qty: 20 }),
      ]),
      expectChanges(
        [
          inserted('items', { name: regex(/^K/) }),
          deleted('items', { name: 'Apple', tag: 'fruit' }),
        ],
        { allow: ['notes'] },
      ),
      expectChanges([updated('items', { id: 'pear', qty: 4 }, { qty: 25 })], { penalty: 2 }),
      gate(
        unchanged('items', { id: 'bolt' }),
        expectChanges([atLeast(1, inserted('notes', { item_id: 'pear' }))]),
      ),
      weighted([
        [noOtherChanges({ allow: ['items'] }), 1],
        [unchanged('notes', { item_id: 'pear' }), 3],
      ]),
      all([inserted('items', { id: 'kiwi' }), deleted('notes', { body: 'red' })]),
      (t: { changes(): { table: string }[] }) => {
        const n = t.changes().filter((c) => c.table === 'notes').length;
        return { reward: n / 4, passed: n === 4, criteria: [] };
      },
    ];
    const doc = saved(inst.state());
    for (const g of graders) {
      const live = typeof g === 'function' ? g(inst) : g.grade(inst);
      expect(gradeState(g, doc)).toEqual(live);
    }
  });

  it("grades crm tasks from a gold run's state, equal to inst.submit()", () => {
    for (const id of [
      'add_lead',
      'log_call',
      'add_company',
      'globex_discount',
      'forget_contact',
      'dana_signed',
    ]) {
      const task = crm.task(id)!;
      const inst = crm.instance({ task: id, seed: 1 });
      expect(gradeState(task, saved(inst.state())).reward).toBe(0); // nothing done yet
      task.gold!(inst);
      const grade = inst.submit();
      expect(grade.reward).toBe(1);
      expect(gradeState(task, saved(inst.state()))).toEqual(grade);
    }
  });

  it("leaves the document as it was, and takes the wire's state (episode_id and step_count beside the document)", () => {
    const inst = shopAfter(['set_item', { id: 'pear', qty: 20 }]);
    const doc = { episode_id: 'ep-1', step_count: 1, ...saved(inst.state()) };
    const before = JSON.stringify(doc);
    const g = gradeState((t) => {
      const c = t.changes();
      c[0].table = 'scribbled';
      return { reward: 1, passed: true, criteria: [] };
    }, doc);
    expect(g.reward).toBe(1);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('refuses what is not a state document, and the state of another task', () => {
    const task = crm.task('add_lead')!;
    expect(() => gradeState(task, {} as never)).toThrow(
      /state must be a state document with its changes array/,
    );
    const other = crm.instance({ task: 'log_call' });
    expect(() => gradeState(task, other.state())).toThrow(
      'the state is of an episode of task "log_call", not "add_lead"',
    );
  });
});

describe('gradeState: graders that read the database', () => {
  it('names rowWhere and count, even inside combinators, and suggests grading a live instance', () => {
    const doc = saved(shopAfter(['set_item', { id: 'pear', qty: 20 }]).state());
    const e = needsDatabase(() =>
      gradeState(
        all([
          expectChanges([updated('items', { id: 'pear' }, { qty: 20 })]),
          rowWhere('items', { id: 'pear' }, { qty: 20 }),
        ]),
        doc,
      ),
    );
    expect(e.matcher).toBe('items where id = "pear"');
    expect(e.reads).toMatch(/^query SELECT name, pk FROM pragma_table_info/);
    expect(e.message).toContain('items where id = "pear" reads the database');
    expect(e.message).toContain(
      'inst.submit() in process, or the grade step (env.grade()) of a served session',
    );

    const c = needsDatabase(() =>
      gradeState(
        crm.task('qualify_globex_leads')!,
        saved(crm.instance({ task: 'qualify_globex_leads' }).state()),
      ),
    );
    expect(c.matcher).toBe(
      "count of SELECT 1 FROM contacts WHERE company_id = 'cmp_globex' AND stage = 'lead'",
    );
    expect(c.message).toMatch(
      /^gradeState: the grader of task "qualify_globex_leads" cannot grade a state document: count of SELECT 1/,
    );
  });

  it('names a change matcher that needs a column the change does not carry, and the row and column', () => {
    // An update's change carries its key and the columns it changed; `tag` was left alone, so only the database has it.
    const doc = saved(shopAfter(['set_item', { id: 'pear', qty: 20 }]).state());
    const e = needsDatabase(() =>
      gradeState(expectChanges([updated('items', { tag: 'fruit', qty: 4 }, { qty: 20 })]), doc),
    );
    expect(e.matcher).toBe('update of items where tag = "fruit", qty = 4 setting qty = 20');
    expect(e.reads).toBe('column "tag" of items pear, which the change does not carry');
    // The same matcher is graded offline when the change carries what it names.
    expect(
      gradeState(expectChanges([updated('items', { id: 'pear', qty: 4 }, { qty: 20 })]), doc)
        .reward,
    ).toBe(1);

    const rule = needsDatabase(() =>
      gradeState(
        expectChanges([
          updated('items', { id: 'pear' }, { qty: 20 }),
          unchanged('items', { tag: 'hardware' }),
        ]),
        doc,
      ),
    );
    expect(rule.matcher).toBe('rows of items where tag = "hardware" unchanged');
  });

  it('names a grading function that calls query', () => {
    const doc = saved(shopAfter().state());
    const task = defineTask({
      id: 'stocked',
      fixture: 'stocked',
      prompt: 'Keep stock.',
      grade: (t) => ({
        reward: t.query('SELECT 1 FROM items').length > 0 ? 1 : 0,
        passed: true,
        criteria: [],
      }),
    });
    const e = needsDatabase(() => gradeState(task, doc));
    expect(e.matcher).toBe('its grading function');
    expect(e.reads).toBe('query SELECT 1 FROM items');
    function stockCheck(t: { query(sql: string): unknown[] }) {
      return {
        reward: t.query('SELECT 1 FROM items').length > 0 ? 1 : 0,
        passed: true,
        criteria: [],
      };
    }
    expect(needsDatabase(() => gradeState(stockCheck, doc)).matcher).toBe('function stockCheck');
    expect(
      needsDatabase(() => gradeState(all([count('SELECT 1 FROM notes', 2)]), doc)).matcher,
    ).toBe('count of SELECT 1 FROM notes');
  });
});
