import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript } from 'seahaven/internal/core/test/node-script';
import { expectChanges, inserted } from 'seahaven/rewards';
import { stripe } from '../index.ts';
import { sdkFor } from './sdk.ts';

// REST traffic is tool-call traffic: an SDK-driven episode replays byte for byte in another process, its calls are
// in the call log under their operationIds, its rows in changes(), and a reward helper grades it.

const script = fileURLToPath(new URL('./episode-script.ts', import.meta.url));
describe('an SDK-driven Stripe episode', () => {
  it('replays byte for byte in a second process with the same seed, and differs with another', async () => {
    const [first, again, other] = (
      await Promise.all([11, 11, 12].map((seed) => runScript(script, [String(seed)])))
    ).map((r) => r.stdout);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    const run = JSON.parse(first) as {
      callLog: { tool: string; ok: boolean }[];
      changes: { table: string }[];
    };
    expect(run.callLog.slice(0, 3).map((c) => c.tool)).toEqual([
      'PostCustomers',
      'PostCustomersCustomer',
      'PostCustomers',
    ]);
    expect(run.callLog.find((c) => !c.ok)?.tool).toBe('GetCustomersCustomer');
    expect(run.changes.some((c) => c.table === 'customers')).toBe(true);
  }, 60_000);

  it('replays from its call log in process, and a reward helper grades what the SDK changed', async () => {
    const inst = stripe.instance({ fixture: 'empty', seed: 5 });
    const s = sdkFor(inst);
    const c = await s.customers.create({ name: 'Grace Hopper', email: 'grace@example.com' });
    await s.customers.update(c.id, { metadata: { tier: 'gold' } });
    const gone = await s.customers.create({ name: 'Temp' });
    await s.customers.del(gone.id);
    const again = stripe.instance({ fixture: 'empty', seed: 5 });
    for (const entry of inst.callLog()) again.operation(entry.tool, entry.args);
    expect(again.changes()).toEqual(inst.changes());
    expect(again.callLog()).toEqual(inst.callLog());

    // Events come with every write; the grade is about the customers. (Idempotency records are bookkeeping, untracked.)
    const allow = ['events'];
    const right = expectChanges(
      [
        inserted('customers', { email: 'grace@example.com', name: 'Grace Hopper' }),
        inserted('customers', { id: gone.id, deleted: 1 }),
      ],
      { allow },
    );
    expect(right.grade(inst).reward).toBe(1);
    const wrong = expectChanges(
      [inserted('customers', { email: 'grace@example.com', name: 'Grace Hopper' })],
      { allow },
    );
    // The extra customer (created, then deleted) is collateral.
    expect(wrong.grade(inst).reward).toBeLessThan(1);
  });
});
