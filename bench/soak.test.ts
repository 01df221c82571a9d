import { describe, expect, it } from 'vitest';
import { spawnServe } from '../kit/serve/test-fixtures/spawn-serve.ts';
import { WireProbe } from '../kit/serve/wire-probe.ts';
import { classify, formatSoak, parseSoakArgs, runSoak, script, soakPassed, type Frame } from './soak.ts';

// The soak itself runs for minutes outside the test suite (npm run soak); these keep it from rotting.
describe('soak', () => {
  it('runs for a few seconds against a real server and finds nothing wrong', async () => {
    const r = await runSoak({ ...parseSoakArgs(['--seconds', '3', '--sessions', '4', '--rest', '1', '--mcp', '1']), rssEveryMs: 1000 });
    expect(formatSoak(r)).toMatch(/PASS$/);
    expect(soakPassed(r)).toBe(true);
    expect(r.steps).toBeGreaterThan(100);
    for (const kind of ['reset', 'valid', 'invalid', 'state', 'submit', 'malformed', 'rest_create', 'rest_read', 'rest_list', 'rest_missing', 'mcp_init', 'mcp_call', 'mcp_failed_call', 'mcp_list']) expect(r.frames[kind], kind).toBeGreaterThan(0);
    expect(r.rss.start).toBeGreaterThan(10);
    expect(r.runs.recorded).toBeGreaterThan(0);
  }, 60_000);

  it('pairs each reply with its own request only: one reply out of place is a mismatch', async () => {
    const frames: Frame[] = [];
    const gen = script(0, 5);
    while (frames.length < 60) frames.push(gen.next().value as Frame);
    const s = await spawnServe(['crm', '--no-console']);
    try {
      const p = await WireProbe.open(`${s.url.replace('http', 'ws')}/ws`);
      const replies: string[] = [];
      for (const f of frames) {
        p.send(f.text);
        replies.push((await p.next()).text);
      }
      await p.close();
      expect(frames.map((f, i) => classify(f.expect, replies[i]))).toEqual(frames.map(() => 'ok'));
      // Shifted by one, nearly every reply is caught; the rest (two replies of the same kind in a row) are identical anyway.
      const shifted = frames.slice(0, -1).map((f, i) => classify(f.expect, replies[i + 1]));
      expect(shifted.filter((v) => v === 'ok').length).toBeLessThan(shifted.length / 4);
      expect(classify(frames[0].expect, null)).toBe('mismatch');
    } finally {
      await s.stop('SIGTERM');
    }
  }, 60_000);

  it('says how to call it', () => {
    expect(() => parseSoakArgs([])).toThrow('say how long: npm run soak -- --minutes 10');
    expect(() => parseSoakArgs(['--hours', '1'])).toThrow(/unknown option --hours; usage: npm run soak -- --minutes N/);
    expect(parseSoakArgs(['--minutes', '10', '--sessions', '16'])).toMatchObject({ durationMs: 600_000, sessions: 16, rest: 3, mcp: 3, inflight: 4 });
  });
});
