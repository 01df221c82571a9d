import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stripe } from '../index.ts';
import { advanceInSlices, storeDatabases } from 'seahaven/internal/core/instance-internals';
import type { Instance } from 'seahaven';

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
    // No slow-call lines: the sliced advance is slow on purpose.
    const whole = stripe.instance({ fixture: 'small_startup', seed: 9, slowCallMs: Infinity });
    const pieces = stripe.instance({ fixture: 'small_startup', seed: 9, slowCallMs: Infinity });
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

describe('a long advance over a real server', () => {
  it('lets another session be answered while it runs, and answers its own next frame after it', async () => {
    const { startServer } = await import('seahaven/serve');
    const { default: WebSocket } = await import('ws');
    const server = await startServer({
      worlds: [stripe],
      port: 0,
      idleTimeoutMs: 0,
      logger: () => undefined,
    });
    const order: string[] = [];
    const open = async (name: string) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
      await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
      const waiting: ((text: string) => void)[] = [];
      ws.on('message', (data: Buffer) => waiting.shift()!(data.toString('utf8')));
      const send = (frame: unknown, label: string) =>
        new Promise<Record<string, any>>((resolve) => {
          waiting.push((text) => {
            order.push(`${name}:${label}`);
            resolve(JSON.parse(text));
          });
          ws.send(JSON.stringify(frame));
        });
      return { ws, send };
    };
    try {
      const heavy = await open('heavy');
      const light = await open('light');
      await heavy.send({ type: 'reset', data: { fixture: 'small_startup', seed: 9 } }, 'reset');
      await light.send({ type: 'reset', data: { fixture: 'empty' } }, 'reset');
      const advance = heavy.send(
        { type: 'step', data: { type: 'advance_clock', ms: 120 * DAY } },
        'advance',
      );
      const after = heavy.send({ type: 'state' }, 'state');
      // The light session's steps go in while the advance runs: each is answered before the advance is.
      for (let i = 0; i < 3; i++)
        await light.send({ type: 'step', data: { type: 'list_tools' } }, `list_tools ${i}`);
      const [advanced, state] = await Promise.all([advance, after]);
      expect(advanced.data.observation.error).toBeNull();
      expect(advanced.data.observation.result.structured_content.renewed).toBeGreaterThan(100);
      expect(state.data.call_count).toBe(1);
      expect(order.slice(2)).toEqual([
        'light:list_tools 0',
        'light:list_tools 1',
        'light:list_tools 2',
        'heavy:advance',
        'heavy:state',
      ]);
      heavy.ws.close();
      light.ws.close();
    } finally {
      await server.close();
    }
  });
});
