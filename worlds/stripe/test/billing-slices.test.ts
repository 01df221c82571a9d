import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stripe } from '../index.ts';
import { advanceInSlices, storeDatabases } from '../../../kit/instance-internals.ts';
import type { Instance } from '../../../kit/index.ts';

// Stripe World's billing run (`billingSteps`, the world's onClockAdvance) pauses after each subscription's step and
// each batch of pruned events, so `seahaven serve` runs a long advance in slices. The state it leaves is the same
// bytes however it was sliced.

const DAY = 86_400_000;

/** The instance's database image, hashed: byte for byte what the advance left. */
function imageHash(inst: Instance): string {
  const db = inst[storeDatabases]().get(null)!;
  return createHash('sha256').update(db.serialize()).digest('hex');
}

describe('billing in slices', () => {
  it('leaves byte-identical state whether 45 days of billing run in one piece or one step per slice', () => {
    const whole = stripe.instance({ fixture: 'small_startup', seed: 9 });
    const pieces = stripe.instance({ fixture: 'small_startup', seed: 9 });
    try {
      const one = whole.advanceClock(45 * DAY);
      expect(one.ok).toBe(true);
      const run = pieces[advanceInSlices](45 * DAY);
      let slices = 1;
      let outcome = run.slice(0);
      for (; outcome === null; slices++) outcome = run.slice(0);
      expect(slices).toBeGreaterThan(10);
      expect(outcome).toMatchObject({ ok: true, result: (one as { result: unknown }).result });
      expect(pieces.changes()).toEqual(whole.changes());
      expect(pieces.callLog()).toEqual(whole.callLog());
      expect(imageHash(pieces)).toBe(imageHash(whole));
    } finally {
      whole.destroy();
      pieces.destroy();
    }
  });
});
