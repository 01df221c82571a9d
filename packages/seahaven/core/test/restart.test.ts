import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineTool, defineWorld, z } from '../index.ts';
import type { Instance } from '../instance.ts';
import { observe } from './observe.ts';

function scribble(inst: Instance): void {
  const contact = inst.query<{ id: string }>('SELECT id FROM contacts ORDER BY id LIMIT 1')[0].id;
  inst.call('update_contact', { id: contact, title: 'Scribbled' });
  inst.call('create_company', { name: 'Scribble Co' });
  inst.call('log_activity', { contact_id: contact, kind: 'note', subject: 'scribble' });
  inst.call('delete_contact', { id: contact });
}

describe('Instance.restart', () => {
  it('gives every task the same episode as a fresh instance, whatever the previous episode did', () => {
    for (const task of crm.tasks.filter((t) => t.gold)) {
      const fresh = crm.instance({ fixture: task.fixture, seed: 5, task: task.id });
      task.gold!(fresh);
      const old = crm.instance({ fixture: task.fixture, seed: 9 });
      scribble(old);
      const again = old.restart({ fixture: task.fixture, seed: 5, task: task.id });
      expect(again, task.id).not.toBeNull();
      task.gold!(again!);
      expect(observe(again!), task.id).toEqual(observe(fresh));
      expect(again!.submit()).toEqual(fresh.submit());
      fresh.destroy();
      again!.destroy();
    }
  });

  it('reuses the connection: the old instance is destroyed, and a second restart works too', () => {
    const a = crm.instance({ fixture: 'small_startup', seed: 1 });
    scribble(a);
    const b = a.restart({ fixture: 'small_startup', seed: 1 })!;
    expect(() => a.changes()).toThrow(/destroyed/);
    expect(b.changes()).toEqual([]);
    scribble(b);
    const c = b.restart({ fixture: 'small_startup', seed: 2 })!;
    expect(c.changes()).toEqual([]);
    expect(c.query('SELECT count(*) AS n FROM companies')).toEqual(
      crm.instance({ fixture: 'small_startup' }).query('SELECT count(*) AS n FROM companies'),
    );
    c.destroy();
  });

  it('refuses what it cannot do, leaving the instance as it was', () => {
    const a = crm.instance({ fixture: 'small_startup', seed: 1 });
    scribble(a);
    expect(a.restart({ fixture: 'big_co' })).toBeNull();
    expect(() => a.restart({ fixture: 'small_startup', seed: -1 })).toThrow(/seed/);
    expect(a.changes().length).toBeGreaterThan(0);
    a.fork().destroy();
    // A fork committed the episode, so it cannot be rolled back to the fixture any more.
    expect(a.restart({ fixture: 'small_startup' })).toBeNull();
    // Nor can the fork of a changed episode, used or not: it started from a snapshot, not from the fixture.
    const fork = a.fork();
    expect(fork.restart({ fixture: 'small_startup' })).toBeNull();
    const used = a.fork();
    used.call('create_company', { name: 'Fork Co' });
    expect(used.restart({ fixture: 'small_startup' })).toBeNull();
    expect(
      used.query("SELECT count(*) AS n FROM companies WHERE name IN ('Scribble Co', 'Fork Co')"),
    ).toEqual([{ n: 2 }]);
    // The fork of an unchanged episode starts from the fixture's image itself, and restarts like any instance.
    const pristine = crm.instance({ fixture: 'small_startup' }).fork();
    pristine.call('create_company', { name: 'Fork Co' });
    const restarted = pristine.restart({ fixture: 'small_startup', seed: 4 })!;
    expect(restarted.query("SELECT count(*) AS n FROM companies WHERE name = 'Fork Co'")).toEqual([
      { n: 0 },
    ]);
    for (const i of [a, fork, used, restarted]) i.destroy();

    const h = crm.instance({ fixture: 'small_startup' });
    scribble(h);
    h.hibernate();
    expect(h.restart({ fixture: 'small_startup' })).toBeNull();
    h.destroy();

    // Never used: it sleeps on the fixture image, which is as good as rolled back.
    const idle = crm.instance({ fixture: 'small_startup' });
    expect(idle.restart({ fixture: 'small_startup', seed: 3 })?.seed).toBe(3);
  });

  it('a failed call inside an episode undoes only that call', () => {
    const inst = crm.instance({ fixture: 'small_startup' });
    const company = inst.call('create_company', { name: 'Kept Co' });
    expect(company.ok).toBe(true);
    const dup = inst.query<{ email: string }>('SELECT email FROM contacts LIMIT 1')[0].email;
    expect(inst.call('create_contact', { name: 'Dup', email: dup }).ok).toBe(false);
    expect(inst.changes().map((c) => c.table)).toEqual(['companies']);
    const again = inst.restart({ fixture: 'small_startup' })!;
    expect(again.query("SELECT count(*) AS n FROM companies WHERE name = 'Kept Co'")[0].n).toBe(0);
    again.destroy();
  });

  it('does not run episodes as one transaction in worlds with deferred foreign keys', () => {
    const world = defineWorld({
      name: 'deferred',
      version: '1',
      schema:
        'CREATE TABLE a (id INTEGER PRIMARY KEY) STRICT; CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id) DEFERRABLE INITIALLY DEFERRED) STRICT;',
      tools: [
        defineTool({
          name: 'orphan',
          description: 'Insert a b without its a.',
          input: z.object({}),
          run: (ctx) => ctx.db.run('INSERT INTO b (id, a_id) VALUES (1, 99)'),
        }),
      ],
      fixtures: {
        empty: { description: 'Nothing.', now: '2026-01-01T00:00:00.000Z', build: () => undefined },
      },
    });
    const inst = world.instance({ fixture: 'empty', logger: () => undefined });
    // The deferred key is checked when the call commits, so the call fails.
    expect(inst.call('orphan', {})).toMatchObject({ ok: false });
    expect(inst.restart({ fixture: 'empty' })).toBeNull();
  });
});
