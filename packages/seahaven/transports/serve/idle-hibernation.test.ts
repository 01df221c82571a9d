import { describe, expect, it } from 'vitest';
import { createApp } from './index.ts';
import { crm } from '../../../../worlds/crm/index.ts';

const step = (tool: string, args: Record<string, unknown>) =>
  JSON.stringify({ type: 'step', data: { type: 'call_tool', tool_name: tool, arguments: args } });

describe('idle sessions hibernate', () => {
  it('give their connection back after hibernateAfterMs and carry on unchanged', () => {
    const { endpoints, sessions } = createApp({
      worlds: [crm],
      idleTimeoutMs: 0,
      hibernateAfterMs: 1000,
    });
    const ep = endpoints.get('crm')!;
    const napping = ep.openSession('ws');
    const awake = ep.openSession('ws');
    for (const s of [napping, awake])
      ep.reply(s, JSON.stringify({ type: 'reset', data: { fixture: 'small_startup', seed: 3 } }));
    // A fresh reset has not opened its database yet.
    expect(napping.inst.awake).toBe(false);
    const frames = [
      step('create_contact', { name: 'Ada', email: 'ada@example.com' }),
      step('update_deal', { id: 'deal_acme_fleet', stage: 'won' }),
      step('get_deal', { id: 'deal_acme_fleet' }),
    ];
    for (const f of frames) {
      expect(String(ep.reply(napping, f))).toBe(String(ep.reply(awake, f)));
      expect(napping.inst.awake).toBe(true);
      napping.lastActive -= 2000;
      sessions.reapIdle(performance.now());
      expect(napping.inst.awake).toBe(false);
    }
    const state = (session: typeof awake) =>
      String(ep.reply(session, JSON.stringify({ type: 'state' }))).replace(session.episodeId, '');
    expect(state(napping)).toBe(state(awake));
    sessions.endAll('shutdown');
  });
});
