import { describe, expect, it } from 'vitest';
import { ChaosRandom, argsFromSchema, runChaos } from './chaos.ts';
import { shop } from './test-world.ts';
import { crm } from '../worlds/crm/index.ts';

describe('ChaosRandom', () => {
  it('is seeded: the same seed gives the same stream, another seed another one', () => {
    const a = new ChaosRandom('x');
    const b = new ChaosRandom('x');
    const c = new ChaosRandom('y');
    const sa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(sa);
    expect(sa.every((v) => v >= 0 && v < 1)).toBe(true);
    for (let i = 0; i < 100; i++) {
      const n = a.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
    }
  });
});

describe('argsFromSchema', () => {
  it('produces arguments every crm tool accepts, except for ids that do not exist', () => {
    const rnd = new ChaosRandom('args');
    const inst = crm.instance({ fixture: 'small_startup' });
    for (const tool of inst.tools()) {
      for (let k = 0; k < 5; k++) {
        const r = inst.call(tool.name, argsFromSchema(tool.inputSchema, rnd, []) as Record<string, unknown>);
        if (!r.ok) expect(r.error.code, `${tool.name}: ${r.error.message}`).not.toBe('invalid_arguments');
      }
    }
    inst.destroy();
  });

  it('honours enums, bounds, patterns, nullable types and nesting', () => {
    const rnd = new ChaosRandom('shapes');
    const schema = {
      type: 'object',
      properties: {
        stage: { type: 'string', enum: ['a', 'b'] },
        n: { type: 'integer', minimum: 3, maximum: 4 },
        day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        email: { type: 'string', format: 'email' },
        maybe: { type: ['string', 'null'] },
        list: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 }, minItems: 1 },
      },
      required: ['stage', 'n', 'day', 'email', 'maybe', 'list'],
    };
    for (let i = 0; i < 30; i++) {
      const v = argsFromSchema(schema, rnd, []) as Record<string, unknown>;
      expect(['a', 'b']).toContain(v.stage);
      expect([3, 4]).toContain(v.n);
      expect(v.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(v.email).toMatch(/@example\.com$/);
      expect(v.maybe === null || typeof v.maybe === 'string').toBe(true);
      expect((v.list as number[]).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('reuses harvested ids for id-like properties', () => {
    const rnd = new ChaosRandom('ids');
    const picks = Array.from({ length: 20 }, () => (argsFromSchema({ type: 'object', properties: { contact_id: { type: 'string' } }, required: ['contact_id'] }, rnd, ['con_1']) as { contact_id: string }).contact_id);
    expect(picks.filter((p) => p === 'con_1').length).toBeGreaterThan(10);
  });
});

describe('runChaos', () => {
  it('replays exactly for a seed and really changes rows', () => {
    const a = crm.instance({ fixture: 'small_startup' });
    const b = crm.instance({ fixture: 'small_startup' });
    const ra = runChaos(a, { seed: 4, calls: 40 });
    runChaos(b, { seed: 4, calls: 40 });
    expect(ra.succeeded).toBeGreaterThan(0);
    expect(a.changes().length).toBeGreaterThan(0);
    expect(JSON.stringify(b.callLog())).toBe(JSON.stringify(a.callLog()));
    expect(JSON.stringify(b.changes())).toBe(JSON.stringify(a.changes()));
    a.destroy();
    b.destroy();
  });

  it('plays against any world', () => {
    const inst = shop.instance();
    const run = runChaos(inst, { seed: 1, calls: 25 });
    expect(run).toMatchObject({ seed: 1, calls: 25 });
    expect(inst.callLog()).toHaveLength(25);
  });
});
