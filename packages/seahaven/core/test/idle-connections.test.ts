import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { defineWorld } from '../index.ts';
import { loadFixture } from '../fixtures.ts';
import { keepIdle, takeIdle } from '../idle-connections.ts';
import type { Instance } from '../instance.ts';
import { observe } from './observe.ts';

// A destroyed instance leaves its connections, rolled back, for the next instance of its fixture (idle-connections.ts).
// Whatever the instances before it did, an episode on a recycled connection must be the episode a fresh one gives.

const spec = {
  name: 'crm',
  version: crm.version,
  schema: crm.schema,
  tools: [...crm.tools],
  fixtures: crm.fixtures,
  fixturesDir: crm.fixturesDir!,
};
/** The world under test, whose instances recycle connections. */
const world = defineWorld(spec);
/** The same world defined again: its fixtures are loaded apart, so its instances never share a connection with `world`'s. */
const reference = defineWorld(spec);
const FIXTURE = 'small_startup';

/** A few writes of every kind, and a failed call. */
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

/** The episode `play` gives on a fresh instance of `seed`: what every recycled instance must give too. */
const expected = new Map<number, unknown>();
function expectedOf(seed: number): unknown {
  if (!expected.has(seed)) {
    const fresh = reference.instance({ fixture: FIXTURE, seed });
    play(fresh, seed);
    expected.set(seed, observe(fresh));
  }
  return expected.get(seed);
}

type Op =
  | { op: 'open'; seed: number }
  | { op: 'write'; at: number; step: number }
  | { op: 'fork'; at: number }
  | { op: 'restart'; at: number; seed: number }
  | { op: 'hibernate'; at: number }
  | { op: 'destroy'; at: number }
  | { op: 'check'; seed: number };

const seed = fc.integer({ min: 0, max: 3 });
const at = fc.nat({ max: 7 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('open' as const), seed }),
  fc.record({ op: fc.constant('write' as const), at, step: fc.nat({ max: 9 }) }),
  fc.record({ op: fc.constant('fork' as const), at }),
  fc.record({ op: fc.constant('restart' as const), at, seed }),
  fc.record({ op: fc.constant('hibernate' as const), at }),
  fc.record({ op: fc.constant('destroy' as const), at }),
  fc.record({ op: fc.constant('check' as const), seed }),
);

describe('recycled connections', () => {
  it('give every new instance the episode a fresh instance gives, whatever the destroyed ones did', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), (ops) => {
        const live: Instance[] = [];
        const pick = (i: number) => live[i % live.length];
        try {
          for (const o of ops) {
            if (o.op === 'open') live.push(world.instance({ fixture: FIXTURE, seed: o.seed }));
            else if (o.op === 'check') {
              const inst = world.instance({ fixture: FIXTURE, seed: o.seed });
              expect(inst.changes()).toEqual([]);
              play(inst, o.seed);
              expect(observe(inst)).toEqual(expectedOf(o.seed));
              inst.destroy();
            } else if (live.length > 0) {
              const inst = pick(o.at);
              if (o.op === 'write') play(inst, o.step);
              else if (o.op === 'fork') {
                const fork = inst.fork();
                play(fork, 7);
                live.push(fork);
              } else if (o.op === 'hibernate') inst.hibernate();
              else if (o.op === 'restart') {
                const next = inst.restart({ fixture: FIXTURE, seed: o.seed });
                if (next !== null) live[live.indexOf(inst)] = next;
              } else {
                inst.destroy();
                live.splice(live.indexOf(inst), 1);
              }
            }
          }
        } finally {
          for (const inst of live) inst.destroy();
        }
      }),
      { numRuns: 200, seed: 20261201 },
    );
  });

  it('are kept a few per fixture, and only from instances that can roll back to it', () => {
    const loaded = loadFixture(world, FIXTURE);
    while (takeIdle(loaded)) {
      // Empty the fixture's idle set.
    }
    const taken = () => {
      const kept = [];
      for (let set = takeIdle(loaded); set !== undefined; set = takeIdle(loaded)) kept.push(set);
      for (const set of kept) for (const c of set) c?.close();
      return kept.length;
    };
    const used = Array.from({ length: 6 }, (_, i) => world.instance({ fixture: FIXTURE, seed: i }));
    for (const inst of used) play(inst, 1);
    for (const inst of used) inst.destroy();
    expect(taken()).toBe(4);
    // Neither a fork, which began from a snapshot, nor its original, whose episode the fork committed, can roll back.
    const original = world.instance({ fixture: FIXTURE });
    play(original, 1);
    const fork = original.fork();
    play(fork, 2);
    fork.destroy();
    original.destroy();
    expect(taken()).toBe(0);
    // A left connection that cannot begin again (here: closed behind the pool's back) is dropped, and the image opened.
    const broken = world.instance({ fixture: FIXTURE });
    play(broken, 1);
    broken.destroy();
    const set = takeIdle(loaded)!;
    set[0]!.close();
    keepIdle(loaded, set);
    const next = world.instance({ fixture: FIXTURE, seed: 0 });
    play(next, 0);
    expect(observe(next)).toEqual(expectedOf(0));
    next.destroy();
    taken();
    // A never-used instance has no connection to leave.
    world.instance({ fixture: FIXTURE }).destroy();
    expect(takeIdle(loaded)).toBeUndefined();
  });
});
