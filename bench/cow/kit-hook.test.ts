import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crm } from '@seahaven/crm';
import { defineWorld, type Instance } from 'seahaven';
import { loadFixture } from 'seahaven/internal/core/fixtures';
import { storeDatabases } from 'seahaven/internal/core/instance-internals';
import { observe } from 'seahaven/internal/core/test/observe';
import { cowOpens, openCopyOnWrite } from './kit-hook.ts';

// The kit, unchanged, on copy-on-write episodes: every episode must be the one a deserialized copy gives, whatever
// mix of writes, forks, restarts, hibernation and destroys it goes through, down to the serialized bytes.

const spec = {
  name: 'crm',
  version: crm.version,
  schema: crm.schema,
  tools: [...crm.tools],
  fixtures: crm.fixtures,
  fixturesDir: crm.fixturesDir!,
};
const FIXTURE = 'small_startup';
/** Two definitions of one world load their fixtures apart, so only `cow`'s image is registered with the hook. */
const today = defineWorld(spec);
const cow = defineWorld(spec);
openCopyOnWrite(loadFixture(cow, FIXTURE).resetImages.get(null)!);

function play(inst: Instance, step: number): void {
  const contact = inst.query<{ id: string }>(
    'SELECT id FROM contacts ORDER BY id LIMIT 1 OFFSET ?',
    step % 5,
  )[0].id;
  inst.call('update_contact', { id: contact, title: `Title ${step}` });
  inst.call('create_company', { name: `Company ${step}` });
  inst.call('log_activity', { contact_id: contact, kind: 'note', subject: `note ${step}` });
  inst.call('create_company', { name: '' });
  if (step % 2 === 0) inst.call('delete_contact', { id: contact });
}

type Twin = { today: Instance; cow: Instance };
type Op =
  | { op: 'open'; seed: number }
  | { op: 'write'; at: number; step: number }
  | { op: 'fork'; at: number }
  | { op: 'restart'; at: number; seed: number }
  | { op: 'hibernate'; at: number }
  | { op: 'bytes'; at: number }
  | { op: 'destroy'; at: number };

const seed = fc.integer({ min: 0, max: 3 });
const at = fc.nat({ max: 7 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('open' as const), seed }),
  fc.record({ op: fc.constant('write' as const), at, step: fc.nat({ max: 9 }) }),
  fc.record({ op: fc.constant('fork' as const), at }),
  fc.record({ op: fc.constant('restart' as const), at, seed }),
  fc.record({ op: fc.constant('hibernate' as const), at }),
  fc.record({ op: fc.constant('bytes' as const), at }),
  fc.record({ op: fc.constant('destroy' as const), at }),
);

const bytesOf = (inst: Instance) => inst[storeDatabases]().get(null)!.serialize();

describe('the kit on copy-on-write episodes', () => {
  it('commit as a deserialized copy does, again and again (the header counts every commit)', () => {
    const pair = [today, cow].map((w) => w.instance({ fixture: FIXTURE, seed: 1 }));
    for (let step = 0; step < 3; step++) {
      for (const inst of pair) play(inst, step);
      const [a, b] = pair.map(bytesOf);
      expect(b.equals(a)).toBe(true);
    }
    for (const inst of pair) inst.destroy();
  });

  it('gives the episodes, histories and bytes a deserialized copy gives', () => {
    const before = cowOpens();
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 20 }), (ops) => {
        const live: Twin[] = [];
        try {
          for (const o of ops) {
            if (o.op === 'open') {
              live.push({
                today: today.instance({ fixture: FIXTURE, seed: o.seed }),
                cow: cow.instance({ fixture: FIXTURE, seed: o.seed }),
              });
              continue;
            }
            if (live.length === 0) continue;
            const twin = live[o.at % live.length];
            if (o.op === 'write') {
              play(twin.today, o.step);
              play(twin.cow, o.step);
            } else if (o.op === 'fork') {
              const fork = { today: twin.today.fork(), cow: twin.cow.fork() };
              play(fork.today, 7);
              play(fork.cow, 7);
              live.push(fork);
            } else if (o.op === 'restart') {
              const next = {
                today: twin.today.restart({ fixture: FIXTURE, seed: o.seed }),
                cow: twin.cow.restart({ fixture: FIXTURE, seed: o.seed }),
              };
              expect(next.cow === null).toBe(next.today === null);
              if (next.today !== null && next.cow !== null)
                live[live.indexOf(twin)] = { today: next.today, cow: next.cow };
            } else if (o.op === 'hibernate') {
              twin.today.hibernate();
              twin.cow.hibernate();
            } else if (o.op === 'bytes') {
              expect(bytesOf(twin.cow).equals(bytesOf(twin.today))).toBe(true);
            } else {
              twin.today.destroy();
              twin.cow.destroy();
              live.splice(live.indexOf(twin), 1);
            }
          }
          for (const twin of live) expect(observe(twin.cow)).toEqual(observe(twin.today));
        } finally {
          for (const twin of live) {
            twin.today.destroy();
            twin.cow.destroy();
          }
        }
      }),
      { numRuns: 60, seed: 20261202 },
    );
    expect(cowOpens()).toBeGreaterThan(before);
  });
});
