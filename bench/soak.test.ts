import { describe, expect, it } from 'vitest';
import { spawnServe } from 'seahaven/internal/transports/serve/test-fixtures/spawn-serve';
import { WireProbe } from 'seahaven/internal/transports/serve/wire-probe';
import {
  classify,
  formatSoak,
  parseSoakArgs,
  runSoak,
  script,
  soakPassed,
  type Frame,
  type SoakReport,
} from './soak.ts';
import { rssTrend, type RssSample } from './soak-memory.ts';

// The soak itself runs for minutes outside the test suite (npm run soak); these keep it from rotting. Each test has
// a server of its own, so they run at once.
describe.concurrent('soak', () => {
  it('runs for a few seconds against a real server and finds nothing wrong', async () => {
    const kinds = [
      'reset',
      'valid',
      'invalid',
      'state',
      'submit',
      'malformed',
      'rest_create',
      'rest_read',
      'rest_list',
      'rest_missing',
      'mcp_init',
      'mcp_call',
      'mcp_failed_call',
      'mcp_list',
    ];
    // A second, then on until every kind of frame was answered, so a loaded machine cannot leave one out.
    const r = await runSoak({
      ...parseSoakArgs(['--seconds', '1', '--sessions', '4', '--rest', '1', '--mcp', '1']),
      rssEveryMs: 500,
      until: (frames) => kinds.every((k) => (frames[k] ?? 0) > 0),
    });
    expect(formatSoak(r)).toMatch(/PASS$/);
    expect(soakPassed(r)).toBe(true);
    expect(r.steps).toBeGreaterThan(0);
    for (const kind of kinds) expect(r.frames[kind], kind).toBeGreaterThan(0);
    expect(r.rss.start).toBeGreaterThan(10);
    // The server's own account of its memory and sessions, from the probe loaded into it.
    const last = r.rss.samples[r.rss.samples.length - 1].probe!;
    expect(last.heapUsed).toBeGreaterThan(1);
    expect(last.byOwner).toMatchObject({ ws: 4 });
    expect(r.rss.trend).toBeNull();
    expect(formatSoak(r)).toContain('RSS trend:   too short for a trend');
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

  it('takes the RSS trend from its starting minute on, and fails a soak whose slope passes the bound', () => {
    // Flat from minute 3 with a warm-up climb before it; then the same climbing 3 MiB a minute.
    const flat: RssSample[] = Array.from({ length: 61 }, (_, i) => ({
      at: i * 10,
      mib: i < 18 ? 100 + i * 5 : 200 + (i % 2 === 0 ? 4 : -4),
    }));
    const trend = rssTrend(flat, 3)!;
    expect(trend.samples).toBe(43);
    expect(Math.abs(trend.slopeMibPerMin)).toBeLessThan(0.2);
    expect([trend.min, trend.max]).toEqual([196, 204]);
    const climbing = flat.map((s) => ({ ...s, mib: s.mib + (s.at / 60) * 3 }));
    expect(rssTrend(climbing, 3)!.slopeMibPerMin).toBeCloseTo(3, 1);
    expect(rssTrend(flat.slice(0, 19), 3)).toBeNull();
    const report = (samples: RssSample[]): SoakReport => ({
      sessions: 1,
      rest: 0,
      mcp: 0,
      inflight: 1,
      seconds: 600,
      frames: {},
      steps: 0,
      requests: 0,
      errors: 0,
      mismatches: 0,
      examples: [],
      serverLog: [],
      serverExit: 0,
      runs: { integrity: 'ok', recorded: 0, abandoned: 0, pending: 0 },
      rss: {
        start: 100,
        middle: 200,
        end: 200,
        max: 204,
        samples,
        trend: rssTrend(samples, 3),
        maxSlope: 1,
      },
    });
    expect(soakPassed(report(flat))).toBe(true);
    expect(soakPassed(report(climbing))).toBe(false);
    expect(formatSoak(report(climbing))).toMatch(
      /RSS trend: {3}from minute 3: slope \+3\.\d\d MiB\/min \(PAST the bound of 1\), band [\d.]+ to [\d.]+ MiB/,
    );
  });

  it('says how to call it', () => {
    expect(() => parseSoakArgs([])).toThrow('say how long: npm run soak -- --minutes 10');
    expect(() => parseSoakArgs(['--hours', '1'])).toThrow(
      /unknown option --hours; usage: npm run soak -- --minutes N/,
    );
    expect(parseSoakArgs(['--minutes', '10', '--sessions', '16'])).toMatchObject({
      durationMs: 600_000,
      sessions: 16,
      rest: 3,
      mcp: 3,
      inflight: 4,
      trendFrom: 3,
      maxRssSlope: 3,
    });
    expect(
      parseSoakArgs(['--seconds', '30', '--trend-from', '0.5', '--max-rss-slope', '2.5']),
    ).toMatchObject({ trendFrom: 0.5, maxRssSlope: 2.5 });
    expect(() => parseSoakArgs(['--seconds', '30', '--max-rss-slope', 'steep'])).toThrow(
      '--max-rss-slope takes a number >= 0; got "steep"',
    );
  });
});
