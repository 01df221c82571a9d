import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos.ts';
import { shop } from './test-world.ts';
import { crm } from '../../../../worlds/crm/index.ts';

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
